"""`rennleitung blitz`: an FD Blitz match refereed from the command line.

The match lives in a small JSON file. The chess clock is kept here, not by the players: each
``press`` stores the time of the command, and ``status`` shows what is left. ``--now`` passes
the time explicitly (seconds), for replaying a match or for tests.
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from rennleitung.cli.blitz_file import describe_start, load_session, now_or, save_session
from rennleitung.cli.blitz_run import run as run_on_board
from rennleitung.cli.common import pick, run_guarded, say
from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_codec import BlitzSession
from rennleitung.league.blitz_match import BlitzMatch, RunStart
from rennleitung.league.chess_clock import ChessClock

app = typer.Typer(
    name="blitz",
    help="FD Blitz: zwei Spieler, Schachuhr, zwei Siege / two players, chess clock, best of three.",
    no_args_is_help=True,
    add_completion=False,
)

NowOption = Annotated[
    float | None, typer.Option("--now", help="Zeitpunkt in Sekunden / time in seconds.")
]


@app.command("new")
def new(
    file: Path,
    first: str,
    second: str,
    minutes: Annotated[float, typer.Option("--minutes", help="Bedenkzeit je Lauf / limit.")]
    = 5.0,
    seed: Annotated[int | None, typer.Option("--seed", help="Würfel-Seed / dice seed.")] = None,
) -> None:
    """Neues Match; FIRST startet Lauf 1 von der Pole / new match; FIRST has pole in run 1."""

    def action() -> None:
        if minutes <= 0:
            raise RennleitungError(
                "die Bedenkzeit muss größer als 0 sein", "the time limit must be above 0",
                "--minutes",
            )
        session = BlitzSession(BlitzMatch((first, second)), minutes * 60,
                               seed if seed is not None else secrets.randbelow(2**31))
        save_session(file, session)

    run_guarded(action)
    say(f"Match {first} gegen {second} angelegt", f"match {first} vs {second} created")


@app.command("start")
def start(file: Path, now: NowOption = None) -> None:
    """Nächsten Lauf starten, Uhr des ersten Fahrers läuft / start the next run and the clock."""

    def action() -> RunStart:
        session = load_session(file)
        if session.current is not None:
            raise RennleitungError(
                "ein Lauf ist noch offen; erst 'result'", "a run is still open; 'result' first",
                "blitz, run",
            )
        dice = random.Random(f"{session.seed}:{len(session.match.runs)}")
        run_start = session.match.next_start(dice)
        clock = ChessClock(session.match.players, session.limit_s).start(
            run_start.first_to_move, now_or(now)
        )
        save_session(file, BlitzSession(session.match, session.limit_s, session.seed, run_start,
                                        clock))
        return run_start

    de, en = describe_start(run_guarded(action))
    say(de, en)


@app.command("press")
def press(file: Path, player: str, now: NowOption = None) -> None:
    """PLAYER beendet seinen Zug / PLAYER ends his move."""

    def action() -> BlitzSession:
        session = load_session(file)
        clock = _running_clock(session)
        pressed = clock.press(player, now_or(now))
        updated = BlitzSession(session.match, session.limit_s, session.seed, session.current,
                               pressed)
        save_session(file, updated)
        return updated

    _status(run_guarded(action), now)


@app.command("status")
def status(file: Path, now: NowOption = None) -> None:
    """Restzeiten und wer am Zug ist / time left and who is on the move."""
    _status(run_guarded(lambda: load_session(file)), now)


@app.command("result")
def result(
    file: Path,
    distance: Annotated[
        list[str], typer.Option("--distance", help="SPIELER=Felder / PLAYER=spaces.")
    ],
    finished: Annotated[
        str | None, typer.Option("--finished", help="Wer zuerst im Ziel war / first over "
                                                    "the line.")
    ] = None,
    now: NowOption = None,
) -> None:
    """Lauf werten: Ziel zuerst, sonst weitere Strecke / score the run."""
    # Without --finished the farther car wins, which the rules allow only once both clocks are
    # out (docs/league/blitz.md): a clock still running at --now refuses the result.

    def action() -> BlitzMatch:
        session = load_session(file)
        if session.current is None:
            raise RennleitungError(
                "kein Lauf gestartet; erst 'start'", "no run started; 'start' first",
                "blitz, run",
            )
        moment = now_or(now)
        running = session.clock.on_move(moment) if session.clock is not None else None
        if finished is None and running is not None:
            left = session.clock.remaining(running, moment) if session.clock else 0.0
            raise RennleitungError(
                f"die Uhr von {running} läuft noch ({int(left // 60)}:{left % 60:04.1f}); nach "
                "Strecke wird erst gewertet, wenn beide Uhren abgelaufen sind (wer zuerst im "
                "Ziel war: --finished)",
                f"{running}'s clock is still running ({int(left // 60)}:{left % 60:04.1f}); "
                "the farther car wins only once both clocks are out (first over the line: "
                "--finished)",
                "--now",
            )
        match = session.match.with_run(session.current, _distances(distance), finished)
        save_session(file, BlitzSession(match, session.limit_s, session.seed))
        return match

    match = run_guarded(action)
    last = match.runs[-1]
    a, b = match.players
    score = f"{a} {match.wins(a)} : {match.wins(b)} {b}"
    if last.winner is None:
        say(f"gleich weit: Lauf wird wiederholt ({score})",
             f"equally far: the run is driven again ({score})")
    else:
        say(f"{last.winner} gewinnt den Lauf ({score})", f"{last.winner} wins the run ({score})")
    if match.winner is not None:
        say(f"{match.winner} gewinnt das Match", f"{match.winner} wins the match")


def _distances(items: list[str]) -> dict[str, int]:
    distances: dict[str, int] = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            distances[name.strip()] = int(value)
        except ValueError:
            raise RennleitungError(
                f"{item!r}: Form SPIELER=Felder", f"{item!r}: form PLAYER=spaces", "--distance"
            ) from None
    return distances


def _running_clock(session: BlitzSession) -> ChessClock:
    if session.clock is None:
        raise RennleitungError(
            "kein Lauf gestartet; erst 'start'", "no run started; 'start' first", "blitz, run"
        )
    return session.clock


def _status(session: BlitzSession, now: float | None) -> None:
    a, b = session.match.players
    say(f"Stand {a} {session.match.wins(a)} : {session.match.wins(b)} {b}",
         f"score {a} {session.match.wins(a)} : {session.match.wins(b)} {b}")
    if session.clock is None:
        return
    moment = now_or(now)
    clock = session.clock
    for player in session.match.players:
        left = clock.remaining(player, moment)
        flag = f" ({pick('Zeit abgelaufen', 'time up')})" if clock.time_up(player, moment) else ""
        Console(highlight=False).print(
            escape(f"{player}: {int(left // 60)}:{left % 60:04.1f}{flag}")
        )
    mover = clock.on_move(moment)
    if mover is None:
        say("beide Uhren abgelaufen: weitere Strecke gewinnt",
             "both clocks are out: the farther car wins")
    else:
        say(f"am Zug: {mover}", f"on the move: {mover}")

app.command("run")(run_on_board)  # a run driven on the board (cli/blitz_run.py)
