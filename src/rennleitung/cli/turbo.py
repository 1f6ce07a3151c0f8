"""`rennleitung turbo`: TURBO 2000 game directories, sheet checks, evaluation, reports, replay.

The game directory and its crash-safe commit are in ``store/turbo_games.py``; the layout is in
``docs/turbo2000/game-master.md``. Exit codes: 0 done, 1 refused (input, rule, state of the
game), 2 wrong usage. The engine modules are imported inside the commands that need them, so
``turbo check`` starts quickly.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from rennleitung.errors import RennleitungError
from rennleitung.inputs import read_bytes
from rennleitung.store.turbo_games import GameDir
from rennleitung.textinput import decode_text
from rennleitung.turbo2000.config import GameConfig, config_to_dict, new_game_config

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from rennleitung.turbo2000.model import GameState
    from rennleitung.turbo2000.pipeline import RoundOutcome

app = typer.Typer(
    name="turbo",
    help="TURBO 2000: Zugbögen prüfen, Runden auswerten / order sheets, turn evaluation.",
    no_args_is_help=True,
    add_completion=False,
)


class _LazyConsole:
    """Rich is imported on the first print, so `turbo check` starts without it."""

    _console: Console | None = None

    def print(self, *objects: object) -> None:
        if self._console is None:
            from rich.console import Console

            self._console = Console(soft_wrap=True)
        self._console.print(*objects)


console = _LazyConsole()


def escape(text: str) -> str:
    """Text shown through Rich markup, with its brackets escaped."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def pick(de: str, en: str) -> str:
    """The text in the reader's language ("de / en" when both are wanted)."""
    from rennleitung.cli.common import pick as chosen

    return chosen(de, en)


def _echo(de: str, en: str) -> None:
    """A line in the reader's language; with both languages, the German line then the English."""
    from rennleitung.cli.common import Lang, current_lang

    lang = current_lang()
    if lang is not Lang.EN:
        typer.echo(de)
    if lang is not Lang.DE:
        typer.echo(en)


def counted(n: int, one: str, many: str) -> str:
    """A number with its noun (``cli.common.counted``, imported late like ``pick``)."""
    from rennleitung.cli.common import counted as with_noun

    return with_noun(n, one, many)


def _grouped(value: int) -> str:
    """Thousands grouped the reader's way: 1.234.500 in German, 1,234,500 in English (was the
    German form in an English table)."""
    from rennleitung.cli.common import Lang, current_lang

    text = f"{value:,}"
    return text if current_lang() is Lang.EN else text.replace(",", ".")


def _table(title: str) -> Table:
    from rich.table import Table

    return Table(title=title)


def _fail(error: RennleitungError) -> typer.Exit:
    """Exit code 1: the input or a rule refused it (2 is left to wrong usage)."""
    from rennleitung.cli.common import show_error

    show_error(error, labelled=True)
    return typer.Exit(code=1)


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


def _parse_teams(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """``Name[/Reserve][:Passwort],…``: the teams with passwords, and each one's reserve name
    (June 1996: used if an earlier team took the name)."""
    teams, reserves = [], []
    for item in (part.strip() for part in text.split(",")):
        if item:
            names, _, password = item.partition(":")
            name, _, reserve = names.partition("/")
            teams.append((name.strip(), password.strip() or secrets.token_hex(4)))
            reserves.append(reserve.strip())
    return teams, reserves


def _open(game_dir: Path) -> GameDir:
    """A game directory, with the inbox sheets of a finished commit already tidied away."""
    game = GameDir(game_dir)
    game.require()
    game.current_round()
    game.tidy_inbox()
    return game


def _refuse_leftovers(game: GameDir) -> None:
    """A crashed evaluation must be resumed or undone before anything else changes the game."""
    leftovers = game.leftovers()
    if leftovers:
        names = ", ".join(str(p.relative_to(game.path)) for p in leftovers.paths)
        raise RennleitungError(
            f"Auswertung von Runde {leftovers.round} wurde abgebrochen ({names}); weiter mit "
            "'turbo evaluate --resume' oder zurück mit 'turbo undo'",
            f"the evaluation of round {leftovers.round} was interrupted ({names}); continue "
            "with 'turbo evaluate --resume' or take it back with 'turbo undo'",
            where=str(game.path))


@app.command("new")
def new(
    game_dir: Path = typer.Argument(..., help="Neues Spielverzeichnis / new game directory"),
    teams: str = typer.Option(..., "--teams",
                              help=escape("Rennställe 'Name[/Reserve][:Passwort],…' / teams "
                                          "'name[/reserve][:password],…'")),
    seed: str = typer.Option("", "--seed", help="Startwert der Würfel / dice seed"),
    config_file: Path | None = typer.Option(None, "--config",
                                            help="Einstellungen (JSON) / settings file"),
) -> None:
    """Neue Partie anlegen, mit dem Rennanzeiger zu Runde 1 / create a game and its start sheet."""
    from rennleitung.inputs import read_json
    from rennleitung.render.turbo_html import document_page
    from rennleitung.turbo2000.document import as_text
    from rennleitung.turbo2000.game import new_game
    from rennleitung.turbo2000.reports import start_document
    from rennleitung.turbo2000.state_json import dump_state

    if (game_dir / "game.json").exists():
        raise _fail(RennleitungError("Spielverzeichnis existiert schon",
                                     "game directory already exists", where=str(game_dir)))
    try:
        data = read_json(config_file) if config_file else {}
        if not isinstance(data, dict):
            raise RennleitungError("Einstellungen müssen ein JSON-Objekt sein",
                                   "settings must be a JSON object", where=str(config_file))
        config = new_game_config(data)
        team_list, reserves = _parse_teams(teams)
        state = new_game(team_list, config, reserves)
        team_list = [(name, team.password) for name, team in state.teams.items()]
    except RennleitungError as error:
        raise _fail(error) from error
    seed = seed or secrets.token_hex(8)
    try:
        game_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _fail(RennleitungError(f"Verzeichnis nicht anlegbar ({error.strerror})",
                                     f"cannot create the directory ({error.strerror})",
                                     where=str(game_dir))) from error
    game = GameDir(game_dir)
    start = start_document(state, config)
    start_en = start_document(state, config, "en")  # what the welcome mail of an English team
    game.create(
        json.dumps(config_to_dict(config), indent=1, ensure_ascii=False) + "\n",
        json.dumps({"seed": seed, "seed_sha256": hashlib.sha256(seed.encode()).hexdigest()},
                   indent=1) + "\n",
        {"rennanzeiger.txt": as_text(start), "rennanzeiger.html": document_page(start),
         "rennanzeiger.en.txt": as_text(start_en),
         "rennanzeiger.en.html": document_page(start_en, language="en")},
        dump_state(state))
    table = _table(f"TURBO 2000: {escape(str(game_dir))}")
    table.add_column(pick("Rennstall", "team"))
    table.add_column(pick("Passwort", "password"))
    for name, password in team_list:
        table.add_row(escape(name), escape(password))
    console.print(table)
    inbox = f"{escape(str(game_dir))}/inbox"
    console.print(pick(f"Runde 1 wartet auf Zugbögen in {inbox}",
                       f"round 1 waits for sheets in {inbox}"))
    console.print(f"{pick('Rennanzeiger zu Runde 1', 'start sheet')}: "
                  f"{escape(str(game.round_dir(0) / 'rennanzeiger.txt'))}")
    console.print(f"{pick('SHA-256 des Startwerts zum Veröffentlichen', 'seed hash to publish')}: "
                  f"{hashlib.sha256(seed.encode()).hexdigest()}")


@app.command("check")
def check(
    sheet: Path = typer.Argument(..., help="Zugbogen / order sheet"),
    game_dir: Path | None = typer.Option(None, "--game",
                                         help="Spiel: prüft auch Rennstall, Passwort, Runde"),
) -> None:
    """Zugbogen prüfen, jede Zeile wie die Auswertung / check a sheet as the evaluation sees it."""
    from rennleitung.turbo2000.intake import check_sheet

    try:
        text = _read_sheet(sheet)
        if game_dir:
            game = GameDir(game_dir)
            config = game.config()
            state = game.state(game.current_round())
        else:
            config, state = GameConfig(), None
    except RennleitungError as error:
        raise _fail(error) from error
    parsed = check_sheet(text, state, config)
    preview = []
    if state and not any(p.line == 0 for p in parsed.problems):  # a refused sheet: no trial
        from rennleitung.turbo2000.pipeline import preview_problems

        preview = preview_problems(text, state, config)
    for warning in parsed.warnings:
        where = f"{sheet}:{warning.line}: [{warning.field}]"
        _echo(f"{where} Achtung: {warning.de}", f"{where} Note: {warning.en}")
    if not parsed.problems and not preview:
        entries, trades = len(parsed.entries), len(parsed.trades)
        typer.echo(pick(
            f"{sheet}: in Ordnung ({counted(entries, 'Rennmeldung', 'Rennmeldungen')}, "
            f"{counted(trades, 'Geschäft', 'Geschäfte')})",
            f"{sheet}: fine ({counted(entries, 'race entry', 'race entries')}, "
            f"{counted(trades, 'trade', 'trades')})"))
        return
    # one pass, in line order: the sheet's own problems, then (marked) what the trial
    # evaluation refuses; it runs even when some lines are faulty, as the evaluation would
    found = sorted([(p.line, 0, p) for p in parsed.problems]
                   + [(p.line, 1, p) for p in preview], key=lambda item: item[:2])
    if preview:
        typer.echo(pick("Vorschau, falls kein anderer Rennstall dazwischenkommt:",
                        "preview, if no other team interferes:"))
    for _, from_preview, problem in found:
        de_mark, en_mark = (" (Vorschau)", " (preview)") if from_preview else ("", "")
        where = f"{sheet}:{problem.line}: [{problem.field}]"
        _echo(f"{where} {problem.de}{de_mark}", f"{where} {problem.en}{en_mark}")
    raise typer.Exit(code=1)


@app.command("submit")
def submit(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    sheet: Path = typer.Argument(..., help="Zugbogen / order sheet"),
) -> None:
    """Zugbogen unverändert in den Eingang legen / put a sheet into the inbox as received."""
    try:
        game = _open(game_dir)
        data = read_bytes(sheet)
    except RennleitungError as error:
        raise _fail(error) from error
    console.print(escape(str(game.submit_file(data, sheet.name))))


def round_outputs(outcome: RoundOutcome, round_number: int, config: GameConfig
                  ) -> dict[str, str]:
    """The files evaluating a round writes into ``rounds/NNN/``, by relative name."""
    from rennleitung.render.turbo_html import document_page
    from rennleitung.turbo2000.document import as_text

    history = outcome.state.history
    outputs = {
        "config.json": json.dumps(config_to_dict(config), indent=1, ensure_ascii=False) + "\n",
        "log.txt": "\n".join(outcome.log) + "\n",
        "rennanzeiger.txt": outcome.results_sheet,
        "rennanzeiger.html": document_page(outcome.results_document, history),
    }
    for team, text in sorted(outcome.team_reports.items()):
        outputs[f"reports/{team}.txt"] = text
        if team in outcome.team_reports_en:  # for a team playing in English (mail bind en)
            outputs[f"reports/{team}.en.txt"] = outcome.team_reports_en[team]
        outputs[f"reports/{team}.json"] = outcome.team_json[team]
        outputs[f"reports/{team}.html"] = document_page(outcome.team_documents[team], history,
                                                        team)
        if team in outcome.team_documents_en:
            outputs[f"reports/{team}.en.html"] = document_page(
                outcome.team_documents_en[team], history, team, "en")
    if outcome.results_document_en is not None:  # for teams playing in English (issue 24)
        outputs["rennanzeiger.en.txt"] = as_text(outcome.results_document_en)
        outputs["rennanzeiger.en.html"] = document_page(outcome.results_document_en, history,
                                                        language="en")
    return outputs


STATUS_WORDS = {"accepted": ("angenommen", "accepted"), "refused": ("abgelehnt", "refused"),
                "missing": ("fehlt", "missing")}


@app.command("status")
def status(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Laufende Runde und Stand jedes Rennstalls / current round and each team's sheet."""
    from rennleitung.turbo2000.intake import inbox_status, missing_teams

    try:
        game = _open(game_dir)
        round_number = game.current_round()
        config = game.config()
        state = game.state(round_number)
        files, texts, waiting = _this_round(game.inbox(), state, config)
        leftovers = game.leftovers()
    except RennleitungError as error:
        raise _fail(error) from error
    if leftovers:
        console.print("[red]" + pick(
            f"Auswertung von Runde {leftovers.round} abgebrochen: 'turbo evaluate --resume' "
            "oder 'turbo undo'",
            f"evaluation of round {leftovers.round} interrupted: 'turbo evaluate --resume' or "
            "'turbo undo'") + "[/red]")
    if state.finished:
        console.print(pick("Die Partie ist beendet", "the game is over"))
        return
    statuses = inbox_status(texts, state, config)
    year = config.year_of(round_number)
    table = _table(pick(f"Runde {round_number} (Jahr {year})",
                        f"round {round_number} (year {year})"))
    table.add_column(pick("Rennstall", "team"))
    table.add_column(pick("Stand", "status"))
    table.add_column(pick("Bogen", "sheet"))
    table.add_column(pick("Warum", "why"))
    table.add_column(pick("Eingang", "arrived"))
    for entry in statuses:
        why = "; ".join(pick(p.de, p.en) for p in entry.reasons)
        if entry.status == "accepted":
            why = pick(counted(entry.problems, "fehlerhafte Zeile", "fehlerhafte Zeilen"),
                       counted(entry.problems, "faulty line", "faulty lines")) \
                if entry.problems else ""
            if entry.leaving:
                why = (why + "; " if why else "") + pick("steigt aus (§19)", "leaves (§19)")
            if entry.long_contact:
                why = (why + "; " if why else "") + pick(
                    f"Kontakte {entry.long_contact} Zeichen, über {config.contact_limit} (§18)",
                    f"contacts of {entry.long_contact} characters, over {config.contact_limit} "
                    "(§18)")
        table.add_row(escape(entry.team), pick(*STATUS_WORDS[entry.status]),
                      escape(files[entry.sheet - 1].name) if entry.sheet else "",
                      escape(why), _arrived(files[entry.sheet - 1]) if entry.sheet else "")
    console.print(table)
    missing = missing_teams(statuses, state)
    _show_waiting(waiting)
    console.print(pick("Es fehlen (kein gültiger Bogen)", "missing (no valid sheet)") + ": "
                  + (", ".join(missing) or pick("niemand", "nobody")))


def _arrived(path: Path) -> str:
    """When a sheet came into the inbox, and whether by mail (``NNNN-mailID-TEAM.txt``, see
    ``rennleitung mail``; ``mail status GAME`` lists every mail, refused ones too)."""
    import re
    from datetime import UTC, datetime

    when = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC")
    mailed = re.match(r"\d+-mail(\d+)-", path.name)
    return f"{when}, Mail {mailed.group(1)}" if mailed else when


@app.command("evaluate")
def evaluate(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    force: bool = typer.Option(False, "--force",
                               help="auch wenn Rennställe fehlen / even with teams missing"),
    resume: bool = typer.Option(False, "--resume",
                                help="abgebrochene Auswertung neu starten / redo an interrupted "
                                     "evaluation"),
) -> None:
    """Die laufende Runde aus dem Eingang auswerten / evaluate the current round from the inbox."""
    from rennleitung.turbo2000.intake import inbox_status, missing_teams
    from rennleitung.turbo2000.pipeline import evaluate_round
    from rennleitung.turbo2000.state_json import dump_state

    try:
        game = _open(game_dir)
        leftovers = game.leftovers()
        if leftovers and resume:
            game.clear_leftovers(leftovers)
        elif leftovers:
            _refuse_leftovers(game)
        round_number = game.current_round()
        config = game.config()
        state = game.state(round_number)
        files, texts, waiting = _this_round(game.inbox(), state, config)
        missing = missing_teams(inbox_status(texts, state, config), state)
        if missing and not force and not state.finished:
            raise RennleitungError(  # the round in each language (was "Runde 1" in English)
                f"Runde {round_number}: ohne gültigen Bogen: {', '.join(missing)}; auswerten "
                "trotzdem mit '--force'",
                f"round {round_number}: without a valid sheet: {', '.join(missing)}; evaluate "
                "anyway with '--force'")
        outcome = evaluate_round(state, texts, game.seed(), config)
        game.commit_round(round_number, files, round_outputs(outcome, round_number, config),
                          dump_state(outcome.state))
    except RennleitungError as error:
        raise _fail(error) from error
    typer.echo(outcome.results_sheet)
    console.print(pick(f"Runde {round_number} ausgewertet: {counted(len(files), 'Bogen', 'Bögen')}",
                       f"round {round_number} evaluated: "
                       f"{counted(len(files), 'sheet', 'sheets')}"))
    _show_waiting(waiting)


def _this_round(files: list[Path], state: GameState, config: GameConfig
                ) -> tuple[list[Path], list[str], list[tuple[Path, int]]]:
    """The inbox split: this round's sheets (and their texts), and the sheets written for a
    later round, which stay in the inbox for it (``intake.later_round``)."""
    from rennleitung.turbo2000.intake import later_round

    now: list[tuple[Path, str]] = []
    waiting: list[tuple[Path, int]] = []
    for path in files:
        text = _read_sheet(path)
        later = later_round(text, state, config)
        if later:
            waiting.append((path, later))
        else:
            now.append((path, text))
    return [p for p, _ in now], [t for _, t in now], waiting


def _show_waiting(waiting: list[tuple[Path, int]]) -> None:
    for path, later in waiting:
        console.print(pick(f"{escape(path.name)} wartet auf Runde {later}",
                           f"{escape(path.name)} waits for round {later}"))


@app.command("undo")
def undo(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Letzte Runde zurücknehmen, solange kein Bericht verschickt ist / take back the last round."""
    try:
        game = _open(game_dir)
        leftovers = game.leftovers()
        if leftovers:
            game.clear_leftovers(leftovers)
            console.print(pick(f"Abgebrochene Auswertung von Runde {leftovers.round} entfernt, "
                               "die Bögen liegen im Eingang",
                               f"interrupted evaluation of round {leftovers.round} removed, the "
                               "sheets are in the inbox"))
            return
        current = game.current_round()
        last = current - 1
        if last < 1:
            raise RennleitungError("noch keine Runde ausgewertet", "no round evaluated yet",
                                   where=str(game.path))
        if game.reports_sent(last):
            raise RennleitungError(
                f"Berichte von Runde {last} sind verschickt, Rücknahme nicht mehr möglich",
                f"the reports of round {last} have gone out; it cannot be taken back",
                where=str(game.round_dir(last) / "sent"))
        game.undo_round(last)
    except RennleitungError as error:
        raise _fail(error) from error
    console.print(pick(f"Runde {last} zurückgenommen, ihre Bögen liegen wieder im Eingang",
                       f"round {last} taken back, its sheets are in the inbox again"))


@app.command("sent")
def sent(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    round_number: int = typer.Option(0, "--round", help="Runde / round (0: die letzte)"),
) -> None:
    """Vermerken, dass die Berichte verschickt sind / note that the reports have gone out."""
    try:
        game = _open(game_dir)
        evaluated = round_number or game.current_round() - 1
        if not (game.round_dir(evaluated) / "log.txt").is_file() \
                or evaluated >= game.current_round():
            raise RennleitungError(f"Runde {evaluated} ist nicht ausgewertet",
                                   f"round {evaluated} has not been evaluated",
                                   where=str(game.round_dir(evaluated)))
        game.mark_sent(evaluated)
    except RennleitungError as error:
        raise _fail(error) from error
    console.print(pick(f"Runde {evaluated}: Berichte verschickt",
                       f"round {evaluated}: reports sent"))


@app.command("report")
def report(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    team: str = typer.Option("", "--team", help="Rennstall / team (leer: Rennanzeiger)"),
    round_number: int = typer.Option(-1, "--round",
                                     help="Runde / round (0: Start, ohne: die letzte / last)"),
    html_output: bool = typer.Option(False, "--html", help="HTML statt Text / HTML instead"),
    json_output: bool = typer.Option(False, "--json",
                                     help="Bericht als JSON (mit --team) / report as JSON"),
    english: bool = typer.Option(False, "--english",
                                 help="nur Englisch, wo die Runde es hat / English only, where "
                                      "the round has it (TEAM.en.txt, rennanzeiger.en.txt)"),
) -> None:
    """Bericht einer ausgewerteten Runde zeigen / show a report of an evaluated round."""
    try:
        game = _open(game_dir)
        evaluated = round_number if round_number >= 0 else game.current_round() - 1
        suffix = "json" if json_output and team else "html" if html_output else "txt"
        here = game.round_dir(evaluated)
        path = here / "reports" / f"{team}.{suffix}" if team else here / f"rennanzeiger.{suffix}"
        in_english = path.with_name(f"{path.stem}.en{path.suffix}")
        if english and suffix != "json" and in_english.is_file():  # issue 24
            path = in_english
        if "/" in team or "\\" in team or team.startswith(".") or not path.is_file() \
                or evaluated >= game.current_round():
            raise RennleitungError(f"kein Bericht für '{team or 'Rennanzeiger'}' in Runde "
                                   f"{evaluated}", f"no report for '{team or 'results'}' in "
                                   f"round {evaluated}", where=str(path))
        from rennleitung.inputs import read_text

        text = read_text(path)
    except RennleitungError as error:
        raise _fail(error) from error
    typer.echo(text, nl=False)


@app.command("replay")
def replay(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
) -> None:
    """Alle Runden neu auswerten und vergleichen / re-evaluate every round and compare."""
    from rennleitung.turbo2000.pipeline import evaluate_round
    from rennleitung.turbo2000.state_json import dump_state

    try:
        game = _open(game_dir)
        seed = game.seed()
        last = game.current_round()
        leftovers = game.leftovers()
    except RennleitungError as error:
        raise _fail(error) from error
    mismatches = 0
    if leftovers:
        mismatches += 1
        console.print("[red]" + pick(
            f"Runde {leftovers.round}: Auswertung abgebrochen ('turbo evaluate --resume' oder "
            "'turbo undo')",
            f"round {leftovers.round}: evaluation interrupted ('turbo evaluate --resume' or "
            "'turbo undo')") + "[/red]")
    for round_number in range(1, last):
        here = game.round_dir(round_number)
        try:
            config = game.config(round_number)
            state = game.state(round_number)
            texts = [decode_sheet(data) for data in game.archived_bytes(round_number)]
            outcome = evaluate_round(state, texts, seed, config)
        except RennleitungError as error:
            mismatches += 1
            console.print("[red]" + pick(f"Runde {round_number}: {escape(error.message_de)}",
                                         f"round {round_number}: {escape(error.en)}") + "[/red]")
            continue
        expected = round_outputs(outcome, round_number, config)
        expected.pop("config.json")
        # English reports came later (issue 24): a round evaluated before has none to compare
        checks = {name: (text, here / name) for name, text in expected.items()
                  if ".en." not in name or (here / name).is_file()}
        checks["state.json"] = (dump_state(outcome.state),
                                game.round_dir(round_number + 1) / "state.json")
        bad = [name for name, (text, path) in checks.items()
               if not path.is_file() or path.read_text(encoding="utf-8") != text]
        mismatches += len(bad)
        shown = f"[green]{pick('gleich', 'identical')}[/green]" if not bad else \
            f"[red]{pick('ABWEICHUNG', 'MISMATCH')}: {escape(', '.join(bad))}[/red]"
        console.print(f"{pick('Runde', 'round')} {round_number}: {shown}")
    if mismatches:
        shown = pick(counted(mismatches, "Abweichung", "Abweichungen"),
                     counted(mismatches, "mismatch", "mismatches"))
        console.print(f"[red]{shown}[/red]")
        raise typer.Exit(code=1)
    rounds = last - 1
    console.print(pick(f"{rounds} {'Runde' if rounds == 1 else 'Runden'} identisch",
                       f"{rounds} {'round' if rounds == 1 else 'rounds'} identical"))


@app.command("bot")
def bot(
    game_dir: Path = typer.Argument(..., help="Spielverzeichnis / game directory"),
    team: str = typer.Option(..., "--team", help="Rennstall / team"),
    strategy: str = typer.Option("ausgewogen", "--strategy",
                                 help="Strategie / strategy (z.B. / e.g. ausgewogen)"),
    seed: str = typer.Option("0", "--seed", help="Startwert des Bots / bot seed"),
) -> None:
    """Einen Zugbogen von einem Bot schreiben lassen / print a bot's sheet for a team."""
    import random

    from rennleitung.turbo2000.bots import STRATEGIES, bot_sheet

    if strategy not in STRATEGIES:
        known = ", ".join(STRATEGIES)
        raise _fail(RennleitungError(f"unbekannte Strategie '{strategy}' (bekannt: {known})",
                                     f"unknown strategy '{strategy}' (known: {known})",
                                     where="--strategy"))
    try:
        game = _open(game_dir)
        config = game.config()
        state = game.state(game.current_round())
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
    from rennleitung.turbo2000.simulation import bot_teams, play_bot_game
    from rennleitung.turbo2000.standings import wm_table

    config = GameConfig()
    game = play_bot_game(bot_teams(teams), years, seed, config)
    if show_last and game.last:
        typer.echo(game.last.results_sheet)
    after = game.state.round - 1
    table = _table(pick(f"TURBO 2000 - Ewige WM-Liste nach Runde {after}",
                        f"TURBO 2000 - all-time championship after round {after}"))
    table.add_column(pick("Platz", "place"), justify="right")
    table.add_column(pick("Rennstall", "team"))
    table.add_column(pick("Strategie", "strategy"))
    table.add_column(pick("WM-Punkte", "points"), justify="right")
    table.add_column(pick("Konto", "money"), justify="right")
    for place, name, points in wm_table(game.state):
        money = _grouped(game.state.teams[name].money)
        table.add_row(str(place), name, game.strategies[name], str(points), money)
    console.print(table)
    console.print(f"{pick('Sieger', 'winner')}: {game.winner()} ({game.strategies[game.winner()]})")
