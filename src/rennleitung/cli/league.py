"""`rennleitung league`: seasons and Opens in the database, from the organiser's command line.

Thin adapter: reads files and options, calls ``store.LeagueStore`` (which asks the league engine
to check everything) and prints what ``render.league_*`` makes of the result. ``--db`` (or the
``RENNLEITUNG_DB`` environment variable) chooses the database; the default is an SQLite file.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rennleitung.cli.common import DbOption, Lang, LangOption, run_guarded, say
from rennleitung.errors import RennleitungError
from rennleitung.league.box_choice import box_choice_order
from rennleitung.league.city_standings import city_standings
from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import parse_kind
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.karma import karma_ledger
from rennleitung.league.profiles import parse_profile
from rennleitung.league.qualifying_weather import parse_weather
from rennleitung.league.race_result_codec import (
    qualifying_laps_from_csv,
    race_result_from_csv,
    race_result_from_json,
)
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.render.league_html import league_page
from rennleitung.render.league_tables import (
    Row,
    city_rows,
    constructor_rows,
    driver_rows,
    grid_rows,
    karma_rows,
    label,
    race_rows,
    rows_to_csv,
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





class TableName(StrEnum):
    DRIVERS = "drivers"
    CONSTRUCTORS = "constructors"
    CITIES = "cities"
    KARMA = "karma"






def _store(db: str | None) -> LeagueStore:
    return run_guarded(lambda: LeagueStore.open(resolve_url(db)))


def _read(path: Path) -> str:
    """A file's text through the safe input layer (regular files only, size limit, UTF-8)."""
    from rennleitung.inputs import read_text

    return read_text(path)




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
        {"team": d.team, "driver": d.name, "profile": d.profile.value, "city": d.city}
        for d in loaded.roster.drivers
    ]
    _print_rows(rows, lang, f"{loaded.name} ({loaded.format.kind.value})")


@app.command("enter-race")
def enter_race(
    league: str,
    file: Annotated[Path, typer.Argument(help="Ergebnis als .csv oder .json / result file.")],
    race: Annotated[int | None, typer.Option("--race", help="Rennnummer (CSV) / race number.")]
    = None,
    laps: Annotated[int, typer.Option("--laps", help="Renndistanz / race laps.")] = 3,
    track: Annotated[str, typer.Option("--track", help="Strecke / track.")] = "",
    db: DbOption = None,
) -> None:
    """Ergebnis eines Tischrennens eintragen / enter a race played on a table."""
    store = _store(db)

    def action() -> int:
        text = _read(file)
        if file.suffix.lower() == ".json":
            try:
                data = load_json(text, str(file))
            except json.JSONDecodeError as error:
                raise RennleitungError(
                    f"kein gültiges JSON: {error.msg}", f"not valid JSON: {error.msg}",
                    f"{file}, line {error.lineno}",
                ) from None
            result = race_result_from_json(data)
        else:
            if race is None:
                raise RennleitungError(
                    "für CSV bitte --race angeben", "please give --race for CSV", "--race"
                )
            result = race_result_from_csv(text, race, laps, track)
        return len(store.enter_race(league, result))

    booked = run_guarded(action)
    say(f"Rennen eingetragen, {booked} Karmabuchungen", f"race entered, {booked} karma entries")


@app.command("delete-race")
def delete_race(league: str, race: int, db: DbOption = None) -> None:
    """Zuletzt eingetragenes Rennen löschen / delete the last race entered."""
    store = _store(db)
    run_guarded(lambda: store.delete_race(league, race))
    say(f"Rennen {race} gelöscht", f"race {race} deleted")


@app.command("enter-qualifying")
def enter_qualifying(
    league: str,
    race: int,
    file: Annotated[Path, typer.Argument(help="Runden als CSV / laps as CSV.")],
    starters: Annotated[
        str, typer.Option("--starters", help="Starter, Komma getrennt (Standard: alle) / "
                                             "starters, comma separated (default: all).")
    ] = "",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Würfel-Seed der Auslosung / draw seed.")
    ] = None,
    weather: Annotated[
        list[str] | None,
        typer.Option("--weather", help="Gewürfeltes Wetter je Lauf (sonne, regen, wechselhaft) "
                                       "/ rolled weather per run (sun, rain, changeable)."),
    ] = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Qualifizierung eintragen, Startaufstellung auslosen / enter qualifying, draw the grid."""
    store = _store(db)
    draw_seed = seed if seed is not None else secrets.randbelow(2**31)

    def action() -> tuple[League, QualifyingResult]:
        laps = qualifying_laps_from_csv(_read(file))
        names = [s.strip() for s in starters.split(",") if s.strip()]
        if not names:
            names = [d.name for d in store.load(league).roster.drivers]
        rolled = [parse_weather(w, "--weather") for w in weather or []]
        result = store.enter_qualifying(league, race, laps, names, draw_seed, rolled)
        return store.load(league), result

    loaded, result = run_guarded(action)
    _print_grid(loaded, result, lang)
    say(f"Seed der Auslosung: {draw_seed}", f"draw seed: {draw_seed}", lang)


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
        _print_rows(rows, lang, f"{loaded.name}: {label('race', lang)} {race}")


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
    data = run_guarded(lambda: _store(db).export_league(league))
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        say(f"geschrieben: {out}", f"written: {out}")


@app.command("import")
def import_league(
    file: Annotated[Path, typer.Argument(help="Export einer Liga / a league export.")],
    name: Annotated[str | None, typer.Option("--name", help="Neuer Name / new name.")] = None,
    db: DbOption = None,
) -> None:
    """Liga aus einem Export anlegen, alles neu geprüft / create a league from an export."""
    store = _store(db)

    def action() -> League:
        try:
            data = load_json(_read(file), str(file))
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
    loaded = run_guarded(lambda: _store(db).load(league))
    out.write_text(league_page(loaded, lang.value), encoding="utf-8")
    say(f"geschrieben: {out}", f"written: {out}")


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
    order = box_choice_order(result.grid_order(), league.roster)
    say("Boxenwahl: " + ", ".join(order), "box choice: " + ", ".join(order), lang)
    if result.weather:
        applied = ", ".join(w.value for w in result.weather)
        say(f"Wetter je Lauf: {applied}", f"weather per run: {applied}", lang)


def _print_rows(rows: Sequence[Row], lang: Lang, title: str) -> None:
    keys = list(dict.fromkeys(key for row in rows for key in row))
    table = Table(title=escape(title))
    for key in keys:
        heading = (f"{label('race', lang.value)} {key[1:]}"
                   if key.startswith("r") and key[1:].isdigit() else label(key, lang.value))
        table.add_column(escape(heading))
    for row in rows:
        table.add_row(*(escape("" if row.get(k) is None else str(row.get(k))) for k in keys))
    Console(highlight=False).print(table)


def _raise(error: RennleitungError) -> None:
    raise error


# Qualifying and races run here (cli/league_run.py).
from rennleitung.cli.league_run import run_qualifying, run_race  # noqa: E402

app.command("run-qualifying")(run_qualifying)
app.command("run-race")(run_race)
