"""The fast move generator: every legal way to end a move, with its cost.

It walks forward one space at a time, keeping one path per distinct situation (a "walk":
space, the straight run it is on, corner stops, overshoot, hazards crossed, what it counted …),
so that the many equivalent paths of a long straight collapse into one. The search itself
(movesearch.py) applies the rules once per *state* (the walk without its tallies) and arrow, and
carries the tallies of all walks in that state along. Each step applies the driving rules
incrementally; checking a straight run's shortness after every step is exact because a sub-path
of a shortest path is shortest, and a longer run never becomes legal again once it is not
(rule decision "Straights, exactly"). The checker in movecheck.py implements the same rules
literally on whole paths; tests compare the two.

Rules applied here (numbers as in docs/formula_de/movement.md):
Masters 7-0-1 (no jumping, no sharing), 7-1-4 (arrows), 7-2-1 (two lanes), 7-2-3 … 7-2-6 and
7-3 (straight runs), 10 (overshooting, lane lock, next corner no stop), 11 (braking), 12 and
Dresden "Blockierte Spur" (blocking), 15 (wall tests), 17 (road-holding tests), 18 and Dresden
"Fahrregeln" (slipstream), 19 and Dresden "Boxenstopp" (pit lane), Dresden "Reifen" (tyre cost,
spin), Dresden "Verschleiß" (fuel at the last corner).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from rennleitung.formula_de.movement import (
    Elimination,
    MoveOption,
    MoveRequest,
    cost_key_of,
)
from rennleitung.formula_de.movesearch import (
    DANGER_SHIFT,
    FUEL,
    LATE,
    WALL,
    EndItem,
    Entry,
    Node,
    Rules,
    Search,
    State,
    StateStep,
    Stepped,
    Walk,
    counted,
    search,
    state_of,
)
from rennleitung.formula_de.straights import (
    SharedDistances,
    StraightOracle,
    distances_within,
    straight_members,
)
from rennleitung.formula_de.track import SpaceKind, Track
from rennleitung.formula_de.track_cache import per_track

MAX_LANES_AWAY = 2
"""A move never goes more than two lanes away from where it entered a straight (Masters 7-2-1)."""


SPACE: Final = 0
IN_BOX: Final = 12
"""Positions of ``Walk.space`` and ``Walk.in_box`` (indexing beats names)."""


TRACK_SPACE, PIT_SPACE, BOX_SPACE = 0, 1, 2
_KIND_CODE = {SpaceKind.TRACK: TRACK_SPACE, SpaceKind.PIT_LANE: PIT_SPACE, SpaceKind.BOX: BOX_SPACE}


class TrackTables:
    """Plain tuples of what ``step`` reads for every space, built once per track: indexing a
    tuple is several times cheaper than reaching through ``Space`` objects in the hot loop."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self.kind = tuple(_KIND_CODE[s.kind] for s in track.spaces)
        self.corner = tuple(s.corner for s in track.spaces)
        self.lane = tuple(s.lane for s in track.spaces)
        self.stops = (0, *(c.stops for c in track.corners))
        self.last_corner = track.corners[-1].number if track.corners else 0
        self.after_line = frozenset(b for _a, b in track.line_edges)
        self.straights = straight_members(track)
        self.free_distance = tuple(
            distances_within(track, n, self.straights[straight]) if straight >= 0 else {}
            for n, straight in enumerate(track.straight_of)
        )
        """Per straight space: steps to every space of its straight with no obstacle at all. A
        run no longer than this is shortest whatever stands in the way (obstacles only lengthen
        ways), so the obstacle-aware search is needed only for longer runs."""
        self.near = tuple(
            tuple(sorted(set(track.beside[n]) | ({track.ahead_in_lane[n]} - {-1})))
            for n in range(len(track.spaces))
        )
        """Collision partners of an end space: beside it or directly ahead (Masters 14-1)."""
        self.pit = frozenset(n for n, kind in enumerate(self.kind) if kind == PIT_SPACE)
        """The pit-lane spaces, where a car may have to wait (``waits_state``)."""
        self.number = tuple(s.number for s in track.spaces)
        lengths = track.lane_lengths()
        self.lane_length = tuple(lengths[s.lane] if s.lane >= 0 else 1 for s in track.spaces)
        self.edges = tuple(
            tuple(
                (nxt, self.is_lane_change(here, nxt), int((here, nxt) in track.line_edges))
                for nxt in track.successors[here]
            )
            for here in range(len(track.spaces))
        )
        """Per space: each successor with the lane changes and laps that step counts."""
        self.distances: SharedDistances = {}
        """Shortest-way tables inside straights found by earlier queries (straights.py)."""

    def is_lane_change(self, here: int, nxt: int) -> int:
        """1 if the step changes lane; entering the pit lane counts (Dresden "Boxenstopp")."""
        kind, lane = self.kind, self.lane
        return int(
            kind[here] == TRACK_SPACE
            and (kind[nxt] == PIT_SPACE or (kind[nxt] == TRACK_SPACE and lane[nxt] != lane[here]))
        )


@per_track
def tables_for(track: Track) -> TrackTables:
    """The tables of a track, built once per track."""
    return TrackTables(track)


class Query:
    """Per-query tables: the request, the track and the obstacles."""

    def __init__(
        self, track: Track, request: MoveRequest, follow: tuple[int, ...] | None = None
    ) -> None:
        self.track = track
        self.request = request
        self.follow = follow
        self.occupied = frozenset(request.occupants)
        self.dangerous = frozenset(request.dangerous)
        self.hazards = self.dangerous | track.wall
        self.tables = tables_for(track)
        self.oracle = StraightOracle(
            track, self.tables.straights, self.occupied, self.hazards, self.tables.distances
        )
        self.last_corner = self.tables.last_corner
        self.must_enter_box = (
            frozenset(track.predecessors[request.box]) if request.box >= 0 else frozenset()
        )
        # what ``step`` reads on every call, one attribute away instead of two or three
        self.box = request.box if not request.box_taken else -2
        self.pit_allowed = request.pit_allowed
        self.ahead = track.ahead_in_lane
        self.straight_of = track.straight_of
        self.wall = track.wall
        self.shortest = self.oracle.shortest
        self.slip_brakes = request.slipstream_corner_brakes
        self.state_step = make_state_step(self)
        self.rules = Rules(
            self.state_step, self.tables.edges, self.occupied, self.dangerous, self.slip_brakes
        )
        self.contacts: dict[int, tuple[int, ...]] = {}
        """Collision partners per end space (Masters 14-1), found once per query."""
        self.step: Step = make_step(self)
        """The step on whole walks. Not a ``cached_property``: compiled by mypyc, calling one
        called the property's function with the step's arguments (test_movement_compiled.py)."""


    def initial(self) -> Walk:
        """The walk of a car standing on its start space."""
        track = self.track
        start = self.request.start
        on_straight = track.straight_of[start] >= 0
        return Walk(
            space=start,
            run_start=start if on_straight else -1,
            run_len=0,
            run_crossed=frozenset(),
            entry_lane=track.spaces[start].lane,
            made=self.request.corner_stops if track.spaces[start].corner else 0,
            over=0,
            danger=(),
            wall_tests=0,
            fuel=0,
            slip_brake=0,
            slips=0,
            in_box=track.spaces[start].kind is SpaceKind.BOX and start != self.request.box,
        )

    def root(self) -> Node:
        """The node of the car on its start space, before moving."""
        return Node(self.initial(), ())

    def required_stop(self, walk: Walk) -> bool:
        """Whether ending here is a stop the corner still requires (Masters 7-1-1)."""
        corner = self.tables.corner[walk.space]
        return bool(corner) and walk.over == 0 and walk.made < self.tables.stops[corner]


Step = Callable[[Walk, int, bool], "Walk | Elimination | None"]


def make_state_step(query: Query) -> StateStep:
    """The step function of one query on states (movesearch.py): the state after moving from
    ``state[0]`` to ``nxt`` with what the step adds to the tally, an elimination, or None if
    the rules forbid the step. This is the hot loop, so every table it reads is bound once per
    query as a local of the closure."""
    tables = query.tables
    occupied = query.occupied
    kind_of, corner_of, lane_of = tables.kind, tables.corner, tables.lane
    number, lane_length, stops = tables.number, tables.lane_length, tables.stops
    last_corner = tables.last_corner
    box = query.box
    must_enter_box = query.must_enter_box
    pit_allowed = query.pit_allowed
    ahead_of = query.ahead
    straight_of = query.straight_of
    hazards = query.hazards
    dangerous = query.dangerous
    wall = query.wall
    shortest = query.shortest
    free_distance = tables.free_distance
    no_crossing: frozenset[int] = frozenset()

    def step(state: State, nxt: int, slipstream: bool) -> State | Stepped | Elimination | None:
        if nxt in occupied:
            return None  # Masters 7-0-1: cars and wrecks are neither jumped nor shared
        here, run_start, run_len, run_crossed, entry_lane, made, over, _in_box = state
        kind = kind_of[nxt]
        if kind == BOX_SPACE:
            if nxt != box:
                return None  # Dresden "Boxenstopp": only the own box, one car of a team at a time
            # a slipstream may end in it (Masters 19-1-3, 19-2-2; rule decision)
        elif here in must_enter_box:
            return None  # Masters 19-2-5: a car in the pit lane must stop at its box
        elif kind == PIT_SPACE and kind_of[here] == TRACK_SPACE and not pit_allowed:
            # Masters 19-1-7, 19-2-4; Dresden: at most 4th gear into the pit lane. A slipstream
            # may carry the car into it (Masters 19-1-3, annex 3 2002; Dresden silent)
            return None
        # corners (Masters 7-1, 10)
        add = 0
        was_over = over
        if over:
            if nxt != ahead_of[here]:
                return None  # Masters 10-2-1: no lane change after the first space outside
            over += 1
        corner_here = corner_of[here]
        corner_there = corner_of[nxt]
        if corner_here != corner_there:
            if corner_here:
                missing = stops[corner_here] - made
                if missing >= 2 or (missing >= 1 and was_over):
                    return Elimination.MISSED_STOPS
                if missing == 1:
                    over = 1
                if corner_here == last_corner:
                    add = FUEL  # Dresden "Verschleiß": one fuel point per lap at the last corner
            if corner_there:
                made = 0
        # straights (rule decision "Straights, exactly"; Masters 7-2-1)
        straight = straight_of[nxt]
        if straight < 0 or slipstream:
            run_start, run_len, run_crossed, entry_lane = -1, 0, no_crossing, -1
        elif run_start >= 0 and straight_of[run_start] == straight:
            run_len += 1
            if nxt in hazards:
                run_crossed = run_crossed | {nxt}
            lane = lane_of[nxt]
            if abs(lane - entry_lane) > MAX_LANES_AWAY:
                return None
            ahead = (number[nxt] - number[run_start]) % lane_length[nxt]
            # a run that kept to its lane is a shortest way, and so is one no longer than the
            # way without obstacles; only the rest needs measuring around the obstacles
            if (
                (lane != lane_of[run_start] or ahead != run_len)
                and free_distance[run_start][nxt] < run_len
                and shortest(run_start, nxt, run_crossed) < run_len
            ):
                return None
        else:
            run_start, run_len, entry_lane = nxt, 0, lane_of[nxt]
            run_crossed = frozenset({nxt}) if nxt in hazards else no_crossing
        if nxt in wall and here not in wall:
            add += WALL
        after = (nxt, run_start, run_len, run_crossed, entry_lane, made, over, kind == BOX_SPACE)
        late = slipstream and bool(corner_there) and not corner_here  # Masters 18-1-4
        if add or late or nxt in dangerous:
            return (after, add, nxt if nxt in dangerous else -1, late)
        return after  # nothing to count: the common step, one tuple less

    return step


def make_step(query: Query) -> Step:
    """The step function on whole walks, for the few places that try one step of one walk."""
    state_step = query.state_step
    late_brakes = query.slip_brakes

    def step(walk: Walk, nxt: int, slipstream: bool) -> Walk | Elimination | None:
        result = state_step(state_of(walk), nxt, slipstream)
        if result is None or isinstance(result, Elimination):
            return result
        after, add, entered, late = counted(result)
        return Walk(
            after[0],
            after[1],
            after[2],
            after[3],
            after[4],
            after[5],
            after[6],
            (*walk.danger, entered) if entered >= 0 else walk.danger,
            walk.wall_tests + add // WALL,
            walk.fuel + add % WALL,
            late_brakes if late else walk.slip_brake,
            walk.slips,
            after[7],
        )

    return step


def walk_forward(
    query: Query, roots: list[Node], steps: int, slipstream: bool, free: bool = False
) -> tuple[Search, list[tuple[tuple[int, ...], Elimination]]]:
    """All distinct walks after 0 … ``steps`` steps from the one root; nodes in a box stop
    there. ``free`` ignores the path being checked (how far could the car get at all?)."""
    (root,) = roots
    follow = None if free else query.follow
    found = search(
        root,
        steps,
        query.rules,
        slipstream,
        prune=bool(query.hazards) and follow is None,
        follow=follow,
        follow_beyond=query.request.slide < 0,
    )
    return found, found.eliminations


class _Options:
    """Collects options, folding those that end alike at the same cost."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[object, ...], MoveOption] = {}

    def add(self, option: MoveOption | None) -> None:
        if option is not None:
            self.by_key.setdefault(option.cost_key(), option)

    def eliminated(self, start: int, path: tuple[int, ...], reason: Elimination) -> None:
        self.add(MoveOption(start=start, path=path, eliminated=reason))

    def in_order(self) -> list[MoveOption]:
        """The options in their canonical order (``MoveOption.order_key``), sorted by a key
        made of the folding key each option is filed under: the same order, for less work."""
        return [option for _key, option in sorted(self.by_key.items(), key=_order_of)]


def _order_of(item: tuple[tuple[object, ...], MoveOption]) -> tuple[object, ...]:
    """``MoveOption.order_key`` from the option's folding key (``cost_key_of``): the folding
    key holds the same parts in the same order, with the elimination at its end."""
    key, option = item
    eliminated = key[13]
    return (
        eliminated is not None,
        len(option[1]),
        key[:13],
        "" if eliminated is None else eliminated.value,  # type: ignore[attr-defined]
    )


def finish(
    query: Query,
    node: Node,
    brakes: int,
    blocked: int = 0,
    blocked_brakes: int = 0,
    blocked_tyres: int = 0,
    leftover: int = 0,
    into: _Options | None = None,
) -> MoveOption | None:
    """Turn an end of a walk into an option with all its costs, or None if the car cannot pay
    the brake points it needs. With ``into``, the option is filed there, and None is returned
    when it already holds one with the same key (the costly parts are only worked out for
    options that survive folding)."""
    request = query.request
    walk = node.walk
    end, _, _, _, _, made, over, danger, wall_tests, fuel, slip_brake, slips, in_box = walk
    tables = query.tables
    corner = tables.corner[end]
    stop_corner = 0
    corner_stops = made if corner else 0
    if query.required_stop(walk):
        stop_corner = corner
        corner_stops = made + 1
    total_brakes = brakes + blocked_brakes + slip_brake
    if total_brakes > request.brakes:
        return None
    tyres = over * request.overshoot_factor + blocked_tyres
    eliminated = None
    spin = False
    if tyres:
        if request.tyres == 0:
            # Masters 10-4-2 spins again for one more overshot point; Dresden "Verschleiß"
            # retires; a blocking that owes a missing point always does (Masters 12-1-1, 20-2-1)
            spin = tyres == 1 and request.zero_tyres_spin and not blocked_tyres
            eliminated = None if spin else _tyre_reason(request, blocked_tyres)
        elif tyres > request.tyres:
            eliminated = _tyre_reason(request, blocked_tyres)
        elif tyres == request.tyres:
            spin = True  # Masters 10-4-1, 12-1-4; Dresden "Verschleiß": the last tyre point
    key: tuple[object, ...] = ()
    if into is not None:
        key = cost_key_of(
            end,
            total_brakes,
            tyres,
            fuel,
            stop_corner,
            corner_stops,
            over,
            danger,
            wall_tests,
            slips,
            blocked,
            spin,
            in_box,
            eliminated,
        )
        if key in into.by_key:
            return None
    contacts = query.contacts.get(end)
    if contacts is None:
        contacts = ()
        if tables.kind[end] == TRACK_SPACE:
            occupied = query.occupied
            contacts = tuple(s for s in tables.near[end] if s in occupied)
        query.contacts[end] = contacts
    body_loss = -1
    if eliminated is not None and blocked:
        body_loss = _car_in_front(query, end)
    option = tuple.__new__(  # MoveOption(...) without its Python-level __new__, in field order
        MoveOption,
        (
            request.start,
            node.path,
            total_brakes,
            tyres,
            fuel,
            node.changes,
            stop_corner,
            corner_stops,
            over,
            danger,
            wall_tests,
            contacts,
            slips,
            blocked,
            node.laps,
            spin,
            in_box,
            leftover,
            body_loss,
            eliminated,
        ),
    )
    if into is not None:
        into.by_key[key] = option
    return option


def count_lane_changes(track: Track, start: int, path: tuple[int, ...]) -> int:
    """Lane changes along a path; entering the pit lane counts as one (Dresden "Boxenstopp")."""
    change = tables_for(track).is_lane_change
    return sum(change(a, b) for a, b in zip((start, *path), path, strict=False))


def count_laps(track: Track, start: int, path: tuple[int, ...]) -> int:
    """How often a path crosses the start/finish line."""
    tables = tables_for(track)
    if tables.after_line.isdisjoint(path):
        return 0
    steps = zip((start, *path), path, strict=False)
    return sum(1 for edge in steps if edge in track.line_edges)


def _tyre_reason(request: MoveRequest, blocked_tyres: int) -> Elimination:
    return request.blocked_unpaid if blocked_tyres else Elimination.TYRES_OVERSHOOT


def _car_in_front(query: Query, end: int) -> int:
    """The car directly in front of a blocked car (Dresden "Blockierte Spur")."""
    track = query.track
    ahead = track.ahead_in_lane[end]
    if ahead in query.occupied:
        return ahead
    for nxt in track.successors[end]:
        if nxt in query.occupied:
            return nxt
    return -1


def apply_slide(query: Query, node: Node, options: _Options) -> list[Node]:
    """Rain sliding and the profiles' corner-stop adjustment (rule decision "Rain sliding"):
    a move that ends as a required corner stop goes ``slide`` spaces further. A slide stops
    without cost where cars block it (our decision, docs/formula_de/movement.md). The −1 of a
    profile in sunshine is handled by ``ends_one_short``."""
    slide = query.request.slide
    if slide <= 0 or not query.required_stop(node.walk):
        return [node]
    layers, eliminations = walk_forward(query, [node], slide, slipstream=False)
    for path, reason in eliminations:
        options.eliminated(query.request.start, path, reason)
    if query.follow is not None:
        # checking one path: the slide is mandatory and goes as far as it can (Masters 8-5-1;
        # Dresden "Reifen"), so a path that stops it short ends nowhere
        reach = len(walk_forward(query, [node], slide, slipstream=False, free=True)[0])
        if len(layers) < reach:
            return []
    return layers[-1]


def ends_one_short(query: Query, layer: list[Node]) -> list[Node]:
    """Nodes of ``layer`` from which one more step would end as a required corner stop: with a
    slide of −1 the car stops there instead (Dresden "Fahrerprofile": "falls möglich")."""
    found = []
    for node in layer:
        for nxt in query.track.successors[node.walk.space]:
            result = query.step(node.walk, nxt, False)
            if isinstance(result, Walk) and query.required_stop(result):
                found.append(node)
                break
    return found


def _distinct_ends(
    query: Query, layers: Search, moved: int, waiting: set[tuple[int, State]]
) -> list[EndItem] | None:
    """The nominal ends of ``moved`` spaces that can add an option: of the walks that differ
    only in their straight run (start, length, hazards crossed, entry lane), the first found.
    The others end on the same space with the same stops, overshoot and tally, so they finish
    at the same costs, and their slipstreams, which ignore the straight rule (Masters 18-3-2),
    add the same options: in the order the options are filed, the first one's come first and
    the others fold into them. Not so for walks that wait in the pit lane or slide from a
    corner stop (the slide walks on), nor with a slide of −1 (None: ``_nominal_ends``). As
    items, not nodes (``Search.first_items``): most are finished without one (``_PlainEnds``)."""
    if query.request.slide < 0:
        return None
    sliding = query.request.slide > 0
    corner_of, stops = query.tables.corner, query.tables.stops

    def group(state: State) -> object:
        if state[7] and moved:
            return None  # in a box: filed as a box end
        if (moved, state) in waiting:
            return state
        corner = corner_of[state[0]]
        if sliding and corner and not state[6] and state[5] < stops[corner]:
            return state
        return (state[0], state[5], state[6], state[7])

    return layers.first_items(moved, group)


def _nominal_ends(query: Query, layers: Search, moved: int) -> list[Node]:
    """The nodes where a move of ``moved`` spaces really ends, after a slide of −1."""
    layer = [n for n in layers[moved] if not (n.walk.in_box and n.path)]
    if query.request.slide >= 0:
        return layer
    kept = [n for n in layer if not query.required_stop(n.walk) or not n.path]
    if moved == 0:
        return kept
    return kept + ends_one_short(query, layers[moved - 1])


def _slipstream_gear(query: Query, walk: Walk) -> bool:
    """Whether the car directly ahead may be slipstreamed (Masters 18-0-2, 18-1-1, 18-1-7)."""
    return _slipstream_gear_state(query, state_of(walk))


def _slipstream_gear_state(query: Query, state: State) -> bool:
    """``_slipstream_gear`` from a walk's state (space, overshoot, in a box)."""
    request = query.request
    gear = request.gear
    if gear < request.slipstream_min_gear or state[6] or state[7]:
        return False
    ahead = query.track.ahead_in_lane[state[0]]
    other = request.slipstream_gears.get(ahead)
    return other is not None and request.slipstream_min_gear <= other <= gear


def add_slipstreams(
    query: Query, node: Node, options: _Options, slid: bool, pending: bool = False
) -> None:
    """Every slipstream chain from an unbraked end directly behind a car (Masters 18). A
    slipstream that ends as a required corner stop in the rain slides, once per move (18-5-2,
    18-5-3); ``slid`` says whether this move has slid already. ``pending``: the soft-tyre +1
    is still unspent; it may follow any full slipstream (18-3-1), and unspent it costs a brake
    point like every space of the move not driven (Masters 11)."""
    if not _slipstream_gear(query, node.walk):
        return
    request = query.request
    walk = node.walk._replace(slips=node.walk.slips + 1)
    root = node._replace(walk=walk)
    layers, eliminations = walk_forward(query, [root], request.slipstream_spaces, slipstream=True)
    for path, reason in eliminations:
        options.eliminated(query.request.start, path, reason)
    for used in range(1, len(layers)):
        for end in layers[used]:
            if end.walk.in_box:
                # into the own box (rule decision "Slipstream in the pit lane into the own
                # box"): the move ends there, what the slipstream has not used is left over
                leftover = request.slipstream_spaces - used + int(pending)
                finish(query, end, 0, leftover=leftover, into=options)
                continue
            slides = not slid and request.slide > 0 and query.required_stop(end.walk)
            for final in apply_slide(query, end, options) if slides else [end]:
                braking = request.slipstream_spaces - used + int(pending)
                finish(query, final, braking, into=options)
                if used == request.slipstream_spaces:
                    # 18-1-3: chaining
                    add_slipstreams(query, final, options, slid or slides, pending)
                    if pending:
                        add_soft_bonus(query, final, options, slid or slides)


def add_soft_bonus(query: Query, node: Node, options: _Options, slid: bool) -> None:
    """The soft-tyre +1 spent after a slipstream (Masters 18-3-1, example 18-5-1): one more
    space that belongs to the slipstream move, so entering a corner with it costs the late
    braking point (18-3-2, 18-5-5) and, like the slipstream, it may end in the own box; from
    its end the car may slipstream again."""
    request = query.request
    layers, eliminations = walk_forward(query, [node], 1, slipstream=True)
    for path, reason in eliminations:
        options.eliminated(request.start, path, reason)
    for end in layers[1] if len(layers) > 1 else []:
        slides = not slid and request.slide > 0 and query.required_stop(end.walk)
        for final in apply_slide(query, end, options) if slides else [end]:
            finish(query, final, 0, into=options)
            add_slipstreams(query, final, options, slid or slides)


Answer = TypeVar("Answer")


def _collector_paused(work: Callable[[], Answer]) -> Answer:
    """``work()`` with Python's cyclic garbage collector paused. A wide query (the oval's
    straights) builds tens of thousands of short-lived tuples and dicts, none of them in a
    cycle, so reference counting frees them all; the collector's passes over them, triggered
    every few hundred allocations and each also walking whatever else the process holds, took a
    quarter to a third of such a query (issue 25, docs/formula_de/movement.md). Pausing it
    changes no answer. Where it was already paused (a caller's own reasons) it stays paused.
    The collector is the process's: while a query runs in one thread of the server, no pass
    runs for the others either, which only postpones it by the query's milliseconds; two
    queries at once leave it on when the first one ends (a pass may then run during the
    second, as before)."""
    if not gc.isenabled():
        return work()
    gc.disable()
    try:
        return work()
    finally:
        gc.enable()


def generate_moves(
    track: Track, request: MoveRequest, follow: tuple[int, ...] | None = None
) -> list[MoveOption]:
    """Every legal way to end the move described by ``request``. With ``follow``, only the
    options whose path starts like ``follow`` (used to check one proposed path)."""
    return _collector_paused(lambda: _generate_moves(track, request, follow))


def _generate_moves(
    track: Track, request: MoveRequest, follow: tuple[int, ...] | None
) -> list[MoveOption]:
    query = Query(track, request, follow)
    distance = max(request.distance, 0)
    root = query.root()
    if root.walk.in_box:
        return []  # a car standing in a box that is not its own cannot move at all
    layers, eliminations = walk_forward(query, [root], distance, slipstream=False)
    blocked = None
    reach = None
    first = None
    if follow is not None:  # is the car really blocked, whatever path it takes?
        free = Query(track, request)
        free_layers, free_eliminations = walk_forward(free, [free.root()], distance, False)
        blocked = _is_blocked(free_layers, free_eliminations, distance)
        reach = min(len(free_layers) - 1, distance)
        if blocked:
            first = _first_to_play(free, _nominal_ends(free, free_layers, reach))
    return _options_for(query, layers, eliminations, distance, blocked, reach, first)


def _in_box(state: State) -> bool:
    return state[7]


def _is_blocked(
    layers: Search, eliminations: list[tuple[tuple[int, ...], Elimination]], distance: int
) -> bool:
    """Whether no way reaches the full distance (Masters 12-0-1): no walk that deep, no
    elimination and no box on the way."""
    depth = min(len(layers) - 1, distance)
    if depth >= distance or any(len(path) <= distance for path, _ in eliminations):
        return False
    return not any(layers.select(k, _in_box) for k in range(1, depth + 1))


def generate_moves_for_rolls(
    track: Track, request: MoveRequest, rolls: Sequence[int]
) -> dict[int, list[MoveOption]]:
    """The options for several rolls at once (a bot weighing every face of a gear die): one walk
    to the farthest distance serves them all. ``request.distance`` is added to every roll (the
    driver's modifiers)."""
    return _collector_paused(lambda: _generate_moves_for_rolls(track, request, rolls))


def _generate_moves_for_rolls(
    track: Track, request: MoveRequest, rolls: Sequence[int]
) -> dict[int, list[MoveOption]]:
    query = Query(track, request)
    distances = {roll: max(roll + request.distance, 0) for roll in rolls}
    root = query.root()
    if root.walk.in_box or not distances:
        return {roll: [] for roll in rolls}
    farthest = max(distances.values())
    layers, eliminations = walk_forward(query, [root], farthest, slipstream=False)
    return {
        roll: _options_for(query, layers, eliminations, distance)
        for roll, distance in distances.items()
    }


def _options_for(
    query: Query,
    layers: Search,
    eliminations: list[tuple[tuple[int, ...], Elimination]],
    distance: int,
    blocked: bool | None = None,
    reach: int | None = None,
    first: tuple[int, float] | None = None,
) -> list[MoveOption]:
    """The options of a move of ``distance`` spaces from a walk at least that deep;
    ``blocked`` overrides whether the car counts as blocked and ``reach`` says how far it can
    get at all (checking one path)."""
    request = query.request
    options = _Options()
    relevant = [(path, reason) for path, reason in eliminations if len(path) <= distance]
    for path, reason in relevant:
        options.eliminated(request.start, path, reason)
    depth = min(len(layers) - 1, distance)
    box = frozenset({request.box})
    box_ends = (
        [n for k in range(1, depth + 1) for n in layers.select(k, _in_box, box)]
        if request.box >= 0 and layers.touches(box)
        else []
    )
    for node in box_ends:
        options.add(finish(query, node, 0, leftover=distance - len(node.path)))
    waiting = _add_waiting(query, layers, depth, distance, options)
    # with the soft-tyre +1 still to spend (Masters 18-3-1) the roll without it may slipstream
    deferred = int(request.soft_bonus)
    for moved in range(max(0, distance - max(request.brakes, deferred)), depth + 1):
        braking = distance - moved
        items = _distinct_ends(query, layers, moved, waiting)
        if items is None:  # a slide of −1: the nominal ends as nodes
            for node in _nominal_ends(query, layers, moved):
                if (moved, state_of(node.walk)) not in waiting:
                    _finish_end(query, node, braking, deferred, options)
            continue
        plain = _PlainEnds(query, layers, braking, braking <= deferred, options)
        for _key, entry, state, tally in items:
            if (moved, state) in waiting or plain.filed(entry, state, tally):
                continue
            _finish_end(query, layers.node(entry, state, tally), braking, deferred, options)
    if blocked is None:
        blocked = depth < distance and not relevant and not box_ends
    if blocked and depth < distance and (reach is None or depth == reach):
        # Dresden "Blockierte Spur" ("so weit wie möglich"), Masters 12-0-1: a blocked car
        # stops only at its farthest reach, never shorter
        ends = _nominal_ends(query, layers, depth)
        if query.request.blocked_plays_first:
            best = _first_to_play(query, ends) if first is None else first
            ends = [n for n in ends if _play_key(query, n) == best]
        _add_blocked(query, ends, distance - depth, options)
    return options.in_order()


def _finish_end(
    query: Query, node: Node, braking: int, deferred: int, options: _Options
) -> None:
    """File the options of one nominal end: its slide, then the slipstreams from it."""
    request = query.request
    slid = request.slide > 0 and query.required_stop(node.walk)
    for end in apply_slide(query, node, options):
        finish(query, end, braking, into=options)
        if braking <= deferred and not end.walk.in_box:
            add_slipstreams(query, end, options, slid, pending=braking == 1)


class _PlainEnds:
    """``finish`` for the plain ends of one depth, straight from the search's items: no node,
    and what depends on the state alone (the corner stop, overshoot, tyres, spin, contacts)
    worked out once per state, not once per tally. On the oval's wide straights a state holds
    hundreds of tallies (every set of dangerous spaces, every count of wall tests), each its own
    option. An end is plain when it neither slides (rule decision "Rain sliding") nor may take
    a slipstream (Masters 18); the others go through ``finish`` as nodes. The options are those
    ``finish`` files, field for field, in the same order."""

    def __init__(
        self, query: Query, layers: Search, braking: int, slipstreams: bool, options: _Options
    ) -> None:
        self.query = query
        self.layers = layers
        self.braking = braking
        self.slipstreams = slipstreams
        self.by_key = options.by_key
        self.states: dict[State, tuple[int, int, int, bool, Elimination | None,
                                       tuple[int, ...]] | None] = {}
        root = layers.root.walk
        self.root_slip_brake = root.slip_brake
        self.slips = root.slips

    def common(
        self, state: State
    ) -> tuple[int, int, int, bool, Elimination | None, tuple[int, ...]] | None:
        """Stop corner, stops made, tyres, spin, elimination and contacts of an end in
        ``state``, or None when the end is not plain (as ``finish`` works them out)."""
        query = self.query
        request = query.request
        tables = query.tables
        end, made, over, in_box = state[0], state[5], state[6], state[7]
        corner = tables.corner[end]
        required = bool(corner) and over == 0 and made < tables.stops[corner]
        if required and request.slide > 0:
            return None  # it slides on (apply_slide)
        if self.slipstreams and not in_box and _slipstream_gear_state(query, state):
            return None  # slipstreams may follow (add_slipstreams)
        stop_corner = corner if required else 0
        corner_stops = made + 1 if required else (made if corner else 0)
        tyres = over * request.overshoot_factor
        eliminated = None
        spin = False
        if tyres:
            if request.tyres == 0:
                spin = tyres == 1 and request.zero_tyres_spin
                eliminated = None if spin else Elimination.TYRES_OVERSHOOT
            elif tyres > request.tyres:
                eliminated = Elimination.TYRES_OVERSHOOT
            elif tyres == request.tyres:
                spin = True
        contacts = query.contacts.get(end)
        if contacts is None:
            contacts = ()
            if tables.kind[end] == TRACK_SPACE:
                occupied = query.occupied
                contacts = tuple(s for s in tables.near[end] if s in occupied)
            query.contacts[end] = contacts
        return stop_corner, corner_stops, tyres, spin, eliminated, contacts

    def filed(self, entry: Entry, state: State, tally: int) -> bool:
        """File the option of this end if it is plain (True), else leave it (False)."""
        states = self.states
        if state in states:
            common = states[state]
        else:
            common = states[state] = self.common(state)
        if common is None:
            return False
        stop_corner, corner_stops, tyres, spin, eliminated, contacts = common
        slip_brake = self.query.slip_brakes if tally & LATE else self.root_slip_brake
        total_brakes = self.braking + slip_brake
        if total_brakes > self.query.request.brakes:
            return True  # the car cannot pay these brakes: no option (as ``finish``)
        seq = tally >> DANGER_SHIFT
        rules = self.layers.rules
        danger = rules.danger_of(seq) if seq else ()
        wall_tests = (tally >> 8) & 255
        fuel = tally & 255
        end, over, in_box = state[0], state[6], state[7]
        key = (  # cost_key_of(...), its sorted dangerous spaces kept per tally
            end, total_brakes, tyres, fuel, stop_corner, corner_stops, over,
            rules.folded_danger(seq) if seq else (), wall_tests, self.slips, 0, spin, in_box,
            eliminated,
        )
        by_key = self.by_key
        if key in by_key:
            return True
        _key, path, changes, laps = entry
        by_key[key] = tuple.__new__(
            MoveOption,
            (
                self.query.request.start, path, total_brakes, tyres, fuel, changes,
                stop_corner, corner_stops, over, danger, wall_tests, contacts, self.slips, 0,
                laps, spin, in_box, 0, -1, eliminated,
            ),
        )
        return True


def waits(query: Query, walk: Walk) -> bool:
    """Whether a car on ``walk`` waits in the pit lane (``waits_state``)."""
    return waits_state(query, state_of(walk))


def waits_state(query: Query, state: State) -> bool:
    """Whether a car in ``state`` stands in the pit lane with no step left because a car is in
    the way: ahead of it in the lane or in its own box (Dresden "Boxenstopp": "Ein zweiter
    Fahrer muß vor der Box warten"; Masters 19-1-5: no passing in the pit lane)."""
    here = state[0]
    if query.tables.kind[here] != PIT_SPACE:
        return False
    step = query.state_step
    request = query.request
    stopped_by_car = False
    for nxt in query.track.successors[here]:
        if nxt in query.occupied or (nxt == request.box and request.box_taken):
            stopped_by_car = True
        elif step(state, nxt, False) is not None:
            return False
    return stopped_by_car


def _add_waiting(
    query: Query, layers: Search, depth: int, distance: int, options: _Options
) -> set[tuple[int, State]]:
    """The ends where a car waits in the pit lane short of its roll (rule decision "Waiting
    in the pit lane"): the move simply ends there, no brake or tyre points for the spaces
    left, so a car with 0 brakes may enter the pit lane too. Returns them as (spaces moved,
    state), which the ordinary braking ends skip."""
    found: set[tuple[int, State]] = set()
    pit = query.tables.pit
    if not pit or not layers.touches(pit):
        return found

    def waiting(state: State) -> bool:
        return waits_state(query, state)

    for moved in range(min(depth, distance - 1) + 1):
        for node in layers.select(moved, waiting, pit):
            found.add((moved, state_of(node.walk)))
            finish(query, node, 0, blocked=distance - moved, into=options)
    return found


def _play_key(query: Query, node: Node) -> tuple[int, float]:
    """How early a car standing at the end of ``node`` plays: lines crossed, then height along
    the lap (Masters 6-2-2: the leader first, then back round the lap)."""
    return node.laps, query.track.spaces[node.walk.space].height


def _first_to_play(query: Query, ends: list[Node]) -> tuple[int, float] | None:
    """The key of the end that would play first next round (Masters 12-1-3)."""
    return max((_play_key(query, n) for n in ends), default=None)


def _add_blocked(query: Query, ends: list[Node], shortfall: int, options: _Options) -> None:
    """A car that cannot move its full distance (Dresden "Blockierte Spur", Masters 12): it
    moves as far as it can and pays the table, optionally braking first (Masters 12-0-3). In
    the pit lane a car simply waits (Masters 19-1-5)."""
    track = query.track
    for node in ends:
        for end in apply_slide(query, node, options):
            if track.spaces[end.walk.space].kind is not SpaceKind.TRACK:
                options.add(finish(query, end, 0, blocked=shortfall))
                continue
            for voluntary in range(shortfall):
                rest = shortfall - voluntary
                cost = query.request.blocked_cost(rest)
                if cost is None:
                    if voluntary == 0:
                        option = finish(query, end, 0, blocked=shortfall)
                        if option is not None:
                            options.add(
                                option.replace_elimination(
                                    Elimination.BLOCKED_TOO_FAR,
                                    _car_in_front(query, end.walk.space),
                                )
                            )
                    continue
                brakes, tyres = cost
                if voluntary + brakes > query.request.brakes:
                    if voluntary == 0:
                        option = finish(query, end, 0, blocked=shortfall)
                        if option is not None:
                            options.add(
                                option.replace_elimination(
                                    query.request.blocked_unpaid,
                                    _car_in_front(query, end.walk.space),
                                )
                            )
                    continue
                options.add(finish(query, end, voluntary, shortfall, brakes, tyres))
