"""Files the organiser hands in and gets back, as they come from real spreadsheets and disks.

Reading: UTF-8 (with or without a byte-order mark); a file that is not UTF-8 is read as
Windows-1252, the encoding German Excel saves CSV in, and the reader is told so. Writing: the
place to write is checked before any work is done (a missing folder must not cost a race that
was already driven and stored), and a file that cannot be written is a bilingual error, never a
traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from rennleitung.cli.common import Lang, say
from rennleitung.errors import RennleitungError


def read_text_file(path: Path, lang: Lang = Lang.BOTH) -> str:
    """The file's text; Windows-1252 when it is not UTF-8, with a note saying so."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RennleitungError(
            f"Datei nicht lesbar: {error.strerror}", f"cannot read file: {error.strerror}",
            str(path),
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        say(
            f"Hinweis: {path} ist kein UTF-8 (Zeile {line}); als Windows-1252 gelesen "
            "(so speichert deutsches Excel CSV)",
            f"note: {path} is not UTF-8 (line {line}); read as Windows-1252 (the encoding "
            "German Excel saves CSV in)",
            lang,
        )
        return data.decode("cp1252", errors="replace")


def check_output(path: Path, option: str) -> None:
    """Refuse, before any work, a place that cannot be written: a missing folder, a folder
    where the file should be, a folder without write permission."""
    folder = path.parent
    if path.is_dir():
        raise RennleitungError(
            f"{path} ist ein Ordner, keine Datei", f"{path} is a folder, not a file", option
        )
    if not folder.is_dir():
        raise RennleitungError(
            f"Ordner {folder} gibt es nicht; bitte zuerst anlegen",
            f"folder {folder} does not exist; please create it first",
            option,
        )
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise RennleitungError(
            f"{path} ist nicht schreibbar (keine Berechtigung)",
            f"cannot write {path} (permission denied)",
            option,
        )


def write_text_file(path: Path, text: str, option: str) -> None:
    """Write ``text`` (UTF-8), or a bilingual error naming the option."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise RennleitungError(
            f"{path} ist nicht schreibbar: {error.strerror}",
            f"cannot write {path}: {error.strerror}",
            option,
        ) from None
