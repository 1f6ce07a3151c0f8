"""Where the database is and how it is opened: SQLite file by default, PostgreSQL by URL.

The URL comes from the ``--db`` option, else the ``RENNLEITUNG_DB`` environment variable, else
an SQLite file in the user's data directory. A plain file path is taken as an SQLite file.
Opening a database brings its schema up to date with the Alembic migrations shipped in
``store/migrations`` (no separate migrate step for the organiser).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from rennleitung.errors import RennleitungError

try:
    import fcntl
except ImportError:  # not on Windows: threads still take turns, processes meet busy_timeout
    fcntl = None  # type: ignore[assignment]

ENV_VAR = "RENNLEITUNG_DB"
WRITE = "rennleitung_write"
"""Execution option that marks a write transaction (see ``_sqlite_begin``)."""
MIGRATIONS = Path(__file__).parent / "migrations"


def default_sqlite_path(environ: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/rennleitung/rennleitung.sqlite3`` (``~/.local/share`` if unset)."""
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rennleitung" / "rennleitung.sqlite3"


def resolve_url(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The database URL: option, then environment variable, then the default file."""
    env = os.environ if environ is None else environ
    chosen = option or env.get(ENV_VAR) or str(default_sqlite_path(env))
    if "://" in chosen:
        return chosen
    return f"sqlite:///{Path(chosen).expanduser().absolute()}"


def open_database(url: str, pool_size: int | None = None) -> Engine:
    """An engine on ``url`` whose schema is migrated to the newest revision; ``pool_size``
    connections are kept open (a server sets it to its number of worker threads, so a busy
    thread neither waits for a connection nor opens and closes one per request).

    Anything that keeps the database from opening (bad URL, unknown driver, server down, a
    file that cannot be created) becomes one bilingual error naming ``--db``.
    """
    try:
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        sized = pool_size is not None and url != "sqlite:///:memory:"
        options: dict[str, Any] = {"pool_size": pool_size, "max_overflow": 8} if sized else {}
        engine = create_engine(url, **options)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        migrate(engine)
    except (OSError, ArgumentError, SQLAlchemyError) as error:
        reason = str(error).splitlines()[0]
        raise RennleitungError(
            f"Datenbank {_safe(url)} nicht verwendbar: {reason}",
            f"cannot use database {_safe(url)}: {reason}",
            "--db",
        ) from error
    return engine


def migrate(engine: Engine) -> None:
    """Run every Alembic migration not yet applied, in one transaction.

    A database already at the newest revision is only read (a read-only command must not wait
    for the write lock while someone else is writing). Otherwise the migrating process takes a
    lock first, so several processes opening a fresh database at once do not all create the
    schema: PostgreSQL an advisory lock held until the migration commits, SQLite its write
    lock (``BEGIN IMMEDIATE``). Whoever waited finds the schema done and does nothing.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if _at_head(engine, config):
        return
    with engine.connect() as connection, connection.execution_options(**{WRITE: True}).begin():
        if engine.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key, hashtext(current_schema()))"),
                {"key": MIGRATION_LOCK},
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


MIGRATION_LOCK = 0x526C  # "Rl": the advisory lock key of rennleitung's migrations


def _at_head(engine: Engine, config: Config) -> bool:
    """Whether the schema is already at the newest revision (read only, no lock taken)."""
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
        connection.rollback()
    return current == heads


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys on; transactions begun by ``_sqlite_begin``, not by the sqlite3 module
    (which would begin them only at the first write, after the checks have read).

    Write-ahead log with ``synchronous=NORMAL``: readers never wait for the writer, and a commit
    costs no fsync (the log is synced at checkpoints), which a race applying a decision per
    commit needs (``benchmarks/race_service.py``). The database stays consistent after any
    crash; a power cut may take back the last commits, which a server that must never lose one
    avoids by running on PostgreSQL (``docs/storage.md``)."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    mode = cursor.execute("PRAGMA journal_mode").fetchone()
    if mode is not None and str(mode[0]).lower() not in {"wal", "memory"}:
        # Write-ahead log: readers keep reading the last committed state while one process
        # writes ("database is locked" for a read-only ``standings`` otherwise).
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


SQLITE_BUSY_MS = 30_000
"""How long an SQLite connection waits for another process's write lock before giving up."""


_WRITERS: weakref.WeakKeyDictionary[Engine, _Writer] = weakref.WeakKeyDictionary()
_WRITERS_GUARD = threading.Lock()


class _Writer:
    """The turn to write on one SQLite file: a lock among this process's threads and, where
    the system has ``flock``, a lock file beside the database among processes."""

    def __init__(self, database: str | None) -> None:
        self.threads = threading.RLock()
        self.depth = 0  # turns this thread holds, one inside another
        self.path = None if not database or database == ":memory:" or fcntl is None \
            else f"{database}.writer"
        self.handle: int | None = None

    @contextmanager
    def turn(self) -> Iterator[None]:
        """The turn; a thread that holds it may take it again inside (the file lock is taken
        and given back by the outermost)."""
        with self.threads:
            if self.path is None or fcntl is None or self.depth:
                self.depth += 1
                try:
                    yield
                finally:
                    self.depth -= 1
                return
            if self.handle is None:
                self.handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self.handle, fcntl.LOCK_EX)  # waits without holding the GIL
            self.depth = 1
            try:
                yield
            finally:
                self.depth = 0
                fcntl.flock(self.handle, fcntl.LOCK_UN)

    def __del__(self) -> None:
        if self.handle is not None:
            os.close(self.handle)


@contextmanager
def one_writer(engine: Engine) -> Iterator[None]:
    """On SQLite, write transactions take turns: among this process's threads and, through a
    lock file beside the database (``<file>.writer``), among processes.

    SQLite admits one writer at a time; a writer that finds the write lock taken sleeps in
    SQLite's busy handler for 1 to 100 ms between tries, so under load most of an answer's time
    was spent sleeping rather than waiting for the writer ahead. A lock hands the turn over at
    once. Writers that do not take the turn (another program) still meet the busy handler.
    PostgreSQL locks rows, not the database, and needs no such turn-taking."""
    if engine.dialect.name != "sqlite":
        yield
        return
    with _WRITERS_GUARD:
        writer = _WRITERS.get(engine)
        if writer is None:
            writer = _WRITERS[engine] = _Writer(engine.url.database)
    with writer.turn():
        yield


def _sqlite_begin(connection: Connection) -> None:
    """A write transaction takes SQLite's write lock at once (``BEGIN IMMEDIATE``), so two
    writers cannot both check the same state and then both write; PostgreSQL gets the same
    from ``SELECT … FOR UPDATE`` on the league row."""
    immediate = connection.get_execution_options().get(WRITE, False)
    # on the driver's connection itself: the same statement without SQLAlchemy's work around
    # it (a result object, events), which cost about as much as an answer's statements
    connection.connection.driver_connection.execute(  # type: ignore[union-attr]
        "BEGIN IMMEDIATE" if immediate else "BEGIN")
