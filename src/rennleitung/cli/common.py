"""Helpers shared by the command modules: loading tracks and positions, bilingual errors and
messages, the options several command groups take."""

from __future__ import annotations

import os
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
from rennleitung.formula_de.trackcheck import checked_track

Result = TypeVar("Result")


class Lang(StrEnum):
    """Which language a command prints: German, English or both."""

    DE = "de"
    EN = "en"
    BOTH = "both"


LANG_ENV = "RENNLEITUNG_LANG"
"""Environment variable with the default language; the console script fills it from the locale
when it is unset (see ``lang_from_locale``)."""

_chosen: list[Lang] = []
"""The language the running command was given with ``--lang`` (reset for every command)."""


def lang_from_locale() -> Lang:
    """German for a German locale (``de_DE.UTF-8``, ``de_AT``…), English otherwise."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return Lang.DE if value.lower().startswith("de") else Lang.EN
    return Lang.EN


def current_lang() -> Lang:
    """The language to print in: ``--lang``, else ``RENNLEITUNG_LANG``, else both (tests and
    programs that call the app directly; the console script sets the variable from the
    locale)."""
    if _chosen:
        return _chosen[-1]
    try:
        return Lang(os.environ.get(LANG_ENV, "").strip().lower())
    except ValueError:
        return Lang.BOTH


def choose_lang(value: Lang | str | None) -> Lang | str | None:
    """Callback of every ``--lang`` option: remember the choice for messages and errors."""
    if value is not None:
        _chosen.append(Lang(value))
    return value


def reset_lang() -> None:
    """Forget the previous command's ``--lang`` (the app may run several commands)."""
    _chosen.clear()


def counted(n: int, one: str, many: str) -> str:
    """A number with its noun, singular after 1 ("1 Zug", "1 mail"; was "1 Züge")."""
    return f"{n} {one if n == 1 else many}"


def pick(de: str, en: str, lang: Lang | None = None, both: str = " / ") -> str:
    """The text in the current language, or "de / en" for both (``both`` joins them: a table
    header takes a line break, so its column stays narrow)."""
    chosen = lang or current_lang()
    return {Lang.DE: de, Lang.EN: en}.get(chosen, f"{de}{both}{en}")


LangOption = Annotated[
    Lang,
    typer.Option(
        "--lang",
        envvar=LANG_ENV,
        callback=choose_lang,
        help="de, en oder/or both (Vorgabe/default: RENNLEITUNG_LANG, sonst/else locale).",
    ),
]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Datenbank-URL oder SQLite-Datei / database URL or SQLite file (env RENNLEITUNG_DB).",
    ),
]


EXIT_DONE = 0
EXIT_REFUSED = 1
"""Exit codes of every command (docs/index.md): 0 done, 1 an input or a rule refused it,
2 wrong usage (unknown option, missing argument: Typer's own)."""

MAX_MESSAGE = 2000
"""Characters of one error message; longer ones are cut (a 100k-character value must not take
minutes to print)."""


PLACE_WORDS = (("Zeile/line ", "Zeile ", "line "), ("Schritt/step ", "Schritt ", "step "))
"""Words of an error's place written in both languages by the layers that find it (an input's
line, a path's step): shown in the one language of the message."""


def _placed(text: str, lang: Lang) -> str:
    for both, de, en in PLACE_WORDS:
        text = text.replace(both, de if lang is Lang.DE else en)
    return text


def show_error(error: RennleitungError, labelled: bool = False) -> None:
    """Print an error on stderr in the current language, its user text escaped and cut;
    ``labelled`` puts "Fehler:"/"Error:" in front (one line per language)."""
    de = inputs.shown(_placed(error.message_de, Lang.DE), MAX_MESSAGE)
    en = inputs.shown(_placed(error.message_en, Lang.EN), MAX_MESSAGE)
    if labelled:
        de, en = f"[bold]Fehler:[/bold] {de}", f"[bold]Error:[/bold] {en}"
    lang = current_lang()
    if lang is Lang.BOTH:
        text = f"{de}\n{en}" if labelled else inputs.shown(str(error), MAX_MESSAGE)
    else:
        text = de if lang is Lang.DE else en
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[red]{text}[/red]")


def run_guarded(action: Callable[[], Result]) -> Result:
    """Run ``action``; an error goes to stderr as one line, with exit code 1."""
    try:
        return action()
    except RennleitungError as error:
        show_error(error)
        raise typer.Exit(code=EXIT_REFUSED) from None


def say(de: str, en: str, lang: Lang | None = None) -> None:
    """Print a message in German, English or both ("de / en")."""
    Console(highlight=False, soft_wrap=True).print(escape(pick(de, en, lang)))


def fail(error: RennleitungError, code: int = EXIT_REFUSED) -> NoReturn:
    """Print the error with its label (see ``show_error``) and exit."""
    show_error(error, labelled=True)
    raise typer.Exit(code)


def read_text(path: Path) -> str:
    """A file's text, or a bilingual error naming the file (see ``rennleitung.inputs``)."""
    return inputs.read_text(path)


def load_track(reference: str) -> Track:
    """A track file by path (``*.toml`` or any existing file), else a built-in track by name
    (an unknown name is an error listing the built-in tracks). A file with errors that
    ``track check`` reports is refused with them."""
    path = Path(reference)
    if reference.endswith(".toml") or (
        reference not in builtin_track_names() and path.is_file()
    ):
        return checked_track(read_text(path), path.stem, str(path))
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
        return checked_track(read_text(candidate), candidate.stem, reference)

    return parse_position(text, loader)
