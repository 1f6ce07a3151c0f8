"""The built-in tracks shipped as package data, parsed and built once per process.

Reading package data is the one thing here that looks like I/O; it reads only files that ship
inside the package, never the user's files (those go through the CLI).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib import resources

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

DEFAULT_TRACK = "monaco"


def builtin_track_names() -> tuple[str, ...]:
    """Names of the built-in tracks, sorted."""
    folder = resources.files("rennleitung.formula_de.tracks")
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


def builtin_track_text(name: str) -> str:
    """The TOML text of a built-in track."""
    if name not in builtin_track_names():
        raise RennleitungError(
            f"unbekannte Strecke {name!r}; vorhanden: {', '.join(builtin_track_names())}",
            f"unknown track {name!r}; available: {', '.join(builtin_track_names())}",
            "track",
        )
    return (
        resources.files("rennleitung.formula_de.tracks")
        .joinpath(f"{name}.toml")
        .read_text(encoding="utf-8")
    )


@cache
def builtin_track(name: str) -> Track:
    """A built-in track by name (built once, then shared: tracks are immutable)."""
    text = builtin_track_text(name)
    return replace(build_track(parse_track_file(text, default_name=name)), source=text)
