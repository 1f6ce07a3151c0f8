"""Helpers shared by the command modules: loading tracks and positions, bilingual errors."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.position import Position, parse_position
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

error_console = Console(stderr=True)


def fail(error: RennleitungError, code: int = 1) -> NoReturn:
    """Print a bilingual error (German first) and exit."""
    error_console.print(f"[bold red]Fehler:[/bold red] {error.message_de}", markup=True)
    error_console.print(f"[bold red]Error:[/bold red] {error.message_en}", markup=True)
    raise typer.Exit(code)


def read_text(path: Path) -> str:
    """A file's text, or a bilingual error naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise RennleitungError(
            f"Datei kann nicht gelesen werden ({error.strerror})",
            f"cannot read the file ({error.strerror})",
            str(path),
        ) from None


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
    """Read and validate a position file, resolving track files relative to it."""
    text = read_text(path)

    def loader(reference: str) -> Track:
        candidate = path.parent / reference
        if reference not in builtin_track_names() and candidate.exists():
            return load_track(str(candidate))
        return load_track(reference)

    return parse_position(text, loader)
