"""The black-die draw ("Qualifizierung": drivers without a lap are placed at random).

Each driver in the draw rolls the black die (1–20); the highest roll takes the first free
slot. Drivers who rolled the same roll again among themselves until they differ. The dice are
an injected ``random.Random`` so a draw can be replayed from its seed, and every roll is kept.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

BLACK_DIE_FACES = 20


@dataclass(frozen=True)
class DrawnSlot:
    """A driver's place in the draw and every roll he made for it."""

    driver: str
    rolls: tuple[int, ...]


def black_die_order(drivers: Sequence[str], dice: random.Random) -> tuple[DrawnSlot, ...]:
    """Order the drivers by black-die rolls, highest first, ties rolled off."""
    rolls: dict[str, list[int]] = {name: [] for name in drivers}
    order = _roll_off(list(drivers), rolls, dice)
    return tuple(DrawnSlot(name, tuple(rolls[name])) for name in order)


def _roll_off(
    group: list[str], rolls: dict[str, list[int]], dice: random.Random
) -> list[str]:
    if len(group) <= 1:
        return group
    results: dict[str, int] = {}
    for name in group:
        results[name] = dice.randint(1, BLACK_DIE_FACES)
        rolls[name].append(results[name])
    ordered: list[str] = []
    for value in sorted(set(results.values()), reverse=True):
        tied = [name for name in group if results[name] == value]
        ordered.extend(_roll_off(tied, rolls, dice))
    return ordered
