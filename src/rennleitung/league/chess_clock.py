"""The FD Blitz chess clock: one clock per player, kept by the server ("FD Blitz").

Time is always passed in (``now``, seconds on any monotonic scale), never read here, so a
match can be replayed and tested with simulated time. When a player's time is up his car stops
where it stands and the other player drives on alone until his own time is up: from that moment
only the other clock runs, starting at the instant the first flag fell, however late the server
notices it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from rennleitung.errors import RennleitungError


@dataclass(frozen=True)
class ChessClock:
    """Two clocks with the same limit; ``running`` is the index of the player on the move."""

    players: tuple[str, str]
    limit_s: float
    used_s: tuple[float, float] = (0.0, 0.0)
    running: int | None = None
    since_s: float = 0.0
    flagged: tuple[bool, bool] = (False, False)

    def start(self, player: str, now: float) -> ChessClock:
        """Start the first player's clock."""
        if self.running is not None or any(self.used_s):
            raise RennleitungError(
                "die Uhr läuft schon", "the clock is already running", "blitz, clock"
            )
        if self.limit_s <= 0:
            raise RennleitungError(
                "die Bedenkzeit muss größer als 0 sein", "the time limit must be above 0",
                "blitz, limit",
            )
        return replace(self, running=self._index(player), since_s=now)

    def at(self, now: float) -> ChessClock:
        """The clock brought forward to ``now``: flags that fell are settled."""
        if now < self.since_s:
            raise RennleitungError(
                f"die Zeit läuft rückwärts ({now} < {self.since_s})",
                f"time runs backwards ({now} < {self.since_s})",
                "blitz, now",
            )
        clock = self
        while clock.running is not None:
            runner = clock.running
            left = clock.limit_s - clock.used_s[runner]
            if now - clock.since_s < left:
                break
            flag_time = clock.since_s + left
            used = _set(clock.used_s, runner, clock.limit_s)
            flagged = _set(clock.flagged, runner, True)
            other = 1 - runner
            clock = replace(
                clock, used_s=used, flagged=flagged, since_s=flag_time,
                running=None if flagged[other] else other,
            )
        return clock

    def press(self, player: str, now: float) -> ChessClock:
        """``player`` ends his move: his clock stops, the other's starts (unless flagged)."""
        clock = self.at(now)
        index = self._index(player)
        if clock.running != index:
            raise RennleitungError(
                f"{player} ist nicht am Zug", f"it is not {player}'s move", "blitz, player"
            )
        used = _set(clock.used_s, index, clock.used_s[index] + now - clock.since_s)
        other = 1 - index
        running = index if clock.flagged[other] else other
        return replace(clock, used_s=used, running=running, since_s=now)

    def remaining(self, player: str, now: float) -> float:
        """Seconds left for ``player`` at ``now``."""
        clock = self.at(now)
        index = self._index(player)
        used = clock.used_s[index]
        if clock.running == index:
            used += now - clock.since_s
        return max(0.0, clock.limit_s - used)

    def time_up(self, player: str, now: float) -> bool:
        """Whether ``player``'s car has stopped for lack of time."""
        return self.at(now).flagged[self._index(player)]

    def on_move(self, now: float) -> str | None:
        """The player whose clock runs at ``now`` (None once both are up)."""
        clock = self.at(now)
        return None if clock.running is None else clock.players[clock.running]

    def _index(self, player: str) -> int:
        if player not in self.players:
            raise RennleitungError(
                f"{player!r} spielt nicht mit ({' / '.join(self.players)})",
                f"{player!r} is not playing ({' / '.join(self.players)})",
                "blitz, player",
            )
        return self.players.index(player)


T = TypeVar("T")


def _set(pair: tuple[T, T], index: int, value: T) -> tuple[T, T]:
    return (value, pair[1]) if index == 0 else (pair[0], value)
