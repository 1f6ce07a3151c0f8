"""Helpers shared by the command modules: loading tracks and positions, bilingual errors and
messages, the options several command groups take."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from rennleitung import inputs
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.position import Position, parse_position
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

error_console = Console(stderr=True)

Result = TypeVar("Result")


class Lang(StrEnum):
    """Which language a command prints: German, English or both."""

    DE = "de"
    EN = "en"
    BOTH = "both"


LangOption = Annotated[Lang, typer.Option("--lang", help="de, en oder/or both.")]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Datenbank-URL oder SQLite-Datei / database URL or SQLite file (env RENNLEITUNG_DB).",
    ),
]


def run_guarded(action: Callable[[], Result]) -> Result:
    """Run ``action``; a bilingual error goes to stderr as one line, with exit code 1."""
    try:
        return action()
    except RennleitungError as error:
        stderr = Console(stderr=True, highlight=False, soft_wrap=True)
        stderr.print(f"[red]{escape(str(error))}[/red]")
        raise typer.Exit(code=1) from None


def say(de: str, en: str, lang: Lang = Lang.BOTH) -> None:
    """Print a message in German, English or both ("de / en")."""
    text = {Lang.DE: de, Lang.EN: en}.get(lang, f"{de} / {en}")
    Console(highlight=False, soft_wrap=True).print(escape(text))


def fail(error: RennleitungError, code: int = 1) -> NoReturn:
    """Print a bilingual error (German first) and exit."""
    error_console.print(f"[bold red]Fehler:[/bold red] {error.message_de}", markup=True)
    error_console.print(f"[bold red]Error:[/bold red] {error.message_en}", markup=True)
    raise typer.Exit(code)


def read_text(path: Path) -> str:
    """A file's text, or a bilingual error naming the file (see ``rennleitung.inputs``)."""
    return inputs.read_text(path)


def load_track(reference: str) -> Track:
    """A track file by path (``*.toml`` or any existing file), else a built-in track by name
    (an unknown name is an error listing the built-in tracks)."""
    path = Path(reference)
    if reference.endswith(".toml") or (
        reference not in builtin_track_names() and path.is_file()
    ):
        return build_track(parse_track_file(read_text(path), default_name=path.stem))
    return builtin_track(reference)


def read_position(path: Path) -> Position:
    """Read and validate a position file. Its ``track`` is a built-in name or a file in the
    position's folder or below (no absolute path, no ``..``, no symlink leading out)."""
    text = read_text(path)

    def loader(reference: str) -> Track:
        if reference in builtin_track_names():
            return builtin_track(reference)
        candidate = inputs.inside(path.parent, reference, "track")
        if not candidate.exists() and not reference.endswith(".toml"):
            return builtin_track(reference)  # an unknown name: the error lists the tracks
        return build_track(parse_track_file(read_text(candidate), default_name=candidate.stem))

    return parse_position(text, loader)
