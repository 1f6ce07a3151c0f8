"""``moves check`` against the generator: the checker accepts exactly the generator's moves.

Issue 11 item 10: the checker accepted a rain corner stop without its slide (or with a
shortened one).
"""

from __future__ import annotations

from rennleitung.formula_de.car import Weather
from rennleitung.formula_de.movecheck import IllegalMove
from rennleitung.formula_de.moves import check_path
from rennleitung.formula_de.position import Position

from .test_movement_support import car, path, position


def _refused(pos: Position, roll: int, names: tuple[str, ...]) -> bool:
    try:
        check_path(pos, "x", roll, names)
    except IllegalMove:
        return True
    return False


def test_a_rain_corner_stop_must_slide_its_full_three_spaces() -> None:
    """Dresden "Reifen" (in the rain a corner stop slides 3 on), Masters 8-1-2, 8-5-1 (the slide
    is mandatory): 6 from A1 stops in corner 1 on A7 and slides on to A10."""
    pos = position(car("x", "A1", brakes=0), weather=Weather.RAIN)
    straight = ("A2", "A3", "A4", "A5", "A6", "A7")
    assert _refused(pos, 6, straight)  # no slide
    assert _refused(pos, 6, (*straight, "A8"))  # a shortened slide
    (slid,) = check_path(pos, "x", 6, (*straight, "A8", "A9", "A10"))
    assert path(pos, slid)[-1] == "A10"
