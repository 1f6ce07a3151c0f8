"""What the league reads from a race as data: karma movements with their reason and the order
of play of every round (Dresden "Karmapool", "Kopf an Kopf"; Masters 6-2).

The events say the same in sentences for people; the league must never parse those sentences
back (a reworded sentence would change its bookkeeping), so the race keeps these values too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
