"""The part of a board that matters for one question, for a mail (issue 24).

A whole board drawn for every question mail was 760 KB (the SVG and a 1400-pixel PNG); a mail
reader needs the car, the cars around it and the spaces it may reach. ``render_crop`` draws the
position as ``render_position`` does (the same colours, ways and cost labels) narrowed to those
spaces, with each offered destination labelled by its name (``A167``), as the mail's table
lists it. The bare board is drawn once per track and cut into its paths and texts, so a picture
keeps only those inside its view: rasterising the whole board was most of a question mail's
time, and laying out the board's 53 numbers (Monaco) a quarter of the rest.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.position import Position
from rennleitung.formula_de.track import Point, Track
from rennleitung.render.board_svg import (
    DEFAULT_STYLE,
    _Canvas,
    _centre,
    _draw_cars,
    render_board,
)
from rennleitung.render.position_svg import CAR_COLOURS, OPTION_COLOURS, _cost, option_colour

AROUND = 9.0
"""Board units shown around the car when no destination is offered (a gear's longest roll
reaches about this far on a straight of two-lane spaces)."""
MARGIN = 2.5
"""Board units shown beyond the outermost space that matters."""

SCALE_STEPS = 4
"""A picture for a mail is drawn at a scale of 2**(k/4) (steps of 19 %): the largest such
scale at which the view fits the picture's side. Pictures at one scale share the bare board's
tiles (``mail/board_tiles``); with steps of 9 % a benchmark run drew 278 tiles instead of 171,
for pictures at most 9 % smaller instead of 16 %."""
TILE = 256
"""Pixels of a side of one tile of the bare board."""
NEAR = 4.0
"""Drawing pixels around a view (or tile) within which the board's paths are kept: a
stroke reaches beyond its path's points."""

LABEL_PIXELS = 13.0
COST_PIXELS = 12.0
"""Font size in a picture's pixels, at most, of a destination's name and of a way's cost: in a
close view (a few spaces, scale about 3) names drawn at the board's own size were wider than
a space, and the names of neighbouring destinations covered each other."""

Bounds = tuple[float, float, float, float]
_PATH = re.compile(r'<path d="([^"]*)"[^>]*?(?:/>|>.*?</path>)', re.S)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_DEFS = re.compile(r"(<defs>.*?</defs>)", re.S)
_TEXT = re.compile(r'<text x="(-?[\d.]+)" y="(-?[\d.]+)" font-size="([\d.]+)"[^>]*>([^<]*)</text>')
_TITLE = re.compile(r"<title>[^<]*</title>")
"""A space's name as a tooltip: a mail's picture (PNG, or the crop's SVG where none is drawn)
shows none, and librsvg parsed 140 of them a picture (Monaco); the offered destinations carry
their names as labels."""
_BOARDS: dict[int, tuple[Track, list[tuple[str, Bounds | None]]]] = {}


_CANVASES: dict[int, tuple[Track, _Canvas]] = {}


def _canvas(track: Track) -> _Canvas:
    """An empty canvas for ``track``: its extent is measured once per track (over every space's
    corners, a few milliseconds each time), each call gets its own list of parts."""
    known = _CANVASES.get(id(track))
    if known is None or known[0] is not track:
        if len(_CANVASES) > 32:
            _CANVASES.clear()
        known = _CANVASES[id(track)] = (track, _Canvas(track, DEFAULT_STYLE))
    fresh = copy.copy(known[1])
    fresh.parts = []
    return fresh


def _box(points: Iterable[Point]) -> Bounds:
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def focus(track: Track, car_space: int | None, options: Sequence[MoveOption]) -> list[int]:
    """The spaces the picture must show: the car's, and every offered way and destination."""
    spaces = [car_space] if car_space is not None else []
    for option in options:
        spaces += [option.start, *option.path]
    return [s for s in spaces if 0 <= s < len(track.polygons)]


def view_box(track: Track, spaces: Sequence[int], around: bool) -> Bounds:
    """(left, top, right, bottom) in pixels of the board drawing: the spaces with a margin,
    ``around`` the first of them when no way is offered; the whole board without spaces."""
    canvas = _canvas(track)
    if not spaces:
        return 0.0, 0.0, canvas.width, canvas.height
    low_x, low_y, high_x, high_y = _box(p for s in spaces for p in track.polygons[s])
    if around:
        x, y = _centre(track.polygons[spaces[0]])
        low_x, low_y = min(low_x, x - AROUND), min(low_y, y - AROUND)
        high_x, high_y = max(high_x, x + AROUND), max(high_y, y + AROUND)
    left, top = canvas.xy((low_x - MARGIN, high_y + MARGIN))
    right, bottom = canvas.xy((high_x + MARGIN, low_y - MARGIN))
    return max(0.0, left), max(0.0, top), min(canvas.width, right), min(canvas.height, bottom)


def render_crop(position: Position, car: str, options: Sequence[MoveOption] = (),
                *, order: Sequence[str] = (), side: int | None = None
                ) -> tuple[str, float, float]:
    """SVG text of the position narrowed to what matters for ``car``; returns the SVG and the
    view's width and height in drawing pixels. With ``side`` (the pixels of the longer side a
    picture may have), the view is the one ``crop_picture`` draws. (``order`` is accepted for
    ``render_position``'s signature; the picture has no legend, the mail text names the cars.)"""
    if side:
        crop = crop_picture(position, car, options, side)
        return crop.svg, crop.pixels[0] / crop.scale, crop.pixels[1] / crop.scale
    box = _view_of(position, car, options)
    left, top, right, bottom = box
    header = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{right - left:.0f}" '
              f'height="{bottom - top:.0f}" viewBox="{left:.1f} {top:.1f} {right - left:.1f} '
              f'{bottom - top:.1f}" font-family="DejaVu Sans, Arial, sans-serif">')
    return (header + _board_within(position.track, box) + _over(position, options, box)
            + "</svg>\n", right - left, bottom - top)


@dataclass(frozen=True)
class CropPicture:
    """A mail's picture of the part of the board that matters, on the pixel grid of its
    scale: ``svg`` is the whole picture; ``over`` the same view without the bare board, to be
    drawn over the bare board's tiles at ``step``; ``origin`` is the view's top left pixel on
    the whole board drawn at that scale, ``pixels`` the picture's width and height."""

    svg: str
    over: str
    track: Track
    step: int
    origin: tuple[int, int]
    pixels: tuple[int, int]

    @property
    def scale(self) -> float:
        return scale_of(self.step)


def scale_of(step: int) -> float:
    """Picture pixels per drawing pixel at ``step``."""
    return float(2.0 ** (step / SCALE_STEPS))


def crop_picture(position: Position, car: str, options: Sequence[MoveOption],
                 side: int) -> CropPicture:
    """The crop of ``render_crop`` as a picture whose longer side is at most ``side`` pixels:
    drawn at the largest scale of the steps that fits (at most 16 % under ``side``), the view
    starting and ending on whole pixels of the board drawn at that scale. Every pixel is then
    covered (the PNG needs no alpha), and the bare board under the view is the same pixels
    for every picture at that scale: it is drawn once, in tiles."""
    track = position.track
    left, top, right, bottom = _view_of(position, car, options)
    longer = max(right - left, bottom - top, 1e-6)
    step = math.floor(math.log2(side / longer) * SCALE_STEPS + 1e-9)
    scale = scale_of(step)
    canvas = _canvas(track)  # a pixel past the board's edge would be partly covered
    x0, y0 = math.floor(left * scale + 1e-6), math.floor(top * scale + 1e-6)
    x1 = min(math.ceil(right * scale - 1e-6), math.floor(canvas.width * scale + 1e-6))
    y1 = min(math.ceil(bottom * scale - 1e-6), math.floor(canvas.height * scale + 1e-6))
    width, height = min(side, max(1, x1 - x0)), min(side, max(1, y1 - y0))
    box = (x0 / scale, y0 / scale, (x0 + width) / scale, (y0 + height) / scale)
    header = _header(box, width, height)
    over = _over(position, options, box, zoom=scale)
    return CropPicture(svg=header + _board_within(track, box) + over + "</svg>\n",
                       over=header + over + "</svg>\n", track=track, step=step,
                       origin=(x0, y0), pixels=(width, height))


def board_tile(track: Track, step: int, column: int, row: int) -> str:
    """SVG of the bare board's tile (``column``, ``row``) at ``step``: ``TILE`` pixels square,
    its top left at pixel (column × TILE, row × TILE) of the whole board at that scale."""
    scale = scale_of(step)
    box = (column * TILE / scale, row * TILE / scale, (column + 1) * TILE / scale,
           (row + 1) * TILE / scale)
    return _header(box, TILE, TILE) + _board_within(track, box) + "</svg>\n"


def _header(box: Bounds, width: int, height: int) -> str:
    """The SVG's opening: ``width`` × ``height`` pixels showing ``box`` (to the millionth of a
    drawing pixel, so each pixel edge falls where the grid puts it)."""
    left, top, right, bottom = box
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="{left:.6f} {top:.6f} {right - left:.6f} {bottom - top:.6f}" '
            'font-family="DejaVu Sans, Arial, sans-serif">')


def _view_of(position: Position, car: str, options: Sequence[MoveOption]) -> Bounds:
    track = position.track
    own = next((c.space for c in position.cars if c.id == car and c.status.on_track), None)
    return view_box(track, focus(track, own, options), around=not options)


def _board_within(track: Track, box: Bounds) -> str:
    """The bare board's pieces that may show within ``box``."""
    near = (box[0] - NEAR, box[1] - NEAR, box[2] + NEAR, box[3] + NEAR)
    return "".join(text for text, bounds in _bare_board(track)
                   if bounds is None or _meets(bounds, near))


def _over(position: Position, options: Sequence[MoveOption], box: Bounds,
          zoom: float = 1.0) -> str:
    """What is drawn over the bare board: the changing parts and the destinations' names;
    ``zoom`` is the picture's pixels per drawing pixel."""
    width, height = box[2] - box[0], box[3] - box[1]
    canvas = _canvas(position.track)
    return (_changing(canvas, position, options, zoom)
            + _labels(canvas, position.track, options,
                      scale=max(1.0, math.sqrt(width * height) / 600), zoom=zoom))


def _bounds(d: str) -> Bounds | None:
    numbers = [float(n) for n in _NUMBER.findall(d)]
    xs, ys = numbers[0::2], numbers[1::2]
    return (min(xs), min(ys), max(xs), max(ys)) if xs and ys else None


def _meets(bounds: Bounds, box: Bounds) -> bool:
    return not (bounds[2] < box[0] or bounds[0] > box[2] or bounds[3] < box[1]
                or bounds[1] > box[3])


def _bare_board(track: Track) -> list[tuple[str, Bounds | None]]:
    """The board without cars, cut into its paths and texts (with their extent in pixels) and
    what is between them (groups, definitions: always kept); drawn once per track."""
    known = _BOARDS.get(id(track))
    if known is not None and known[0] is track:
        return known[1]
    svg = render_board(track)
    body = _TITLE.sub("", svg[svg.index(">") + 1:].removesuffix("</svg>\n"))
    pieces: list[tuple[str, Bounds | None]] = []
    for index, part in enumerate(_DEFS.split(body)):
        if index % 2:
            pieces.append((part, None))
            continue
        at = 0
        for match in _PATH.finditer(part):
            pieces += _texts(part[at:match.start()])
            pieces.append((match.group(0), _bounds(match.group(1))))
            at = match.end()
        pieces += _texts(part[at:])
    if len(_BOARDS) > 32:
        _BOARDS.clear()
    _BOARDS[id(track)] = (track, pieces)
    return pieces


def _texts(part: str) -> list[tuple[str, Bounds | None]]:
    """``part`` of the bare board with each of its texts (the grid's and the pit boxes'
    numbers) on its own with a generous extent (a letter is at most a font size wide), so a
    picture leaves out the texts outside its view too: librsvg lays out every text it is
    given, seen or not."""
    pieces: list[tuple[str, Bounds | None]] = []
    at = 0
    for match in _TEXT.finditer(part):
        x, y, size = (float(match.group(n)) for n in (1, 2, 3))
        reach = size * (len(match.group(4)) + 1)
        pieces.append((part[at:match.start()], None))
        pieces.append((match.group(0), (x - reach, y - reach, x + reach, y + reach)))
        at = match.end()
    pieces.append((part[at:], None))
    return pieces


def _changing(canvas: _Canvas, position: Position, options: Sequence[MoveOption],
              zoom: float = 1.0) -> str:
    """What ``render_position`` draws on the board: dangerous spaces, the destinations in the
    colour of their cheapest option, each way with its cost, the cars with their numbers."""
    track = position.track
    parts = _canvas(track)
    ranking = list(OPTION_COLOURS.values())
    ends: dict[int, str] = {}
    for option in options:
        colour = option_colour(option)
        if option.end not in ends or ranking.index(colour) < ranking.index(ends[option.end]):
            ends[option.end] = colour
    fills = {space: "#b0b0b0" for space in position.dangerous}
    fills.update(ends)
    for space, colour in sorted(fills.items()):
        parts.add(f'<path d="{canvas.path(track.polygons[space], closed=True)}" '
                  f'fill="{colour}" stroke="#ffffff" stroke-width="1.2"/>')
    scale = DEFAULT_STYLE.scale
    for option in options:  # as ``_draw_paths``, with stroke-opacity: no offscreen layer each
        points = [_centre(track.polygons[i]) for i in (option.start, *option.path)]
        parts.add(f'<path d="{canvas.path(points)}" fill="none" '
                  f'stroke="{option_colour(option)}" stroke-width="{0.12 * scale:.1f}" '
                  'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85"/>')
        end = points[-1]
        parts.text((end[0], end[1] + 0.55), _cost(option),
                   min(0.38 * scale, COST_PIXELS / zoom), fill="#000",
                   weight="bold")
    cars = [(c.space, str(n), "#555555" if c.status is CarStatus.WRECK else colour)
            for n, (c, colour) in enumerate(zip(position.cars, CAR_COLOURS * 10,
                                                strict=False), 1)
            if c.status.on_track or c.status is CarStatus.FINISHED]
    _draw_cars(parts, track, cars)
    return "".join(parts.parts)


def _labels(canvas: _Canvas, track: Track, options: Sequence[MoveOption],
            scale: float, zoom: float = 1.0) -> str:
    """Each offered destination's name on a white tag on its space (the cost label of the way
    stays just above it)."""
    size = min(0.4 * DEFAULT_STYLE.scale * scale, LABEL_PIXELS / zoom)
    parts = []
    for end in sorted({o.end for o in options}):
        x, y = canvas.xy(_centre(track.polygons[end]))
        name = track.name_of(end)
        width = (len(name) * 0.74 + 0.5) * size  # DejaVu Sans Bold: 0.70 to 0.77 em a letter
        parts.append(
            f'<rect x="{x - width / 2:.1f}" y="{y - 0.62 * size:.1f}" width="{width:.1f}" '
            f'height="{1.25 * size:.1f}" rx="{0.34 * size:.1f}" fill="#fff" fill-opacity="0.85" '
            f'stroke="#000" stroke-width="{min(1.0, 1.2 / zoom):.2f}"/>'
            f'<text class="destination" x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" '
            'fill="#000" font-weight="bold" text-anchor="middle" '
            f'dominant-baseline="central">{escape(name)}</text>')
    return "".join(parts)
