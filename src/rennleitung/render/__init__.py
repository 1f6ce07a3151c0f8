"""Pure renderers: SVG boards, text views, charts."""
