"""Who earns the "most laps led" karma for each lap of a race.

The decisions file reads Dresden "meiste Führungsrunden in einer Rennrunde" as: in every lap of
the race, the car that led at the end of the most rounds of play in that lap earns +3; tied cars
all earn it. The race engine records the leader after each round; this turns that into counts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from rennleitung.league.race_result import RoundOrder


def laps_most_led(leader_after_round: Sequence[tuple[int, str]]) -> dict[str, int]:
    """Per driver, the number of race laps in which he led the most rounds of play.

    ``leader_after_round`` holds one ``(lap, driver)`` pair per round of play: the lap the leader
    was on at the end of that round, and the leader's name.
    """
    rounds_led: dict[int, Counter[str]] = defaultdict(Counter)
    for lap, driver in leader_after_round:
        rounds_led[lap][driver] += 1
    earned: Counter[str] = Counter()
    for counts in rounds_led.values():
        most = max(counts.values())
        for driver, led in counts.items():
            if led == most:
                earned[driver] += 1
    return dict(earned)


def laps_most_led_from_rounds(rounds: Sequence[RoundOrder]) -> dict[str, int]:
    """The same count, read from the running order after each round of play."""
    return laps_most_led([(r.lap, r.order[0]) for r in rounds if r.order])
