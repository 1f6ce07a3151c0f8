"""A question picture drawn over the bare board's tiles (issue 24).

Drawing a question's picture whole took librsvg about 15 ms, most of it the bare board: the
spaces, kerbs and numbers, which are the same in every picture of a track. A picture is drawn
on the pixel grid of one of a few scales (``render/board_crop.crop_picture``), so the bare
board under its view is a piece of the whole board drawn at that scale. That board is drawn
here once, in tiles of ``TILE`` pixels as they are first needed, and kept; a picture copies
the tiles under its view (at whole-pixel offsets, an exact copy) and has librsvg draw only
what changes (the ways, the destinations and their names, the cars) over them: about 2 ms.
The pixels agree with drawing the picture's whole SVG but for rounding in the antialiasing
(a few pixels, by a few levels of 255).

A tile is a cairo surface; the cache holds one reference and each picture that paints a tile
holds another while it paints, so a tile dropped from the cache by another thread stays
alive until that picture is done.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from rennleitung.formula_de.track import Track
from rennleitung.mail import svg_png
from rennleitung.render.board_crop import TILE, CropPicture, board_tile

CACHED = 192
"""Tiles kept (256 KB each: 48 MB), over every track and scale; the newest used are kept."""

_Key = tuple[int, int, int, int]
_TILES: OrderedDict[_Key, tuple[Track, int]] = OrderedDict()
_LOCK = threading.Lock()


def render(crop: CropPicture) -> bytes | None:
    """The PNG of ``crop``: the bare board's tiles under its view, what changes drawn over
    them; None without the libraries or where librsvg cannot draw a part."""
    width, height = crop.pixels
    left, top = crop.origin
    surface = svg_png.new_surface(width, height)
    if surface is None:
        return None
    held: list[int] = []
    try:
        pieces = []
        for row in range(top // TILE, (top + height - 1) // TILE + 1):
            for column in range(left // TILE, (left + width - 1) // TILE + 1):
                tile = _tile(crop.track, crop.step, column, row)
                if tile is None:
                    return None
                held.append(tile)
                pieces.append((tile, column * TILE - left, row * TILE - top))
        if not svg_png.paint_onto(surface, pieces):
            return None
        if not svg_png.draw_onto(surface, crop.over.encode("utf-8")):
            return None
        return svg_png.png_of(surface, width, height)
    finally:
        for tile in held:
            svg_png.release(tile)
        svg_png.release(surface)


def _tile(track: Track, step: int, column: int, row: int) -> int | None:
    """The tile's surface with a reference for the caller (who ``release``s it), drawn if
    not kept; None where it cannot be drawn."""
    key = (id(track), step, column, row)
    with _LOCK:
        known = _TILES.get(key)
        if known is not None and known[0] is track:
            _TILES.move_to_end(key)
            return svg_png.keep(known[1])
    drawn = svg_png.new_surface(TILE, TILE)
    if drawn is None:
        return None
    if not svg_png.draw_onto(drawn, board_tile(track, step, column, row).encode("utf-8")):
        svg_png.release(drawn)
        return None
    with _LOCK:
        known = _TILES.get(key)
        if known is not None and known[0] is track:  # another thread drew it meanwhile
            svg_png.release(drawn)
            return svg_png.keep(known[1])
        if known is not None:  # a track of that id is gone: its tile goes too
            svg_png.release(known[1])
        _TILES[key] = (track, drawn)
        _TILES.move_to_end(key)
        while len(_TILES) > CACHED:
            _old, (_track, surface) = _TILES.popitem(last=False)
            svg_png.release(surface)
        return svg_png.keep(drawn)


def kept() -> int:
    """Tiles in the cache (for tests and the benchmark)."""
    with _LOCK:
        return len(_TILES)


def forget() -> None:
    """Drop every tile (a benchmark's runs, tests that count the tiles drawn)."""
    with _LOCK:
        while _TILES:
            _key, (_track, surface) = _TILES.popitem()
            svg_png.release(surface)
