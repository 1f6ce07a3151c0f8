"""Who earns the "most laps led" karma for each lap of a race, read from a league result.

The decisions file reads Dresden "meiste Führungsrunden in einer Rennrunde" as: in every lap of
the race, the car that led at the end of the most rounds of play in that lap earns +3; tied cars
all earn it. The count is the engine's (``formula_de/karma_income.laps_most_led``, which the race
pays from); this module only reads a result's lap chart into it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from rennleitung.formula_de.karma_income import laps_most_led as most_led_by_car
from rennleitung.league.race_result import RoundOrder


def laps_most_led(leader_after_round: Sequence[tuple[int, str]]) -> dict[str, int]:
    """Per driver, the number of race laps in which he led the most rounds of play.

    ``leader_after_round`` holds one ``(lap, driver)`` pair per round of play: the lap the leader
    was on at the end of that round, and the leader's name.
    """
    rounds_led: dict[str, Counter[int]] = defaultdict(Counter)
    for lap, driver in leader_after_round:
        rounds_led[driver][lap] += 1
    return most_led_by_car(rounds_led)


def laps_most_led_from_rounds(rounds: Sequence[RoundOrder]) -> dict[str, int]:
    """The same count, read from the running order after each round of play."""
    return laps_most_led([(r.lap, r.order[0]) for r in rounds if r.order])
