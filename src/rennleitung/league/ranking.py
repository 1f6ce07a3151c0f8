"""Turning sort keys into ranks: equal keys share a rank (1, 2, 2, 4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

Item = TypeVar("Item")


def ranked(
    items: Sequence[Item],
    key: Callable[[Item], tuple[int | Fraction, ...]],
    name: Callable[[Item], str],
) -> list[tuple[int, Item]]:
    """Items sorted by ``key`` (then name for display), each with its shared rank."""
    ordered = sorted(items, key=lambda item: (key(item), name(item)))
    result: list[tuple[int, Item]] = []
    for index, item in enumerate(ordered):
        if index and key(item) == key(ordered[index - 1]):
            result.append((result[-1][0], item))
        else:
            result.append((index + 1, item))
    return result
