"""Track files: a compact, human-writable TOML description of a board.

A track is a sequence of segments from the start/finish line round to it again: straights by
length, corners by stops, spaces per lane and the L/C printed on the flag (Masters 7-1-1). The
usual arrow pattern is generated (trackbuild.py); single spaces' arrows can be overridden. The
pit lane, the grid, the concrete wall and the weather table complete it. The format is documented
in docs/formula_de/track-files.md. Parsing only turns text into a ``TrackSpec``; every problem is
reported with its place in the file (line and key), in German and English.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from rennleitung.errors import RennleitungError


class TrackFileError(RennleitungError):
    """A problem in a track file; ``where`` names the line and key."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where something stands in a track file: line number (1-based, 0 if unknown) and key."""

    line: int
    key: str

    def __str__(self) -> str:
        return f"Zeile/line {self.line}, {self.key}" if self.line else self.key


@dataclass(frozen=True, slots=True)
class StraightSpec:
    """A straight of ``length`` spaces per lane; ``draw_length`` only stretches the drawing."""

    length: int
    draw_length: float
    place: Place


@dataclass(frozen=True, slots=True)
class CornerSpec:
    """A corner: stops on its flag, spaces per lane (A first), the flag's L and C, the drawing's
    turn (degrees, positive = left) and radius, and where it stands in the file."""

    stops: int
    spaces: tuple[int, ...]
    longest: int
    shortest: int
    turn: float
    radius: float
    place: Place
    pattern: str = "cross"


CORNER_PATTERNS = ("cross", "lanes")
"""Generated arrows in a corner: ``cross`` adds diagonals to the neighbouring lanes, ``lanes``
keeps every lane to itself inside the corner (lane changes only at its doors)."""

SegmentSpec = StraightSpec | CornerSpec


@dataclass(frozen=True, slots=True)
class PitSpec:
    """The pit lane: on which side, beside which track space it begins, how many track spaces
    have an arrow into it, how many boxes it has and how long it runs on after the last box."""

    side: str
    beside: str
    entries: int
    boxes: int
    exit_length: int
    place: Place


@dataclass(frozen=True, slots=True)
class ArrowOverride:
    """Replaces the generated successors of one space."""

    source: str
    targets: tuple[str, ...]
    place: Place


@dataclass(frozen=True)
class TrackSpec:
    """Everything a track file says, before the graph is built."""

    name: str
    title: str
    lanes: int
    heading: float
    lane_width: float
    segments: tuple[SegmentSpec, ...]
    grid: tuple[str, ...] | int
    grid_lanes: tuple[str, ...]
    pit: PitSpec | None
    wall: str | None
    weather_rain_max: int
    weather_changeable_max: int
    arrows: tuple[ArrowOverride, ...] = field(default=())


def _header_lines(text: str, header: str) -> list[int]:
    """Line numbers (1-based) of every ``[[header]]`` table in the text, in order."""
    wanted = f"[[{header}]]"
    return [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == wanted]


def _key_line(text: str, key: str) -> int:
    """The first line that assigns ``key`` at the start of a line, or 0."""
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(key) and stripped[len(key) :].lstrip().startswith("="):
            return n
    return 0


class _Reader:
    """Typed access to a TOML table with errors that say where."""

    def __init__(self, table: dict[str, Any], line: int, prefix: str) -> None:
        self.table = table
        self.line = line
        self.prefix = prefix

    def place(self, key: str) -> Place:
        return Place(self.line, f"{self.prefix}{key}")

    def fail(self, key: str, de: str, en: str) -> TrackFileError:
        return TrackFileError(de, en, str(self.place(key)))

    def get_int(self, key: str, default: int | None = None, minimum: int = 0) -> int:
        value = self.table.get(key, default)
        if value is None:
            raise self.fail(key, "Angabe fehlt", "missing value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, "muss eine ganze Zahl sein", "must be a whole number")
        if value < minimum:
            raise self.fail(key, f"muss mindestens {minimum} sein", f"must be at least {minimum}")
        return value

    def get_float(self, key: str, default: float) -> float:
        value = self.table.get(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.fail(key, "muss eine Zahl sein", "must be a number")
        return float(value)

    def get_str(self, key: str, default: str | None = None) -> str:
        value = self.table.get(key, default)
        if value is None:
            raise self.fail(key, "Angabe fehlt", "missing value")
        if not isinstance(value, str):
            raise self.fail(key, "muss Text sein", "must be text")
        return value

    def get_int_list(self, key: str) -> tuple[int, ...]:
        value = self.table.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(key, "muss eine Liste ganzer Zahlen sein", "must be a list of numbers")
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value):
            raise self.fail(key, "jeder Wert muss mindestens 1 sein", "every value must be >= 1")
        return tuple(value)

    def get_str_list(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, "muss eine Liste von Feldnamen sein", "must be a list of spaces")
        return tuple(value)


def _segment(table: dict[str, Any], line: int, number: int, lanes: int) -> SegmentSpec:
    reader = _Reader(table, line, f"segment[{number}].")
    if "straight" in table:
        length = reader.get_int("straight", minimum=1)
        draw_length = reader.get_float("draw_length", float(length))
        return StraightSpec(length, draw_length, reader.place(""))
    if "stops" not in table:
        raise reader.fail(
            "straight",
            "Abschnitt ist weder Gerade (straight) noch Kurve (stops)",
            "segment is neither a straight (straight) nor a corner (stops)",
        )
    spaces = reader.get_int_list("spaces")
    if len(spaces) != lanes:
        raise reader.fail(
            "spaces",
            f"{len(spaces)} Spuren angegeben, die Strecke hat {lanes}",
            f"{len(spaces)} lanes given, the track has {lanes}",
        )
    flag = reader.get_int_list("flag")
    if len(flag) != 2:
        raise reader.fail("flag", "braucht genau [L, C]", "needs exactly [L, C]")
    pattern = reader.get_str("pattern", "cross")
    if pattern not in CORNER_PATTERNS:
        raise reader.fail(
            "pattern",
            f"unbekanntes Pfeilmuster {pattern!r} (cross, lanes)",
            f"unknown arrow pattern {pattern!r} (cross, lanes)",
        )
    return CornerSpec(
        pattern=pattern,
        stops=reader.get_int("stops", minimum=1),
        spaces=spaces,
        longest=flag[0],
        shortest=flag[1],
        turn=reader.get_float("turn", 90.0),
        radius=reader.get_float("radius", 3.0),
        place=reader.place(""),
    )


def parse_track_file(text: str, default_name: str = "track") -> TrackSpec:
    """Parse the TOML text of a track file into a ``TrackSpec`` or raise ``TrackFileError``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TrackFileError(
            f"kein gültiges TOML: {error}", f"not valid TOML: {error}", "Datei/file"
        ) from error
    top = _Reader(data, 0, "")
    lanes = top.get_int("lanes", 3, minimum=2)
    if lanes > 4:
        raise TrackFileError(
            "höchstens 4 Spuren", "at most 4 lanes", str(Place(_key_line(text, "lanes"), "lanes"))
        )
    raw_segments = data.get("segment")
    if not isinstance(raw_segments, list) or not raw_segments:
        raise TrackFileError(
            "keine Abschnitte [[segment]]", "no [[segment]] tables", "segment"
        )
    lines = _header_lines(text, "segment")
    segments = tuple(
        _segment(table, lines[n] if n < len(lines) else 0, n + 1, lanes)
        for n, table in enumerate(raw_segments)
    )
    grid_value = data.get("grid", 10)
    grid: tuple[str, ...] | int
    if isinstance(grid_value, int) and not isinstance(grid_value, bool):
        grid = grid_value
    else:
        grid = _Reader(data, _key_line(text, "grid"), "").get_str_list("grid")
    pit = None
    if "pit" in data:
        pit_table = data["pit"]
        if not isinstance(pit_table, dict):
            raise TrackFileError("muss eine Tabelle sein", "must be a table", "pit")
        pit_reader = _Reader(pit_table, _key_line(text, "[pit]") or _line_of(text, "[pit]"), "pit.")
        pit = PitSpec(
            side=pit_reader.get_str("side", "right"),
            beside=pit_reader.get_str("beside"),
            entries=pit_reader.get_int("entries", 3, minimum=1),
            boxes=pit_reader.get_int("boxes", minimum=1),
            exit_length=pit_reader.get_int("exit_length", 2, minimum=1),
            place=pit_reader.place(""),
        )
    weather = data.get("weather", {})
    if not isinstance(weather, dict):
        raise TrackFileError("muss eine Tabelle sein", "must be a table", "weather")
    weather_reader = _Reader(weather, _line_of(text, "[weather]"), "weather.")
    arrow_lines = _header_lines(text, "arrow")
    arrows = []
    for n, table in enumerate(data.get("arrow", [])):
        reader = _Reader(table, arrow_lines[n] if n < len(arrow_lines) else 0, f"arrow[{n + 1}].")
        arrows.append(
            ArrowOverride(reader.get_str("from"), reader.get_str_list("to"), reader.place(""))
        )
    wall = data.get("wall")
    if wall is not None and not isinstance(wall, str):
        raise TrackFileError("muss Text sein", "must be text", "wall")
    grid_lanes = _Reader(data, _key_line(text, "grid_lanes"), "").get_str_list("grid_lanes") \
        if "grid_lanes" in data else ("A", LANE_DEFAULT_GRID[lanes])
    return TrackSpec(
        name=top.get_str("name", default_name),
        title=top.get_str("title", default_name),
        lanes=lanes,
        heading=top.get_float("heading", 0.0),
        lane_width=top.get_float("lane_width", 1.25),
        segments=segments,
        grid=grid,
        grid_lanes=grid_lanes,
        pit=pit,
        wall=wall,
        weather_rain_max=weather_reader.get_int("rain", 4, minimum=0),
        weather_changeable_max=weather_reader.get_int("changeable", 8, minimum=0),
        arrows=tuple(arrows),
    )


LANE_DEFAULT_GRID = {2: "B", 3: "C", 4: "C"}
"""The second grid lane by default: the outermost lane of the usual three (Masters 1)."""


def _line_of(text: str, header: str) -> int:
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() == header:
            return n
    return 0
