"""An append-only log whose older part may be read only when someone asks for it.

A race resumed from a snapshot (``Race.resume``) needs the lengths of its logs at once, to
number what comes next, but their older entries only when someone reads them (a page, a
record). Turning a few thousand stored events into values costs more than playing on from
the snapshot, so ``Log`` counts the older part and asks its ``earlier`` callable for the
entries the first time they are read; appending never reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from rennleitung.errors import RennleitungError

T = TypeVar("T")

Earlier = Sequence[T] | Callable[[], Sequence[T]]
"""The entries before: given, or a callable that reads them when they are first needed."""


class Log(Generic[T]):
    """Entries in order; ``len`` and ``append`` never read the older part."""

    __slots__ = ("_count", "_earlier", "_items")

    def __init__(self, earlier: Earlier[T] = (), count: int | None = None) -> None:
        if callable(earlier):
            self._earlier: Callable[[], Sequence[T]] | None = earlier
            self._count = count or 0
            self._items: list[T] = []
        else:
            self._earlier = None
            self._count = 0
            self._items = list(earlier)

    def __len__(self) -> int:
        return self._count + len(self._items)

    def append(self, item: T) -> None:
        self._items.append(item)

    def head(self, count: int) -> Earlier[T]:
        """The first ``count`` entries, as ``Log`` takes its older part: a callable while the
        older part is unread, so a log rebuilt from this one (a table race, ``race/table.py``)
        reads the store only when someone asks, and never through a chain of logs."""
        if self._earlier is None:
            return self._items[:count]
        earlier, known = self._earlier, self._count
        extra = self._items[: max(count - known, 0)]
        return lambda: [*earlier(), *extra][:count]

    def since(self, start: int) -> list[T]:
        """The entries from number ``start`` (0-based) on; reads the older part only when
        ``start`` lies in it."""
        if self._earlier is not None and start >= self._count:
            return self._items[start - self._count :]
        return self.items()[start:]

    def items(self) -> list[T]:
        """Every entry, oldest first: the log's own list, which later appends extend."""
        if self._earlier is not None:
            earlier = list(self._earlier())
            if len(earlier) != self._count:
                raise RennleitungError(
                    f"{len(earlier)} ältere Einträge gelesen, {self._count} erwartet",
                    f"{len(earlier)} older entries read, {self._count} expected",
                    "log",
                )
            self._items[:0] = earlier
            self._earlier = None
            self._count = 0
        return self._items
