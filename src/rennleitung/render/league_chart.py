"""SVG line chart of points after each race per driver: a pure function returning SVG text.

No plotting library: a handful of polylines, axis ticks and a legend, with colours taken in
turn from a fixed palette so the same table always draws the same picture. The legend has a
line for every driver (the drawing grows for a big league), and every text is escaped for
attributes as well as content, so no name can break out of the SVG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
)
WIDTH, HEIGHT = 720, 420
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 24, 44
LEGEND_ROW = 14
"""Height of one legend line; the drawing grows downwards so every driver has one."""
LEGEND_CHARS = 22
"""Longer names are shortened in the legend (the full name is the line's tooltip)."""


def points_chart_svg(
    steps: Sequence[tuple[int, Mapping[str, int]]],
    drivers: Sequence[str],
    title: str = "",
    axis_race: str = "Rennen / Race",
    axis_points: str = "Punkte / Points",
    dots: bool = False,
) -> str:
    """A line per driver through (race, points after that race), drivers in legend order;
    ``dots`` marks every point too, so a chart of a single race or round is not empty."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    height = max(HEIGHT, TOP + LEGEND_ROW * len(drivers) + BOTTOM // 2)
    top_points = max([1, *(p for _, totals in steps for p in totals.values())])
    count = max(1, len(steps))

    def x(index: int) -> float:
        return LEFT + (plot_w * index / (count - 1) if count > 1 else plot_w / 2)

    def y(points: int) -> float:
        return TOP + plot_h - plot_h * points / top_points

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white"/>',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" '
        'stroke="#333"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#333"/>',
    ]
    for tick in _ticks(top_points):
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" font-size="11" text-anchor="end">'
            f'{tick}</text>'
            f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{LEFT + plot_w}" y2="{y(tick):.1f}" '
            'stroke="#ddd"/>'
        )
    for index, (race, _) in enumerate(steps):
        parts.append(
            f'<text x="{x(index):.1f}" y="{TOP + plot_h + 16}" font-size="11" '
            f'text-anchor="middle">{race}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" font-size="12" '
        f'text-anchor="middle">{escape(axis_race)}</text>'
        f'<text x="14" y="{TOP + plot_h / 2:.1f}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2:.1f})">{escape(axis_points)}</text>'
    )
    for number, driver in enumerate(drivers):
        colour = PALETTE[number % len(PALETTE)]
        points = " ".join(
            f"{x(index):.1f},{y(totals.get(driver, 0)):.1f}"
            for index, (_, totals) in enumerate(steps)
        )
        dash = "" if number < len(PALETTE) else ' stroke-dasharray="5 3"'
        parts.append(
            f'<polyline class="driver" data-driver="{escape(driver)}" fill="none" '
            f'stroke="{colour}" stroke-width="2"{dash} points="{points}"/>'
        )
        if dots:
            parts += [f'<circle class="point" cx="{x(index):.1f}" '
                      f'cy="{y(totals.get(driver, 0)):.1f}" r="3" fill="{colour}"/>'
                      for index, (_, totals) in enumerate(steps)]
        legend_y = TOP + LEGEND_ROW * number
        parts.append(
            f'<line x1="{WIDTH - RIGHT + 12}" y1="{legend_y}" x2="{WIDTH - RIGHT + 30}" '
            f'y2="{legend_y}" stroke="{colour}" stroke-width="3"{dash}/>'
            f'<text class="legend" x="{WIDTH - RIGHT + 36}" y="{legend_y + 4}" font-size="11">'
            f'<title>{escape(driver)}</title>{escape(_short(driver))}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _short(name: str) -> str:
    return name if len(name) <= LEGEND_CHARS else name[: LEGEND_CHARS - 1] + "…"


def _ticks(top: int) -> list[int]:
    """Four or five round steps from 0 to ``top``."""
    raw = max(1, top // 4)
    magnitude = 10 ** (len(str(raw)) - 1)
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return list(range(0, top + 1, step))
