"""Lap chart of one race run here: each car's place after every round of play, as SVG text.

Pure function of the race's ``rounds`` (``league.race_result.RoundOrder``). A car's line ends
when it leaves the running order (retired); the leader's lap is written along the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from rennleitung.league.race_result import RoundOrder
from rennleitung.render.league_chart import PALETTE

ROW, COLUMN = 22, 26
LEFT, TOP, RIGHT, BOTTOM = 110, 40, 20, 30


def lap_chart_svg(rounds: Sequence[RoundOrder], title: str = "") -> str:
    """Places (rows) over rounds of play (columns); one coloured line per car."""
    cars = list(dict.fromkeys(name for r in rounds for name in r.order))
    width = LEFT + COLUMN * max(1, len(rounds)) + RIGHT
    height = TOP + ROW * max(1, len(cars)) + BOTTOM

    def x(index: int) -> float:
        return LEFT + COLUMN * index + COLUMN / 2

    def y(place: int) -> float:
        return TOP + ROW * (place - 1) + ROW / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    for place in range(1, len(cars) + 1):
        parts.append(
            f'<text x="{LEFT - 8}" y="{y(place) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{place}</text>'
        )
    last_lap = 0
    for index, round_order in enumerate(rounds):
        if round_order.lap != last_lap:
            parts.append(
                f'<text x="{x(index):.1f}" y="{TOP - 12}" font-size="10" '
                f'text-anchor="middle">L{round_order.lap}</text>'
            )
            last_lap = round_order.lap
    for number, car in enumerate(cars):
        colour = PALETTE[number % len(PALETTE)]
        points = [
            f"{x(index):.1f},{y(r.order.index(car) + 1):.1f}"
            for index, r in enumerate(rounds) if car in r.order
        ]
        first_place = next(r.order.index(car) + 1 for r in rounds if car in r.order)
        parts.append(
            f'<text x="8" y="{y(first_place) + 4:.1f}" font-size="11" fill="{colour}">'
            f'{escape(car)}</text>'
            f'<polyline class="car" data-car="{escape(car)}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5" points="{" ".join(points)}"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
