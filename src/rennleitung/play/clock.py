"""A clock that moves only when told: the server's time in tests.

The play service reads the time from the clock it is given (``RaceService(engine, clock)``), so
deadlines, time banks and the abandoning of quiet races are tested by moving this clock instead
of waiting. A test server gets one through ``Settings(clock=...)`` (``docs/web.md``, "A
controllable clock"); a production server never has one and follows the system clock.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
"""Where a ``ManualClock`` starts unless told otherwise: a fixed moment, so a test's times are
the same on every run."""


class ManualClock:
    """Stands still at ``now`` until ``advance`` or ``set`` moves it; safe to read and move
    from several threads (the server's worker threads read it while a test moves it)."""

    def __init__(self, start: datetime = START) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime (UTC)")
        self._now = start.astimezone(UTC)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    @property
    def now(self) -> datetime:
        return self()

    def advance(self, seconds: float) -> datetime:
        """Move forward ``seconds`` (never back: a deadline once passed stays passed)."""
        if seconds < 0:
            raise ValueError("a clock is only moved forward")
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._now

    def set(self, moment: datetime) -> datetime:
        """Jump to ``moment``, which must not lie before the time shown now."""
        with self._lock:
            target = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
            if target < self._now:
                raise ValueError("a clock is only moved forward")
            self._now = target
            return self._now
