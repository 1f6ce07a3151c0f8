"""Issue 11: the departures from the Dresden and Masters texts, one scene each.

Every test puts cars where the rule decides the outcome and scripts the dice; each failed
before its fix. Helpers and Monaco facts as in ``test_race_rules`` (boxes BOX1–BOX11 lie
before the line, which the pit lane crosses between P15 and P16).
"""

from __future__ import annotations

from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.race_decisions import AskKind, PitChoice, PitPlan, TurnChoice

from .test_race_rules import SUN, go, pick, place, sp, start


def test_fresh_tyres_fitted_before_the_line_start_their_first_lap_at_the_line() -> None:
    """Masters 8-4-1: the box lies before the line, so the fresh soft set is on its first lap
    once the car has crossed the line in the pit lane, and keeps its +1 in the sun."""
    race = start([SUN, 4, 12, 10], ruleset="masters-2002")
    place(race, "a", "P1", gear=2, crossings=2, tyre=Tyre.HARD, tyre_laps=1)
    go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.pit)
    assert race.pending is not None and race.pending.kind is AskKind.PIT
    race.apply(PitChoice(PitPlan(tyre=Tyre.SOFT, long=True)))
    race.apply(TurnChoice(4))  # next round out of the box: 12 spaces, BOX1 to P16
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == 12)
    car = race.cars["a"]
    assert car.space == sp("P16") and race.laps_done("a") == 2
    assert car.tyre is Tyre.SOFT and car.set_lap == 1
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.soft_bonus
