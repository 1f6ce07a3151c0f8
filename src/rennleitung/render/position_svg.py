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


def render_position(
    position: Position, options: Sequence[MoveOption] = (), *, names: bool = False
) -> str:
    """SVG text of the position; the cheapest option per end space decides its colour. Cars
    that finished are drawn where they crossed the line; retired cars are gone."""
    cars = [
        (car.space, car.id[:3].upper(), "#555555" if car.status is CarStatus.WRECK else colour)
        for car, colour in zip(position.cars, CAR_COLOURS * 10, strict=False)
        if car.status.on_track or car.status is CarStatus.FINISHED
    ]
    highlights: dict[int, str] = {}
    ranking = list(OPTION_COLOURS.values())
    for option in options:
        colour = option_colour(option)
        current = highlights.get(option.end)
        if current is None or ranking.index(colour) < ranking.index(current):
            highlights[option.end] = colour
    for space in position.dangerous:
        highlights.setdefault(space, "#b0b0b0")
    return render_board(position.track, names=names, cars=cars, highlights=highlights)
