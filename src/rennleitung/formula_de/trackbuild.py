"""Build a ``Track`` (graph, tables and drawing geometry) from a ``TrackSpec``.

The generated arrow pattern (docs/formula_de/track-files.md):

* On a straight, lanes are staggered: lanes B and D sit half a space ahead of lanes A and C. A
  space leads straight on in its lane and diagonally into the touching space ahead in each
  neighbouring lane (Formula Dé rule decision "Board geometry").
* In a corner each lane has its own number of spaces. A space leads to the next space of its lane
  and, for each neighbouring lane, to the space that contains its front edge (Masters 7-1-4:
  arrows only). Between segments (the doors of a corner) a lane's last space leads to the first
  space of the same and of the neighbouring lanes.
* The pit lane (Masters 19-1) runs beside an outer lane; track spaces enter it diagonally
  forward, each box has one door (Masters 4-0-2) and the last pit space rejoins the track
  diagonally forward.
* ``[[arrow]]`` tables replace the successors of single spaces; corners' L and C are measured
  after them, on the finished graph.

``build_track`` raises at the first problem; ``build_track_checked`` (for ``track check``) leaves
the faulty part out and returns every problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rennleitung.formula_de.track import (
    BOX_PREFIX,
    LANE_LETTERS,
    PIT_LANE_PREFIX,
    Corner,
    PitLane,
    Point,
    Space,
    SpaceKind,
    Track,
    WeatherTable,
)
from rennleitung.formula_de.trackfile import (
    CornerSpec,
    PitSpec,
    Place,
    StraightSpec,
    TrackFileError,
    TrackSpec,
)

STAGGER = 0.5
"""How far lanes B and D sit ahead of lanes A and C on straights, in spaces."""


def lane_offset(lane: int) -> float:
    """The stagger of a lane on straights: 0 for A and C, half a space for B and D."""
    return STAGGER if lane % 2 else 0.0


@dataclass
class _Layout:
    """Mutable scratch state while building; the result is the frozen ``Track``."""

    spec: TrackSpec
    cells: list[tuple[int, int, int]]  # (segment, lane, i) per space index
    index_of: dict[tuple[int, int, int], int]
    lengths: list[tuple[int, ...]]  # spaces per lane for each segment
    spans: list[tuple[float, float]]  # (start, end) rows per space
    successors: list[list[int]]
    lap_rows: float = 0.0  # rows in one lap: where the line is reached again


def _segment_lengths(spec: TrackSpec) -> list[tuple[int, ...]]:
    return [
        (seg.length,) * spec.lanes if isinstance(seg, StraightSpec) else seg.spaces
        for seg in spec.segments
    ]


def _lay_out(spec: TrackSpec) -> _Layout:
    lengths = _segment_lengths(spec)
    cells: list[tuple[int, int, int]] = []
    spans: list[tuple[float, float]] = []
    base = 0.0
    for seg_no, seg in enumerate(spec.segments):
        counts = lengths[seg_no]
        rows = seg.length if isinstance(seg, StraightSpec) else sum(counts) / len(counts)
        for lane, count in enumerate(counts):
            for i in range(count):
                cells.append((seg_no, lane, i))
                if isinstance(seg, StraightSpec):
                    start = base + i + lane_offset(lane)
                    spans.append((start, start + 1.0))
                else:
                    step = rows / count
                    spans.append((base + i * step, base + (i + 1) * step))
        base += rows
    index_of = {cell: n for n, cell in enumerate(cells)}
    return _Layout(spec, cells, index_of, lengths, spans, [[] for _ in cells], base)


def _first_of(layout: _Layout, segment: int, lane: int) -> int | None:
    segment %= len(layout.lengths)
    if not 0 <= lane < layout.spec.lanes:
        return None
    return layout.index_of[(segment, lane, 0)]


def _link_track(layout: _Layout) -> None:
    """Generate the successors of every track space (module docstring)."""
    spec = layout.spec
    for n, (seg_no, lane, i) in enumerate(layout.cells):
        seg = spec.segments[seg_no]
        counts = layout.lengths[seg_no]
        out: list[int] = []
        if i + 1 < counts[lane]:
            out.append(layout.index_of[(seg_no, lane, i + 1)])
        else:
            nxt = _first_of(layout, seg_no + 1, lane)
            assert nxt is not None
            out.append(nxt)
        for other in (lane - 1, lane + 1):
            if not 0 <= other < spec.lanes:
                continue
            if isinstance(seg, CornerSpec) and seg.pattern == "lanes" and i + 1 < counts[lane]:
                continue
            if isinstance(seg, StraightSpec):
                # the touching space ahead: same index if the other lane is staggered forward
                j = i if lane_offset(other) > lane_offset(lane) else i + 1
            else:
                j = ((i + 1) * counts[other]) // counts[lane]
            if j < counts[other]:
                out.append(layout.index_of[(seg_no, other, j)])
            elif i + 1 == counts[lane] or isinstance(seg, StraightSpec):
                target = _first_of(layout, seg_no + 1, other)
                if target is not None:
                    out.append(target)
        layout.successors[n] = list(dict.fromkeys(out))


def _names(layout: _Layout) -> list[str]:
    counters = [0] * layout.spec.lanes
    names = []
    for _seg, lane, _i in layout.cells:
        counters[lane] += 1
        names.append(f"{LANE_LETTERS[lane]}{counters[lane]}")
    return names


def _straight_ids(spec: TrackSpec) -> list[int]:
    """Straight number per segment (-1 for corners); the straights on both sides of the line are
    one straight, since the line does not interrupt the road (Masters 7-2)."""
    ids: list[int] = []
    current = -1
    count = 0
    previous_straight = False
    for seg in spec.segments:
        if isinstance(seg, StraightSpec):
            if not previous_straight:
                current = count
                count += 1
            ids.append(current)
            previous_straight = True
        else:
            ids.append(-1)
            previous_straight = False
    if ids and ids[0] >= 0 and ids[-1] >= 0:
        last = ids[-1]
        ids = [ids[0] if x == last else x for x in ids]
    return ids


def _corner_paths(
    members: frozenset[int], successors: list[list[int]], entries: list[int]
) -> tuple[int, int]:
    """Longest and shortest path through a corner, counted in corner spaces (the flag's L, C)."""
    order: list[int] = []
    seen: set[int] = set()

    def visit(node: int) -> None:
        stack = [(node, iter(successors[node]))]
        seen.add(node)
        while stack:
            current, children = stack[-1]
            advanced = False
            for child in children:
                if child in members and child not in seen:
                    seen.add(child)
                    stack.append((child, iter(successors[child])))
                    advanced = True
                    break
            if not advanced:
                order.append(current)
                stack.pop()

    for entry in entries:
        if entry not in seen:
            visit(entry)
    longest: dict[int, int] = {}
    shortest: dict[int, int] = {}
    for node in order:  # reverse topological: children first
        inner = [c for c in successors[node] if c in members]
        leaves = any(c not in members for c in successors[node])
        best_long = max((longest[c] for c in inner if c in longest), default=0)
        options_short = [shortest[c] for c in inner if c in shortest]
        if leaves:
            options_short.append(0)
        longest[node] = 1 + best_long
        shortest[node] = 1 + min(options_short) if options_short else 10**6
    return max(longest[e] for e in entries), min(shortest[e] for e in entries)


def _corners(layout: _Layout, successors: list[list[int]]) -> list[Corner]:
    """The corners with L and C measured on the finished graph (overrides included)."""
    corners: list[Corner] = []
    predecessors: list[list[int]] = [[] for _ in successors]
    for n, outs in enumerate(successors):
        for m in outs:
            predecessors[m].append(n)
    for seg_no, seg in enumerate(layout.spec.segments):
        if not isinstance(seg, CornerSpec):
            continue
        members = frozenset(n for n, cell in enumerate(layout.cells) if cell[0] == seg_no)
        entries = sorted(n for n in members if any(p not in members for p in predecessors[n]))
        exits = sorted(n for n in members if any(s not in members for s in successors[n]))
        longest, shortest = _corner_paths(members, successors, entries) if entries else (0, 0)
        corners.append(
            Corner(
                number=len(corners) + 1,
                stops=seg.stops,
                longest=longest,
                shortest=shortest,
                spaces=members,
                lane_counts=seg.spaces,
                entry_spaces=tuple(entries),
                exit_spaces=tuple(exits),
                segment=seg_no,
            )
        )
    return corners


# --- geometry ------------------------------------------------------------------------------


def _rotate(vector: Point, angle: float) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    return (vector[0] * c - vector[1] * s, vector[0] * s + vector[1] * c)


def _on_arc(centre: Point, start: Point, angle: float, radius: float) -> Point:
    """The point at ``radius`` from ``centre`` in direction ``start`` turned by ``angle``."""
    u = _rotate(start, angle)
    return (centre[0] + radius * u[0], centre[1] + radius * u[1])


def _geometry(layout: _Layout) -> tuple[list[tuple[Point, ...]], list[Point]]:
    """A polygon per track space (right edge forward, then left edge back) and a flag point per
    corner, in board units (one straight space is one unit long). y grows upwards."""
    spec = layout.spec
    width = spec.lane_width
    polygons: list[tuple[Point, ...]] = [() for _ in layout.cells]
    flags: list[Point] = []
    x, y = 0.0, 0.0
    heading = math.radians(spec.heading)
    half = (spec.lanes - 1) / 2
    by_segment: dict[int, list[int]] = {}
    for n, (seg_no, _lane, _i) in enumerate(layout.cells):
        by_segment.setdefault(seg_no, []).append(n)
    for seg_no, seg in enumerate(spec.segments):
        forward = (math.cos(heading), math.sin(heading))
        left = (-forward[1], forward[0])
        if isinstance(seg, StraightSpec):
            scale = seg.draw_length / seg.length
            for n in by_segment[seg_no]:
                _s, lane, i = layout.cells[n]
                offset = (half - lane) * width
                if lane_offset(lane):
                    a = 0.0 if i == 0 else i + STAGGER
                    b = min(float(seg.length), i + 1 + STAGGER)
                else:
                    a, b = float(i), float(i + 1)
                lo, hi = offset - width / 2, offset + width / 2
                polygons[n] = tuple(
                    (
                        x + s * scale * forward[0] + t * left[0],
                        y + s * scale * forward[1] + t * left[1],
                    )
                    for s, t in ((a, lo), (b, lo), (b, hi), (a, hi))
                )
            x += seg.draw_length * forward[0]
            y += seg.draw_length * forward[1]
            continue
        theta = math.radians(seg.turn)
        sign = 1.0 if theta >= 0 else -1.0
        cx, cy = x + sign * seg.radius * left[0], y + sign * seg.radius * left[1]
        u0 = (-sign * left[0], -sign * left[1])
        for n in by_segment[seg_no]:
            _s, lane, i = layout.cells[n]
            count = seg.spaces[lane]
            rho = seg.radius - sign * (half - lane) * width
            right_rho = rho + sign * width / 2
            left_rho = rho - sign * width / 2
            a = abs(theta) * i / count
            b = abs(theta) * (i + 1) / count
            steps = [a + (b - a) * k / 4 for k in range(5)]
            right_edge = [_on_arc((cx, cy), u0, sign * phi, right_rho) for phi in steps]
            left_edge = [_on_arc((cx, cy), u0, sign * phi, left_rho) for phi in reversed(steps)]
            polygons[n] = tuple(right_edge + left_edge)
        flags.append(_flag_point((cx, cy), _rotate(u0, sign * abs(theta) / 2), seg, spec))
        end = _rotate(u0, sign * abs(theta))
        x, y = cx + seg.radius * end[0], cy + seg.radius * end[1]
        heading += theta
    return polygons, flags


def drawing_end(spec: TrackSpec) -> Point:
    """Where the drawing of the lap ends, the line's midpoint being (0, 0): a closed drawing
    ends where it began (trackcheck reports the gap)."""
    x, y = 0.0, 0.0
    heading = math.radians(spec.heading)
    for seg in spec.segments:
        forward = (math.cos(heading), math.sin(heading))
        left = (-forward[1], forward[0])
        if isinstance(seg, StraightSpec):
            x += seg.draw_length * forward[0]
            y += seg.draw_length * forward[1]
            continue
        theta = math.radians(seg.turn)
        sign = 1.0 if theta >= 0 else -1.0
        cx, cy = x + sign * seg.radius * left[0], y + sign * seg.radius * left[1]
        end = _rotate((-sign * left[0], -sign * left[1]), theta)
        x, y = cx + seg.radius * end[0], cy + seg.radius * end[1]
        heading += theta
    return x, y


FLAG_ROOM = 2.4
"""Board units a flag needs inside a corner; tighter corners carry their flag outside."""


def _flag_point(centre: Point, middle: Point, seg: CornerSpec, spec: TrackSpec) -> Point:
    """Where a corner's yellow flag stands: inside the bend if there is room, else outside."""
    reach = (spec.lanes / 2) * spec.lane_width
    inner = seg.radius - reach
    distance = inner - FLAG_ROOM / 2 - 0.2 if inner >= FLAG_ROOM else seg.radius + reach + 1.3
    return (centre[0] + distance * middle[0], centre[1] + distance * middle[1])


def _shift(polygon: tuple[Point, ...], lanes_out: float, width: float) -> tuple[Point, ...]:
    """The polygon moved sideways by ``lanes_out`` lane widths (positive = to its right)."""
    half = len(polygon) // 2
    right = polygon[:half]
    left = polygon[half:]
    rx = sum(p[0] for p in right) / len(right)
    ry = sum(p[1] for p in right) / len(right)
    lx = sum(p[0] for p in left) / len(left)
    ly = sum(p[1] for p in left) / len(left)
    length = math.hypot(lx - rx, ly - ry) or 1.0
    dx, dy = (rx - lx) / length * width * lanes_out, (ry - ly) / length * width * lanes_out
    return tuple((p[0] + dx, p[1] + dy) for p in polygon)


# --- the whole build -------------------------------------------------------------------------


class _Problems:
    """Collects build problems (trackcheck) or raises the first one (build_track)."""

    def __init__(self, collect: bool) -> None:
        self.collect = collect
        self.found: list[TrackFileError] = []

    def add(self, de: str, en: str, place: Place, kind: str = "field") -> None:
        error = TrackFileError(de, en, str(place), place=place, kind=kind)
        if not self.collect:
            raise error
        self.found.append(error)


@dataclass
class _PitBuild:
    lane: list[int]
    boxes: list[int]
    entry_from: list[int]
    entry_to: list[int]
    box_from: list[int]
    exit_to: list[int]


def _lane_sequence(layout: _Layout, lane: int) -> list[int]:
    return [n for n, cell in enumerate(layout.cells) if cell[1] == lane]


def _build_pit(
    layout: _Layout,
    pit: PitSpec,
    names: list[str],
    spaces: list[Space],
    polygons: list[tuple[Point, ...]],
    problems: _Problems,
) -> _PitBuild | None:
    """The single-lane pit lane beside the outer lane of ``pit.side`` (Masters 19-1-1): it runs
    alongside the track, entered diagonally forward from ``entries`` track spaces, one box beside
    each of the following pit-lane spaces, and rejoins the track diagonally forward."""
    spec = layout.spec
    side_lane = spec.lanes - 1 if pit.side == "right" else 0
    sequence = _lane_sequence(layout, side_lane)
    name_to_index = {names[n]: n for n in range(len(names))}
    start = name_to_index.get(pit.beside.strip().upper())
    if start is None or start not in sequence:
        problems.add(
            f"{pit.beside} ist kein Feld der Spur {LANE_LETTERS[side_lane]} neben der Boxengasse",
            f"{pit.beside} is not a space of lane {LANE_LETTERS[side_lane]} beside the pit lane",
            spec.places.get("pit.beside", Place(pit.place.line, "pit.beside")),
            kind="pit",
        )
        return None
    position = sequence.index(start)
    length = pit.entries + pit.boxes + pit.exit_length
    if length + 2 > len(sequence):
        problems.add(
            f"Boxengasse ({length} Felder) ist länger als die Runde",
            f"pit lane ({length} spaces) is longer than the lap",
            Place(pit.place.line, "pit"),
            kind="pit",
        )
        return None
    alongside = [sequence[(position + k) % len(sequence)] for k in range(length + 1)]
    before = sequence[(position - 1) % len(sequence)]
    lanes_out = 1.0 if pit.side == "right" else -1.0
    build = _PitBuild([], [], [], [], [], [])
    for k in range(length):
        index = len(spaces)
        neighbour = spaces[alongside[k]]
        spaces.append(
            Space(
                index,
                f"{PIT_LANE_PREFIX}{k + 1}",
                SpaceKind.PIT_LANE,
                -1,
                k + 1,
                neighbour.segment,
                0,
                neighbour.start,
                neighbour.end,
            )
        )
        polygons.append(_shift(polygons[alongside[k]], lanes_out, spec.lane_width))
        build.lane.append(index)
    for b in range(pit.boxes):
        index = len(spaces)
        host = build.lane[pit.entries + b]
        spaces.append(
            Space(
                index,
                f"{BOX_PREFIX}{b + 1}",
                SpaceKind.BOX,
                -1,
                b + 1,
                spaces[host].segment,
                0,
                spaces[host].start,
                spaces[host].end,
            )
        )
        polygons.append(_shift(polygons[host], lanes_out, spec.lane_width))
        build.boxes.append(index)
        build.box_from.append(build.lane[pit.entries + b - 1])
    build.entry_from = [before, *alongside[: pit.entries - 1]]
    build.entry_to = build.lane[: pit.entries]
    build.exit_to = [alongside[length]]
    return build


def _apply_overrides(
    spec: TrackSpec, successors: list[list[int]], by_name: dict[str, int], problems: _Problems
) -> None:
    """``[[arrow]]`` tables replace the generated successors of single spaces."""
    for override in spec.arrows:
        unknown = [n for n in (override.source, *override.targets) if n.upper() not in by_name]
        if unknown:
            problems.add(
                f"Pfeil nennt unbekannte Felder: {', '.join(unknown)}",
                f"arrow names unknown spaces: {', '.join(unknown)}",
                override.place,
                kind="arrow",
            )
            continue
        successors[by_name[override.source.upper()]] = [
            by_name[t.upper()] for t in override.targets
        ]


def build_track(spec: TrackSpec) -> Track:
    """Turn a parsed track file into the immutable ``Track`` with all its tables; raise
    ``TrackFileError`` at the first problem (``build_track_checked`` collects them)."""
    track, _problems = _build(spec, _Problems(collect=False))
    return track


def build_track_checked(spec: TrackSpec) -> tuple[Track, tuple[TrackFileError, ...]]:
    """Build as far as possible and return every problem met on the way (pit, arrows, grid,
    wall): the parts at fault are left out of the track."""
    problems = _Problems(collect=True)
    track, _ = _build(spec, problems)
    return track, tuple(problems.found)


def _build(spec: TrackSpec, problems: _Problems) -> tuple[Track, _Problems]:
    layout = _lay_out(spec)
    _link_track(layout)
    names = _names(layout)
    straight_ids = _straight_ids(spec)
    segment_corner: dict[int, int] = {}
    for seg_no, seg in enumerate(spec.segments):
        if isinstance(seg, CornerSpec):
            segment_corner[seg_no] = len(segment_corner) + 1
    spaces = [
        Space(
            n,
            names[n],
            SpaceKind.TRACK,
            lane,
            int(names[n][1:]),
            seg,
            segment_corner.get(seg, 0),
            *layout.spans[n],
        )
        for n, (seg, lane, _i) in enumerate(layout.cells)
    ]
    lap_rows = layout.lap_rows
    polygons, flags = _geometry(layout)
    successors = [list(outs) for outs in layout.successors]
    straight_of = [straight_ids[seg] for seg, _l, _i in layout.cells]
    pit: PitLane | None = None
    build = _build_pit(layout, spec.pit, names, spaces, polygons, problems) if spec.pit else None
    if build is not None:
        successors.extend([] for _ in range(len(spaces) - len(successors)))
        straight_of.extend(-1 for _ in range(len(spaces) - len(straight_of)))
        lane = build.lane
        for k, index in enumerate(lane[:-1]):
            successors[index].append(lane[k + 1])
        successors[lane[-1]].extend(build.exit_to)
        for box, source in zip(build.boxes, build.box_from, strict=True):
            successors[source].append(box)
            after = lane.index(source) + 2
            if after < len(lane):
                successors[box].append(lane[after])
        for source, target in zip(build.entry_from, build.entry_to, strict=True):
            successors[source].append(target)
        pit = PitLane(
            tuple(build.entry_from),
            tuple(lane),
            tuple(build.boxes),
            tuple(build.exit_to),
            tuple(build.entry_to),
            tuple(build.box_from),
        )
    by_name = {s.name: s.index for s in spaces}
    _apply_overrides(spec, successors, by_name, problems)
    successors = [list(dict.fromkeys(outs)) for outs in successors]
    corners = _corners(layout, successors)
    track_count = len(layout.cells)
    grid = _grid(spec, layout, by_name, problems)
    wall = _wall(spec, layout, problems)
    first_after_line = tuple(layout.index_of[(0, lane, 0)] for lane in range(spec.lanes))
    line_edges = frozenset(
        (a, b)
        for a, outs in enumerate(successors)
        for b in outs
        if spaces[b].height < spaces[a].height - lap_rows / 2
    )
    predecessors: list[list[int]] = [[] for _ in spaces]
    for a, outs in enumerate(successors):
        for b in outs:
            predecessors[b].append(a)
    ahead = [-1] * len(spaces)
    behind = [-1] * len(spaces)
    for n in range(track_count):
        own_lane = layout.cells[n][1]
        nxt = next((m for m in successors[n] if m < track_count), -1)
        if nxt >= 0 and layout.cells[nxt][1] == own_lane:
            ahead[n] = nxt
            behind[nxt] = n
    if pit is not None:
        for k, index in enumerate(pit.lane[:-1]):
            ahead[index] = pit.lane[k + 1]
            behind[pit.lane[k + 1]] = index
    track = Track(
        name=spec.name,
        title=spec.title,
        lanes=spec.lanes,
        spaces=tuple(spaces),
        successors=tuple(tuple(outs) for outs in successors),
        predecessors=tuple(tuple(p) for p in predecessors),
        beside=_beside(layout, len(spaces)),
        ahead_in_lane=tuple(ahead),
        behind_in_lane=tuple(behind),
        corners=tuple(corners),
        straight_of=tuple(straight_of),
        line_edges=line_edges,
        first_after_line=first_after_line,
        grid=grid,
        pit=pit,
        wall=wall,
        weather=WeatherTable(spec.weather_rain_max, spec.weather_changeable_max),
        lap_rows=lap_rows,
        polygons=tuple(polygons),
        corner_flags=tuple(flags),
        by_name=by_name,
    )
    return track, problems


def _beside(layout: _Layout, total: int) -> tuple[tuple[int, ...], ...]:
    """Spaces in neighbouring lanes whose extents along the lap overlap (Masters 14); the lap is
    a ring, so a staggered space that reaches over the line touches the spaces beyond it."""
    result: list[set[int]] = [set() for _ in range(total)]
    lanes = [_lane_sequence(layout, lane) for lane in range(layout.spec.lanes)]
    spans = layout.spans
    lap = layout.lap_rows
    eps = 1e-9
    for lane in range(layout.spec.lanes - 1):
        left, right = lanes[lane], lanes[lane + 1]
        for shift in (0.0, lap, -lap):
            j = 0
            for a in left:
                a_start, a_end = spans[a][0] + shift, spans[a][1] + shift
                while j < len(right) and spans[right[j]][1] <= a_start + eps:
                    j += 1
                k = j
                while k < len(right) and spans[right[k]][0] < a_end - eps:
                    result[a].add(right[k])
                    result[right[k]].add(a)
                    k += 1
    return tuple(tuple(sorted(r)) for r in result)


def _grid(
    spec: TrackSpec, layout: _Layout, by_name: dict[str, int], problems: _Problems
) -> tuple[int, ...]:
    """Grid slots in order, pole first: given by name, or generated two abreast behind the line
    (pole in the first ``grid_lanes`` lane, the next slot one space further back; Masters 1)."""
    place = spec.places.get("grid", Place(0, "grid"))
    if not isinstance(spec.grid, int):
        slots = []
        for name in spec.grid:
            if name.upper() not in by_name:
                problems.add(
                    f"Startplatz {name} gibt es nicht",
                    f"grid slot {name} does not exist",
                    place,
                    kind="grid",
                )
                continue
            slots.append(by_name[name.upper()])
        return tuple(slots)
    lanes = []
    for letter in spec.grid_lanes:
        if letter.upper() not in LANE_LETTERS[: spec.lanes] or len(letter) != 1:
            problems.add(
                f"Startspur {letter!r} gibt es nicht",
                f"grid lane {letter!r} does not exist",
                spec.places.get("grid_lanes", place),
                kind="grid",
            )
            continue
        lanes.append(LANE_LETTERS.index(letter.upper()))
    if not lanes:
        return ()
    sequences = {lane: _lane_sequence(layout, lane) for lane in lanes}
    slots = []
    for k in range(spec.grid):
        sequence = sequences[lanes[k % len(lanes)]]
        if k + 1 > len(sequence):
            problems.add(
                f"{spec.grid} Startplätze passen nicht auf die Strecke",
                f"{spec.grid} grid slots do not fit on the track",
                place,
                kind="grid",
            )
            break
        slots.append(sequence[-1 - k])
    return tuple(slots)


def _wall(spec: TrackSpec, layout: _Layout, problems: _Problems) -> frozenset[int]:
    """The spaces along the concrete wall (Masters 15-0-1): every space of the named lane."""
    if spec.wall is None:
        return frozenset()
    letter = spec.wall.strip().upper()
    if len(letter) != 1 or letter not in LANE_LETTERS[: spec.lanes]:
        problems.add(
            f"Mauer an Spur {spec.wall!r}: keine Spur dieser Strecke",
            f"wall on lane {spec.wall!r}: not a lane of this track",
            spec.places.get("wall", Place(0, "wall")),
            kind="wall",
        )
        return frozenset()
    return frozenset(_lane_sequence(layout, LANE_LETTERS.index(letter)))
