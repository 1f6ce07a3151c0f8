"""`rennleitung db`: the database itself (a consistent backup of a running SQLite file)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rennleitung.cli.common import DbOption, Lang, LangOption, run_guarded, say
from rennleitung.store.backup import backup_database
from rennleitung.store.database import resolve_url

app = typer.Typer(
    name="db",
    help="Datenbank / database: Sicherung / backup.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command("backup")
def backup(
    file: Annotated[Path, typer.Argument(help="Ziel: eine SQLite-Datei / target SQLite file.")],
    force: Annotated[bool, typer.Option("--force", help="Vorhandene Datei überschreiben / "
                                                        "overwrite an existing file.")] = False,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Konsistente Kopie, auch im laufenden Betrieb / a consistent copy, also while running."""
    done = run_guarded(lambda: backup_database(resolve_url(db), file, force))
    say(f"gesichert: {done.path} ({done.pages} Seiten, {done.size} Bytes)",
        f"backed up: {done.path} ({done.pages} pages, {done.size} bytes)", lang)
