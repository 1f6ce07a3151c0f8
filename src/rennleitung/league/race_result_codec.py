"""Race results and qualifying laps to and from plain data: JSON objects and the organiser's CSV.

Pure conversions (text in, values out); reading files is the CLI's job. Every refusal names the
line and column, in German and English. The JSON form is the documented contract in
``docs/league/race-result.md``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any, TypeVar

from rennleitung.errors import RennleitungError
from rennleitung.league.qualifying import QualifyingLap, parse_lap_time
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
    RaceSource,
    RoundOrder,
)

RACE_CSV_COLUMNS = ("driver", "grid", "position", "laps", "status", "driven_by",
                    "laps_most_led", "karma", "team")
QUALIFYING_CSV_COLUMNS = ("driver", "rolls", "penalty_points", "errors", "lap_time", "run",
                          "driven_by")
CodedEnum = TypeVar("CodedEnum", InRaceKarmaKind, RaceSource)

STATUS_ALIASES = {
    "finished": FinishStatus.FINISHED, "ziel": FinishStatus.FINISHED,
    "im-ziel": FinishStatus.FINISHED,
    "retired": FinishStatus.RETIRED, "ausfall": FinishStatus.RETIRED,
    "ausgefallen": FinishStatus.RETIRED,
}
"""Status words (lower case, spaces as ``-``), the tables' German words among them."""
DID_NOT_START = frozenset({"did-not-start", "dns", "nicht-gestartet", "ns"})
"""``status`` values of a qualified driver who stayed out; his row needs no grid or place."""


def race_result_to_json(result: RaceResult) -> dict[str, Any]:
    """A race result as a JSON-ready dict."""
    return {
        "race": result.race,
        "laps": result.laps,
        "track": result.track,
        "source": result.source.value,
        "drivers": [
            {
                "driver": e.driver,
                "grid": e.grid,
                "position": e.position,
                "laps_completed": e.laps_completed,
                "status": e.status.value,
                "driven_by": e.driven_by,
                "laps_most_led": e.laps_most_led,
                "karma": [
                    {"kind": k.kind.value, "amount": k.amount, "note": k.note} for k in e.karma
                ],
                **({"team": e.team} if e.team is not None else {}),
            }
            for e in result.drivers
        ],
        "rounds": [{"lap": r.lap, "order": list(r.order)} for r in result.rounds],
        "did_not_start": list(result.did_not_start),
    }


def race_result_from_json(data: Mapping[str, Any]) -> RaceResult:
    """A race result from the dict that ``race_result_to_json`` writes."""
    drivers = []
    for index, item in enumerate(_list(data, "drivers", "json"), start=1):
        where = f"drivers[{index}]"
        karma = tuple(
            InRaceKarma(
                _enum(InRaceKarmaKind, _field(k, "kind", f"{where}.karma"), f"{where}.karma"),
                _int(k.get("amount", 0), f"{where}.karma.amount"),
                str(k.get("note", "")),
            )
            for k in _list(item, "karma", where, required=False)
        )
        driven_by = item.get("driven_by")
        team = item.get("team")
        drivers.append(
            DriverRaceResult(
                str(_field(item, "driver", where)),
                _int(_field(item, "grid", where), f"{where}.grid"),
                _int(_field(item, "position", where), f"{where}.position"),
                _int(_field(item, "laps_completed", where), f"{where}.laps_completed"),
                _status(str(_field(item, "status", where)), f"{where}.status"),
                str(driven_by) if driven_by else None,
                _int(item.get("laps_most_led", 0), f"{where}.laps_most_led"),
                karma,
                str(team).strip() if team else None,
            )
        )
    rounds = tuple(
        RoundOrder(
            _int(_field(item, "lap", f"rounds[{index}]"), f"rounds[{index}].lap"),
            tuple(str(name) for name in _list(item, "order", f"rounds[{index}]")),
        )
        for index, item in enumerate(_list(data, "rounds", "json", required=False), start=1)
    )
    return RaceResult(
        _int(_field(data, "race", "json"), "race"),
        tuple(drivers),
        _int(data.get("laps", 3), "laps"),
        str(data.get("track", "")),
        _enum(RaceSource, str(data.get("source", "table")), "source"),
        rounds,
        tuple(str(name) for name in _list(data, "did_not_start", "json", required=False)),
    )


def race_result_from_csv(text: str, race: int, laps: int = 3, track: str = "") -> RaceResult:
    """A table race from CSV with the columns of ``RACE_CSV_COLUMNS`` (header line first).

    ``team`` (optional) names the team the driver drove for (a new one: a transfer from this
    race). ``karma`` holds space-separated events in order: ``twenty``, ``reroll``, ``plus-one``,
    ``head-to-head:5``. Empty ``laps`` means the full distance; empty ``status`` means finished.
    """
    entries = []
    absent: list[str] = []
    for line, row in _csv_rows(text, RACE_CSV_COLUMNS[:3]):
        where = f"line {line}"
        status_text = (row.get("status") or "finished").strip()
        if status_text.lower().replace(" ", "-") in DID_NOT_START:
            absent.append((row.get("driver") or "").strip())
            continue
        status = _status(status_text, f"{where}, status")
        laps_text = (row.get("laps") or "").strip()
        entries.append(
            DriverRaceResult(
                row["driver"].strip(),
                _int(row["grid"], f"{where}, grid"),
                _int(row["position"], f"{where}, position"),
                _int(laps_text, f"{where}, laps") if laps_text else laps,
                status,
                (row.get("driven_by") or "").strip() or None,
                _int(row.get("laps_most_led") or "0", f"{where}, laps_most_led"),
                _karma_events(row.get("karma") or "", f"{where}, karma"),
                (row.get("team") or "").strip() or None,
            )
        )
    return RaceResult(race, tuple(entries), laps, track, did_not_start=tuple(absent))


def qualifying_laps_from_csv(text: str) -> tuple[QualifyingLap, ...]:
    """Qualifying laps from CSV with the columns of ``QUALIFYING_CSV_COLUMNS``."""
    laps = []
    for line, row in _csv_rows(text, ("driver", "rolls", "lap_time")):
        where = f"line {line}"
        laps.append(
            QualifyingLap(
                row["driver"].strip(),
                _int(row["rolls"], f"{where}, rolls"),
                _int(row.get("penalty_points") or "0", f"{where}, penalty_points"),
                parse_lap_time(row["lap_time"], f"{where}, lap_time"),
                _int(row.get("errors") or "0", f"{where}, errors"),
                _int(row.get("run") or "1", f"{where}, run"),
                (row.get("driven_by") or "").strip() or None,
            )
        )
    return tuple(laps)


HEADER_ALIASES: dict[str, str] = {
    alias: key
    for key, aliases in {
        "driver": ("fahrer", "fahrerin", "name"),
        "grid": ("start", "startplatz", "startposition"),
        "position": ("platz", "place", "rang", "platzierung"),
        "laps": ("runden", "laps-completed"),
        "driven_by": ("gefahren-von", "driven-by", "ersatzfahrer", "am-steuer"),
        "laps_most_led": ("führungsrunden", "fuehrungsrunden", "meiste-führungsrunden",
                          "laps-most-led"),
        "team": ("rennstall",),
        "rolls": ("würfe", "wuerfe", "wurfzahl"),
        "penalty_points": ("strafpunkte", "penalty-points"),
        "errors": ("fehler",),
        "lap_time": ("rundenzeit", "lap-time", "zeit"),
        "run": ("lauf",),
    }.items()
    for alias in aliases
}
"""Column names a German spreadsheet (or the tables' own German labels) writes, by the key
they stand for; matched in lower case with spaces and underscores as ``-``."""


def _header_key(name: str) -> str:
    """A header cell as the column key it names (``Fahrer`` -> ``driver``)."""
    clean = name.strip()
    folded = clean.lower().replace("_", "-").replace(" ", "-")
    if folded.replace("-", "_") in RACE_CSV_COLUMNS + QUALIFYING_CSV_COLUMNS:
        return folded.replace("-", "_")
    return HEADER_ALIASES.get(folded, clean)


def _csv_rows(text: str, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Rows with their line numbers. A German spreadsheet writes ``;`` between fields, may
    put a byte-order mark in front and names the columns in German (``Fahrer;Start;Platz``,
    ``HEADER_ALIASES``); all of it is accepted."""
    clean = text.lstrip("\ufeff").strip() + "\n"
    header_line = clean.split("\n", 1)[0]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.DictReader(io.StringIO(clean), delimiter=delimiter)
    try:
        header = [_header_key(h) for h in reader.fieldnames or []]
    except csv.Error as error:  # e.g. a lone carriage return inside the header line
        raise RennleitungError(f"CSV nicht lesbar ({error})", f"unreadable CSV ({error})",
                               "line 1") from None
    reader.fieldnames = header
    missing = [column for column in required if column not in header]
    if missing:
        raise RennleitungError(
            f"Spalten fehlen in der Kopfzeile: {', '.join(missing)}",
            f"columns missing from the header line: {', '.join(missing)}",
            "line 1",
        )
    try:
        rows = [(index, _cells(row, index)) for index, row in enumerate(reader, start=2)
                if any(row.values())]
    except csv.Error as error:
        raise RennleitungError(f"CSV nicht lesbar ({error})", f"unreadable CSV ({error})",
                               f"line {reader.line_num}") from None
    if not rows:
        raise RennleitungError("keine Datenzeilen", "no data lines", "line 2")
    return rows


MAX_CELL = 500
"""Characters in one CSV cell; names and karma lists are far shorter."""


def _cells(row: dict[str | None, object], line: int) -> dict[str, str]:
    """A row's cells by column: a missing cell is empty, cells beyond the header are dropped,
    an over-long cell is refused naming its line and column."""
    cells = {}
    for column, value in row.items():
        if column is None:
            continue
        text = value if isinstance(value, str) else ""
        if len(text) > MAX_CELL:
            raise RennleitungError(
                f"Zelle zu lang ({len(text)} Zeichen, höchstens {MAX_CELL})",
                f"cell too long ({len(text)} characters, at most {MAX_CELL})",
                f"line {line}, {column[:40]}",
            )
        cells[column] = text
    return cells


def _karma_events(text: str, where: str) -> tuple[InRaceKarma, ...]:
    events = []
    for token in text.split():
        kind_text, _, amount_text = token.partition(":")
        kind = _enum(InRaceKarmaKind, kind_text, where)
        amount = _int(amount_text, where) if amount_text else 0
        events.append(InRaceKarma(kind, amount))
    return tuple(events)


def _status(text: str, where: str) -> FinishStatus:
    status = STATUS_ALIASES.get(text.strip().lower().replace(" ", "-"))
    if status is None:
        raise RennleitungError(
            f"unbekannter Status {text!r}; erlaubt: ziel (finished), ausfall (retired), "
            "nicht-gestartet (did-not-start)",
            f"unknown status {text!r}; allowed: finished (ziel), retired (ausfall), "
            "did-not-start (nicht-gestartet)",
            where,
        )
    return status


def _enum(kind: type[CodedEnum], text: str, where: str) -> CodedEnum:
    try:
        if not isinstance(text, str):
            raise ValueError(text)
        return kind(text.strip().lower())
    except ValueError:
        allowed = ", ".join(str(member.value) for member in kind)
        raise RennleitungError(
            f"unbekannter Wert {text!r}; erlaubt: {allowed}",
            f"unknown value {text!r}; allowed: {allowed}",
            where,
        ) from None


def _int(value: object, where: str) -> int:
    if isinstance(value, bool):
        value = "bool"
    try:
        return int(str(value).strip())
    except ValueError:
        raise RennleitungError(
            f"{value!r} ist keine ganze Zahl", f"{value!r} is not a whole number", where
        ) from None


def _field(data: Mapping[str, Any], name: str, where: str) -> Any:
    if not isinstance(data, Mapping) or name not in data:
        raise RennleitungError(f"Feld {name!r} fehlt", f"field {name!r} is missing", where)
    return data[name]


def _list(data: Mapping[str, Any], name: str, where: str, required: bool = True) -> list[Any]:
    value = data.get(name, None if required else []) if isinstance(data, Mapping) else None
    if not isinstance(value, list):
        raise RennleitungError(
            f"Feld {name!r} muss eine Liste sein", f"field {name!r} must be a list", where
        )
    return value
