"""A qualifying bot: so that drivers without a person at the keyboard can set a time.

A simple, greedy heuristic. Every roll costs one point and every penalty point one more, so the
bot wants the most progress per roll without overshooting. For each gear it may choose (and
with or without the soft-tyre +1) it weighs every face of that gear's die by its probability
(``dice.GEAR_PROBABILITIES``) and takes, per face, the best move; a move is worth the rows it
gains, minus ``PENALTY_WEIGHT`` rows per penalty point, minus the penalty the next move cannot
avoid (the room before the stop that is due against the smallest roll of the gears left to it),
and an aborted lap is worth nothing. It looks no further ahead than that.
"""

from __future__ import annotations

from rennleitung.formula_de.bots.track_info import track_info
from rennleitung.formula_de.dice import GEAR_PROBABILITIES, gear_range
from rennleitung.formula_de.movegen import generate_moves_for_rolls
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.qualifying import (
    GearChoice,
    PathChoice,
    QualifyingAsk,
    QualifyingAskKind,
    QualifyingDecision,
    TimedLap,
    legal_gears,
)
from rennleitung.formula_de.track import SpaceKind

PENALTY_WEIGHT = 8.0
"""Rows of progress one penalty point is worth: about what one roll gains on a mixed lap."""
ABORTED = -10_000.0


class QualifyingBot:
    """Answers every question of a ``TimedLap``."""

    name = "qualifying"

    def decide(self, lap: TimedLap, ask: QualifyingAsk) -> QualifyingDecision:
        if ask.kind is QualifyingAskKind.MOVE:
            best = max(ask.moves, key=lambda o: (option_value(lap, o, lap.gear), o.path))
            return PathChoice(best.path)
        choices = [
            GearChoice(gear, soft)
            for gear in ask.gears
            for soft in ((False, True) if ask.soft_bonus else (False,))
        ]
        return max(choices, key=lambda c: (expected_value(lap, c), -c.gear, c.soft_bonus))


def expected_value(lap: TimedLap, choice: GearChoice) -> float:
    """The probability-weighted value of the best move for every face of the gear's die."""
    faces = GEAR_PROBABILITIES[choice.gear]
    request = lap.request(0, choice.gear, choice.soft_bonus)
    by_roll = generate_moves_for_rolls(lap.track, request, list(faces))
    total = 0.0
    for roll, chance in faces.items():
        options = by_roll[roll]
        best = max((option_value(lap, o, choice.gear) for o in options), default=0.0)
        total += float(chance) * best
    return total


def option_value(lap: TimedLap, option: MoveOption, gear: int) -> float:
    """Rows gained, less the penalty now and the penalty the next move (from ``gear``) cannot
    avoid."""
    if option.eliminated is not None:
        return ABORTED
    track = lap.track
    gained = track.progress(option.end, option.laps) - track.spaces[option.start].height
    penalty = option.tyres
    return gained - PENALTY_WEIGHT * (penalty + _squeeze(lap, option, gear))


def _squeeze(lap: TimedLap, option: MoveOption, gear: int) -> float:
    """Spaces the next move must overshoot by at least: the smallest roll of the lowest gear
    still allowed (never 6th to 1st) against the room before the stop that is due."""
    track = lap.track
    end = option.end
    here = track.spaces[end]
    if here.kind is not SpaceKind.TRACK:
        return 0.0
    info = track_info(track)
    if here.corner and option.corner_stops < track.corners[here.corner - 1].stops:
        room = info.room(end, here.corner)
    else:
        nxt = info.next_corner[end]
        if not nxt:
            return 0.0
        room = info.room(end, nxt)
    lowest = min(legal_gears(gear))
    smallest = gear_range(lowest)[0] + lap.config.profile.effects.movement
    return float(max(0, smallest - room) * lap.overshoot_factor)


def drive_lap(lap: TimedLap, bot: QualifyingBot | None = None) -> TimedLap:
    """Answer every question of ``lap`` with the bot until the lap is over; returns the lap."""
    driver = bot or QualifyingBot()
    while (ask := lap.pending) is not None:
        lap.apply(driver.decide(lap, ask))
    return lap
