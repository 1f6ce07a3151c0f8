"""`rennleitung race`: simulate a bot race, replay a record, verify a record.

Thin adapter over ``formula_de.race_run`` (bot races), ``formula_de.record`` and
``formula_de.replay``: files and the terminal live here, the rules do not.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from rennleitung.cli.common import Lang, LangOption, pick
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.position import position_to_json
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import (
    classification_data,
    parse_record,
    record_of,
    record_to_json,
)
from rennleitung.formula_de.replay import replay, verify
from rennleitung.inputs import write_text

app = typer.Typer(
    name="race",
    help="Rennen / races: simulate with bots, replay and verify race records.",
    no_args_is_help=True,
    add_completion=False,
)

__all__ = ["app", "run_bot_race"]


def _write(path: Path, text: str) -> None:
    try:
        write_text(path, text)
    except RennleitungError as error:
        _fail(error)


def _fail(error: RennleitungError) -> None:
    from rennleitung.cli.common import show_error

    show_error(error)
    raise typer.Exit(code=1)


def running_order(race: Race) -> list[str]:
    """The cars from the leader backwards: the one running order, the engine's classification
    (finishers as they crossed the line, then laps, then distance; the web's order too)."""
    return [p.car for p in race.classification()]


def classification_table(race: Race) -> Table:
    table = Table(title=pick("Wertung", "classification"))
    for name in (pick("Platz", "place"), pick("Fahrer", "driver"), pick("Runden", "laps"),
                 pick("Start", "grid"), pick("Punkte", "points")):
        table.add_column(name)
    table.add_column(pick("Status", "status"))
    for p in race.classification():
        status = {"finished": pick("im Ziel", "finished"),
                  "running": pick("fährt", "running")}.get(p.status)
        if status is None:
            status = f"{pick(p.reason_de, p.reason_en)} ({p.rule})"
        table.add_row(
            str(p.position),
            escape(p.driver),
            str(p.laps),
            str(p.grid),
            str(p.points),
            escape(status),
        )
    return table


def _seed(seed: str | None) -> str:
    return seed if seed is not None else secrets.token_hex(16)


@app.command("simulate")
def simulate(
    track: Annotated[
        str, typer.Option(help="Strecke oder Streckendatei / track name or track file (.toml)")
    ] = "monaco",
    ruleset: Annotated[str, typer.Option(help="Regelwerk / ruleset")] = "dresden-2006",
    cars: Annotated[int, typer.Option(help="Anzahl Autos / number of cars")] = 10,
    laps: Annotated[int, typer.Option(help="Runden / laps")] = 3,
    seed: Annotated[
        str | None, typer.Option(help="Würfel-Seed (sonst zufällig) / dice seed (else random)")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="simple, steady, strong oder Liste simple,strong / bots, comma list")
    ] = "simple",
    record: Annotated[
        Path | None, typer.Option(help="Rennprotokoll schreiben / write the race record")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON-Ausgabe / JSON output")] = False,
) -> None:
    """Ein Rennen mit Bots fahren / run a race with bots."""
    the_seed = _seed(seed)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    console = Console(highlight=False, stderr=as_json)
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[info]}"),
            console=console,
            transient=True,
            # into a file or pipe the bar drew nothing but left an empty line before the table
            disable=as_json or not console.is_terminal,
        ) as progress:
            task = progress.add_task(pick("Rennen", "race"), total=laps, info="")

            def show(race: Race) -> None:
                if not race.cars or not race.round:
                    return
                leader = running_order(race)[0]
                progress.update(
                    task,
                    completed=min(race.laps_done(leader), laps),
                    info=pick(f"Spielrunde {race.round}", f"round {race.round}")
                    + f", {escape(race.driver(leader))}",
                )

            board = _own_track(track)
            race = run_bot_race(track, ruleset, cars, laps, the_seed, names, progress=show,
                                board=board)
    except RennleitungError as error:
        _fail(error)
        return
    if record is not None:
        _write(record, record_to_json(record_of(race, the_seed)))
    if as_json:
        data = {
            "seed": the_seed,
            "commitment": race.commitment,
            "track": track,
            "ruleset": ruleset,
            "rounds": race.round,
            "events": len(race.events),
            "classification": classification_data(race),
        }
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    console.print(classification_table(race))
    seed_shown, events = escape(the_seed), len(race.events)
    console.print(pick(f"Seed {seed_shown}, {race.round} Spielrunden, {events} Ereignisse",
                       f"seed {seed_shown}, {race.round} rounds, {events} events"))
    if record is not None:
        console.print(f"{pick('Protokoll', 'record')}: {escape(str(record))}")


def _own_track(reference: str | None) -> Any:
    """A track file of one's own (``*.toml`` or an existing file), else None (a built-in)."""
    from rennleitung.cli.common import load_track
    from rennleitung.formula_de.builtin_tracks import builtin_track_names

    if reference is None or reference in builtin_track_names():
        return None
    if reference.endswith(".toml") or Path(reference).exists():
        return load_track(reference)
    return None


def _load(path: Path, track_file: str | None = None) -> Any:
    """A record read through the safe input layer; ``track_file`` supplies a track of one's
    own that the record names."""
    from rennleitung.inputs import read_text

    try:
        board = _own_track(track_file)
        track_for = None if board is None else (
            lambda name: board if name == board.name else builtin_track(name))
        return parse_record(read_text(path), track_for)
    except RennleitungError as error:
        _fail(error)
    return None  # unreachable


TrackFileOption = Annotated[
    str | None,
    typer.Option("--track", help="Streckendatei, falls eigene Strecke / own track file"),
]


def print_event_lines(console: Console, lines: list[tuple[int, str]]) -> None:
    """Numbered event sentences. On a terminal a long sentence wraps under its own text, not
    under the number (at 80 columns the numbers were lost in the wrapped lines); into a file or
    a pipe every event stays one line, so ``grep`` finds whole sentences."""
    if not console.is_terminal:
        for seq, line in lines:
            console.print(f"{seq:5d} {escape(line)}", soft_wrap=True)
        return
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for seq, line in lines:
        grid.add_row(str(seq), escape(line))
    console.print(grid)


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(help="Rennprotokoll / race record")],
    until: Annotated[int | None, typer.Option(help="bis zu Ereignis N / up to event N")] = None,
    position: Annotated[
        Path | None, typer.Option(help="Stellung als JSON schreiben / write the position")
    ] = None,
    lang: LangOption = Lang.BOTH,
    track: TrackFileOption = None,
) -> None:
    """Ein Rennen aus dem Protokoll nachspielen / replay a race from its record."""
    record = _load(path, track)
    try:
        race = replay(record, until=until)
    except RennleitungError as error:
        _fail(error)
        return
    console = Console(highlight=False)
    names = race.driver_names()
    lines = [
        (event.seq, pick(render(event, "de", names), render(event, "en", names), lang))
        for event in race.events[: until if until is not None else None]
    ]
    print_event_lines(console, lines)
    if position is not None:
        _write(position, position_to_json(race.to_position()))
        console.print(f"{pick('Stellung', 'position')}: {escape(str(position))}")
    if race.finished and until is None:
        console.print(classification_table(race))


@app.command("verify")
def verify_command(
    path: Annotated[Path, typer.Argument(help="Rennprotokoll / race record")],
    track: TrackFileOption = None,
) -> None:
    """Jeden Wurf aus dem offengelegten Seed nachrechnen / check every roll from the seed."""
    record = _load(path, track)
    verdict = verify(record)
    console = Console(highlight=False)
    if verdict.honest:
        console.print(
            pick(f"[green]bestätigt[/green]: {verdict.rolls} Würfe nachgerechnet, "
                 f"{verdict.events} Ereignisse nachgespielt",
                 f"[green]honest[/green]: {verdict.rolls} rolls, {verdict.events} events")
        )
        for note in verdict.notes:
            de, _, en = note.partition(" / ")
            console.print(f"[yellow]{escape(pick(de, en))}[/yellow]")
        _print_checked(console, verdict.checked)
        return
    for problem in verdict.problems:
        console.print(f"[red]{escape(problem)}[/red]")
    for note in verdict.notes:
        de, _, en = note.partition(" / ")
        console.print(f"[yellow]{escape(pick(de, en))}[/yellow]")
    _print_checked(console, verdict.checked)
    raise typer.Exit(code=1)


def _print_checked(console: Console, lines: list[str]) -> None:
    """Which rounds were checked under which rules version (``replay.Verdict.checked``)."""
    for line in lines:
        de, _, en = line.partition(" / ")
        console.print(escape(pick(de, en or de)))
