"""Bytes to text, and text to data, for every loader: the pure half of the safe input layer.

Standard library only and without I/O, so the engines (``formula_de``, ``turbo2000``,
``league``) may call it as well as the adapters. The file-touching half (regular files only,
no blocking, the byte limit checked before reading) is :mod:`rennleitung.inputs`.

How to use it:

* ``decode_text(data, where)`` turns the bytes of one input into text: UTF-8, UTF-8 with a
  byte-order mark, UTF-16/UTF-32 with a byte-order mark. Anything else is refused with a
  bilingual :class:`RennleitungError` naming ``where`` (the file), unless the caller passes
  ``legacy=True``: then bytes that are not UTF-8 are read as Windows-1252 and
  ``decode_text_noted`` returns a :class:`Note` saying so (for the inputs whose issue allows it,
  e.g. league CSV imports). ``check_size`` refuses inputs over a byte limit.
* ``load_json(text, where)`` and ``load_toml(text, where)`` parse and refuse what the standard
  parsers let through or crash on: NaN and infinity, numbers too long to convert, nesting deeper
  than ``MAX_DEPTH``, a key twice in one object (readers differ in which one they keep: a record
  could show one driver and replay another). The error names the line or the key path
  (``cars[3].gear``).
* ``clip(value)`` cuts an over-long user value for a message (a 100k-character car id must not
  take minutes to print); use it wherever a value of the input goes into an error text.
"""

from __future__ import annotations

import codecs
import json
import json.decoder
import json.scanner
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rennleitung.errors import RennleitungError

MAX_INPUT_BYTES = 4 * 1024 * 1024
"""Bytes per input file unless a loader says otherwise (the largest shipped file is ~100 KB)."""

MAX_DEPTH = 32
"""Nesting of lists and tables in one input; the shipped formats need fewer than 8."""

MAX_SHOWN = 120
"""Characters of one user value shown in a message before it is cut."""

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


@dataclass(frozen=True)
class Note:
    """Something a reader should know about how an input was read (not an error)."""

    de: str
    en: str
    where: str = ""


def clip(value: object, limit: int = MAX_SHOWN) -> str:
    """``value`` as text, cut in the middle with ``…`` when longer than ``limit`` characters."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    head = max(1, limit * 2 // 3)
    tail = max(1, limit - head - 1)
    return f"{text[:head]}…{text[-tail:]} ({len(text)} Zeichen/characters)"


def check_size(size: int, where: str, limit: int = MAX_INPUT_BYTES) -> None:
    """Refuse an input of ``size`` bytes over ``limit`` (checked before anything is read)."""
    if size > limit:
        raise RennleitungError(
            f"Datei zu groß ({size} Bytes, höchstens {limit})",
            f"file too large ({size} bytes, at most {limit})",
            where,
        )


def decode_text_noted(
    data: bytes, where: str, *, limit: int = MAX_INPUT_BYTES, legacy: bool = False
) -> tuple[str, Note | None]:
    """The text of ``data`` and, when it was read as Windows-1252, a note saying so."""
    check_size(len(data), where, limit)
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec), None
            except UnicodeDecodeError as error:
                raise RennleitungError(
                    f"ungültiges {name} nach der Byte-Reihenfolge-Marke (Byte {error.start})",
                    f"invalid {name} after the byte-order mark (byte {error.start})",
                    where,
                ) from None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        if legacy:
            text = data.decode("cp1252", errors="replace")
            return text, Note(
                "kein UTF-8, als Windows-1252 gelesen; bitte die Umlaute prüfen",
                "not UTF-8, read as Windows-1252; please check the accented letters",
                where,
            )
        line = data.count(b"\n", 0, error.start) + 1
        raise RennleitungError(
            f"kein UTF-8-Text (Zeile {line}, Byte {error.start}: 0x{data[error.start]:02x}); "
            "bitte als UTF-8 speichern",
            f"not UTF-8 text (line {line}, byte {error.start}: 0x{data[error.start]:02x}); "
            "please save it as UTF-8",
            where,
        ) from None


def decode_text(
    data: bytes, where: str, *, limit: int = MAX_INPUT_BYTES, legacy: bool = False
) -> str:
    """The text of ``data`` (see the module docstring for what is accepted)."""
    return decode_text_noted(data, where, limit=limit, legacy=legacy)[0]


def _path(parent: str, key: object) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    name = clip(str(key), 40)
    return f"{parent}.{name}" if parent else name


def _at(where: str, path: str) -> str:
    path = clip(path, 80)
    return f"{where}: {path}" if where and path else where or path


def check_data(
    data: Any, where: str, *, max_depth: int = MAX_DEPTH, finite: bool = True
) -> None:
    """Refuse NaN/infinity and nesting deeper than ``max_depth`` anywhere in parsed data.

    Iterative, so no input can exhaust the stack here; the error names the key path.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if finite and isinstance(value, float) and not math.isfinite(value):
            raise RennleitungError(
                f"keine endliche Zahl ({value})",
                f"not a finite number ({value})",
                _at(where, path),
            )
        if isinstance(value, dict | list):
            if depth >= max_depth:
                raise RennleitungError(
                    f"zu tief verschachtelt (mehr als {max_depth} Ebenen)",
                    f"nested too deeply (more than {max_depth} levels)",
                    _at(where, path),
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                stack.append((item, _path(path, key), depth + 1))


def _json_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number out of range: {clip(text, 30)}")
    return number


def _json_constant(text: str) -> float:
    raise ValueError(f"{text} is not a number here")


class _Duplicate(ValueError):
    """A key met twice in one JSON object (found by the fast parser, placed by the slow one)."""

    def __init__(self, key: str, line: int = 0) -> None:
        super().__init__(key)
        self.key = key
        self.line = line


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return result


def _key_positions(text: str, start: int, end: int) -> list[tuple[str, int]]:
    """The keys of the one object spanning ``text[start:end]`` (``start`` just after its
    ``{``) with their offsets; nested objects and strings are stepped over."""
    keys: list[tuple[str, int]] = []
    depth, position = 0, start
    while position < end:
        char = text[position]
        if char == '"':
            value, after = json.decoder.scanstring(text, position + 1)  # type: ignore[attr-defined]
            rest = after
            while rest < end and text[rest] in " \t\r\n":
                rest += 1
            if depth == 0 and rest < end and text[rest] == ":":
                keys.append((value, position))
            position = after
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        position += 1
    return keys


def _duplicate_line(text: str) -> _Duplicate:
    """Parse again with the pure-Python scanner, whose objects know where they start, to name
    the line of the first repeated key (only after the fast parser found one)."""

    def parse_object(
        s_and_end: tuple[str, int], strict: bool, scan_once: Any, object_hook: Any,
        object_pairs_hook: Any, memo: Any = None, *rest: Any,
    ) -> tuple[dict[str, Any], int]:
        source, start = s_and_end
        pairs, end = json.decoder.JSONObject(  # type: ignore[attr-defined]
            s_and_end, strict, scan_once, object_hook, list, memo, *rest)
        try:
            return _no_duplicates(pairs), end
        except _Duplicate as duplicate:
            seen: set[str] = set()
            for key, offset in _key_positions(source, start, end):
                if key == duplicate.key and key in seen:
                    raise _Duplicate(key, source.count("\n", 0, offset) + 1) from None
                seen.add(key)
            raise

    decoder = json.JSONDecoder(parse_float=_json_float, parse_constant=_json_constant)
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(text)
    except _Duplicate as duplicate:
        return duplicate
    return _Duplicate("?")  # not reached: the fast parser found a duplicate


def load_json(text: str, where: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text; bad syntax, NaN/infinity, huge numbers, deep nesting and a key twice
    in one object are refused."""
    try:
        data = json.loads(text, parse_float=_json_float, parse_constant=_json_constant,
                          object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        line = f"Zeile/line {error.lineno}"
        raise RennleitungError(
            f"kein gültiges JSON: {error.msg} (Spalte {error.colno})",
            f"not valid JSON: {error.msg} (column {error.colno})",
            f"{where}, {line}" if where else line,
        ) from None
    except RecursionError:
        raise RennleitungError(
            f"JSON zu tief verschachtelt (mehr als {max_depth} Ebenen)",
            f"JSON nested too deeply (more than {max_depth} levels)",
            where,
        ) from None
    except _Duplicate:
        try:
            duplicate = _duplicate_line(text)
        except RecursionError:
            duplicate = _Duplicate("?")
        key = clip(duplicate.key, 40)
        line = f"Zeile/line {duplicate.line}" if duplicate.line else ""
        raise RennleitungError(
            f'Schlüssel "{key}" doppelt im selben Objekt (jeder Schlüssel nur einmal)',
            f'key "{key}" twice in the same object (each key only once)',
            ", ".join(part for part in (where, line) if part),
        ) from None
    except ValueError as error:  # NaN, Infinity, 1e999, integers with thousands of digits
        raise RennleitungError(
            f"ungültige Zahl im JSON ({clip(str(error), 80)})",
            f"invalid number in JSON ({clip(str(error), 80)})",
            where,
        ) from None
    check_data(data, where, max_depth=max_depth)
    return data


def load_toml(
    text: str, where: str, *, max_depth: int = MAX_DEPTH, finite: bool = True
) -> dict[str, Any]:
    """Parse TOML text; like :func:`load_json` NaN/infinity and deep nesting are refused
    (``finite=False``: the caller checks each number itself, naming its line).

    ``tomllib.TOMLDecodeError`` is left to the caller when it wants the line for its own
    message; every other failure of the parser becomes a bilingual error here.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise RennleitungError(
            f"TOML zu tief verschachtelt (mehr als {max_depth} Ebenen)",
            f"TOML nested too deeply (more than {max_depth} levels)",
            where,
        ) from None
    except ValueError as error:  # integers with thousands of digits
        raise RennleitungError(
            f"ungültige Zahl im TOML ({clip(str(error), 80)})",
            f"invalid number in TOML ({clip(str(error), 80)})",
            where,
        ) from None
    check_data(data, where, max_depth=max_depth, finite=finite)
    return data


def env_whole(env: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    """A whole number from the environment variable ``name`` (unset or blank: ``default``);
    anything but ASCII digits in ``lo`` … ``hi`` is an error naming the variable."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and lo <= int(raw) <= hi):
        raise RennleitungError(
            f"{name} muss eine ganze Zahl von {lo} bis {hi} sein, nicht {clip(raw, 20)}",
            f"{name} must be a whole number from {lo} to {hi}, not {clip(raw, 20)}",
            name,
        )
    return int(raw)
