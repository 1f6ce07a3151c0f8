"""`rennleitung league`: seasons and Opens in the database, from the organiser's command line.

Thin adapter: reads files and options, calls ``store.LeagueStore`` (which asks the league engine
to check everything) and prints what ``render.league_*`` makes of the result. ``--db`` (or the
``RENNLEITUNG_DB`` environment variable) chooses the database; the default is an SQLite file.
"""

from __future__ import annotations

import getpass
import json
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace as dc_replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from rennleitung.cli.common import DbOption, Lang, LangOption, run_guarded, say
from rennleitung.cli.fit_table import fitted_table
from rennleitung.cli.league_files import check_output, read_text_file
from rennleitung.errors import RennleitungError
from rennleitung.inputs import write_text
from rennleitung.league.box_choice import box_choice_order
from rennleitung.league.city_standings import city_standings
from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import parse_kind
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.karma import karma_ledger
from rennleitung.league.profiles import league_name, parse_profile
from rennleitung.league.qualifying_weather import parse_weather
from rennleitung.league.race_result import RaceResult, RaceSource
from rennleitung.league.race_result_codec import (
    qualifying_laps_from_csv,
    race_result_from_csv,
    race_result_from_json,
)
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.league.starters import parse_starters
from rennleitung.league.transfers import Transfer
from rennleitung.render.league_html import league_page
from rennleitung.render.league_tables import (
    Row,
    city_rows,
    column_label,
    constructor_rows,
    display_value,
    driver_rows,
    grid_rows,
    history_rows,
    karma_rows,
    label,
    race_rows,
    rows_to_csv,
    rows_to_spreadsheet_csv,
)
from rennleitung.store.database import resolve_url
from rennleitung.store.league_store import LeagueStore
from rennleitung.textinput import load_json

app = typer.Typer(
    name="league",
    help="Ligen / leagues: Saison und Open, Qualifizierung, Wertungen, Karma.",
    no_args_is_help=True,
    add_completion=False,
)





RaceNumberOption = Annotated[
    int | None, typer.Option("--race", help="Rennnummer (CSV) / race number.")
]
LapsOption = Annotated[
    int | None, typer.Option("--laps", help="Renndistanz (CSV: Standard 3) / race laps.")
]
TrackNameOption = Annotated[str | None, typer.Option("--track", help="Strecke / track.")]
ByMailOption = Annotated[bool, typer.Option(
    "--by-mail", help="Rennen per E-Mail gefahren / the race was run by e-mail.")]
StartersTextOption = Annotated[
    str,
    typer.Option("--starters", help="Starter, Komma getrennt; Namen mit Komma gehen (\"Müller, "
                                    "Max\") (Standard: alle) / starters, comma separated; names "
                                    "with commas work (default: all)."),
]
WeatherOption = Annotated[
    list[str] | None,
    typer.Option("--weather", help="Gewürfeltes Wetter je Lauf (sonne, regen, wechselhaft) "
                                   "/ rolled weather per run (sun, rain, changeable)."),
]


class TableName(StrEnum):
    DRIVERS = "drivers"
    CONSTRUCTORS = "constructors"
    CITIES = "cities"
    KARMA = "karma"






def _store(db: str | None) -> LeagueStore:
    return run_guarded(lambda: LeagueStore.open(resolve_url(db)))


def _read(path: Path, lang: Lang = Lang.BOTH) -> str:
    return read_text_file(path, lang)


ByOption = Annotated[
    str | None,
    typer.Option("--by", help="Wer korrigiert (für die Historie; Standard: Benutzername) / "
                              "who corrects (for the history; default: user name)."),
]


def _by(by: str | None) -> str:
    if by:
        return by
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "?"


def _marked(result: RaceResult, by_mail: bool) -> RaceResult:
    """The result marked as run by e-mail when ``--by-mail`` says so."""
    return dc_replace(result, source=RaceSource.MAIL) if by_mail else result


def _race_from_file(
    file: Path, race: int | None, laps: int | None, track: str | None, lang: Lang
) -> RaceResult:
    """A race from CSV (``--race`` needed, ``--laps``/``--track`` applied) or JSON (the file
    says it all; an option that contradicts the file is refused, one the file leaves out is
    applied)."""
    text = _read(file, lang)
    if file.suffix.lower() != ".json":
        if race is None:
            raise RennleitungError(
                "für CSV bitte --race angeben", "please give --race for CSV", "--race"
            )
        return race_result_from_csv(text, race, 3 if laps is None else laps, track or "")
    try:
        data = load_json(text, str(file))
    except json.JSONDecodeError as error:
        raise RennleitungError(
            f"kein gültiges JSON: {error.msg}", f"not valid JSON: {error.msg}",
            f"{file}, line {error.lineno}",
        ) from None
    if not isinstance(data, dict):
        raise RennleitungError("JSON-Objekt erwartet", "a JSON object is expected", str(file))
    for key, option, value in (("race", "--race", race), ("laps", "--laps", laps),
                               ("track", "--track", track)):
        if value is None:
            continue
        if key in data and data[key] != value:
            raise RennleitungError(
                f"{option} {value} widerspricht der Datei ({key}: {data[key]!r})",
                f"{option} {value} contradicts the file ({key}: {data[key]!r})",
                option,
            )
        data = {**data, key: value}
    return race_result_from_json(data)




@app.command("create")
def create(
    name: str,
    kind: Annotated[str, typer.Option("--kind", help="season (saison) oder/or open.")] = "season",
    db: DbOption = None,
) -> None:
    """Neue Saison oder neues Open anlegen / create a season or an Open."""
    store = _store(db)
    run_guarded(lambda: store.create_league(name, parse_kind(kind)))
    say(f"Liga {name!r} angelegt", f"league {name!r} created")


@app.command("list")
def list_leagues(db: DbOption = None) -> None:
    """Alle Ligen / every league."""
    for name, kind in _store(db).leagues():
        typer.echo(f"{name}\t{kind.value}")


@app.command("add-team")
def add_team(league: str, team: str, db: DbOption = None) -> None:
    """Team hinzufügen / add a team."""
    store = _store(db)
    run_guarded(lambda: store.add_team(league, team))
    say(f"Team {team!r} angelegt", f"team {team!r} added")


@app.command("add-driver")
def add_driver(
    league: str,
    name: str,
    team: Annotated[str, typer.Option("--team", help="Team des Fahrers / the driver's team.")],
    profile: Annotated[str, typer.Option("--profile", help="Fahrerprofil / profile.")] = "normalo",
    city: Annotated[str, typer.Option("--city", help="Stadt / city.")] = "",
    db: DbOption = None,
) -> None:
    """Fahrer mit Profil und Stadt hinzufügen / add a driver with profile and city."""
    store = _store(db)
    run_guarded(lambda: store.add_driver(league, Driver(name, team, parse_profile(profile), city)))
    say(f"Fahrer {name!r} angelegt", f"driver {name!r} added")


@app.command("roster")
def roster(league: str, db: DbOption = None, lang: LangOption = Lang.BOTH) -> None:
    """Teams und Fahrer / teams and drivers."""
    loaded = run_guarded(lambda: _store(db).load(league))
    rows: list[Row] = [
        {"team": loaded.roster.current_team(d.name), "driver": d.name,
         "profile": league_name(d.profile), "city": d.city}
        for d in loaded.roster.drivers
    ]
    _print_rows(rows, lang, f"{loaded.name} ({loaded.format.kind.value})")
    for t in loaded.roster.transfers:
        say(f"Teamwechsel: {t.driver} fährt ab Rennen {t.from_race} für {t.team}",
            f"transfer: {t.driver} drives for {t.team} from race {t.from_race}", lang)


FromRaceOption = Annotated[
    int, typer.Option("--from-race", help="Erstes Rennen im neuen Team / first race for the "
                                          "new team.")
]


@app.command("transfer")
def transfer(
    league: str,
    driver: str,
    team: Annotated[str, typer.Argument(help="Das neue Team / the new team.")],
    from_race: FromRaceOption,
    by: ByOption = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Teamwechsel ab Rennen N / a driver changes team from race N on."""
    store = _store(db)
    run_guarded(lambda: store.transfer(league, Transfer(driver, team.strip(), from_race),
                                       _by(by)))
    say(f"{driver} fährt ab Rennen {from_race} für {team.strip()}",
        f"{driver} drives for {team.strip()} from race {from_race}", lang)


@app.command("remove-transfer")
def remove_transfer(
    league: str,
    driver: str,
    from_race: FromRaceOption,
    by: ByOption = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Teamwechsel zurücknehmen / take back a transfer typed by mistake."""
    store = _store(db)
    run_guarded(lambda: store.remove_transfer(league, driver, from_race, _by(by)))
    say(f"Teamwechsel von {driver} ab Rennen {from_race} zurückgenommen",
        f"transfer of {driver} from race {from_race} taken back", lang)


@app.command("enter-race")
def enter_race(
    league: str,
    file: Annotated[Path, typer.Argument(help="Ergebnis als .csv oder .json / result file.")],
    race: RaceNumberOption = None,
    laps: LapsOption = None,
    track: TrackNameOption = None,
    by: ByOption = None,
    by_mail: ByMailOption = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Ergebnis eines Tischrennens eintragen / enter a race played on a table."""
    store = _store(db)

    def action() -> int:
        result = _marked(_race_from_file(file, race, laps, track, lang), by_mail)
        return len(store.enter_race(league, result, _by(by)))

    booked = run_guarded(action)
    say(f"Rennen eingetragen, {bookings(booked)[0]}", f"race entered, {bookings(booked)[1]}",
        lang)


@app.command("replace-race")
def replace_race(
    league: str,
    race: Annotated[int, typer.Argument(help="Zu ersetzendes Rennen / race to replace.")],
    file: Annotated[Path, typer.Argument(help="Richtiges Ergebnis (.csv/.json) / the correct "
                                              "result.")],
    laps: LapsOption = None,
    track: TrackNameOption = None,
    by: ByOption = None,
    by_mail: ByMailOption = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Rennen N ersetzen, spätere Karmabuchungen neu / replace race N, later karma rebooked."""
    store = _store(db)

    def action() -> int:
        result = _marked(_race_from_file(file, race, laps, track, lang), by_mail)
        return len(store.replace_race(league, result, _by(by)))

    booked = run_guarded(action)
    say(f"Rennen {race} ersetzt, {bookings(booked)[0]}; spätere Rennen neu gebucht",
        f"race {race} replaced, {bookings(booked)[1]}; later races rebooked", lang)


@app.command("delete-race")
def delete_race(
    league: str, race: int, by: ByOption = None, db: DbOption = None, lang: LangOption = Lang.BOTH
) -> None:
    """Zuletzt eingetragenes Rennen löschen / delete the last race entered."""
    store = _store(db)
    run_guarded(lambda: store.delete_race(league, race, _by(by)))
    say(f"Rennen {race} gelöscht", f"race {race} deleted", lang)


@app.command("enter-qualifying")
def enter_qualifying(
    league: str,
    race: int,
    file: Annotated[Path, typer.Argument(help="Runden als CSV / laps as CSV.")],
    starters: StartersTextOption = "",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Würfel-Seed der Auslosung / draw seed.")
    ] = None,
    weather: WeatherOption = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Qualifizierung eintragen, Startaufstellung auslosen / enter qualifying, draw the grid."""
    store = _store(db)
    draw_seed = seed if seed is not None else secrets.randbelow(2**31)

    say(f"Seed der Auslosung: {draw_seed}", f"draw seed: {draw_seed}", lang)

    def action() -> tuple[League, QualifyingResult]:
        laps = qualifying_laps_from_csv(_read(file, lang))
        names = _starters(store.load(league), starters)
        rolled = [parse_weather(w, "--weather") for w in weather or []]
        result = store.enter_qualifying(league, race, laps, names, draw_seed, rolled)
        return store.load(league), result

    loaded, result = run_guarded(action)
    _print_grid(loaded, result, lang)


@app.command("replace-qualifying")
def replace_qualifying(
    league: str,
    race: int,
    file: Annotated[Path, typer.Argument(help="Richtige Runden als CSV / the correct laps.")],
    starters: StartersTextOption = "",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Würfel-Seed der Auslosung (Standard: der "
                                                "alte) / draw seed (default: the old one).")
    ] = None,
    weather: WeatherOption = None,
    race_file: Annotated[
        Path | None,
        typer.Option("--race-file", help="Das richtige Rennen dazu, wenn es von der alten "
                                         "Startaufstellung gestartet ist / the corrected race, "
                                         "if it started from the old grid."),
    ] = None,
    by: ByOption = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Qualifizierung ersetzen (mit dem Rennen, falls nötig) / replace a qualifying."""
    store = _store(db)

    def action() -> tuple[League, QualifyingResult, int]:
        old_seed = store.qualifying_seed(league, race)
        draw_seed = seed if seed is not None else (
            old_seed if old_seed is not None else secrets.randbelow(2**31))
        say(f"Seed der Auslosung: {draw_seed}", f"draw seed: {draw_seed}", lang)
        laps = qualifying_laps_from_csv(_read(file, lang))
        names = _starters(store.load(league), starters)
        rolled = [parse_weather(w, "--weather") for w in weather or []]
        corrected = (_race_from_file(race_file, race, None, None, lang)
                     if race_file is not None else None)
        result = store.replace_qualifying(league, race, laps, names, draw_seed, rolled,
                                          corrected, _by(by))
        return store.load(league), result, draw_seed

    loaded, result, _seed = run_guarded(action)
    _print_grid(loaded, result, lang)
    say(f"Qualifizierung zu Rennen {race} ersetzt", f"qualifying for race {race} replaced", lang)


@app.command("delete-qualifying")
def delete_qualifying(
    league: str, race: int, by: ByOption = None, db: DbOption = None, lang: LangOption = Lang.BOTH
) -> None:
    """Qualifizierung eines Rennens löschen / delete a race's qualifying."""
    store = _store(db)
    run_guarded(lambda: store.delete_qualifying(league, race, _by(by)))
    say(f"Qualifizierung zu Rennen {race} gelöscht", f"qualifying for race {race} deleted", lang)


@app.command("rename")
def rename_league(
    league: str, new: str, by: ByOption = None, db: DbOption = None, lang: LangOption = Lang.BOTH
) -> None:
    """Liga umbenennen / rename a league."""
    store = _store(db)
    run_guarded(lambda: store.rename_league(league, new, _by(by)))
    say(f"Liga {league!r} heißt jetzt {new.strip()!r}", f"league {league!r} is now "
        f"{new.strip()!r}", lang)


@app.command("rename-race")
def rename_race(
    league: str, race: int, track: str, by: ByOption = None, db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Rennen umbenennen (Strecke) / rename a race (its track)."""
    store = _store(db)
    run_guarded(lambda: store.rename_race(league, race, track, _by(by)))
    say(f"Rennen {race} heißt jetzt {track.strip()!r}", f"race {race} is now {track.strip()!r}",
        lang)


@app.command("rename-team")
def rename_team(
    league: str, old: str, new: str, by: ByOption = None, db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Team umbenennen / rename a team."""
    store = _store(db)
    run_guarded(lambda: store.rename_team(league, old, new, _by(by)))
    say(f"Team {old!r} heißt jetzt {new.strip()!r}", f"team {old!r} is now {new.strip()!r}",
        lang)


@app.command("rename-driver")
def rename_driver(
    league: str, old: str, new: str, by: ByOption = None, db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Fahrer überall umbenennen / rename a driver everywhere."""
    store = _store(db)
    run_guarded(lambda: store.rename_driver(league, old, new, _by(by)))
    say(f"Fahrer {old!r} heißt jetzt {new.strip()!r}", f"driver {old!r} is now "
        f"{new.strip()!r}", lang)


@app.command("remove-driver")
def remove_driver(
    league: str, driver: str, by: ByOption = None, db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Fahrer ohne Einträge entfernen / remove a driver who has nothing entered."""
    store = _store(db)
    run_guarded(lambda: store.remove_driver(league, driver, _by(by)))
    say(f"Fahrer {driver!r} entfernt", f"driver {driver!r} removed", lang)


@app.command("remove-team")
def remove_team(
    league: str, team: str, by: ByOption = None, db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Team ohne Fahrer entfernen / remove a team without drivers."""
    store = _store(db)
    run_guarded(lambda: store.remove_team(league, team, _by(by)))
    say(f"Team {team!r} entfernt", f"team {team!r} removed", lang)


@app.command("delete")
def delete_league(
    league: str,
    yes: Annotated[bool, typer.Option("--yes", help="Wirklich löschen / really delete.")]
    = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Ganze Liga löschen (vorher exportieren!) / delete a whole league (export it first!)."""
    store = _store(db)

    def action() -> None:
        if not yes:
            raise RennleitungError(
                "Löschen entfernt die Liga mit allen Rennen und ihrer Historie; zum Bestätigen "
                "--yes angeben (vorher mit export sichern)",
                "deleting removes the league with every race and its history; give --yes to "
                "confirm (back it up with export first)",
                "--yes",
            )
        store.delete_league(league)

    run_guarded(action)
    say(f"Liga {league!r} gelöscht", f"league {league!r} deleted", lang)


@app.command("add-organiser")
def add_organiser(
    league: str,
    account: Annotated[str, typer.Argument(help="Konto auf dem Webserver / web account name.")],
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Bestehendes Webkonto darf die Liga organisieren / an existing web account organises it."""
    store = _store(db)
    spelt = run_guarded(lambda: store.add_organiser(league, account))
    say(f"{spelt!r} organisiert jetzt {league!r} im Web",
        f"{spelt!r} now organises {league!r} on the web", lang)


@app.command("remove-organiser")
def remove_organiser(
    league: str,
    account: Annotated[str, typer.Argument(help="Konto auf dem Webserver / web account name.")],
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Einem Webkonto das Organisieren entziehen / revoke a web account's organiser rights."""
    store = _store(db)
    run_guarded(lambda: store.remove_organiser(league, account))
    say(f"{account!r} organisiert {league!r} nicht mehr",
        f"{account!r} no longer organises {league!r}", lang)


@app.command("invite-organiser")
def invite_organiser(
    league: str,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", help="Adresse des Webservers / the web server's address "
        "(default: RENNLEITUNG_BASE_URL).")] = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Einladungslink zum Organisieren (einmal, 7 Tage) / one-time link to organise (7 days)."""
    store = _store(db)
    token = run_guarded(lambda: store.invite_organiser(league))
    base = (base_url or os.environ.get("RENNLEITUNG_BASE_URL")
            or "http://127.0.0.1:8000").rstrip("/")
    say(f"Einladung für {league!r}:", f"invitation to organise {league!r}:", lang)
    typer.echo(f"{base}/league/invitation/{token}")


@app.command("history")
def history(
    league: str,
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON.")] = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Alle Korrekturen: wer, wann, was vorher war / every correction: who, when, what before."""
    entries = run_guarded(lambda: _store(db).history(league))
    if as_json:
        typer.echo(json.dumps([c.to_json() for c in entries], ensure_ascii=False, indent=2))
        return
    if not entries:
        say("keine Korrekturen", "no corrections", lang)
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(escape(f"{league}: {label('history', lang.value)}"))
    for row in history_rows(entries, lang.value):
        head = "  ".join(display_value(key, row[key], lang.value)
                         for key in ("seq", "at", "by", "action", "subject"))
        console.print(escape(head))
        for key in ("changes", "before", "after"):
            console.print(escape(f"    {label(key, lang.value)}: {row[key] or '-'}"))


@app.command("grid")
def grid(league: str, race: int, db: DbOption = None, lang: LangOption = Lang.BOTH) -> None:
    """Startaufstellung und Boxenwahl / grid and box choice order."""
    loaded = run_guarded(lambda: _store(db).load(league))
    result = loaded.qualifying_of(race)
    if result is None:
        run_guarded(lambda: _raise(RennleitungError(
            f"keine Qualifizierung zu Rennen {race}", f"no qualifying for race {race}", "race"
        )))
        return
    _print_grid(loaded, result, lang)


@app.command("race")
def race_result(
    league: str,
    race: int,
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON.")] = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Ergebnis eines Rennens mit Punkten und Karma / one race with points and karma."""
    loaded = run_guarded(lambda: _store(db).load(league))
    rows = race_rows(loaded, race)
    if not rows:
        run_guarded(lambda: _raise(RennleitungError(
            f"Rennen {race} ist nicht eingetragen", f"race {race} has not been entered", "race"
        )))
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        entered = loaded.race(race)
        mail = entered is not None and entered.source is RaceSource.MAIL
        note = f" ({label('by_mail', lang)})" if mail else ""
        _print_rows(rows, lang, f"{loaded.name}: {label('race', lang)} {race}{note}")


@app.command("drops")
def drops(
    league: str,
    driver: str,
    races: Annotated[list[int], typer.Argument(help="Gestrichene Rennen / dropped races.")],
    db: DbOption = None,
) -> None:
    """Streichresultate eines Fahrers festlegen / name a driver's drop results."""
    store = _store(db)
    run_guarded(lambda: store.name_drops(league, driver, races))
    say(f"Streichresultate von {driver}: {races}", f"drop results of {driver}: {races}")


@app.command("export")
def export(
    league: str,
    out: Annotated[Path | None, typer.Option("--out", help="JSON-Datei / JSON file.")] = None,
    db: DbOption = None,
) -> None:
    """Ganze Liga als JSON (Sicherung, Umzug) / the whole league as JSON (backup, moving)."""
    if out is not None:
        run_guarded(lambda: check_output(out, "--out"))
    data = run_guarded(lambda: _store(db).export_league(league))
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        run_guarded(lambda: write_text(out, text))
        say(f"geschrieben: {out}", f"written: {out}")


@app.command("import")
def import_league(
    file: Annotated[Path, typer.Argument(help="Export einer Liga / a league export.")],
    name: Annotated[str | None, typer.Option("--name", help="Neuer Name / new name.")] = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Liga aus einem Export anlegen, alles neu geprüft / create a league from an export."""
    store = _store(db)

    def action() -> League:
        try:
            data = load_json(_read(file, lang), str(file))
        except json.JSONDecodeError as error:
            raise RennleitungError(
                f"kein gültiges JSON: {error.msg}", f"not valid JSON: {error.msg}",
                f"{file}, line {error.lineno}",
            ) from None
        return store.import_league(data, name)

    imported = run_guarded(action)
    say(f"Liga {imported.name!r} importiert", f"league {imported.name!r} imported")


@app.command("standings")
def standings(
    league: str,
    table: Annotated[TableName, typer.Option("--table", help="Wertung / table.")]
    = TableName.DRIVERS,
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV ausgeben / print CSV.")] = False,
    spreadsheet: Annotated[
        bool,
        typer.Option("--spreadsheet", help="CSV für deutsche Tabellenkalkulation (; BOM, "
                                           "Beschriftungen) / CSV for German spreadsheets."),
    ] = False,
    driver: Annotated[
        str | None, typer.Option("--driver", help="Nur dieser Fahrer / only this driver.")
    ] = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Wertungen: Fahrer, Konstrukteure, Städte, Karma / standings tables."""
    loaded = run_guarded(lambda: _store(db).load(league))
    rows = _table_rows(loaded, table, lang)
    if driver is not None:
        run_guarded(lambda: loaded.roster.driver(driver, "--driver"))
        rows = [row for row in rows if row.get("driver") == driver]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    elif spreadsheet:
        sheet_lang = "de" if lang is Lang.BOTH else lang.value
        sys.stdout.buffer.write(rows_to_spreadsheet_csv(rows, sheet_lang).encode("utf-8"))
        sys.stdout.flush()
    elif as_csv:
        typer.echo(rows_to_csv(rows), nl=False)
    else:
        _print_rows(rows, lang, f"{loaded.name}: {label(table.value, lang)}")


@app.command("html")
def html(
    league: str,
    out: Annotated[Path, typer.Option("--out", help="HTML-Datei / HTML file.")],
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Wertungsseite mit Punktegrafik schreiben / write the standings page with its chart."""
    run_guarded(lambda: check_output(out, "--out"))
    loaded = run_guarded(lambda: _store(db).load(league))
    run_guarded(lambda: write_text(out, league_page(loaded, lang.value)))
    say(f"geschrieben: {out}", f"written: {out}", lang)


def _table_rows(league: League, table: TableName, lang: Lang) -> list[Row]:
    makers: dict[TableName, Callable[[], list[Row]]] = {
        TableName.DRIVERS: lambda: driver_rows(driver_standings(league)),
        TableName.CONSTRUCTORS: lambda: constructor_rows(constructor_standings(league)),
        TableName.CITIES: lambda: city_rows(city_standings(league)),
        TableName.KARMA: lambda: karma_rows(karma_ledger(league), lang.value),
    }
    return makers[table]()


def _print_grid(league: League, result: QualifyingResult, lang: Lang) -> None:
    rows = grid_rows(result, bool(league.format.pole_qualifying_points))
    _print_rows(rows, lang, f"{league.name}: {label('race', lang)} {result.race}")
    order = box_choice_order(result.grid_order(), league.roster, result.race)
    say("Boxenwahl: " + ", ".join(order), "box choice: " + ", ".join(order), lang)
    if result.weather:
        say("Wetter je Lauf: " + ", ".join(w.label_de for w in result.weather),
            "weather per run: " + ", ".join(w.label_en for w in result.weather), lang)


def _print_rows(rows: Sequence[Row], lang: Lang, title: str) -> None:
    keys = list(dict.fromkeys(key for row in rows for key in row))
    console = Console(highlight=False)
    console.print(fitted_table(
        console, title, [column_label(key, lang.value) for key in keys],
        [[display_value(k, row.get(k), lang.value) for k in keys] for row in rows]))


def _starters(league: League, text: str) -> list[str]:
    """``--starters`` as names of the league (commas inside names allowed); empty: all."""
    names = [d.name for d in league.roster.drivers]
    return parse_starters(text, names) or names


def _raise(error: RennleitungError) -> None:
    raise error


# Qualifying and races run here (cli/league_run.py).
from rennleitung.cli.league_run import bookings, run_qualifying, run_race  # noqa: E402

app.command("run-qualifying")(run_qualifying)
app.command("run-race")(run_race)

# A league's FD Blitz records (cli/league_blitz.py, issue 27).
from rennleitung.cli.league_blitz import app as blitz_app  # noqa: E402

app.add_typer(blitz_app, name="blitz")
