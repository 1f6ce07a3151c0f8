"""`rennleitung blitz run`: drive the next FD Blitz run on the board, bots in both cars.

Thin adapter over ``league.blitz_run``: reads the match file, starts the next run as
``blitz start`` does (or takes the run already started, with its clock), lets the race engine
drive it with the ``fd-blitz`` ruleset while the chess clock is kept in simulated time from
``--now``, and records the run's outcome in the match as ``blitz result`` does. ``--record``
writes the run's race record (halts included), which ``race replay`` and ``race verify`` read.
Registered on the ``blitz`` app in ``cli/blitz.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from rennleitung.cli.blitz_file import describe_start, load_session, now_or, save_session
from rennleitung.cli.common import load_track, run_guarded, say
from rennleitung.cli.league_files import check_output
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.builtin_tracks import DEFAULT_TRACK
from rennleitung.formula_de.event_text import count
from rennleitung.formula_de.record import record_of, record_to_json
from rennleitung.league.blitz_codec import BlitzSession
from rennleitung.league.blitz_match import BlitzMatch, RunStart
from rennleitung.league.blitz_run import MOVE_SECONDS, BlitzRunResult, run_blitz
from rennleitung.league.chess_clock import ChessClock

STATUS = {
    "finished": ("im Ziel", "finished"),
    "retired": ("ausgeschieden", "retired"),
    "running": ("auf der Strecke", "on the track"),
}


def run(
    file: Path,
    track: Annotated[
        str, typer.Option("--track", help="Eingebaute Strecke oder Streckendatei (.toml) / "
                                          "built-in track or track file (.toml).")
    ] = DEFAULT_TRACK,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="simple, steady oder/or strong; zwei mit Komma: je Spieler / "
            "two, comma separated: one per player.",
        ),
    ] = "simple",
    move_seconds: Annotated[
        float, typer.Option("--move-seconds", help="Simulierte Zeit je Zug / simulated time "
                                                   "per turn.")
    ] = MOVE_SECONDS,
    laps: Annotated[int, typer.Option("--laps", help="Runden (0: Regelwerk) / laps.")] = 0,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Würfel-Seed des Laufs / dice seed of the run.")
    ] = None,
    now: Annotated[
        float | None, typer.Option("--now", help="Startzeitpunkt in Sekunden / start time in "
                                                 "seconds.")
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Rennprotokoll des Laufs schreiben (für "
                                                   "race replay/verify) / write the run's race "
                                                   "record (for race replay/verify).")
    ] = None,
) -> None:
    """Nächsten Lauf auf dem Brett fahren, Bots am Steuer / drive the next run with bots."""
    def action() -> tuple[RunStart, BlitzRunResult, BlitzMatch]:
        if record is not None:
            check_output(record, "--record")
        session = load_session(file)
        board = load_track(track)
        players = session.match.players
        drivers = _drivers(bots, players)
        if laps < 0:
            raise RennleitungError("Runden ab 0", "laps from 0", "--laps")
        moment = now_or(now)
        number = len(session.match.runs)
        if session.current is None or session.clock is None:
            dice = random.Random(f"{session.seed}:{number}")  # as `blitz start`
            start = session.match.next_start(dice)
            clock = ChessClock(players, session.limit_s).start(start.first_to_move, moment)
        else:
            start, clock = session.current, session.clock
        run_seed = seed if seed is not None else f"{session.seed}:board:{number}"
        result = run_blitz(start, players, track, run_seed, drivers, clock, moment,
                           move_seconds, laps, board)
        match = session.match.with_run(start, result.distances, result.finished_first)
        if record is not None:
            try:
                record.write_text(record_to_json(record_of(result.race, run_seed)),
                                  encoding="utf-8")
            except OSError as error:
                raise RennleitungError(
                    f"Protokoll nicht schreibbar: {error}", f"cannot write the record: {error}",
                    "--record",
                ) from None
        save_session(file, BlitzSession(match, session.limit_s, session.seed))
        return start, result, match

    start, result, match = run_guarded(action)
    de, en = describe_start(start)
    say(de, en)
    for player in match.players:
        placing = next(p for p in result.race.classification() if p.car == player)
        time_de = ", Zeit abgelaufen" if player in result.out_of_time else ""
        time_en = ", out of time" if player in result.out_of_time else ""
        say(
            f"{player}: Strecke {result.distances[player]} (Zehntelreihen), "
            f"{count(placing.laps, 'Runde', 'Runden')}, {STATUS[placing.status][0]}{time_de}",
            f"{player}: distance {result.distances[player]} (tenths of a row), "
            f"{count(placing.laps, 'lap', 'laps')}, {STATUS[placing.status][1]}{time_en}",
        )
    last = match.runs[-1]
    a, b = match.players
    score = f"{a} {match.wins(a)} : {match.wins(b)} {b}"
    if last.winner is None:
        say(f"gleich weit: Lauf wird wiederholt ({score})",
                       f"equally far: the run is driven again ({score})")
    elif last.finished_first is not None:
        say(f"{last.winner} ist zuerst im Ziel und gewinnt den Lauf ({score})",
                       f"{last.winner} crosses the line first and wins the run ({score})")
    else:
        say(f"{last.winner} ist weiter gefahren und gewinnt den Lauf ({score})",
                       f"{last.winner} got farther and wins the run ({score})")
    if match.winner is not None:
        say(f"{match.winner} gewinnt das Match", f"{match.winner} wins the match")
    if record is not None:
        say(f"Protokoll: {record}", f"record: {record}")


def _drivers(bots: str, players: tuple[str, str]) -> dict[str, Bot]:
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) not in (1, 2):
        raise RennleitungError(
            "ein Bot für beide oder zwei mit Komma", "one bot for both or two, comma separated",
            "--bots",
        )
    if len(names) == 1:
        names = names * 2
    return {player: make_bot(name) for player, name in zip(players, names, strict=True)}
