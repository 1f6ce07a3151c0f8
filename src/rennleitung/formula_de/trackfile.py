"""Track files: a compact, human-writable TOML description of a board.

A track is a sequence of segments from the start/finish line round to it again: straights by
length, corners by stops, spaces per lane and the L/C printed on the flag (Masters 7-1-1). The
usual arrow pattern is generated (trackbuild.py); single spaces' arrows can be overridden. The
pit lane, the grid, the concrete wall and the weather table complete it. The format is documented
in docs/formula_de/track-files.md. Parsing only turns text into a ``TrackSpec``; every problem is
reported with its place in the file (line and key), in German and English.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.textinput import load_toml


@dataclass(frozen=True, slots=True)
class Place:
    """Where something stands in a track file: line number (1-based, 0 if unknown) and key."""

    line: int
    key: str

    def __str__(self) -> str:
        return f"Zeile/line {self.line}, {self.key}" if self.line else self.key


class TrackFileError(RennleitungError):
    """A problem in a track file; ``where`` names the line and key, ``place`` holds them apart
    and ``kind`` is a short stable code (``field``, ``dead_end``, ``flag``…) for programs."""

    def __init__(
        self, de: str, en: str, where: str = "", *, place: Place | None = None, kind: str = "field"
    ) -> None:
        self.place = place if place is not None else Place(0, where)
        self.kind = kind
        super().__init__(de, en, where or str(self.place))


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
    places: dict[str, Place] = field(default_factory=dict)
    """Where the top-level keys and tables stand (``grid``, ``wall``, ``pit``, ``weather``…)."""


# Keys each table may hold; anything else is reported (a typo would otherwise be silently lost).
TOP_KEYS = frozenset(
    {
        "name",
        "title",
        "lanes",
        "heading",
        "lane_width",
        "grid",
        "grid_lanes",
        "wall",
        "weather",
        "pit",
        "segment",
        "arrow",
    }
)
STRAIGHT_KEYS = frozenset({"straight", "draw_length"})
CORNER_KEYS = frozenset({"stops", "spaces", "flag", "pattern", "turn", "radius"})
PIT_KEYS = frozenset({"side", "beside", "entries", "boxes", "exit_length"})
WEATHER_KEYS = frozenset({"rain", "changeable"})
ARROW_KEYS = frozenset({"from", "to"})

MAX_STRAIGHT = 100
"""Spaces per lane in one straight; the longest shipped straight has 20."""
MAX_CORNER = 40
"""Spaces per lane in one corner, and the largest L or C on a flag."""
MAX_STOPS = 6
"""Stops on one corner's flag (the boards have 1 to 3)."""
MAX_SEGMENTS = 200
MAX_TRACK_SPACES = 4000
"""Spaces of the whole track, all lanes; checked before anything is built."""
MAX_GRID = 40
MAX_PIT = 40
"""Boxes, entries and exit spaces of the pit lane, each."""
MAX_NAME = 80
"""Characters of a track's name and title."""
MAX_RADIUS = 1000.0
"""Drawing sizes (radius, lane width, draw length) in lane widths; must be above 0."""

LANE_DEFAULT_GRID = {2: "B", 3: "C", 4: "C"}
"""The second grid lane by default: the outermost lane of the usual three (Masters 1)."""

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z_][\w.-]*)\s*\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z_][\w-]*|\"[^\"]*\")\s*=")


class LineIndex:
    """Line numbers of tables and keys, so every message can point at a line.

    TOML parsers forget positions; this scans the text once and records, for each table
    (``""`` for the top, ``pit``, ``segment#3``…), the line of its header and of each key."""

    def __init__(self, text: str) -> None:
        self.headers: dict[str, int] = {}
        self.keys: dict[tuple[str, str], int] = {}
        counts: dict[str, int] = {}
        table = ""
        for number, line in enumerate(text.splitlines(), 1):
            header = _HEADER.match(line)
            if header:
                name = header.group(2)
                if header.group(1) == "[[":
                    counts[name] = counts.get(name, 0) + 1
                    table = f"{name}#{counts[name]}"
                else:
                    table = name
                self.headers.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                self.keys.setdefault((table, key.group(1).strip('"')), number)

    def line(self, table: str, key: str = "") -> int:
        """The line of ``key`` in ``table``, else of the table's header, else 0."""
        return self.keys.get((table, key)) or self.headers.get(table, 0)


class _Reader:
    """Typed access to one TOML table; a wrong value is recorded with its line and key and a
    usable default is returned, so that one reading finds every problem."""

    def __init__(
        self,
        table: dict[str, Any],
        index: LineIndex,
        table_id: str,
        prefix: str,
        problems: list[TrackFileError],
    ) -> None:
        self.table = table
        self.index = index
        self.table_id = table_id
        self.prefix = prefix
        self.problems = problems

    def place(self, key: str) -> Place:
        name = f"{self.prefix}{key}" if key else self.prefix.rstrip(".")
        return Place(self.index.line(self.table_id, key), name)

    def fail(self, key: str, de: str, en: str, kind: str = "field") -> None:
        place = self.place(key)
        self.problems.append(TrackFileError(de, en, str(place), place=place, kind=kind))

    def unknown_keys(self, allowed: frozenset[str]) -> None:
        for key in self.table:
            if key not in allowed:
                self.fail(
                    key,
                    f"unbekannter Schlüssel {key!r} (erlaubt: {', '.join(sorted(allowed))})",
                    f"unknown key {key!r} (allowed: {', '.join(sorted(allowed))})",
                )

    def get_int(
        self, key: str, default: int | None = None, minimum: int = 0, maximum: int = 10**6
    ) -> int:
        value = self.table.get(key, default)
        if value is None:
            self.fail(key, "Angabe fehlt", "missing value")
            return minimum
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, "muss eine ganze Zahl sein", "must be a whole number")
            return default if default is not None else minimum
        if value < minimum:
            self.fail(key, f"muss mindestens {minimum} sein", f"must be at least {minimum}")
            return minimum
        if value > maximum:
            self.fail(key, f"darf höchstens {maximum} sein", f"must be at most {maximum}")
            return maximum
        return value

    def get_float(
        self,
        key: str,
        default: float,
        low: float = -1e6,
        high: float = 1e6,
        *,
        positive: bool = False,
    ) -> float:
        """A finite number in [low, high] (above 0 if ``positive``), else a problem."""
        value = self.table.get(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool):
            self.fail(key, "muss eine Zahl sein", "must be a number")
            return default
        number = float(value)
        if not math.isfinite(number) or not low <= number <= high or (positive and number <= 0):
            above = "über 0" if positive else f"mindestens {low:g}"
            above_en = "above 0" if positive else f"at least {low:g}"
            self.fail(
                key,
                f"muss eine endliche Zahl {above} und höchstens {high:g} sein",
                f"must be a finite number {above_en} and at most {high:g}",
            )
            return default
        return number

    def get_str(self, key: str, default: str | None = None) -> str:
        value = self.table.get(key, default)
        if value is None:
            self.fail(key, "Angabe fehlt", "missing value")
            return ""
        if not isinstance(value, str):
            self.fail(key, "muss Text sein", "must be text")
            return default or ""
        return value

    def get_int_list(self, key: str, maximum: int = MAX_CORNER) -> tuple[int, ...] | None:
        value = self.table.get(key)
        if not isinstance(value, list) or not value or len(value) > 8:
            self.fail(key, "muss eine Liste ganzer Zahlen sein", "must be a list of numbers")
            return None
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value):
            self.fail(key, "jeder Wert muss mindestens 1 sein", "every value must be >= 1")
            return None
        if any(v > maximum for v in value):
            self.fail(
                key,
                f"jeder Wert darf höchstens {maximum} sein",
                f"every value must be at most {maximum}",
            )
            return None
        return tuple(value)

    def get_str_list(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, "muss eine Liste von Feldnamen sein", "must be a list of spaces")
            return ()
        if len(value) > MAX_GRID or any(len(v) > 12 for v in value):
            self.fail(key, f"höchstens {MAX_GRID} Feldnamen", f"at most {MAX_GRID} space names")
            return ()
        return tuple(value)


def _segment(reader: _Reader, lanes: int) -> SegmentSpec | None:
    table = reader.table
    if "straight" in table:
        reader.unknown_keys(STRAIGHT_KEYS)
        length = reader.get_int("straight", minimum=1, maximum=MAX_STRAIGHT)
        draw_length = reader.get_float("draw_length", float(length), high=MAX_RADIUS, positive=True)
        return StraightSpec(length, draw_length, reader.place(""))
    if "stops" not in table:
        reader.fail(
            "straight",
            "Abschnitt ist weder Gerade (straight) noch Kurve (stops)",
            "segment is neither a straight (straight) nor a corner (stops)",
        )
        return None
    reader.unknown_keys(CORNER_KEYS)
    spaces = reader.get_int_list("spaces")
    if spaces is not None and len(spaces) != lanes:
        reader.fail(
            "spaces",
            f"{len(spaces)} Spuren angegeben, die Strecke hat {lanes}",
            f"{len(spaces)} lanes given, the track has {lanes}",
        )
        spaces = None
    flag = reader.get_int_list("flag")
    if flag is not None and len(flag) != 2:
        reader.fail("flag", "braucht genau [L, C]", "needs exactly [L, C]")
        flag = None
    if flag is not None and flag[0] < flag[1]:
        reader.fail(
            "flag",
            f"L={flag[0]} ist kleiner als C={flag[1]}",
            f"L={flag[0]} is smaller than C={flag[1]}",
            kind="flag",
        )
    pattern = reader.get_str("pattern", "cross")
    if pattern not in CORNER_PATTERNS:
        reader.fail(
            "pattern",
            f"unbekanntes Pfeilmuster {pattern!r} (cross, lanes)",
            f"unknown arrow pattern {pattern!r} (cross, lanes)",
        )
        pattern = "cross"
    stops = reader.get_int("stops", minimum=1, maximum=MAX_STOPS)
    turn = reader.get_float("turn", 90.0)
    if not -180.0 < turn < 360.0 or turn == 0:
        reader.fail(
            "turn",
            "Drehwinkel muss zwischen -180 und 360 Grad liegen und darf nicht 0 sein",
            "turn must lie between -180 and 360 degrees and must not be 0",
        )
        turn = 90.0
    radius = reader.get_float("radius", 3.0, high=MAX_RADIUS, positive=True)
    if spaces is None or flag is None:
        return None
    return CornerSpec(
        pattern=pattern,
        stops=stops,
        spaces=spaces,
        longest=flag[0],
        shortest=flag[1],
        turn=turn,
        radius=radius,
        place=reader.place(""),
    )


def _tables(data: dict[str, Any], key: str, problems: list[TrackFileError]) -> list[Any]:
    value = data.get(key, [])
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return value
    problems.append(
        TrackFileError(
            f"{key} muss eine Liste von Tabellen [[{key}]] sein",
            f"{key} must be a list of tables [[{key}]]",
            key,
        )
    )
    return []


def read_track_file(
    text: str, default_name: str = "track"
) -> tuple[TrackSpec | None, tuple[TrackFileError, ...]]:
    """Read a track file and return the spec (None if it cannot be made) with every problem the
    file format shows, each with its line and key. The graph is checked in trackcheck.py."""
    try:
        data = load_toml(text, "", finite=False)  # _Reader.get_float names line and key
    except RennleitungError as error:
        place = Place(0, error.where or "Datei/file")
        return None, (TrackFileError(error.de, error.en, str(place), place=place, kind="toml"),)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        line = int(found.group(1)) if found else 0
        place = Place(line, "Datei/file")
        return None, (
            TrackFileError(
                f"kein gültiges TOML: {error}",
                f"not valid TOML: {error}",
                str(place),
                place=place,
                kind="toml",
            ),
        )
    problems: list[TrackFileError] = []
    index = LineIndex(text)
    top = _Reader(data, index, "", "", problems)
    top.unknown_keys(TOP_KEYS)
    lanes = top.get_int("lanes", 3, minimum=2)
    if lanes > 4:
        top.fail("lanes", "höchstens 4 Spuren", "at most 4 lanes")
        lanes = 4
    raw_segments = _tables(data, "segment", problems)
    if not raw_segments:
        top.fail("segment", "keine Abschnitte [[segment]]", "no [[segment]] tables")
    if len(raw_segments) > MAX_SEGMENTS:
        top.fail(
            "segment", f"höchstens {MAX_SEGMENTS} Abschnitte", f"at most {MAX_SEGMENTS} segments"
        )
        return None, tuple(problems)
    segments = [
        _segment(_Reader(table, index, f"segment#{n}", f"segment[{n}].", problems), lanes)
        for n, table in enumerate(raw_segments, 1)
    ]
    grid_value = data.get("grid", 10)
    grid: tuple[str, ...] | int
    if isinstance(grid_value, int) and not isinstance(grid_value, bool):
        grid = grid_value
        if grid < 1:
            top.fail("grid", "mindestens 1 Startplatz", "at least 1 grid slot")
            grid = 1
        if grid > MAX_GRID:
            top.fail("grid", f"höchstens {MAX_GRID} Startplätze", f"at most {MAX_GRID} grid slots")
            grid = MAX_GRID
    else:
        grid = top.get_str_list("grid")
    grid_lanes: tuple[str, ...] = ("A", LANE_DEFAULT_GRID[lanes])
    if "grid_lanes" in data:
        grid_lanes = top.get_str_list("grid_lanes") or grid_lanes
    pit = _pit(data, index, problems)
    weather = data.get("weather", {})
    weather_reader = _Reader(
        weather if isinstance(weather, dict) else {}, index, "weather", "weather.", problems
    )
    if not isinstance(weather, dict):
        top.fail("weather", "muss eine Tabelle sein", "must be a table")
    weather_reader.unknown_keys(WEATHER_KEYS)
    rain = weather_reader.get_int("rain", 4, minimum=0)
    changeable = weather_reader.get_int("changeable", 8, minimum=0)
    if not rain <= changeable <= 20:
        weather_reader.fail(
            "changeable",
            f"es muss 0 ≤ rain ({rain}) ≤ changeable ({changeable}) ≤ 20 gelten",
            f"0 ≤ rain ({rain}) ≤ changeable ({changeable}) ≤ 20 must hold",
        )
    arrows = []
    for n, table in enumerate(_tables(data, "arrow", problems)[:MAX_TRACK_SPACES], 1):
        reader = _Reader(table, index, f"arrow#{n}", f"arrow[{n}].", problems)
        reader.unknown_keys(ARROW_KEYS)
        arrows.append(
            ArrowOverride(reader.get_str("from"), reader.get_str_list("to"), reader.place(""))
        )
    wall = data.get("wall")
    if wall is not None and not isinstance(wall, str):
        top.fail("wall", "muss Text sein", "must be text")
        wall = None
    places = {key: top.place(key) for key in ("grid", "grid_lanes", "wall", "lanes", "name")}
    places["weather"] = weather_reader.place("")
    places["pit.beside"] = Place(index.line("pit", "beside"), "pit.beside")
    if any(s is None for s in segments) or not segments:
        return None, tuple(problems)
    total = sum(
        s.length * lanes if isinstance(s, StraightSpec) else sum(s.spaces)
        for s in segments
        if s is not None
    )
    if total > MAX_TRACK_SPACES:
        top.fail(
            "segment",
            f"{total} Felder, höchstens {MAX_TRACK_SPACES} je Strecke",
            f"{total} spaces, at most {MAX_TRACK_SPACES} per track",
        )
        return None, tuple(problems)
    spec = TrackSpec(
        name=top.get_str("name", default_name)[:MAX_NAME],
        title=top.get_str("title", default_name)[:MAX_NAME],
        lanes=lanes,
        heading=top.get_float("heading", 0.0, -360.0, 360.0),
        lane_width=top.get_float("lane_width", 1.25, high=MAX_RADIUS, positive=True),
        segments=tuple(s for s in segments if s is not None),
        grid=grid,
        grid_lanes=grid_lanes,
        pit=pit,
        wall=wall,
        weather_rain_max=rain,
        weather_changeable_max=changeable,
        arrows=tuple(arrows),
        places=places,
    )
    return spec, tuple(problems)


def _pit(data: dict[str, Any], index: LineIndex, problems: list[TrackFileError]) -> PitSpec | None:
    if "pit" not in data:
        return None
    table = data["pit"]
    reader = _Reader(table if isinstance(table, dict) else {}, index, "pit", "pit.", problems)
    if not isinstance(table, dict):
        reader.fail("", "muss eine Tabelle sein", "must be a table")
        return None
    reader.unknown_keys(PIT_KEYS)
    side = reader.get_str("side", "right")
    if side not in ("left", "right"):
        reader.fail("side", "muss 'left' oder 'right' sein", "must be 'left' or 'right'")
        side = "right"
    return PitSpec(
        side=side,
        beside=reader.get_str("beside"),
        entries=reader.get_int("entries", 3, minimum=1, maximum=MAX_PIT),
        boxes=reader.get_int("boxes", minimum=1, maximum=MAX_PIT),
        exit_length=reader.get_int("exit_length", 2, minimum=1, maximum=MAX_PIT),
        place=reader.place(""),
    )


def parse_track_file(text: str, default_name: str = "track") -> TrackSpec:
    """Parse the TOML text of a track file into a ``TrackSpec`` or raise ``TrackFileError``
    (the first problem; ``trackcheck.check_track`` lists them all)."""
    spec, problems = read_track_file(text, default_name)
    if problems:
        raise problems[0]
    assert spec is not None
    return spec
