"""Check a track file and report every problem at once, each with its line and key.

A track author wants the whole list, not the first error: ``check_track`` reads the file
(trackfile.py), builds what it can (trackbuild.py) and then asks the graph the questions a race
depends on: can every space be reached from the grid and does every space lead back to the line
(lap counting); does every corner have a way out and does its flag tell the truth (Masters 7-1-1);
are the grid slots distinct; does the pit lane run beside a straight and rejoin the track
(Masters 19); is the concrete wall on the outside lane (Masters 15); does the drawing close.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.track import LANE_LETTERS, SpaceKind, Track
from rennleitung.formula_de.trackbuild import build_track_checked, drawing_end
from rennleitung.formula_de.trackfile import (
    CornerSpec,
    LineIndex,
    Place,
    TrackSpec,
    read_track_file,
)

ERROR = "error"
WARNING = "warning"

PROBLEM_KINDS: dict[str, str] = {
    "toml": "not valid TOML",
    "field": "a missing, unknown or wrong value in the file",
    "flag": "a corner's flag L/C does not match its spaces",
    "unreachable": "spaces no car can reach from the grid",
    "dead_end": "spaces without any way on",
    "no_way_to_line": "spaces from which no way leads back over the line",
    "corner_exit": "a corner without a way out (or in)",
    "grid": "grid slots that do not exist, overlap or lie in a corner or the pit lane",
    "pit": "a pit lane that cannot be built, does not rejoin or lies beside a corner",
    "arrow": "an arrow override naming unknown spaces",
    "wall": "a concrete wall on a lane that is not an outside lane",
    "radius": "a corner drawn too tight for its lanes",
    "drawing": "a drawing whose turns do not add up to a full circle, that does not close or "
    "that lies on top of itself",
}
"""Every kind of problem ``check_track`` reports (the ``kind`` field); docs list the same."""

CLOSURE_TOLERANCE = 0.5
"""How far (board units) the drawing may end from where it started before it counts as open."""

MIN_INNER_RADIUS = 0.3
"""The inner edge of a corner's inner lane must keep this radius (board units)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in a track file: where (line, key), what (German, English), how bad."""

    kind: str
    line: int
    key: str
    de: str
    en: str
    severity: str = ERROR

    @property
    def place(self) -> str:
        return str(Place(self.line, self.key))

    @property
    def message_de(self) -> str:
        return f"{self.place}: {self.de}"

    @property
    def message_en(self) -> str:
        return f"{self.place}: {self.en}"

    def __str__(self) -> str:
        return f"{self.place}: {self.de} / {self.en}"


def _problem(kind: str, place: Place, de: str, en: str, severity: str = ERROR) -> Problem:
    return Problem(kind, place.line, place.key, de, en, severity)


MAX_LISTED = 5
"""Errors of a refused track named in the one message of ``checked_track``."""


class TrackRefused(RennleitungError):
    """A track file with errors ``track check`` names; ``problems`` holds every one."""

    def __init__(self, problems: list[Problem], where: str) -> None:
        self.problems = problems
        shown = problems[:MAX_LISTED]
        more = len(problems) - len(shown)
        de = "; ".join(p.message_de for p in shown)
        en = "; ".join(p.message_en for p in shown)
        if more:
            de += f"; und {more} weitere"
            en += f"; and {more} more"
        super().__init__(
            f"Strecke abgelehnt, {len(problems)} Fehler (rennleitung track check): {de}",
            f"track refused, {len(problems)} error{'s' * (len(problems) != 1)} "
            f"(rennleitung track check): {en}",
            where,
        )


def check_track(text: str, default_name: str = "track") -> list[Problem]:
    """Every problem of a track file, in file order; an empty list means the file is good."""
    return _checked(text, default_name)[1]


@lru_cache(maxsize=16)
def checked_track(text: str, default_name: str = "track", where: str = "") -> Track:
    """The board of a track file, or ``TrackRefused`` with the errors ``track check`` reports
    (warnings pass). Every command that reads a track file uses this, so no race runs on a
    board the check rejects (issue 21). Boards are immutable, so the last few are kept: a
    replay page reads the record carrying the same file for every frame."""
    track, problems = _checked(text, default_name)
    errors = [p for p in problems if p.severity == ERROR]
    if errors or track is None:
        raise TrackRefused(errors, where or default_name)
    return replace(track, source=text)


def _checked(text: str, default_name: str) -> tuple[Track | None, list[Problem]]:
    spec, file_problems = read_track_file(text, default_name)
    problems = [Problem(e.kind, e.place.line, e.place.key, e.de, e.en) for e in file_problems]
    track = None
    if spec is not None:
        track, spec_problems = _check_spec(spec, LineIndex(text))
        problems.extend(spec_problems)
    return track, sorted(problems, key=lambda p: (p.line == 0, p.line, p.key))


def check_spec(spec: TrackSpec, index: LineIndex | None = None) -> list[Problem]:
    """The problems of a parsed track: build problems, then the questions asked of the graph."""
    return _check_spec(spec, index)[1]


def _check_spec(spec: TrackSpec, index: LineIndex | None) -> tuple[Track, list[Problem]]:
    track, build_problems = build_track_checked(spec)
    problems = [Problem(e.kind, e.place.line, e.place.key, e.de, e.en) for e in build_problems]
    lines = index or LineIndex("")
    problems.extend(_check_graph(spec, track))
    problems.extend(_check_corners(spec, track, lines))
    problems.extend(_check_grid(spec, track))
    problems.extend(_check_pit(spec, track))
    problems.extend(_check_wall(spec, track))
    problems.extend(_check_drawing(spec, lines))
    problems.extend(_check_overlap(spec, track))
    return track, problems


# --- helpers -------------------------------------------------------------------------------


def _segment_place(spec: TrackSpec, segment: int) -> Place:
    seg = spec.segments[segment]
    return Place(seg.place.line, f"segment[{segment + 1}]")


def _space_place(spec: TrackSpec, track: Track, index: int) -> Place:
    """The place in the file that made a space: its arrow override, its pit, or its segment."""
    name = track.name_of(index)
    for override in spec.arrows:
        if override.source.upper() == name:
            return override.place
    if track.spaces[index].kind is not SpaceKind.TRACK and spec.pit is not None:
        return Place(spec.pit.place.line, "pit")
    return _segment_place(spec, track.spaces[index].segment)


def _grouped(spec: TrackSpec, track: Track, spaces: Iterable[int]) -> list[tuple[Place, list[str]]]:
    """Spaces grouped by the place in the file they come from, in file order."""
    groups: dict[Place, list[str]] = {}
    for index in sorted(spaces):
        groups.setdefault(_space_place(spec, track, index), []).append(track.name_of(index))
    return sorted(groups.items(), key=lambda item: (item[0].line, item[0].key))


def _names(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" … (+{len(names) - limit})" if len(names) > limit else "")


def _reach(starts: Iterable[int], edges: tuple[tuple[int, ...], ...]) -> set[int]:
    seen = set(starts)
    queue = deque(seen)
    while queue:
        for nxt in edges[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


# --- the checks ----------------------------------------------------------------------------


def _check_graph(spec: TrackSpec, track: Track) -> list[Problem]:
    """Reachable from the grid, no dead ends, a way back over the line from everywhere."""
    problems: list[Problem] = []
    everything = range(len(track.spaces))
    starts = track.grid or track.first_after_line
    reached = _reach(starts, track.successors)
    for place, names in _grouped(spec, track, (n for n in everything if n not in reached)):
        problems.append(
            _problem(
                "unreachable",
                place,
                f"Felder, die vom Start aus kein Wagen erreicht: {_names(names)}",
                f"spaces no car can reach from the grid: {_names(names)}",
            )
        )
    dead = [n for n in everything if not track.successors[n]]
    for place, names in _grouped(spec, track, dead):
        problems.append(
            _problem(
                "dead_end",
                place,
                f"Sackgasse, kein Pfeil führt weiter: {_names(names)}",
                f"dead end, no arrow leads on: {_names(names)}",
            )
        )
    crossing = {a for a, _b in track.line_edges}
    if not crossing:
        problems.append(
            _problem(
                "no_way_to_line",
                Place(spec.segments[0].place.line, "segment[1]"),
                "kein Zug überquert die Start-/Ziellinie: Runden können nicht gezählt werden",
                "no move crosses the start/finish line: laps cannot be counted",
            )
        )
        return problems
    back = _reach(crossing, track.predecessors)
    stuck = [n for n in everything if n not in back and n not in dead]
    for place, names in _grouped(spec, track, stuck):
        problems.append(
            _problem(
                "no_way_to_line",
                place,
                f"von diesen Feldern führt kein Weg zurück über die Linie: {_names(names)}",
                f"no way leads back over the line from these spaces: {_names(names)}",
            )
        )
    return problems


def _check_corners(spec: TrackSpec, track: Track, lines: LineIndex) -> list[Problem]:
    """Each corner has a way in and out, its flag tells the truth (7-1-1), its radius fits."""
    problems: list[Problem] = []
    for corner in track.corners:
        seg = spec.segments[corner.segment]
        assert isinstance(seg, CornerSpec)
        table = f"segment#{corner.segment + 1}"
        prefix = f"segment[{corner.segment + 1}]."
        header = _segment_place(spec, corner.segment)
        if not corner.exit_spaces or not corner.entry_spaces:
            missing_de = "Ausgang" if not corner.exit_spaces else "Eingang"
            missing_en = "way out" if not corner.exit_spaces else "way in"
            problems.append(
                _problem(
                    "corner_exit",
                    header,
                    f"Kurve {corner.number} hat keinen {missing_de}",
                    f"corner {corner.number} has no {missing_en}",
                )
            )
            continue
        if (corner.longest, corner.shortest) != (seg.longest, seg.shortest):
            place = Place(lines.line(table, "flag") or header.line, prefix + "flag")
            problems.append(
                _problem(
                    "flag",
                    place,
                    f"Kurve {corner.number}: die Fahne sagt L{seg.longest}/C{seg.shortest}, "
                    f"die Felder ergeben L{corner.longest}/C{corner.shortest} (Masters 7-1-1)",
                    f"corner {corner.number}: the flag says L{seg.longest}/C{seg.shortest}, "
                    f"the spaces give L{corner.longest}/C{corner.shortest} (Masters 7-1-1)",
                )
            )
        inner = seg.radius - spec.lanes / 2 * spec.lane_width
        if inner < MIN_INNER_RADIUS:
            place = Place(lines.line(table, "radius") or header.line, prefix + "radius")
            least = spec.lanes / 2 * spec.lane_width + MIN_INNER_RADIUS
            problems.append(
                _problem(
                    "radius",
                    place,
                    f"Radius {seg.radius:g} ist zu klein für {spec.lanes} Spuren "
                    f"(mindestens {least:g})",
                    f"radius {seg.radius:g} is too small for {spec.lanes} lanes "
                    f"(at least {least:g})",
                )
            )
    return problems


def _check_grid(spec: TrackSpec, track: Track) -> list[Problem]:
    """Grid slots are distinct track spaces on a straight (Masters 1-1-3, 9)."""
    place = spec.places.get("grid", Place(0, "grid"))
    problems: list[Problem] = []
    seen: dict[int, int] = {}
    for number, index in enumerate(track.grid, 1):
        name = track.name_of(index)
        if index in seen:
            problems.append(
                _problem(
                    "grid",
                    place,
                    f"Startplatz {number} liegt auf demselben Feld {name} wie Startplatz "
                    f"{seen[index]}",
                    f"grid slot {number} is the same space {name} as grid slot {seen[index]}",
                )
            )
            continue
        seen[index] = number
        if track.spaces[index].kind is not SpaceKind.TRACK or track.in_corner(index):
            problems.append(
                _problem(
                    "grid",
                    place,
                    f"Startplatz {number} ({name}) liegt nicht auf einer Geraden",
                    f"grid slot {number} ({name}) is not on a straight",
                )
            )
    return problems


def _check_pit(spec: TrackSpec, track: Track) -> list[Problem]:
    """The pit lane runs beside straights only and every pit space leads back to the track
    (Masters 19-1)."""
    if track.pit is None or spec.pit is None:
        return []
    place = Place(spec.pit.place.line, "pit")
    problems: list[Problem] = []
    pit_spaces = [*track.pit.lane, *track.pit.boxes]
    beside_corner = sorted(
        {
            track.name_of(n)
            for n in (*pit_spaces, *track.pit.entry_from, *track.pit.exit_to)
            if isinstance(spec.segments[track.spaces[n].segment], CornerSpec)
        },
        key=lambda name: track.space(name),
    )
    if beside_corner:
        problems.append(
            _problem(
                "pit",
                spec.places.get("pit.beside", place),
                f"die Boxengasse liegt neben einer Kurve: {_names(beside_corner)} "
                "(sie muss neben einer Geraden liegen)",
                f"the pit lane lies beside a corner: {_names(beside_corner)} "
                "(it must lie beside a straight)",
            )
        )
    track_spaces = set(track.track_spaces())
    rejoin = _reach(track_spaces, track.predecessors)
    stranded = [n for n in pit_spaces if n not in rejoin]
    if stranded:
        names = [track.name_of(n) for n in stranded]
        problems.append(
            _problem(
                "pit",
                place,
                f"die Boxengasse führt nicht auf die Strecke zurück: {_names(names)}",
                f"the pit lane does not rejoin the track: {_names(names)}",
            )
        )
    return problems


def _check_wall(spec: TrackSpec, track: Track) -> list[Problem]:
    """The concrete wall stands along an outside lane (Masters 15-0-1)."""
    if not track.wall:
        return []
    lane = track.spaces[next(iter(track.wall))].lane
    if lane in (0, track.lanes - 1):
        return []
    outer = f"{LANE_LETTERS[0]} / {LANE_LETTERS[track.lanes - 1]}"
    return [
        _problem(
            "wall",
            spec.places.get("wall", Place(0, "wall")),
            f"die Betonmauer muss an einer Außenspur stehen ({outer}), nicht an "
            f"{LANE_LETTERS[lane]} (Masters 15-0-1)",
            f"the concrete wall must stand along an outside lane ({outer}), not "
            f"{LANE_LETTERS[lane]} (Masters 15-0-1)",
        )
    ]


def _check_drawing(spec: TrackSpec, lines: LineIndex) -> list[Problem]:
    """The turns add up to ±360 degrees and the drawing ends where it began."""
    turns = [seg.turn for seg in spec.segments if isinstance(seg, CornerSpec)]
    total = sum(turns)
    place = Place(spec.segments[-1].place.line, f"segment[{len(spec.segments)}]")
    if abs(abs(total) - 360.0) > 1e-6:
        return [
            _problem(
                "drawing",
                place,
                f"die Drehwinkel (turn) ergeben {total:g}°, nicht ±360°: die Zeichnung schließt "
                "sich nicht",
                f"the turns add up to {total:g}°, not ±360°: the drawing does not close",
                WARNING,
            )
        ]
    x, y = drawing_end(spec)
    gap = math.hypot(x, y)
    if gap <= CLOSURE_TOLERANCE:
        return []
    return [
        _problem(
            "drawing",
            place,
            f"die Zeichnung endet {gap:.1f} Einheiten vom Anfang entfernt; draw_length der "
            "Geraden anpassen",
            f"the drawing ends {gap:.1f} units away from its start; adjust the straights' "
            "draw_length",
            WARNING,
        )
    ]


def _check_overlap(spec: TrackSpec, track: Track) -> list[Problem]:
    """Parts of the drawing that lie on top of each other (spaces of segments that do not
    follow each other closer than a lane width); a bridge may be meant, so only a warning."""
    centres = {
        n: (
            sum(p[0] for p in track.polygons[n]) / len(track.polygons[n]),
            sum(p[1] for p in track.polygons[n]) / len(track.polygons[n]),
        )
        for n in track.track_spaces()
    }
    size = spec.lane_width
    cells: dict[tuple[int, int], list[int]] = {}
    for n, (x, y) in centres.items():
        cells.setdefault((math.floor(x / size), math.floor(y / size)), []).append(n)
    count = len(spec.segments)
    pairs: set[tuple[int, int]] = set()
    for (cx, cy), members in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for a in members:
                    for b in cells.get((cx + dx, cy + dy), ()):
                        sa, sb = track.spaces[a].segment, track.spaces[b].segment
                        if (sb - sa) % count in (0, 1, count - 1):
                            continue
                        ax, ay = centres[a]
                        bx, by = centres[b]
                        if math.hypot(ax - bx, ay - by) < size * 0.9:
                            pairs.add((min(sa, sb), max(sa, sb)))
    return [
        _problem(
            "drawing",
            _segment_place(spec, first),
            f"die Zeichnung von segment[{first + 1}] liegt auf segment[{second + 1}]",
            f"the drawing of segment[{first + 1}] lies on top of segment[{second + 1}]",
            WARNING,
        )
        for first, second in sorted(pairs)
    ]
