"""The written notation of the paper sheets: amounts, parts ("Turbo-W11") and elimination orders.

Elimination orders follow April 2000 §6: ``[count] [maker-]kind rating[+|-]`` or
``[count] [maker-]kind[low-high]``, e.g. ``2 Turbo-W8``, ``4 Turbo-R15-``, ``W1+``,
``Honda-M[5-7]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rennleitung.turbo2000.model import Part

NAME_PATTERN = r"[A-Za-z0-9]+"
_PART = re.compile(rf"^(?:(?P<maker>{NAME_PATTERN})-)?(?P<kind>[WMR])(?P<rating>[0-9]+)$")
_SELECTOR = re.compile(
    rf"^(?:(?P<count>[0-9]+)\s+)?(?:(?P<maker>{NAME_PATTERN})-)?(?P<kind>[WMR])"
    r"(?:(?P<rating>[0-9]+)(?P<direction>[+-]?)|\[(?P<low>[0-9]+)-(?P<high>[0-9]+)\])$")


@dataclass(frozen=True)
class PartSpec:
    """A part as written on a sheet; the maker may be missing ("R12": any maker)."""

    maker: str | None
    kind: str
    rating: int

    def notation(self) -> str:
        """As written on the sheet."""
        prefix = f"{self.maker}-" if self.maker else ""
        return f"{prefix}{self.kind}{self.rating}"

    def part(self) -> Part | None:
        """The exact part, if the maker is named."""
        return Part(self.maker, self.kind, self.rating) if self.maker else None


def parse_part(text: str) -> PartSpec | None:
    """Reads "Turbo-W11" or "W11" (any maker); None if it is not a part."""
    match = _PART.match(text.strip())
    if not match:
        return None
    return PartSpec(match["maker"], match["kind"], int(match["rating"]))


@dataclass(frozen=True)
class EliminationOrder:
    """Which parts to eliminate (April 2000 §6). Without a count it means exactly one part."""

    count: int
    maker: str | None
    kind: str
    rating: int
    direction: str
    low: int = 0
    high: int = 0

    def choose(self, stock: dict[Part, int]) -> list[tuple[Part, int]]:
        """The parts this order removes from a stock, most wanted first.

        '-' goes down from the rating, '+' up from it, no direction means exactly that rating;
        a range takes the worst parts inside it first (§6 leaves the order open; worst first
        keeps the better parts). Equal ratings of different makers go in alphabetical order.
        """
        candidates = [
            part for part in stock
            if part.kind == self.kind and (self.maker is None or part.maker == self.maker)
            and self._fits(part.rating)
        ]
        descending = self.direction == "-"
        candidates.sort(key=lambda p: (-p.rating if descending else p.rating, p.maker))
        chosen: list[tuple[Part, int]] = []
        left = self.count
        for part in candidates:
            if left <= 0:
                break
            take = min(left, stock[part])
            chosen.append((part, take))
            left -= take
        return chosen

    def _fits(self, rating: int) -> bool:
        if self.low or self.high:
            return self.low <= rating <= self.high
        if self.direction == "-":
            return rating <= self.rating
        if self.direction == "+":
            return rating >= self.rating
        return rating == self.rating


def parse_elimination(text: str) -> EliminationOrder | None:
    """An elimination line of §6; None if it does not fit the pattern."""
    match = _SELECTOR.match(text.strip())
    if not match:
        return None
    count = int(match["count"]) if match["count"] else 1
    if match["low"] is not None:
        low, high = int(match["low"]), int(match["high"])
        return EliminationOrder(count, match["maker"], match["kind"], 0, "", low, high)
    return EliminationOrder(count, match["maker"], match["kind"], int(match["rating"]),
                            match["direction"] or "")
