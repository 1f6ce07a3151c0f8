"""A position drawn on its board: cars in their colours, one car's options highlighted."""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.position import Position
from rennleitung.render.board_svg import render_board

CAR_COLOURS = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#46f0f0",
    "#f032e6",
    "#bcf60c",
    "#008080",
    "#9a6324",
)
"""One colour per car, in the order of the position's car list."""

OPTION_COLOURS = {"plain": "#8fd18f", "costly": "#f2d16b", "eliminated": "#e07a7a"}
"""Highlight of an option's end: free, costs wear points, or eliminates the car."""


def option_colour(option: MoveOption) -> str:
    """The highlight colour of one option's end space."""
    if option.eliminated is not None:
        return OPTION_COLOURS["eliminated"]
    if option.brakes or option.tyres or option.dangerous:
        return OPTION_COLOURS["costly"]
    return OPTION_COLOURS["plain"]


def _cost(option: MoveOption) -> str:
    """A short cost label: brake (B) and tyre (R/T) points, X for an elimination."""
    if option.eliminated is not None:
        return "X"
    parts = [f"B{option.brakes}" if option.brakes else "",
             f"T{option.tyres}" if option.tyres else ""]
    return " ".join(p for p in parts if p) or "0"


def render_position(
    position: Position,
    options: Sequence[MoveOption] = (),
    *,
    names: bool = False,
    order: Sequence[str] = (),
) -> str:
    """SVG text of the position; the cheapest option per end space decides its colour. Cars
    carry their number (their place in the position's list) and the legend lists number,
    colour, name and place (``order``: car ids from the leader back; default: the list).
    Each option's way is drawn with its cost (B brake points, T tyre points, X eliminated).
    Cars that finished are drawn where they crossed the line; retired cars are gone."""
    places = {car_id: n for n, car_id in enumerate(order or [c.id for c in position.cars], 1)}
    cars = []
    legend = []
    for number, (car, colour) in enumerate(
        zip(position.cars, CAR_COLOURS * 10, strict=False), 1
    ):
        shade = "#555555" if car.status is CarStatus.WRECK else colour
        if car.status.on_track or car.status is CarStatus.FINISHED:
            cars.append((car.space, str(number), shade))
        name = car.name or car.id
        place = places.get(car.id)
        status = "" if car.status is CarStatus.RUNNING else f" ({car.status.label_en})"
        legend.append(
            (shade, f"{number}  {name[:40]}  P{place if place else '-'}{status}")
        )
    paths = [
        ((option.start, *option.path), option_colour(option), _cost(option))
        for option in options
    ]
    if options:
        legend.extend((
            (OPTION_COLOURS["plain"], "Zug ohne Kosten / move without cost (0)"),
            (OPTION_COLOURS["costly"], "kostet Bremsen B / Reifen T oder Gefahr / costs brake B, "
                                       "tyre T points or danger"),
            (OPTION_COLOURS["eliminated"], "scheidet aus / eliminated (X)"),
        ))
    highlights: dict[int, str] = {}
    ranking = list(OPTION_COLOURS.values())
    for option in options:
        colour = option_colour(option)
        current = highlights.get(option.end)
        if current is None or ranking.index(colour) < ranking.index(current):
            highlights[option.end] = colour
    for space in position.dangerous:
        highlights.setdefault(space, "#b0b0b0")
    return render_board(
        position.track, names=names, cars=cars, highlights=highlights, paths=paths,
        legend=legend,
    )
