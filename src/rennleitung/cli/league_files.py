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
from rennleitung.inputs import read_text_noted


def read_text_file(path: Path, lang: Lang = Lang.BOTH) -> str:
    """The file's text through the safe input layer (``rennleitung.inputs``); a file that is
    not UTF-8 is read as Windows-1252, with the layer's note shown to the reader."""
    text, note = read_text_noted(path, legacy=True)
    if note is not None:
        where = f"{note.where}: " if note.where else ""
        say(f"Hinweis: {where}{note.de}", f"note: {where}{note.en}", lang)
    return text


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
