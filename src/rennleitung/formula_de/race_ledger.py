"""What the league reads from a race: karma movements with their reason and the order of play
of every round (Dresden "Karmapool", "Kopf an Kopf"; Masters 6-2), read from the data of the
race's ``karma`` and ``round`` events (never from a sentence: wording is ``event_text``'s
business and must not change the league's bookkeeping).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.events import Event, EventKind


class KarmaReason(StrEnum):
    """Why a car's karma moved (Dresden "Karmapool")."""

    NATURAL_TWENTY = "natural_20"  # a 20 rolled on the black die in a test
    PLUS_ONE = "plus_one"  # spent: +1 on a failed test
    REROLL = "reroll"  # spent: a failed test rolled again
    HEAD_TO_HEAD = "head_to_head"  # spent: a secret bid (Dresden "Kopf an Kopf")
    END_OF_RACE = "end_of_race"  # points, places gained, most rounds led


@dataclass(frozen=True, slots=True)
class KarmaMove:
    """One karma movement: the event that tells it (``seq``), the car, why, and by how much."""

    seq: int
    car: str
    reason: KarmaReason
    change: int


@dataclass(frozen=True, slots=True)
class PlayOrder:
    """The order of play of a round (car ids, first to play first) and its event's ``seq``."""

    seq: int
    round: int
    cars: tuple[str, ...]


def karma_moves(events: Iterable[Event]) -> list[KarmaMove]:
    """Every karma movement of a race, in order, from its ``karma`` events."""
    moves = []
    for event in events:
        if event.kind is EventKind.KARMA:
            change = event.get("change")
            assert isinstance(change, int)
            try:
                reason = KarmaReason(str(event.get("reason")))
            except ValueError:
                raise RennleitungError(
                    f"unbekannter Karma-Grund {event.get('reason')!r}",
                    f"unknown karma reason {event.get('reason')!r}",
                    f"event {event.seq}",
                ) from None
            moves.append(KarmaMove(event.seq, event.car, reason, change))
    return moves


def play_orders(events: Iterable[Event]) -> list[PlayOrder]:
    """The order of play of every round, from its ``round`` event (car ids, first to play
    first)."""
    orders = []
    for event in events:
        if event.kind is EventKind.ROUND:
            cars = event.get("order")
            assert isinstance(cars, list)
            orders.append(PlayOrder(event.seq, event.round, tuple(str(c) for c in cars)))
    return orders
