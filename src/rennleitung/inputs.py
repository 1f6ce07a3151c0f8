"""Reading a person's file safely: the file-touching half of the safe input layer.

Every loader and every file argument of the command line, the web server and the mail intake
reads through here, so one place decides what a file may be:

* ``read_bytes(path)`` refuses a missing file, a folder, a device, a pipe or a socket without
  blocking on it (``os.stat`` first, then ``open`` with ``O_NONBLOCK`` and a second check of
  the open file), and refuses a file over the byte limit before reading it whole.
* ``read_text(path)`` adds the decoding of :mod:`rennleitung.textinput` (UTF-8, UTF-8/16/32
  with a byte-order mark; ``legacy=True`` reads other bytes as Windows-1252 and
  ``read_text_noted`` returns the note to show). ``read_json`` and ``read_toml`` also parse.
* ``inside(folder, reference)`` resolves a file named *inside* another input (a position's
  track file): no absolute path, no ``..``, no symlink that leads out of ``folder``.
* ``write_text(path, text)`` writes an output file with a clear error for a missing folder.
* ``shown(value)`` escapes user text for Rich markup and cuts it (``[/x]`` in a name must not
  crash the printer, a 100k-character id must not take minutes).

Every refusal is a :class:`rennleitung.errors.RennleitungError` naming the file; callers only
catch that. Use it like this::

    from rennleitung.inputs import read_text, read_json
    text = read_text(path)                       # a track file, a sheet, ...
    data = read_json(path)                       # parsed, NaN and deep nesting refused
    text, note = read_text_noted(path, legacy=True)  # a league CSV export
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.textinput import (
    MAX_INPUT_BYTES,
    MAX_SHOWN,
    Note,
    check_size,
    clip,
    decode_text_noted,
    load_json,
    load_toml,
)

__all__ = [
    "MAX_INPUT_BYTES",
    "Note",
    "clip",
    "inside",
    "read_bytes",
    "read_json",
    "read_text",
    "read_text_noted",
    "read_toml",
    "shown",
    "write_text",
]


def _name(path: Path | str) -> str:
    return clip(str(path), 200)


def _os_error(path: Path | str, error: OSError) -> RennleitungError:
    reason = error.strerror or type(error).__name__
    if error.errno == errno.ENOENT:
        return RennleitungError("Datei nicht gefunden", "file not found", _name(path))
    if error.errno in (errno.EACCES, errno.EPERM):
        return RennleitungError("keine Leserechte", "permission denied", _name(path))
    if error.errno == errno.EISDIR:
        return RennleitungError("ist ein Ordner, keine Datei", "is a folder, not a file",
                                _name(path))
    return RennleitungError(
        f"Datei kann nicht gelesen werden ({reason})", f"cannot read the file ({reason})",
        _name(path),
    )


def _refuse_kind(path: Path | str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise RennleitungError("ist ein Ordner, keine Datei", "is a folder, not a file",
                               _name(path))
    raise RennleitungError(
        "keine gewöhnliche Datei (Gerät, Pipe oder Socket)",
        "not a regular file (device, pipe or socket)",
        _name(path),
    )


def read_bytes(path: Path | str, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, never blocking."""
    if "\0" in str(path):
        raise RennleitungError("ungültiger Dateiname", "invalid file name", _name(str(path)))
    try:
        info = os.stat(path)
        _refuse_kind(path, info.st_mode)
        check_size(info.st_size, _name(path), limit)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        descriptor = os.open(path, flags)
    except OSError as error:
        raise _os_error(path, error) from None
    try:
        opened = os.fstat(descriptor)
        _refuse_kind(path, opened.st_mode)  # swapped for a pipe between stat and open
        check_size(opened.st_size, _name(path), limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        check_size(size, _name(path), limit)  # grew while we read
        return b"".join(chunks)
    except OSError as error:
        raise _os_error(path, error) from None
    finally:
        os.close(descriptor)


def read_text_noted(
    path: Path | str, *, limit: int = MAX_INPUT_BYTES, legacy: bool = False
) -> tuple[str, Note | None]:
    """The text of a file and, when it was read as Windows-1252, the note to show."""
    return decode_text_noted(read_bytes(path, limit=limit), _name(path), limit=limit,
                             legacy=legacy)


def read_text(path: Path | str, *, limit: int = MAX_INPUT_BYTES, legacy: bool = False) -> str:
    """The text of a file (see the module docstring for what is refused)."""
    return read_text_noted(path, limit=limit, legacy=legacy)[0]


def read_json(path: Path | str, *, limit: int = MAX_INPUT_BYTES) -> Any:
    """A JSON file, parsed; NaN, infinity, huge numbers and deep nesting refused."""
    return load_json(read_text(path, limit=limit), _name(path))


def read_toml(path: Path | str, *, limit: int = MAX_INPUT_BYTES) -> dict[str, Any]:
    """A TOML file, parsed, with a bilingual error for bad syntax naming the file."""
    text = read_text(path, limit=limit)
    try:
        return load_toml(text, _name(path))
    except tomllib.TOMLDecodeError as error:
        raise RennleitungError(f"kein gültiges TOML: {error}", f"not valid TOML: {error}",
                               _name(path)) from None


def inside(folder: Path, reference: str, where: str = "") -> Path:
    """The file ``reference`` names relative to ``folder``, refused unless it stays inside.

    No absolute path, no ``..``, no symlink (of the file or a folder on the way) leading out of
    ``folder``. Whether it is a regular file is checked when it is read.
    """
    place = where or _name(reference)
    if not reference or "\0" in reference or "\\" in reference:
        raise RennleitungError("ungültiger Dateiname", "invalid file name", place)
    if len(reference) > 1000 or any(len(part) > 255 for part in reference.split("/")):
        raise RennleitungError("Dateiname zu lang", "file name too long", place)
    relative = Path(reference)
    if relative.is_absolute() or reference.startswith("~"):
        raise RennleitungError(
            "nur Dateien im selben Ordner oder darunter, kein absoluter Pfad",
            "only files in the same folder or below, no absolute path",
            place,
        )
    if ".." in relative.parts:
        raise RennleitungError(
            "nur Dateien im selben Ordner oder darunter, kein '..'",
            "only files in the same folder or below, no '..'",
            place,
        )
    try:
        base = folder.resolve()
        target = (base / relative).resolve()
    except (OSError, RuntimeError) as error:  # symlink loops
        raise RennleitungError("Pfad nicht auflösbar", f"cannot resolve the path ({error})",
                               place) from None
    if not target.is_relative_to(base):
        raise RennleitungError(
            "Verweis führt aus dem Ordner hinaus (symbolischer Link)",
            "the reference leads out of the folder (symbolic link)",
            place,
        )
    return target


def write_text(path: Path | str, text: str) -> None:
    """Write an output file; a missing folder or a folder in the way is a clear error."""
    target = Path(path)
    parent = target.parent
    if not parent.is_dir():
        raise RennleitungError(
            f"Ordner {_name(parent)} gibt es nicht", f"folder {_name(parent)} does not exist",
            _name(path),
        )
    if target.is_dir():
        raise RennleitungError("ist ein Ordner, keine Datei", "is a folder, not a file",
                               _name(path))
    if target.exists() and not target.is_file() and not target.is_char_device():
        raise RennleitungError(  # a pipe would block the writer until someone reads it
            "keine gewöhnliche Datei (Pipe oder Socket)", "not a regular file (pipe or socket)",
            _name(path),
        )
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RennleitungError(f"kann nicht schreiben ({reason})", f"cannot write ({reason})",
                               _name(path)) from None


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """User text made safe for Rich markup: cut to ``limit`` characters, brackets escaped."""
    from rich.markup import escape

    return escape(clip(value, limit))
