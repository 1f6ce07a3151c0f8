"""The Formula Dé board as SVG text: a pure function of a ``Track`` (and, later, of a race).

Drawn from the polygons the track builder computes: spaces, the red limits of each corner
(Masters 7-1-3), kerbs along corners (7-1-2), the yellow flags with stops and L/C (7-1-1), the
arrows that say where a car may go in a corner (7-1-4), the start/finish line, grid numbers, the
pit lane with its boxes (ch. 19) and the concrete wall (ch. 15). The movement and race code draw
cars and highlighted options through ``cars`` and ``highlights``; nothing else changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from xml.sax.saxutils import escape

from rennleitung.formula_de.track import Point, SpaceKind, Track

Car = tuple[int, str, str]
"""A car to draw: (space index, label, colour)."""


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """Colours and sizes in one place, so a web page can pass its own."""

    scale: float = 22.0  # pixels per board unit (one straight space)
    margin: float = 3.0  # board units around the track
    grass: str = "#5f9a4a"
    asphalt: str = "#c9c9c4"
    corner_asphalt: str = "#d6d2c2"
    space_line: str = "#ffffff"
    pit_lane: str = "#9fb3c8"
    box: str = "#e9d9a6"
    corner_limit: str = "#d11f1f"
    kerb_red: str = "#d11f1f"
    kerb_white: str = "#ffffff"
    flag: str = "#ffd21f"
    wall: str = "#6b1d1d"
    arrow: str = "#333333"
    text: str = "#222222"


DEFAULT_STYLE = BoardStyle()


def _centre(polygon: Sequence[Point]) -> Point:
    return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))


def _front_edge(polygon: Sequence[Point]) -> tuple[Point, Point]:
    """Polygons run along the right edge forward, then back along the left edge."""
    half = len(polygon) // 2
    return polygon[half - 1], polygon[half]


def _back_edge(polygon: Sequence[Point]) -> tuple[Point, Point]:
    return polygon[-1], polygon[0]


def _right_edge(polygon: Sequence[Point]) -> Sequence[Point]:
    return polygon[: len(polygon) // 2]


def _left_edge(polygon: Sequence[Point]) -> Sequence[Point]:
    return list(reversed(polygon[len(polygon) // 2 :]))


def _midpoint(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


class _Canvas:
    """Board units to SVG pixels (y flipped, since the board's y grows upwards)."""

    def __init__(self, track: Track, style: BoardStyle) -> None:
        points = [p for polygon in track.polygons for p in polygon]
        points.extend(track.corner_flags)
        self.style = style
        self.min_x = min(p[0] for p in points) - style.margin
        self.max_y = max(p[1] for p in points) + style.margin
        self.width = (max(p[0] for p in points) + style.margin - self.min_x) * style.scale
        self.height = (self.max_y - min(p[1] for p in points) + style.margin) * style.scale
        self.parts: list[str] = []

    def xy(self, point: Point) -> tuple[float, float]:
        return (
            (point[0] - self.min_x) * self.style.scale,
            (self.max_y - point[1]) * self.style.scale,
        )

    def path(self, points: Iterable[Point], closed: bool = False) -> str:
        coordinates = [self.xy(p) for p in points]
        text = " ".join(
            f"{'M' if n == 0 else 'L'}{x:.1f},{y:.1f}" for n, (x, y) in enumerate(coordinates)
        )
        return text + (" Z" if closed else "")

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(
        self, point: Point, content: str, size: float, *, fill: str, weight: str = "normal"
    ) -> None:
        x, y = self.xy(point)
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{fill}" '
            f'font-weight="{weight}" text-anchor="middle" dominant-baseline="central">'
            f"{escape(content)}</text>"
        )


def _direction(polygon: Sequence[Point]) -> Point:
    """Unit vector along the driving direction of a space."""
    back = _midpoint(*_back_edge(polygon))
    front = _midpoint(*_front_edge(polygon))
    dx, dy = front[0] - back[0], front[1] - back[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _draw_spaces(canvas: _Canvas, track: Track, highlights: Mapping[int, str]) -> None:
    style = canvas.style
    fills = {
        SpaceKind.TRACK: style.asphalt,
        SpaceKind.PIT_LANE: style.pit_lane,
        SpaceKind.BOX: style.box,
    }
    canvas.add(f'<g stroke="{style.space_line}" stroke-width="1.2" stroke-linejoin="round">')
    for space, polygon in zip(track.spaces, track.polygons, strict=True):
        fill = fills[space.kind]
        if space.corner:
            fill = style.corner_asphalt
        fill = highlights.get(space.index, fill)
        canvas.add(
            f'<path d="{canvas.path(polygon, closed=True)}" fill="{fill}">'
            f"<title>{escape(space.name)}</title></path>"
        )
    canvas.add("</g>")


def _draw_edges(canvas: _Canvas, track: Track) -> None:
    """A dark line along both sides of the road, so the racing surface stands out."""
    segments = []
    for space in track.spaces:
        if space.kind is not SpaceKind.TRACK:
            continue
        polygon = track.polygons[space.index]
        if space.lane == 0:
            segments.append(_left_edge(polygon))
        if space.lane == track.lanes - 1:
            segments.append(_right_edge(polygon))
    canvas.add(
        '<g stroke="#4d4d4d" stroke-width="2" fill="none">'
        + "".join(f'<path d="{canvas.path(edge)}"/>' for edge in segments)
        + "</g>"
    )


def _draw_kerbs(canvas: _Canvas, track: Track) -> None:
    """Red-and-white kerbs along both outer edges of every corner (Masters 7-1-2)."""
    style = canvas.style
    last_lane = track.lanes - 1
    for corner in track.corners:
        for lane, edge in ((0, _left_edge), (last_lane, _right_edge)):
            members = sorted(
                (s for s in corner.spaces if track.spaces[s].lane == lane),
                key=lambda s: track.spaces[s].number,
            )
            points: list[Point] = []
            for index in members:
                points.extend(edge(track.polygons[index]))
            if len(points) < 2:
                continue
            d = canvas.path(points)
            canvas.add(
                f'<path d="{d}" fill="none" stroke="{style.kerb_white}" stroke-width="5"/>'
                f'<path d="{d}" fill="none" stroke="{style.kerb_red}" stroke-width="5" '
                f'stroke-dasharray="6 6"/>'
            )


def _draw_corner_limits(canvas: _Canvas, track: Track) -> None:
    """The red lines where each lane enters and leaves a corner (Masters 7-1-3)."""
    style = canvas.style
    lines = []
    for corner in track.corners:
        for index in corner.entry_spaces:
            lines.append(_back_edge(track.polygons[index]))
        for index in corner.exit_spaces:
            lines.append(_front_edge(track.polygons[index]))
    canvas.add(
        f'<g stroke="{style.corner_limit}" stroke-width="3" stroke-linecap="round">'
        + "".join(f'<path d="{canvas.path(line)}"/>' for line in lines)
        + "</g>"
    )


def _draw_arrows(canvas: _Canvas, track: Track) -> None:
    """Arrows inside corners (7-1-4): a short dark arrow for each lane change, a light one
    straight on, so a player sees at a glance where the corner lets him go."""
    style = canvas.style
    canvas.add(
        "<defs>"
        '<marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{style.arrow}"/>'
        "</marker></defs>"
    )
    lines = []
    for corner in track.corners:
        for source in sorted(corner.spaces):
            start = _centre(track.polygons[source])
            for target in track.successors[source]:
                if track.spaces[target].kind is not SpaceKind.TRACK:
                    continue
                end = _centre(track.polygons[target])
                change = track.spaces[target].lane != track.spaces[source].lane
                a = (start[0] + (end[0] - start[0]) * 0.18, start[1] + (end[1] - start[1]) * 0.18)
                b = (start[0] + (end[0] - start[0]) * 0.62, start[1] + (end[1] - start[1]) * 0.62)
                opacity = "0.85" if change else "0.3"
                lines.append(
                    f'<path d="{canvas.path((a, b))}" stroke-opacity="{opacity}" '
                    'marker-end="url(#arrowhead)"/>'
                )
    canvas.add(
        f'<g stroke="{style.arrow}" stroke-width="1.3" fill="none">' + "".join(lines) + "</g>"
    )


def _draw_flags(canvas: _Canvas, track: Track) -> None:
    """A yellow flag per corner with its number of stops and L/C (Masters 7-1-1)."""
    style = canvas.style
    s = style.scale
    for corner, point in zip(track.corners, track.corner_flags, strict=False):
        x, y = canvas.xy(point)
        w, h = 2.2 * s, 1.6 * s
        canvas.add(
            f'<g><title>Kurve/corner {corner.number}</title>'
            f'<line x1="{x - w / 2:.1f}" y1="{y - h / 2:.1f}" x2="{x - w / 2:.1f}" '
            f'y2="{y + h / 2 + 0.4 * s:.1f}" stroke="#444" stroke-width="2"/>'
            f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="3" fill="{style.flag}" stroke="#7a6400" stroke-width="1"/>'
            f'<text x="{x:.1f}" y="{y - 0.2 * s:.1f}" font-size="{0.85 * s:.1f}" '
            f'font-weight="bold" text-anchor="middle" dominant-baseline="central" '
            f'fill="{style.text}">{corner.stops}</text>'
            f'<text x="{x:.1f}" y="{y + 0.5 * s:.1f}" font-size="{0.45 * s:.1f}" '
            f'text-anchor="middle" dominant-baseline="central" fill="{style.text}">'
            f"L{corner.longest} C{corner.shortest}</text>"
            f'<text x="{x - w / 2 - 0.15 * s:.1f}" y="{y - h / 2 - 0.3 * s:.1f}" '
            f'font-size="{0.45 * s:.1f}" fill="#fff" text-anchor="middle">{corner.number}'
            "</text></g>"
        )


def _draw_line(canvas: _Canvas, track: Track) -> None:
    """The start/finish line as a chequered band on the back edge of each lane's first space."""
    for index in track.first_after_line:
        a, b = _back_edge(track.polygons[index])
        ax, ay = canvas.xy(a)
        bx, by = canvas.xy(b)
        dx, dy = _direction(track.polygons[index])
        nx, ny = dx * canvas.style.scale * 0.25, -dy * canvas.style.scale * 0.25
        squares = 5
        for k in range(squares):
            for row in (0, 1):
                p0 = (ax + (bx - ax) * k / squares, ay + (by - ay) * k / squares)
                p1 = (ax + (bx - ax) * (k + 1) / squares, ay + (by - ay) * (k + 1) / squares)
                off0 = (nx * (row - 1), ny * (row - 1))
                off1 = (nx * row, ny * row)
                fill = "#111" if (k + row) % 2 else "#fff"
                corners = (
                    (p0[0] + off0[0], p0[1] + off0[1]),
                    (p1[0] + off0[0], p1[1] + off0[1]),
                    (p1[0] + off1[0], p1[1] + off1[1]),
                    (p0[0] + off1[0], p0[1] + off1[1]),
                )
                d = " ".join(
                    f"{'M' if n == 0 else 'L'}{x:.1f},{y:.1f}" for n, (x, y) in enumerate(corners)
                )
                canvas.add(f'<path d="{d} Z" fill="{fill}"/>')


def _draw_grid(canvas: _Canvas, track: Track, names: bool) -> None:
    """Grid slots: a white bracket at the front of the slot and its number (pole = 1); with
    names on, the number moves to the back of the slot so both stay readable."""
    for number, index in enumerate(track.grid, 1):
        polygon = track.polygons[index]
        a, b = _front_edge(polygon)
        canvas.add(
            f'<path d="{canvas.path((a, b))}" stroke="#fff" stroke-width="3" fill="none"/>'
        )
        point, size = _centre(polygon), 0.55
        if names:  # the name moves up a little (see _draw_names), the number below it
            dx, dy = _direction(polygon)
            point = (point[0] + dy * GRID_SHIFT, point[1] - dx * GRID_SHIFT)
            size = 0.3
            x, y = canvas.xy(point)
            canvas.add(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.19 * canvas.style.scale:.1f}" '
                'fill="#333"/>'
            )
        canvas.text(point, str(number), size * canvas.style.scale, fill="#fff", weight="bold")


def _draw_wall(canvas: _Canvas, track: Track) -> None:
    """The concrete wall along the outer edge of the wall lane (Masters 15-0-1)."""
    if not track.wall:
        return
    lane = track.spaces[next(iter(track.wall))].lane
    edge = _right_edge if lane == track.lanes - 1 else _left_edge
    ordered = sorted(track.wall)
    points: list[Point] = []
    for index in ordered:
        points.extend(edge(track.polygons[index]))
    points.append(points[0])
    canvas.add(
        f'<path d="{canvas.path(points)}" fill="none" stroke="{canvas.style.wall}" '
        'stroke-width="6" stroke-linejoin="round"/>'
    )


def _draw_pit_marks(canvas: _Canvas, track: Track) -> None:
    """Box numbers and the entry limit (Masters 19-5-1) as a dashed line."""
    if track.pit is None:
        return
    s = canvas.style.scale
    for number, index in enumerate(track.pit.boxes, 1):
        canvas.text(
            _centre(track.polygons[index]), str(number), 0.5 * s, fill=canvas.style.text,
            weight="bold",
        )
    limit = track.polygons[track.pit.entry_limit]
    a, b = _front_edge(limit)
    canvas.add(
        f'<path d="{canvas.path((a, b))}" stroke="#1d4fd1" stroke-width="2.5" '
        'stroke-dasharray="4 3" fill="none"><title>Boxeneinfahrt-Grenze / pit entry limit'
        "</title></path>"
    )


GRID_SHIFT = 0.3
"""Board units by which a grid slot's name and number move apart when names are shown."""


def _draw_names(canvas: _Canvas, track: Track) -> None:
    size = 0.36 * canvas.style.scale
    slots = set(track.grid)
    for space, polygon in zip(track.spaces, track.polygons, strict=True):
        if space.kind is SpaceKind.BOX:
            continue
        point = _centre(polygon)
        if space.index in slots:
            dx, dy = _direction(polygon)
            point = (point[0] - dy * GRID_SHIFT * 0.7, point[1] + dx * GRID_SHIFT * 0.7)
        canvas.text(point, space.name, size, fill="#333")


def _draw_cars(canvas: _Canvas, track: Track, cars: Sequence[Car]) -> None:
    """A car is a rounded rectangle along the space's direction with its label."""
    s = canvas.style.scale
    seen: dict[int, int] = {}
    for index, label, colour in cars:
        polygon = track.polygons[index]
        centre = _centre(polygon)
        dx, dy = _direction(polygon)
        offset = seen.get(index, 0) * 0.25
        seen[index] = seen.get(index, 0) + 1
        x, y = canvas.xy((centre[0] + offset, centre[1] - offset))
        angle = -math.degrees(math.atan2(dy, dx))
        canvas.add(
            f'<g transform="translate({x:.1f},{y:.1f}) rotate({angle:.1f})">'
            f'<rect x="{-0.42 * s:.1f}" y="{-0.28 * s:.1f}" width="{0.84 * s:.1f}" '
            f'height="{0.56 * s:.1f}" rx="{0.15 * s:.1f}" fill="{escape(colour)}" '
            'stroke="#000" stroke-width="1"/></g>'
        )
        canvas.text(
            (centre[0] + offset, centre[1] - offset), label, 0.42 * s, fill="#fff", weight="bold"
        )


LEGEND_ROW = 1.0
"""Height of one legend line, in board units."""


def _draw_paths(
    canvas: _Canvas, track: Track, paths: Sequence[tuple[Sequence[int], str, str]]
) -> None:
    """Each path as a line through its spaces' centres, its label (the cost) at its end."""
    s = canvas.style.scale
    for spaces, colour, label in paths:
        if not spaces:
            continue
        points = [_centre(track.polygons[i]) for i in spaces]
        canvas.add(
            f'<path d="{canvas.path(points)}" fill="none" stroke="{escape(colour)}" '
            f'stroke-width="{0.12 * s:.1f}" stroke-linecap="round" stroke-linejoin="round" '
            'opacity="0.85"/>'
        )
        if label:
            end = points[-1]
            canvas.text((end[0], end[1] + 0.55), label, 0.38 * s, fill="#000", weight="bold")


def _draw_legend(canvas: _Canvas, legend: Sequence[tuple[str, str]], top: float) -> None:
    """Rows of a colour swatch and a text below the board, starting at pixel ``top``."""
    s = canvas.style.scale
    for n, (colour, text) in enumerate(legend):
        y = top + (n + 0.5) * LEGEND_ROW * s
        canvas.add(
            f'<rect x="{0.6 * s:.1f}" y="{y - 0.3 * s:.1f}" width="{0.6 * s:.1f}" '
            f'height="{0.6 * s:.1f}" rx="2" fill="{escape(colour)}" stroke="#000"/>'
            f'<text x="{1.5 * s:.1f}" y="{y:.1f}" font-size="{0.55 * s:.1f}" fill="#fff" '
            f'dominant-baseline="central">{escape(text)}</text>'
        )


def render_board(
    track: Track,
    *,
    names: bool = False,
    cars: Sequence[Car] = (),
    highlights: Mapping[int, str] = MappingProxyType({}),
    arrows: bool = True,
    title: str | None = None,
    style: BoardStyle = DEFAULT_STYLE,
    paths: Sequence[tuple[Sequence[int], str, str]] = (),
    legend: Sequence[tuple[str, str]] = (),
) -> str:
    """The whole board as an SVG document.

    ``cars`` are (space index, label, colour); ``highlights`` maps space indices to a fill
    colour (e.g. the spaces a move can reach); ``names`` writes every space's notation;
    ``paths`` are (spaces, colour, label) drawn as lines (a move's way and its cost);
    ``legend`` rows (colour, text) are listed below the board."""
    canvas = _Canvas(track, style)
    board_height = canvas.height
    canvas.height += len(legend) * LEGEND_ROW * style.scale + (0.5 * style.scale if legend else 0)
    s = style.scale
    heading = title if title is not None else track.title
    canvas.add(
        f'<rect x="0" y="0" width="{canvas.width:.1f}" height="{canvas.height:.1f}" '
        f'fill="{style.grass}"/>'
    )
    _draw_spaces(canvas, track, highlights)
    _draw_edges(canvas, track)
    _draw_kerbs(canvas, track)
    _draw_wall(canvas, track)
    _draw_corner_limits(canvas, track)
    _draw_line(canvas, track)
    _draw_grid(canvas, track, names)
    _draw_pit_marks(canvas, track)
    if arrows:
        _draw_arrows(canvas, track)
    _draw_flags(canvas, track)
    if names:
        _draw_names(canvas, track)
    _draw_paths(canvas, track, paths)
    _draw_cars(canvas, track, cars)
    _draw_legend(canvas, legend, board_height)
    canvas.add(
        f'<text x="{0.6 * s:.1f}" y="{1.2 * s:.1f}" font-size="{1.1 * s:.1f}" '
        f'font-weight="bold" fill="#fff">{escape(heading)}</text>'
    )
    header = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{canvas.width:.0f}" '
        f'height="{canvas.height:.0f}" viewBox="0 0 {canvas.width:.1f} {canvas.height:.1f}" '
        'font-family="DejaVu Sans, Arial, sans-serif">'
    )
    return header + "".join(canvas.parts) + "</svg>\n"
