"""`rennleitung league blitz`: a league's FD Blitz records from the command line (issue 27).

``add`` enters a finished match from the file ``rennleitung blitz`` keeps; a match not yet
decided is refused naming the file's ``runs``. The same file entered twice is refused too: its
``ref`` is made of the match seed and its runs. ``show`` prints the Blitz table and the matches.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from rennleitung.cli.blitz_file import load_session
from rennleitung.cli.common import DbOption, Lang, LangOption, run_guarded, say
from rennleitung.cli.fit_table import fitted_table
from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_codec import BlitzSession, session_to_json
from rennleitung.league.blitz_records import BlitzRecord, BlitzSource, record_from_match
from rennleitung.render.blitz_tables import blitz_match_rows, blitz_table_rows
from rennleitung.render.league_tables import column_label, display_value
from rennleitung.store.database import resolve_url
from rennleitung.store.league_store import LeagueStore

app = typer.Typer(
    name="blitz",
    help="FD-Blitz-Matches einer Liga / a league's FD Blitz matches.",
    no_args_is_help=True,
    add_completion=False,
)


def file_ref(session: BlitzSession) -> str:
    """The same match file gives the same ref (seed and runs), so it is entered once."""
    data = session_to_json(session)
    digest = hashlib.sha256(json.dumps([data["players"], data["seed"], data["runs"]],
                                       sort_keys=True).encode("utf-8")).hexdigest()
    return f"file:{digest[:24]}"


@app.command("add")
def add(
    league: str,
    match: Annotated[Path, typer.Argument(help="Match-Datei von `rennleitung blitz` / the "
                                               "match file of `rennleitung blitz`.")],
    board: Annotated[str, typer.Option("--board", help="Brett / board.")] = "-",
    date: Annotated[str | None, typer.Option(
        "--date", help="Datum JJJJ-MM-TT (Standard: heute) / date YYYY-MM-DD (default: today)."
    )] = None,
    db: DbOption = None,
) -> None:
    """Entschiedenes Match eintragen / enter a decided match."""

    def action() -> BlitzRecord:
        session = load_session(match)
        record = record_from_match(session.match, date=date or dt.date.today().isoformat(),
                                   board=board, source=BlitzSource.COMMAND_LINE,
                                   ref=file_ref(session))
        store = LeagueStore.open(resolve_url(db))
        if not store.enter_blitz(league, record):
            raise RennleitungError(f"dieses Match ist schon eingetragen ({record.ref})",
                                   f"this match has already been entered ({record.ref})",
                                   f"{match}")
        return record

    record = run_guarded(action)
    say(f"Blitz-Match eingetragen: {record.winner} gewinnt "
        f"{record.heats_won(record.winner)}:{record.heats_lost(record.winner)}",
        f"Blitz match entered: {record.winner} wins "
        f"{record.heats_won(record.winner)}:{record.heats_lost(record.winner)}")


@app.command("show")
def show(
    league: str,
    as_json: Annotated[bool, typer.Option("--json", help="JSON ausgeben / print JSON.")] = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Blitz-Tabelle und Matches / the Blitz table and the matches."""
    loaded = run_guarded(lambda: LeagueStore.open(resolve_url(db)).load(league))
    table, matches = blitz_table_rows(loaded.blitz), blitz_match_rows(loaded.blitz)
    if not as_json and not matches:
        say("noch kein Blitz-Match eingetragen", "no Blitz match entered yet", lang)
        return
    if as_json:
        typer.echo(json.dumps({"table": table, "matches": matches}, ensure_ascii=False,
                              indent=2))
        return
    console = Console(highlight=False)
    for rows, title in ((table, "FD Blitz"), (matches, "FD Blitz, Matches")):
        keys = list(rows[0])
        console.print(fitted_table(
            console, f"{loaded.name}: {title}", [column_label(k, lang.value) for k in keys],
            [[display_value(k, row.get(k), lang.value) for k in keys] for row in rows]))
