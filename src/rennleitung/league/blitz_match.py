"""An FD Blitz match ("FD Blitz"): two players, best of three runs.

Run 1: the first named player starts from pole, the other from second place; run 2 the other
way round. A third run, if needed, starts side by side at the height of pole and the dice
decide who moves first (each player rolls the black die, the higher roll begins, ties roll
again). A run is won by the car that crosses the line first or, when both clocks have run out,
by the car that got farther. Decision: a run with both cars equally far has no winner and is
driven again with the same start.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.ruleset import Qualifying, Ruleset, get_ruleset
from rennleitung.league.black_die import black_die_order

BLITZ_RULES = get_ruleset("fd-blitz")
"""The ruleset of a Blitz match: its ``heats_to_win`` and ``qualifying`` (alternate poles)."""

@dataclass(frozen=True)
class RunStart:
    """How a run starts: who is on pole and second, or side by side with the first mover."""

    run: int
    pole: str | None
    second: str | None
    first_to_move: str
    die_rolls: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def side_by_side(self) -> bool:
        """Whether both cars start level (the third run)."""
        return self.pole is None


@dataclass(frozen=True)
class RunOutcome:
    """The end of a run: winner (None = drawn, to be driven again) and how it was decided."""

    start: RunStart
    winner: str | None
    finished_first: str | None
    distances: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class BlitzMatch:
    """The players (first named starts the first run from pole) and the runs driven."""

    players: tuple[str, str]
    runs: tuple[RunOutcome, ...] = ()
    rules: Ruleset = field(default=BLITZ_RULES, compare=False, repr=False)
    """Where the match's figures come from (``heats_to_win``, ``qualifying``)."""

    def __post_init__(self) -> None:
        names = [p.strip() for p in self.players]
        if not all(names) or names[0] == names[1] or any(len(p) > 60 for p in self.players):
            raise RennleitungError(
                "FD Blitz braucht zwei verschiedene Spieler (Namen bis 60 Zeichen)",
                "FD Blitz needs two different players (names up to 60 characters)",
                "blitz, players",
            )

    def wins(self, player: str) -> int:
        """Runs won by ``player``."""
        return sum(1 for r in self.runs if r.winner == player)

    @property
    def winner(self) -> str | None:
        """The match winner once someone has two runs."""
        needed = max(self.rules.heats_to_win, 1)  # 0: one race decides (Dresden FD Blitz)
        return next((p for p in self.players if self.wins(p) >= needed), None)

    def next_run_number(self) -> int:
        """1, 2 or 3: the decided runs so far plus one (a drawn run is driven again)."""
        return sum(1 for r in self.runs if r.winner is not None) + 1

    def next_start(self, dice: random.Random) -> RunStart:
        """How the next run starts; the dice are only rolled for a third run."""
        if self.winner is not None:
            raise RennleitungError(
                f"das Match ist entschieden: {self.winner} gewinnt",
                f"the match is decided: {self.winner} wins",
                "blitz, run",
            )
        number = self.next_run_number()
        replay = self.runs[-1].start if self.runs and self.runs[-1].winner is None else None
        if replay is not None and replay.pole is not None:
            return replay
        if self.rules.qualifying is not Qualifying.ALTERNATE:
            raise RennleitungError(
                f"{self.rules.name} wechselt die Pole nicht ab",
                f"{self.rules.name} does not alternate pole",
                f"{self.rules.name}.qualifying",
            )
        first, second = self.players
        if number == 1:
            return RunStart(1, first, second, first)
        if number == 2:
            return RunStart(2, second, first, second)
        drawn = black_die_order(self.players, dice)
        rolls = tuple((d.driver, d.rolls) for d in drawn)
        return RunStart(3, None, None, drawn[0].driver, rolls)

    def with_run(
        self,
        start: RunStart,
        distances: Mapping[str, int],
        finished_first: str | None = None,
    ) -> BlitzMatch:
        """Record a run: ``finished_first`` crossed the line first, else the farther car wins.

        ``distances`` is how far each car got (spaces of progress from the start) when its
        clock ran out or the run ended.
        """
        if self.winner is not None:
            raise RennleitungError(
                "das Match ist schon entschieden", "the match is already decided", "blitz, run"
            )
        if set(distances) != set(self.players):
            raise RennleitungError(
                f"Strecke für genau beide Spieler angeben: {', '.join(self.players)}",
                f"give the distance of exactly both players: {', '.join(self.players)}",
                "blitz, distance",
            )
        if finished_first is not None and finished_first not in self.players:
            raise RennleitungError(
                f"{finished_first!r} spielt nicht mit", f"{finished_first!r} is not playing",
                "blitz, finished_first",
            )
        winner = finished_first
        if winner is None:
            a, b = self.players
            if distances[a] != distances[b]:
                winner = a if distances[a] > distances[b] else b
        outcome = RunOutcome(start, winner, finished_first, tuple(sorted(distances.items())))
        return replace(self, runs=(*self.runs, outcome))
