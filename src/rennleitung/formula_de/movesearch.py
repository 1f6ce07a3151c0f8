"""The generator's search over states: walks that reach the same space in the same state merge.

A walk of the generator (movegen.py) is split in two. Its *state* is what decides where it may
go next: the space, the straight run it is on (start, length, hazards crossed, entry lane), the
corner stops made, the overshoot, whether it is in a box. Its *tally* is what it has counted
and what makes options differ without changing what follows: the dangerous spaces entered (in
order), the wall tests, the fuel, the late-braking point of a slipstream (Masters 15, 17, 18-1-4;
Dresden "Verschleiß"). The rules are applied once per state and arrow (``StateStep``); the
tallies of all walks in that state follow along as small integers.

The walks, their representative paths and their order are exactly those of a walk-by-walk
search that visits the walks of a layer in order, tries the arrows of each space in order and
keeps the first path to reach a walk: each walk carries a key, the digits of its path's arrow
choices, and keeping the smallest key per walk is keeping the first path found, in whatever
order the states are visited. Layers are turned into nodes (a walk with its path) only where
the generator asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Final, NamedTuple

from rennleitung.formula_de.movement import Elimination


class Walk(NamedTuple):
    """The situation of a car part-way through a move; equal walks have equal futures."""

    space: int
    run_start: int
    run_len: int
    run_crossed: frozenset[int]
    entry_lane: int
    made: int
    over: int
    danger: tuple[int, ...]
    wall_tests: int
    fuel: int
    slip_brake: int
    slips: int
    in_box: bool


class Node(NamedTuple):
    """A walk with the path that led to it and what the path counted on the way (lane changes,
    laps): not part of the walk, so paths that differ only in these fold into the first one
    found."""

    walk: Walk
    path: tuple[int, ...]
    changes: int = 0
    laps: int = 0


State = tuple[int, int, int, frozenset[int], int, int, int, bool]
STATE_LENGTH: Final = 8
"""A walk without its tally: space, run start, run length, hazards crossed on the run, entry
lane, stops made, overshoot, in a box."""

Stepped = tuple[State, int, int, bool]
"""The state after one step, the walls (``WALL``) and fuel (``FUEL``) it adds, the dangerous
space entered (-1 if none) and whether a slipstream brakes late into a corner."""

StateStep = Callable[[State, int, bool], "State | Stepped | Elimination | None"]
"""A step returns the bare state when it counts nothing (the common case), else ``Stepped``."""


def counted(result: State | Stepped) -> Stepped:
    """A step's result as ``Stepped``."""
    if len(result) == STATE_LENGTH:
        return (result, 0, -1, False)
    return result

FUEL: Final = 1
WALL: Final = 1 << 8
LATE: Final = 1 << 16
DANGER_SHIFT: Final = 17
LOW: Final = (1 << DANGER_SHIFT) - 1
"""A tally as one integer: fuel in bits 0-7, wall tests in 8-15, the late-braking flag in bit
16, the dangerous spaces entered above, as digits of base (dangerous spaces + 1), in order."""

Edges = tuple[tuple[tuple[int, int, int], ...], ...]
"""Per space: each arrow as (next space, lane changes, laps)."""

Entry = tuple[int, tuple[int, ...], int, int]
"""What a walk carries besides its state and tally: its key, its path, the path's lane changes
and laps."""

EndItem = tuple[int, Entry, State, int]
"""A walk of a layer as the search keeps it: its key, entry, state and tally."""

Walks = tuple[int, Entry] | dict[int, Entry]
"""The walks in one state: one (tally, entry), the common case, which spares a dict; or a dict
of tallies and entries."""

Layer = dict[State, Walks]
"""The walks of one depth, by state."""


def walks_in(walks: Walks) -> Iterable[tuple[int, Entry]]:
    """Each (tally, entry) of the walks in one state."""
    return (walks,) if isinstance(walks, tuple) else walks.items()


def state_of(walk: Walk) -> State:
    """The state part of a walk."""
    return (walk[0], walk[1], walk[2], walk[3], walk[4], walk[5], walk[6], walk[12])


CROSSED: Final = 3


def undominated(layer: Layer) -> None:
    """Drop the walks that another walk dominates: equal in everything but the hazards crossed
    on the current straight, with a proper subset of them. Crossing fewer hazards only widens
    what the shortest-way test allows later (rule decision "Straights, exactly"), and the
    crossed set grows alike on both, so the dominated walk reaches no end at no cost that the
    other does not reach too. On wide straights with a wall this keeps the walks from
    multiplying by every subset of wall spaces passed. Equal tallies are part of "equal in
    everything", so a state loses only the tallies its dominating states have too."""
    groups: dict[tuple[object, ...], list[State]] = {}
    for state in layer:
        if state[CROSSED]:
            groups.setdefault((*state[:CROSSED], *state[CROSSED + 1 :]), []).append(state)
    for states in groups.values():
        if len(states) < 2:
            continue
        losses: list[tuple[State, set[int]]] = []
        for state in states:
            crossed = state[CROSSED]
            lost: set[int] = set()
            for other in states:
                if other[CROSSED] < crossed:
                    lost.update(tally for tally, _entry in walks_in(layer[other]))
            if lost:
                losses.append((state, lost))
        for state, lost in losses:
            kept = {tally: entry for tally, entry in walks_in(layer[state]) if tally not in lost}
            if not kept:
                del layer[state]
            elif len(kept) == 1:
                layer[state] = next(iter(kept.items()))
            else:
                layer[state] = kept


class Rules:
    """What every search of one query shares: the step, the arrows, the keys' digits and the
    coding of the dangerous spaces in a tally."""

    def __init__(
        self,
        step: StateStep,
        edges: Edges,
        occupied: frozenset[int],
        dangerous: frozenset[int],
        late_brakes: int,
    ) -> None:
        self.step = step
        self.edges = edges
        self.arrows = arrows_for(edges)
        self.bits = bits_for(edges)
        self.mask = (1 << self.bits) - 1
        self.occupied = occupied
        ordered = sorted(dangerous) if dangerous else []
        self.code = {space: n + 1 for n, space in enumerate(ordered)}
        self.spaces = (-1, *ordered)
        self.base = len(ordered) + 1
        self.late_brakes = late_brakes
        self.danger: dict[int, tuple[int, ...]] = {0: ()}
        self.folded: dict[int, tuple[int, ...]] = {0: ()}

    def encode(self, walk: Walk) -> int:
        """The tally of a walk (without the late-braking flag, which ``Search`` keeps)."""
        seq = 0
        for space in walk.danger:
            seq = seq * self.base + self.code[space]
        return (seq << DANGER_SHIFT) | walk.wall_tests * WALL | walk.fuel * FUEL

    def danger_of(self, seq: int) -> tuple[int, ...]:
        """The dangerous spaces entered, in order, from their digits."""
        found = self.danger.get(seq)
        if found is None:
            digits = []
            rest = seq
            while rest:
                rest, digit = divmod(rest, self.base)
                digits.append(self.spaces[digit])
            found = self.danger[seq] = tuple(reversed(digits))
        return found

    def folded_danger(self, seq: int) -> tuple[int, ...]:
        """The dangerous spaces entered as the folding key holds them (``cost_key_of``: sorted),
        once per tally."""
        found = self.folded.get(seq)
        if found is None:
            danger = self.danger_of(seq)
            found = self.folded[seq] = tuple(sorted(danger)) if len(danger) > 1 else danger
        return found


class Search:
    """The walks after 0 … ``steps`` steps from one root (``search``), as nodes on demand."""

    def __init__(self, root: Node, rules: Rules) -> None:
        self.root = root
        self.rules = rules
        self.edges = rules.edges
        self.bits = rules.bits
        self.mask = rules.mask
        self.late_brakes = rules.late_brakes
        self.layers: list[Layer] = []
        self.eliminations: list[tuple[tuple[int, ...], Elimination]] = []
        self._nodes: dict[int, list[Node]] = {}
        self.root_tally = rules.encode(root.walk)
        self._touched: set[int] | None = None

    def touches(self, spaces: frozenset[int]) -> bool:
        """Whether any walk stands on one of ``spaces`` (to skip looking for rare ends)."""
        touched = self._touched
        if touched is None:
            touched = self._touched = {state[0] for layer in self.layers for state in layer}
        return not touched.isdisjoint(spaces)

    def __len__(self) -> int:
        return len(self.layers)

    def walk_of(self, state: State, tally: int) -> Walk:
        """The walk of ``state`` with ``tally``."""
        root = self.root.walk
        seq = tally >> DANGER_SHIFT
        return tuple.__new__(
            Walk,
            (
                state[0],
                state[1],
                state[2],
                state[3],
                state[4],
                state[5],
                state[6],
                self.rules.danger_of(seq) if seq else (),
                (tally >> 8) & 255,
                tally & 255,
                self.late_brakes if tally & LATE else root.slip_brake,
                root.slips,
                state[7],
            ),
        )

    def node(self, entry: Entry, state: State, tally: int) -> Node:
        """The node of a walk."""
        _key, path, changes, laps = entry
        return tuple.__new__(Node, (self.walk_of(state, tally), path, changes, laps))

    def __getitem__(self, depth: int) -> list[Node]:
        """The nodes of one depth in the order of their keys (first found first)."""
        if depth < 0:
            depth += len(self.layers)
        nodes = self._nodes.get(depth)
        if nodes is None:
            nodes = self._nodes[depth] = self.select(depth, None)
        return nodes

    def select(
        self,
        depth: int,
        test: Callable[[State], bool] | None,
        spaces: frozenset[int] | None = None,
    ) -> list[Node]:
        """The nodes of one depth whose state is on one of ``spaces`` (None: any) and passes
        ``test``, in the order of their keys."""
        items: list[tuple[int, Entry, State, int]] = []
        for state, walks in self.layers[depth].items():
            if spaces is not None and state[0] not in spaces:
                continue
            if test is not None and not test(state):
                continue
            items.extend((entry[0], entry, state, tally) for tally, entry in walks_in(walks))
        if not items:
            return []
        items.sort(key=itemgetter(0))
        node = self.node
        return [node(entry, state, tally) for _key, entry, state, tally in items]

    def first_nodes(self, depth: int, state_key: Callable[[State], object]) -> list[Node]:
        """Per (``state_key`` of the state, tally), only the node found first; in key order.
        States whose key is None are left out."""
        node = self.node
        return [
            node(entry, state, tally) for _key, entry, state, tally in self.first_items(
                depth, state_key
            )
        ]

    def first_items(
        self, depth: int, state_key: Callable[[State], object]
    ) -> list[EndItem]:
        """``first_nodes`` as (key, entry, state, tally), without building the nodes: the
        generator finishes most ends of a wide layer straight from these (movegen.py)."""
        best: dict[tuple[object, int], tuple[int, Entry, State, int]] = {}
        get = best.get
        for state, walks in self.layers[depth].items():
            group = state_key(state)
            if group is None:
                continue
            for tally, entry in walks_in(walks):
                mark = (group, tally)
                old = get(mark)
                if old is None or entry[0] < old[0]:
                    best[mark] = (entry[0], entry, state, tally)
        return sorted(best.values(), key=itemgetter(0))


_BITS: dict[int, int] = {}
Arrows = tuple[tuple[tuple[int, int, int, int], ...], ...]
"""Per space: each arrow as (its number, next space, lane changes, laps)."""

_ARROWS: dict[int, Arrows] = {}


def bits_for(edges: Edges) -> int:
    """Bits per arrow choice in a key: enough for the most arrows out of one space."""
    bits = _BITS.get(id(edges))
    if bits is None:
        bits = _BITS[id(edges)] = max(1, max(map(len, edges), default=1) - 1).bit_length()
    return bits


def arrows_for(edges: Edges) -> Arrows:
    """The arrows of ``edges`` with their numbers."""
    arrows = _ARROWS.get(id(edges))
    if arrows is None:
        arrows = _ARROWS[id(edges)] = tuple(
            tuple((n, *edge) for n, edge in enumerate(out)) for out in edges
        )
    return arrows


def search(
    root: Node,
    steps: int,
    rules: Rules,
    slipstream: bool,
    prune: bool,
    follow: tuple[int, ...] | None = None,
    follow_beyond: bool = False,
) -> Search:
    """All distinct walks after 0 … ``steps`` steps from ``root``; walks in a box stop there.
    ``follow`` keeps only the arrows along that path (checking one path), and one step beyond
    it when ``follow_beyond``."""
    found = Search(root, rules)
    bits = rules.bits
    arrows = rules.arrows
    occupied = rules.occupied
    step = rules.step
    code = rules.code
    base = rules.base
    set_late = root.walk.slip_brake != rules.late_brakes
    layers = found.layers
    layers.append(
        {state_of(root.walk): (found.root_tally, (0, root.path, root.changes, root.laps))}
    )
    failed: list[tuple[int, int, tuple[int, ...], Elimination]] = []
    depth = len(root.path)
    for level in range(steps):
        allowed = -1
        if follow is not None:
            if depth + level < len(follow):
                allowed = follow[depth + level]
            elif depth + level > len(follow) or not follow_beyond:
                break
        layer: Layer = {}
        for state, walks in layers[-1].items():
            if state[7]:
                continue
            single = isinstance(walks, tuple)
            if isinstance(walks, tuple):
                t0, (k0, p0, c0, n0) = walks
            for edge, nxt, change, lap in arrows[state[0]]:
                if nxt in occupied or (allowed >= 0 and nxt != allowed):
                    continue
                result = step(state, nxt, slipstream)
                if result is None:
                    continue
                if isinstance(result, Elimination):
                    first = min(entry for _tally, entry in walks_in(walks))
                    failed.append(
                        (level + 1, (first[0] << bits) | edge, (*first[1], nxt), result)
                    )
                    continue
                if len(result) == 8:  # a bare state (STATE_LENGTH): the step counts nothing
                    after = result
                    child = layer.get(after)
                    if child is None:
                        if single:  # most walks are alone in their state
                            layer[after] = (
                                t0,
                                ((k0 << bits) | edge, (*p0, nxt), c0 + change, n0 + lap),
                            )
                        elif isinstance(walks, dict):
                            layer[after] = {
                                t: ((k << bits) | edge, (*p, nxt), c + change, n + lap)
                                for t, (k, p, c, n) in walks.items()
                            }
                        continue
                    add, entered, late = 0, -1, False
                else:
                    after, add, entered, late = result
                    child = layer.get(after)
                digit = code[entered] if entered >= 0 else 0
                if single:
                    t = t0 + add
                    if late and set_late:
                        t |= LATE
                    if digit:
                        t = ((((t >> DANGER_SHIFT) * base) + digit) << DANGER_SHIFT) | (t & LOW)
                    k = (k0 << bits) | edge
                    if child is None:
                        layer[after] = (t, (k, (*p0, nxt), c0 + change, n0 + lap))
                    elif isinstance(child, tuple):
                        if child[0] != t:
                            layer[after] = {
                                child[0]: child[1],
                                t: (k, (*p0, nxt), c0 + change, n0 + lap),
                            }
                        elif k < child[1][0]:
                            layer[after] = (t, (k, (*p0, nxt), c0 + change, n0 + lap))
                    else:
                        old = child.get(t)
                        if old is None or k < old[0]:
                            child[t] = (k, (*p0, nxt), c0 + change, n0 + lap)
                    continue
                if child is None:
                    merged: dict[int, Entry] = {}
                elif isinstance(child, tuple):
                    merged = {child[0]: child[1]}
                else:
                    merged = child
                get = merged.get
                for t, (k, p, c, n) in walks_in(walks):
                    t += add
                    if late and set_late:
                        t |= LATE
                    if digit:
                        t = ((((t >> DANGER_SHIFT) * base) + digit) << DANGER_SHIFT) | (t & LOW)
                    k = (k << bits) | edge
                    old = get(t)
                    if old is None or k < old[0]:
                        merged[t] = (k, (*p, nxt), c + change, n + lap)
                layer[after] = next(iter(merged.items())) if len(merged) == 1 else merged
        if not layer:
            break
        if prune:
            undominated(layer)
        layers.append(layer)
    failed.sort(key=lambda f: (f[0], f[1]))
    found.eliminations.extend((path, reason) for _level, _key, path, reason in failed)
    return found
