"""What changes on a board during a race, drawn apart from the board itself.

The track drawing (``board_svg.render_board`` without cars) is the same for a whole race, so a web
page loads it once (and the browser caches it); this module draws what a move changes in the
same coordinates: dangerous spaces, cars and wrecks, and the destinations a driver may click,
each with its cost as a tooltip. Laid over the drawing, the two look like ``render_board`` with
cars and highlights.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rennleitung.formula_de.track import Track
from rennleitung.render.board_svg import DEFAULT_STYLE, BoardStyle, _Canvas, _centre, _direction


@dataclass(frozen=True, slots=True)
class CarMark:
    """A car to draw: space, short label, colour, tooltip (name and state); ``mine`` marks the
    reader's own car (a ring and ``you``, the word for it in the page's language), ``car`` its
    id (``data-car``: the running order points at it)."""

    space: int
    label: str
    colour: str
    title: str
    mine: bool = False
    you: str = ""
    car: str = ""


@dataclass(frozen=True, slots=True)
class Destination:
    """A space a driver may move to: ``key`` goes back to the server on a click."""

    space: int
    key: str
    colour: str
    title: str
    risk: str = ""
    """free, costly, test or eliminated: a class ``risk-…`` beside the colour (a page draws a
    test dashed, so the risk shows without telling colours apart)."""


@dataclass(frozen=True, slots=True)
class Trail:
    """A car's last move: the spaces from where it started to where it ended, in its colour."""

    spaces: tuple[int, ...]
    colour: str
    title: str = ""


def board_size(track: Track, style: BoardStyle = DEFAULT_STYLE) -> tuple[float, float]:
    """Width and height of the board drawing in pixels (its viewBox)."""
    canvas = _Canvas(track, style)
    return canvas.width, canvas.height


def render_overlay(
    track: Track,
    cars: Sequence[CarMark] = (),
    destinations: Sequence[Destination] = (),
    dangerous: Iterable[int] = (),
    style: BoardStyle = DEFAULT_STYLE,
    trails: Sequence[Trail] = (),
) -> str:
    """An SVG element of the board's size holding only the changing parts; ``trails`` are the
    cars' last moves, drawn under everything else."""
    canvas = _Canvas(track, style)
    s = style.scale
    for trail in trails:
        if len(trail.spaces) < 2:
            continue
        points = " ".join(
            "{:.1f},{:.1f}".format(*canvas.xy(_centre(track.polygons[space])))
            for space in trail.spaces)
        x, y = canvas.xy(_centre(track.polygons[trail.spaces[0]]))
        canvas.add(
            f'<g class="trail" pointer-events="none"><title>{escape(trail.title)}</title>'
            f'<polyline points="{points}" fill="none" stroke="{escape(trail.colour)}" '
            f'stroke-width="{0.16 * s:.1f}" stroke-opacity="0.8" stroke-linecap="round" '
            f'stroke-linejoin="round" stroke-dasharray="{0.3 * s:.1f} {0.15 * s:.1f}"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.14 * s:.1f}" fill="{escape(trail.colour)}" '
            'stroke="#000" stroke-width="0.8"/></g>'
        )
    for space in sorted(set(dangerous)):
        canvas.add(
            f'<path d="{canvas.path(track.polygons[space], closed=True)}" fill="#7d7d7d" '
            'fill-opacity="0.75" stroke="#fff" stroke-width="1.2"><title>'
            f"{escape(track.name_of(space))}: gefährlich / dangerous (Masters 17)</title></path>"
        )
    for target in destinations:
        canvas.add(
            f'<path class="dest{" risk-" + escape(target.risk) if target.risk else ""}" '
            f'tabindex="0" role="button" aria-label={quoteattr(target.title)} '
            f'data-key={quoteattr(target.key)} '
            f'data-space={quoteattr(track.name_of(target.space))} '
            f'd="{canvas.path(track.polygons[target.space], closed=True)}" '
            f'fill="{escape(target.colour)}" stroke="#1a1a1a" stroke-width="2">'
            f"<title>{escape(target.title)}</title></path>"
        )
    seen: dict[int, int] = {}
    for car in cars:
        polygon = track.polygons[car.space]
        centre = _centre(polygon)
        dx, dy = _direction(polygon)
        offset = seen.get(car.space, 0) * 0.25
        seen[car.space] = seen.get(car.space, 0) + 1
        point = (centre[0] + offset, centre[1] - offset)
        x, y = canvas.xy(point)
        angle = -math.degrees(math.atan2(dy, dx))
        ring = (
            f'<circle class="you-ring" cx="{x:.1f}" cy="{y:.1f}" r="{0.75 * s:.1f}" fill="none" '
            'stroke="#ff00aa" stroke-width="3"/>'
            f'<text class="you-label" x="{x:.1f}" y="{y - 0.85 * s:.1f}" '
            f'font-size="{0.45 * s:.1f}" fill="#ff00aa" stroke="#fff" stroke-width="0.8" '
            'paint-order="stroke" font-weight="bold" text-anchor="middle">'
            f"{escape(car.you)}</text>"
            if car.mine else ""
        )
        kind = "car mine" if car.mine else "car"
        ident = f" data-car={quoteattr(car.car)}" if car.car else ""
        canvas.add(
            f'<g class="{kind}"{ident} pointer-events="none"><title>{escape(car.title)}</title>'
            f"{ring}"
            f'<g transform="translate({x:.1f},{y:.1f}) rotate({angle:.1f})">'
            f'<rect x="{-0.42 * s:.1f}" y="{-0.28 * s:.1f}" width="{0.84 * s:.1f}" '
            f'height="{0.56 * s:.1f}" rx="{0.15 * s:.1f}" fill="{escape(car.colour)}" '
            'stroke="#000" stroke-width="1"/></g>'
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{0.42 * s:.1f}" fill="#fff" '
            'font-weight="bold" text-anchor="middle" dominant-baseline="central">'
            f"{escape(car.label)}</text></g>"
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="overlay" '
        f'viewBox="0 0 {canvas.width:.1f} {canvas.height:.1f}" '
        'font-family="DejaVu Sans, Arial, sans-serif">' + "".join(canvas.parts) + "</svg>"
    )
