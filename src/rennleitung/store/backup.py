"""A consistent copy of a running database, for the organiser's backups.

Copying an SQLite file with ``cp`` while the server runs loses what sits in the write-ahead log
(``<file>-wal``): the last commits, often the whole league (issue 26). SQLite's online backup
(``sqlite3.Connection.backup``) reads the database as one transaction sees it, log included, and
writes a single self-contained file. PostgreSQL has its own tool for this, ``pg_dump``; the
message says how to call it rather than doing it half.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from rennleitung.errors import RennleitungError
from rennleitung.store.database import SQLITE_BUSY_MS


@dataclass(frozen=True)
class Backup:
    """What was written: the copy and its size."""

    path: Path
    pages: int
    size: int


def backup_database(url: str, target: Path, overwrite: bool = False) -> Backup:
    """Copy the database at ``url`` into the SQLite file ``target`` (written whole, then moved
    into place, so a half copy never carries the name)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise RennleitungError(f"keine Datenbankadresse: {url[:80]!r}",
                               f"not a database address: {url[:80]!r}", "--db") from None
    if parsed.get_backend_name() == "postgresql":
        raise RennleitungError(*_pg_dump_advice(url), "--db")
    if parsed.get_backend_name() != "sqlite" or not parsed.database \
            or parsed.database == ":memory:":
        raise RennleitungError(
            f"nur SQLite-Dateien werden hier kopiert, nicht {parsed.get_backend_name()}",
            f"only SQLite files are copied here, not {parsed.get_backend_name()}", "--db")
    source = Path(parsed.database)
    if not source.is_file():
        raise RennleitungError(f"keine Datenbankdatei {source}",
                               f"no database file {source}", "--db")
    if target.exists() and not overwrite:
        raise RennleitungError(f"{target} gibt es schon (überschreiben mit --force)",
                               f"{target} already exists (overwrite with --force)", "FILE")
    if target.exists() and target.resolve() == source.resolve():
        raise RennleitungError("die Kopie kann nicht die Datenbank selbst sein",
                               "the copy cannot be the database itself", "FILE")
    if not target.parent.is_dir():
        raise RennleitungError(f"kein Ordner {target.parent}", f"no folder {target.parent}",
                               "FILE")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        pages = _copy(source, partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise RennleitungError(f"Kopie fehlgeschlagen: {error}", f"the copy failed: {error}",
                               "--db") from None
    return Backup(target, pages, target.stat().st_size)


def _copy(source: Path, partial: Path) -> int:
    """The online backup, then a check of the copy; the copy keeps no log of its own."""
    reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=SQLITE_BUSY_MS / 1000)
    try:
        writing = sqlite3.connect(partial)
        try:
            reading.backup(writing)
            writing.execute("PRAGMA journal_mode=DELETE")
            verdict = writing.execute("PRAGMA integrity_check").fetchone()
            if verdict is None or verdict[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity_check: {verdict}")
            pages = int(writing.execute("PRAGMA page_count").fetchone()[0])
        finally:
            writing.close()
    finally:
        reading.close()
    with contextlib.suppress(FileNotFoundError):
        Path(f"{partial}-journal").unlink()
    return pages


def _pg_dump_advice(url: str) -> tuple[str, str]:
    """How to back up PostgreSQL: ``pg_dump`` with the address in libpq's form."""
    parsed = make_url(url).set(drivername="postgresql")
    address = parsed.render_as_string(hide_password=True)
    command = f"pg_dump --format=custom --file=FILE '{address}'"
    return (
        "PostgreSQL sichert pg_dump, nicht rennleitung: " + command
        + " (Passwort über PGPASSWORD oder ~/.pgpass; zurück mit pg_restore --dbname=…)",
        "PostgreSQL is backed up with pg_dump, not by rennleitung: " + command
        + " (password via PGPASSWORD or ~/.pgpass; restore with pg_restore --dbname=…)",
    )
