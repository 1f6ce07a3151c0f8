"""`rennleitung turbo`: TURBO 2000 game directories, sheet checks, evaluation, reports, replay.

A game directory holds plain files and never overwrites one::

    config.json                 the game's settings (every number of the rules)
    game.json                   seed (and its SHA-256, publishable before the first roll)
    inbox/                      sheets as received, evaluated in name order (``turbo submit``)
    archive/001/                round 1's sheets as received, plus manifest.json (their order)
    rounds/001/state.json       state before round 1 is evaluated
    rounds/001/config.json      the settings round 1 was evaluated with
    rounds/001/log.txt          every step and die of round 1's evaluation
    rounds/001/rennanzeiger.txt the public results sheet (and .html)
    rounds/001/reports/NAME.txt one report per team (and .html)
    rounds/002/state.json       state after round 1 = before round 2
"""

from __future__ import annotations

import hashlib
import json
import secrets
import shutil
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rennleitung.errors import RennleitungError
from rennleitung.inputs import read_bytes
from rennleitung.textinput import decode_text
from rennleitung.turbo2000.bots import STRATEGIES, bot_sheet
from rennleitung.turbo2000.config import GameConfig, config_from_dict, config_to_dict
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.intake import check_sheet, inbox_status, missing_teams
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import RoundOutcome, evaluate_round, preview_problems
from rennleitung.turbo2000.reports import as_html
from rennleitung.turbo2000.simulation import bot_teams, play_bot_game
from rennleitung.turbo2000.standings import wm_table
from rennleitung.turbo2000.state_json import dump_state, load_state

app = typer.Typer(
    name="turbo",
    help="TURBO 2000: Zugbögen prüfen, Runden auswerten / order sheets, turn evaluation.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()


def _fail(error: RennleitungError) -> typer.Exit:
    """Exit code 1: the input or a rule refused it (2 is left to wrong usage)."""
    console.print(f"[red]{escape(error.message_de)}[/red]\n[red]{escape(error.message_en)}[/red]")
    return typer.Exit(code=1)


def _round_dir(game_dir: Path, round_number: int) -> Path:
    return game_dir / "rounds" / f"{round_number:03d}"


def _load_config(game_dir: Path) -> GameConfig:
    return config_from_dict(json.loads((game_dir / "config.json").read_text(encoding="utf-8")))


def _seed(game_dir: Path) -> str:
    return str(json.loads((game_dir / "game.json").read_text(encoding="utf-8"))["seed"])


def _current_round(game_dir: Path) -> int:
    """The newest round that has a state file."""
    rounds = sorted(int(p.parent.name) for p in (game_dir / "rounds").glob("*/state.json"))
    if not rounds:
        raise RennleitungError("kein Spielverzeichnis (rounds/*/state.json fehlt)",
                               "not a game directory (rounds/*/state.json missing)",
                               where=str(game_dir))
    return rounds[-1]


def _load_round_state(game_dir: Path, round_number: int) -> GameState:
    path = _round_dir(game_dir, round_number) / "state.json"
    return load_state(path.read_text(encoding="utf-8"))


def _write_new(path: Path, text: str) -> None:
    """Write a file that must not exist yet (inputs and outputs are never overwritten)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as handle:
        handle.write(text)


def decode_sheet(data: bytes, where: str = "") -> str:
    """A sheet's bytes as text (the file is kept as received).

    The safe input layer's decoding (UTF-8, any byte-order mark — Windows Notepad writes one —
    else Windows-1252 as older mail programs send it), plus UTF-16 without a mark, recognisable
    by its zero bytes.
    """
    sample = data[:200]
    if not data.startswith((b"\xff\xfe", b"\xfe\xff")) and len(sample) >= 4 \
            and sample.count(0) * 3 >= len(sample):
        odd_zeros = sample[1::2].count(0)
        codec = "utf-16-le" if odd_zeros >= sample[0::2].count(0) else "utf-16-be"
        return data.decode(codec, errors="replace")
    return decode_text(data, where, legacy=True)


def _read_sheet(path: Path) -> str:
    """A sheet file as text; a missing, unreadable or oversized file is a clear error."""
    return decode_sheet(read_bytes(path), str(path))


def _parse_teams(text: str) -> list[tuple[str, str]]:
    teams = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            name, _, password = item.partition(":")
            teams.append((name.strip(), password.strip() or secrets.token_hex(4)))
    return teams


@app.command("new")
def new(
    game_dir: Path = typer.Argument(..., help="Neues Spielverzeichnis / new game directory"),
    teams: str = typer.Option(..., "--teams",
                              help="Rennställe 'Name[:Passwort],…' / teams 'name[:password],…'"),
    seed: str = typer.Option("", "--seed", help="Startwert der Würfel / dice seed"),
    config_file: Path | None = typer.Option(None, "--config",
                                            help="Einstellungen (JSON) / settings file"),
) -> None:
    """Neue Partie anlegen / create a new game."""
    if (game_dir / "game.json").exists():
        raise _fail(RennleitungError("Spielverzeichnis existiert schon",
                                     "game directory already exists", where=str(game_dir)))
    try:
        config = (config_from_dict(json.loads(config_file.read_text(encoding="utf-8")))
                  if config_file else GameConfig())
        team_list = _parse_teams(teams)
        state = new_game(team_list, config)
    except RennleitungError as error:
        raise _fail(error) from error
    seed = seed or secrets.token_hex(8)
    _write_new(game_dir / "config.json",
               json.dumps(config_to_dict(config), indent=1, ensure_ascii=False) + "\n")
    _write_new(game_dir / "game.json", json.dumps(
        {"seed": seed, "seed_sha256": hashlib.sha256(seed.encode()).hexdigest()}, indent=1) + "\n")
    _write_new(_round_dir(game_dir, 1) / "state.json", dump_state(state))
    (game_dir / "inbox").mkdir(exist_ok=True)
    table = Table(title=f"TURBO 2000: {game_dir}")
    table.add_column("Rennstall / team")
    table.add_column("Passwort / password")
    for name, password in team_list:
        table.add_row(name, password)
    console.print(table)
    console.print(f"Runde 1 wartet auf Zugbögen in / round 1 waits for sheets in {game_dir}/inbox")
    console.print("SHA-256 des Startwerts zum Veröffentlichen / seed hash to publish: "
                  f"{hashlib.sha256(seed.encode()).hexdigest()}")


@app.command("check")
def check(
    sheet: Path = typer.Argument(..., help="Zugbogen / order sheet"),
    game_dir: Path | None = typer.Option(None, "--game",
                                         help="Spiel: prüft auch Rennstall, Passwort, Runde"),
) -> None:
    """Zugbogen prüfen, jede Zeile wie die Auswertung / check a sheet as the evaluation sees it."""
    try:
        config = _load_config(game_dir) if game_dir else GameConfig()
        state = _load_round_state(game_dir, _current_round(game_dir)) if game_dir else None
        text = _read_sheet(sheet)
    except RennleitungError as error:
        raise _fail(error) from error
    parsed = check_sheet(text, state, config)
    preview = preview_problems(text, state, config) if state and not parsed.problems else []
    for warning in parsed.warnings:
        typer.echo(f"{sheet}:{warning.line}: [{warning.field}] Achtung: {warning.de}")
        typer.echo(f"{sheet}:{warning.line}: [{warning.field}] Note: {warning.en}")
    if not parsed.problems and not preview:
        console.print(f"[green]{escape(str(sheet))}: in Ordnung / fine[/green] "
                      f"({len(parsed.entries)} Rennmeldungen, {len(parsed.trades)} Geschäfte)")
        return
    for problem in parsed.problems:
        typer.echo(f"{sheet}:{problem.line}: [{problem.field}] {problem.de}")
        typer.echo(f"{sheet}:{problem.line}: [{problem.field}] {problem.en}")
    if preview:
        typer.echo("Vorschau, falls kein anderer Rennstall dazwischenkommt / preview, if no other "
                   "team interferes:")
    for problem in preview:
        typer.echo(f"{sheet}:{problem.line}: [{problem.field}] {problem.de}")
        typer.echo(f"{sheet}:{problem.line}: [{problem.field}] {problem.en}")
    raise typer.Exit(code=1)


@app.command("submit")
def submit(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    sheet: Path = typer.Argument(..., help="Zugbogen / order sheet"),
) -> None:
    """Zugbogen unverändert in den Eingang legen / put a sheet into the inbox as received."""
    inbox = game_dir / "inbox"
    inbox.mkdir(parents=True, exist_ok=True)
    number = len(list(inbox.iterdir())) + 1
    target = inbox / f"{number:04d}-{sheet.name}"
    while target.exists():
        number += 1
        target = inbox / f"{number:04d}-{sheet.name}"
    shutil.copyfile(sheet, target)
    console.print(f"{target}")


def _store_outcome(game_dir: Path, round_number: int, outcome: RoundOutcome,
                   config: GameConfig) -> None:
    here = _round_dir(game_dir, round_number)
    _write_new(here / "config.json",
               json.dumps(config_to_dict(config), indent=1, ensure_ascii=False) + "\n")
    _write_new(here / "log.txt", "\n".join(outcome.log) + "\n")
    _write_new(here / "rennanzeiger.txt", outcome.results_sheet)
    _write_new(here / "rennanzeiger.html",
               as_html(outcome.results_sheet, f"Rennanzeiger Runde {round_number}"))
    for team, text in sorted(outcome.team_reports.items()):
        _write_new(here / "reports" / f"{team}.txt", text)
        _write_new(here / "reports" / f"{team}.html", as_html(text, f"{team} Runde {round_number}"))
    _write_new(_round_dir(game_dir, round_number + 1) / "state.json", dump_state(outcome.state))


def _archived_sheets(game_dir: Path, round_number: int) -> list[str]:
    archive = game_dir / "archive" / f"{round_number:03d}"
    manifest = json.loads((archive / "manifest.json").read_text(encoding="utf-8"))
    return [_read_sheet(archive / name) for name in manifest["sheets"]]


def _inbox_files(game_dir: Path) -> list[Path]:
    """The order sheets waiting in the game's inbox, by name."""
    inbox = game_dir / "inbox"
    return sorted(p for p in inbox.iterdir() if p.is_file()) if inbox.exists() else []


STATUS_WORDS = {"accepted": "angenommen / accepted", "refused": "abgelehnt / refused",
                "missing": "fehlt / missing"}


@app.command("status")
def status(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Laufende Runde und Stand jedes Rennstalls / current round and each team's sheet."""
    try:
        config = _load_config(game_dir)
        round_number = _current_round(game_dir)
        state = _load_round_state(game_dir, round_number)
        files = _inbox_files(game_dir)
        texts = [_read_sheet(p) for p in files]
    except RennleitungError as error:
        raise _fail(error) from error
    if state.finished:
        console.print("Die Partie ist beendet / the game is over")
        return
    statuses = inbox_status(texts, state, config)
    table = Table(title=f"Runde {round_number} (Jahr {config.year_of(round_number)})")
    table.add_column("Rennstall / team")
    table.add_column("Stand / status")
    table.add_column("Bogen / sheet")
    table.add_column("Warum / why")
    for entry in statuses:
        why = "; ".join(f"{p.de} / {p.en}" for p in entry.reasons)
        if entry.status == "accepted":
            why = f"{entry.problems} fehlerhafte Zeilen / faulty lines" if entry.problems else ""
            if entry.leaving:
                why = (why + "; " if why else "") + "steigt aus / leaves (§19)"
        table.add_row(escape(entry.team), STATUS_WORDS[entry.status],
                      escape(files[entry.sheet - 1].name) if entry.sheet else "",
                      escape(why))
    console.print(table)
    missing = missing_teams(statuses, state)
    console.print("Es fehlen (kein gültiger Bogen) / missing: "
                  + (", ".join(missing) or "niemand / nobody"))


@app.command("evaluate")
def evaluate(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Die laufende Runde aus dem Eingang auswerten / evaluate the current round from the inbox."""
    try:
        config = _load_config(game_dir)
        round_number = _current_round(game_dir)
        state = _load_round_state(game_dir, round_number)
        files = _inbox_files(game_dir)
        texts = [_read_sheet(p) for p in files]
        outcome = evaluate_round(state, texts, _seed(game_dir), config)
        archive = game_dir / "archive" / f"{round_number:03d}"
        if archive.exists() or (_round_dir(game_dir, round_number) / "log.txt").exists():
            raise RennleitungError(f"Runde {round_number} ist schon ausgewertet worden",
                                   f"round {round_number} has already been evaluated",
                                   where=str(archive))
    except RennleitungError as error:
        raise _fail(error) from error
    archive.mkdir(parents=True)
    for path in files:
        shutil.move(str(path), archive / path.name)
    _write_new(archive / "manifest.json",
               json.dumps({"round": round_number, "sheets": [p.name for p in files]}, indent=1)
               + "\n")
    _store_outcome(game_dir, round_number, outcome, config)
    typer.echo(outcome.results_sheet)
    console.print(f"Runde {round_number} ausgewertet / evaluated: {len(files)} Bögen / sheets")


@app.command("report")
def report(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    team: str = typer.Option("", "--team", help="Rennstall / team (leer: Rennanzeiger)"),
    round_number: int = typer.Option(0, "--round", help="Runde / round (0: die letzte)"),
    html_output: bool = typer.Option(False, "--html", help="HTML statt Text / HTML instead"),
) -> None:
    """Bericht einer ausgewerteten Runde zeigen / show a report of an evaluated round."""
    try:
        evaluated = round_number or _current_round(game_dir) - 1
    except RennleitungError as error:
        raise _fail(error) from error
    suffix = "html" if html_output else "txt"
    here = _round_dir(game_dir, evaluated)
    path = here / "reports" / f"{team}.{suffix}" if team else here / f"rennanzeiger.{suffix}"
    if not path.exists():
        raise _fail(RennleitungError(f"kein Bericht für '{team or 'Rennanzeiger'}' in Runde "
                                     f"{evaluated}", f"no report for '{team or 'results'}' in "
                                     f"round {evaluated}", where=str(path)))
    typer.echo(path.read_text(encoding="utf-8"), nl=False)


@app.command("replay")
def replay(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Alle Runden neu auswerten und vergleichen / re-evaluate every round and compare."""
    try:
        config = _load_config(game_dir)
        seed = _seed(game_dir)
        last = _current_round(game_dir)
    except RennleitungError as error:
        raise _fail(error) from error
    mismatches = 0
    for round_number in range(1, last):
        state = _load_round_state(game_dir, round_number)
        used = _round_dir(game_dir, round_number) / "config.json"
        if used.exists():  # the settings this round was evaluated with
            config = config_from_dict(json.loads(used.read_text(encoding="utf-8")))
        outcome = evaluate_round(state, _archived_sheets(game_dir, round_number), seed, config)
        here = _round_dir(game_dir, round_number)
        checks = {
            "state.json": (dump_state(outcome.state),
                           (_round_dir(game_dir, round_number + 1) / "state.json")),
            "log.txt": ("\n".join(outcome.log) + "\n", here / "log.txt"),
            "rennanzeiger.txt": (outcome.results_sheet, here / "rennanzeiger.txt"),
        }
        for team, text in outcome.team_reports.items():
            checks[f"reports/{team}.txt"] = (text, here / "reports" / f"{team}.txt")
        bad = [name for name, (text, path) in checks.items()
               if path.read_text(encoding="utf-8") != text]
        mismatches += len(bad)
        status = "[green]gleich / identical[/green]" if not bad else \
            f"[red]ABWEICHUNG / MISMATCH: {', '.join(bad)}[/red]"
        console.print(f"Runde {round_number}: {status}")
    if mismatches:
        raise typer.Exit(code=1)
    console.print(f"{last - 1} Runden identisch / rounds identical")


@app.command("bot")
def bot(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    team: str = typer.Option(..., "--team", help="Rennstall / team"),
    strategy: str = typer.Option("ausgewogen", "--strategy",
                                 help=f"Strategie: {', '.join(STRATEGIES)}"),
    seed: str = typer.Option("0", "--seed", help="Startwert des Bots / bot seed"),
) -> None:
    """Einen Zugbogen von einem Bot schreiben lassen / print a bot's sheet for a team."""
    import random

    if strategy not in STRATEGIES:
        raise _fail(RennleitungError(f"unbekannte Strategie '{strategy}'",
                                     f"unknown strategy '{strategy}'", where="--strategy"))
    try:
        config = _load_config(game_dir)
        state = _load_round_state(game_dir, _current_round(game_dir))
    except RennleitungError as error:
        raise _fail(error) from error
    if team not in state.teams:
        raise _fail(RennleitungError(f"Rennstall '{team}' unbekannt", f"unknown team '{team}'",
                                     where="--team"))
    rng = random.Random(f"bot:{seed}:{state.round}:{team}")
    typer.echo(bot_sheet(state, team, STRATEGIES[strategy], config, rng), nl=False)


@app.command("demo")
def demo(
    teams: int = typer.Option(8, "--teams", min=2, help="Anzahl Bot-Rennställe / bot teams"),
    years: int = typer.Option(3, "--years", min=1, help="Rennjahre / racing years"),
    seed: str = typer.Option("1", "--seed", help="Startwert / seed"),
    show_last: bool = typer.Option(False, "--rennanzeiger",
                                   help="den letzten Rennanzeiger zeigen / show the last results"),
) -> None:
    """Eine ganze Partie mit Bots spielen / play a whole game with bot teams."""
    config = GameConfig()
    game = play_bot_game(bot_teams(teams), years, seed, config)
    if show_last and game.last:
        typer.echo(game.last.results_sheet)
    table = Table(title=f"TURBO 2000 - Ewige WM-Liste nach Runde {game.state.round - 1}")
    table.add_column("Platz", justify="right")
    table.add_column("Rennstall / team")
    table.add_column("Strategie / strategy")
    table.add_column("WM-Punkte", justify="right")
    table.add_column("Konto / money", justify="right")
    for place, name, points in wm_table(game.state):
        money = f"{game.state.teams[name].money:,}".replace(",", ".")
        table.add_row(str(place), name, game.strategies[name], str(points), money)
    console.print(table)
    console.print(f"Sieger / winner: {game.winner()} ({game.strategies[game.winner()]})")
