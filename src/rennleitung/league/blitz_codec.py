"""An FD Blitz match with its running clock as plain JSON data, so the CLI can keep it in a file
between two commands (the clock's times are stored, never read here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_match import BlitzMatch, RunOutcome, RunStart
from rennleitung.league.chess_clock import ChessClock


@dataclass(frozen=True)
class BlitzSession:
    """A match, its time limit per run and dice seed, and the run being driven (if any)."""

    match: BlitzMatch
    limit_s: float
    seed: int
    current: RunStart | None = None
    clock: ChessClock | None = None


def session_to_json(session: BlitzSession) -> dict[str, Any]:
    """The session as a JSON-ready dict."""
    return {
        "players": list(session.match.players),
        "limit_s": session.limit_s,
        "seed": session.seed,
        "runs": [
            {"start": _start_json(r.start), "winner": r.winner,
             "finished_first": r.finished_first, "distances": dict(r.distances)}
            for r in session.match.runs
        ],
        "current": _start_json(session.current) if session.current else None,
        "clock": _clock_json(session.clock) if session.clock else None,
    }


def session_from_json(data: Mapping[str, Any]) -> BlitzSession:
    """The session from the dict ``session_to_json`` wrote; FD Blitz has exactly two players
    (a file with twenty was read as its first two)."""
    named = data.get("players")
    if (not isinstance(named, list) or len(named) != 2
            or not all(isinstance(p, str) and 0 < len(p) <= 60 for p in named)):
        count = len(named) if isinstance(named, list) else 0
        raise RennleitungError(
            f"Blitz-Datei beschädigt: FD Blitz hat genau zwei Spieler (Namen bis 60 Zeichen), "
            f"die Datei nennt {count}",
            f"Blitz file is damaged: FD Blitz has exactly two players (names up to 60 "
            f"characters), the file names {count}",
            "blitz file: players (Dresden FD Blitz)",
        )
    try:
        players = (named[0], named[1])
        runs = tuple(
            RunOutcome(_start(r["start"]), r["winner"], r["finished_first"],
                       tuple(sorted((str(k), int(v)) for k, v in r["distances"].items())))
            for r in data["runs"]
        )
        current = _start(data["current"]) if data.get("current") else None
        clock = _clock(data["clock"]) if data.get("clock") else None
        return BlitzSession(BlitzMatch(players, runs), float(data["limit_s"]),
                            int(data["seed"]), current, clock)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise RennleitungError(
            f"Blitz-Datei beschädigt ({error!r})", f"Blitz file is damaged ({error!r})",
            "blitz file",
        ) from None


def _start_json(start: RunStart) -> dict[str, Any]:
    return {"run": start.run, "pole": start.pole, "second": start.second,
            "first_to_move": start.first_to_move,
            "die_rolls": [[name, list(rolls)] for name, rolls in start.die_rolls]}


def _start(data: Mapping[str, Any]) -> RunStart:
    return RunStart(int(data["run"]), data["pole"], data["second"], str(data["first_to_move"]),
                    tuple((str(n), tuple(int(r) for r in rolls)) for n, rolls in
                          data["die_rolls"]))


def _clock_json(clock: ChessClock) -> dict[str, Any]:
    return {"players": list(clock.players), "limit_s": clock.limit_s,
            "used_s": list(clock.used_s), "running": clock.running, "since_s": clock.since_s,
            "flagged": list(clock.flagged)}


def _clock(data: Mapping[str, Any]) -> ChessClock:
    return ChessClock(
        (str(data["players"][0]), str(data["players"][1])), float(data["limit_s"]),
        (float(data["used_s"][0]), float(data["used_s"][1])),
        None if data["running"] is None else int(data["running"]), float(data["since_s"]),
        (bool(data["flagged"][0]), bool(data["flagged"][1])),
    )
