"""The checked path: the driving rules applied literally to whole paths.

This is the second, independent implementation of the rules in movegen.py, written the way the
rulebook reads: take a complete path, cut it into corner visits and straight runs, and test each
against its rule. It serves two purposes:

* ``check_move`` tells a person whether the path they propose is legal, or names the first rule
  it breaks with its number, in German and English ("Masters 7-2-4: Zickzack …").
* ``reference_moves`` enumerates every path (only cars, wrecks and arrows restrict the search)
  and keeps those the literal check accepts: the brute-force reference the tests compare the fast
  generator with.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.movegen import count_lane_changes, count_laps, generate_moves
from rennleitung.formula_de.movement import (
    Elimination,
    MoveOption,
    MoveRequest,
)
from rennleitung.formula_de.track import SpaceKind, Track


class IllegalMove(RennleitungError):
    """A proposed path breaks a driving rule; ``where`` holds the rule number."""


@dataclass(frozen=True, slots=True)
class Violation:
    """The first rule a path breaks, at which step."""

    rule: str
    de: str
    en: str
    step: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the literal rules say about a sequence of spaces (the start first)."""

    violation: Violation | None = None
    eliminated_at: int = 0
    over: int = 0
    made: int = 0
    danger: tuple[int, ...] = ()
    wall_tests: int = 0
    fuel: int = 0
    slip_brake: int = 0


def _shortest_in_straight(
    track: Track, source: int, target: int, straight: int, avoid: set[int]
) -> int:
    """Plain breadth-first search inside one straight."""
    seen = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        if here == target:
            return seen[here]
        for nxt in track.successors[here]:
            if track.straight_of[nxt] == straight and nxt not in seen and nxt not in avoid:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return 1 << 20


def _corner_number(track: Track, index: int) -> int:
    return track.spaces[index].corner


def _pit_and_box_violation(
    track: Track, request: MoveRequest, seq: Sequence[int]
) -> Violation | None:
    for i in range(1, len(seq)):
        before, here = track.spaces[seq[i - 1]], track.spaces[seq[i]]
        if here.kind is SpaceKind.BOX:
            # a slipstream may end in the own box (Masters 19-1-3, 19-2-2; rule decision)
            if seq[i] != request.box or request.box_taken:
                return Violation(
                    "Dresden Boxenstopp",
                    "nur in die eigene, freie Box",
                    "only into the own, free box",
                    i,
                )
            if i != len(seq) - 1:
                return Violation(
                    "Masters 19-2-2", "der Zug endet in der Box", "the move ends in the box", i
                )
        elif request.box >= 0 and request.box in track.successors[seq[i - 1]]:
            return Violation(
                "Masters 19-2-5",
                "wer in der Boxengasse ist, muss an seiner Box halten",
                "a car in the pit lane must stop at its box",
                i,
            )
        if (  # a slipstream may enter the pit lane (Masters 19-1-3, annex 3 2002)
            here.kind is SpaceKind.PIT_LANE
            and before.kind is SpaceKind.TRACK
            and not request.pit_allowed
        ):
            return Violation(
                "Masters 19-1-7",
                "die Boxengasse darf jetzt nicht befahren werden",
                "the pit lane may not be entered now",
                i,
            )
    return None


def _runs(track: Track, seq: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Maximal runs ``seq[a:b]`` of consecutive spaces of one straight."""
    i = 0
    while i < len(seq):
        straight = track.straight_of[seq[i]]
        j = i + 1
        if straight >= 0:
            while j < len(seq) and track.straight_of[seq[j]] == straight:
                j += 1
            yield i, j
        i = j


def _straight_violation(
    track: Track, request: MoveRequest, seq: Sequence[int], hazards: frozenset[int]
) -> Violation | None:
    occupied = set(request.occupants)
    for a, b in _runs(track, seq):
        run = seq[a:b]
        first_lane = track.spaces[run[0]].lane
        for k, index in enumerate(run):
            if abs(track.spaces[index].lane - first_lane) > 2:
                return Violation(
                    "Masters 7-2-1",
                    "mehr als zwei Spuren ausgeschert",
                    "more than two lanes away",
                    a + k,
                )
        crossed = set(run) & hazards
        avoid = (occupied | hazards) - crossed
        straight = track.straight_of[run[0]]
        shortest = _shortest_in_straight(track, run[0], run[-1], straight, avoid)
        if shortest < len(run) - 1:
            return Violation(
                "Masters 7-2-3/7-2-4",
                "nicht der kürzeste Weg auf der Geraden (Zickzack ohne Grund)",
                "not the shortest way on the straight (zig-zag without reason)",
                b - 1,
            )
    return None


def evaluate(
    track: Track,
    request: MoveRequest,
    seq: Sequence[int],
    slip_from: int | None = None,
    slide_from: int | None = None,
) -> Verdict:
    """Apply the rules literally to ``seq`` (start first). Steps from ``slip_from`` on are
    slipstream spaces: arrows and corners count, the straight rule does not (Masters 18-3-2).
    Steps from ``slide_from`` on are a rain slide after a slipstream: ordinary spaces again,
    whose straight runs start afresh."""
    slip_from = len(seq) if slip_from is None else slip_from
    slip_to = len(seq) if slide_from is None else slide_from
    occupied = set(request.occupants)
    for i in range(1, len(seq)):
        if seq[i] not in track.successors[seq[i - 1]]:
            return Verdict(
                Violation(
                    "Masters 7-1-4/7-0-1",
                    f"{track.name_of(seq[i])} folgt nicht auf {track.name_of(seq[i - 1])}",
                    f"{track.name_of(seq[i])} does not follow {track.name_of(seq[i - 1])}",
                    i,
                )
            )
        if seq[i] in occupied:
            return Verdict(
                Violation(
                    "Masters 7-0-1",
                    f"{track.name_of(seq[i])} ist besetzt (nicht überspringen, nicht teilen)",
                    f"{track.name_of(seq[i])} is taken (no jumping, no sharing)",
                    i,
                )
            )
    pit = _pit_and_box_violation(track, request, seq)
    if pit is not None:
        return Verdict(pit)
    made = request.corner_stops if _corner_number(track, seq[0]) else 0
    over_at = 0
    fuel = 0
    last_corner = track.corners[-1].number if track.corners else 0
    for i in range(1, len(seq)):
        before, here = _corner_number(track, seq[i - 1]), _corner_number(track, seq[i])
        if over_at and seq[i] != track.ahead_in_lane[seq[i - 1]]:
            return Verdict(
                Violation(
                    "Masters 10-2-1",
                    "nach dem Überschießen keine Spurwechsel mehr",
                    "no lane change after overshooting a corner",
                    i,
                )
            )
        if before and here != before:
            missing = track.corners[before - 1].stops - made
            if missing >= 2 or (missing >= 1 and over_at):
                after_slip = slide_from if slide_from is not None and slide_from < i else None
                prefix = evaluate(track, request, seq[:i], min(slip_from, i), after_slip)
                if prefix.violation is not None:
                    return prefix
                return Verdict(eliminated_at=i)
            if missing == 1:
                over_at = i
            if before == last_corner:
                fuel += 1
        if here and here != before:
            made = 0
    hazards = frozenset(request.dangerous) | track.wall
    straight = _straight_violation(track, request, seq[:slip_from], hazards)
    if straight is None and slide_from is not None:
        straight = _straight_violation(track, request, seq[slide_from:], hazards)
    if straight is not None:
        return Verdict(straight)
    slip_brake = request.slipstream_corner_brakes * int(
        any(
            _corner_number(track, seq[i]) and not _corner_number(track, seq[i - 1])
            for i in range(max(slip_from, 1), slip_to)
        )
    )
    return Verdict(
        over=len(seq) - over_at if over_at else 0,
        made=made,
        danger=tuple(s for s in seq[1:] if s in request.dangerous),
        wall_tests=sum(
            1 for i in range(1, len(seq)) if seq[i] in track.wall and seq[i - 1] not in track.wall
        ),
        fuel=fuel,
        slip_brake=slip_brake,
    )


# --- from verdicts to options ----------------------------------------------------------------


def _required_stop(track: Track, seq: Sequence[int], verdict: Verdict) -> bool:
    corner = _corner_number(track, seq[-1])
    return bool(corner) and verdict.over == 0 and verdict.made < track.corners[corner - 1].stops


def _option(
    track: Track,
    request: MoveRequest,
    seq: Sequence[int],
    verdict: Verdict,
    brakes: int,
    slips: int = 0,
    blocked: tuple[int, int, int] = (0, 0, 0),
    leftover: int = 0,
) -> MoveOption | None:
    shortfall, blocked_brakes, blocked_tyres = blocked
    end = seq[-1]
    corner = _corner_number(track, end)
    required = _required_stop(track, seq, verdict)
    total_brakes = brakes + blocked_brakes + verdict.slip_brake
    if total_brakes > request.brakes:
        return None
    tyres = verdict.over * request.overshoot_factor + blocked_tyres
    reason = request.blocked_unpaid if blocked_tyres else Elimination.TYRES_OVERSHOOT
    eliminated: Elimination | None = None
    spin = False
    if tyres and request.tyres == 0:
        # Masters 10-4-2 / Dresden Verschleiß; never for a blocking (Masters 12-1-1, 20-2-1)
        spin = tyres == 1 and request.zero_tyres_spin and not blocked_tyres
        eliminated = None if spin else reason
    elif tyres > request.tyres:
        eliminated = reason
    elif tyres and tyres == request.tyres:
        spin = True
    occupied = set(request.occupants)
    contacts: tuple[int, ...] = ()
    if track.spaces[end].kind is SpaceKind.TRACK:
        around = set(track.beside[end]) | {track.ahead_in_lane[end]}
        contacts = tuple(sorted(around & occupied))
    path = tuple(seq[1:])
    return MoveOption(
        start=request.start,
        path=path,
        brakes=total_brakes,
        tyres=tyres,
        fuel=verdict.fuel,
        lane_changes=count_lane_changes(track, request.start, path),
        stop_corner=corner if required else 0,
        corner_stops=(verdict.made + 1 if required else verdict.made) if corner else 0,
        overshoot=verdict.over,
        dangerous=verdict.danger,
        wall_tests=verdict.wall_tests,
        contacts=contacts,
        slipstreams=slips,
        blocked=shortfall,
        laps=count_laps(track, request.start, path),
        spin=spin,
        pit=track.spaces[end].kind is SpaceKind.BOX and len(seq) > 1,
        leftover=leftover,
        body_loss=_front(track, request, end) if eliminated and shortfall else -1,
        eliminated=eliminated,
    )


def _front(track: Track, request: MoveRequest, end: int) -> int:
    occupied = set(request.occupants)
    if track.ahead_in_lane[end] in occupied:
        return track.ahead_in_lane[end]
    return next((s for s in track.successors[end] if s in occupied), -1)


def _all_sequences(
    track: Track, request: MoveRequest, start_seq: list[int], steps: int
) -> Iterator[list[int]]:
    """Every sequence extending ``start_seq`` by 0 … ``steps`` spaces along the arrows, never
    through a car; a box ends a sequence."""
    occupied = set(request.occupants)
    yield list(start_seq)
    if steps == 0 or (track.spaces[start_seq[-1]].kind is SpaceKind.BOX and len(start_seq) > 1):
        return
    for nxt in track.successors[start_seq[-1]]:
        if nxt not in occupied:
            yield from _all_sequences(track, request, [*start_seq, nxt], steps - 1)


class _Collector:
    def __init__(self) -> None:
        self.by_key: dict[tuple[object, ...], MoveOption] = {}

    def add(self, option: MoveOption | None) -> None:
        if option is not None:
            self.by_key.setdefault(option.cost_key(), option)

    def missed_stops(self, start: int, seq: list[int], at: int) -> None:
        """The elimination of a sequence that left a corner two stops short at ``seq[at]``
        (Masters 10-1)."""
        path = tuple(seq[1 : at + 1])
        self.add(MoveOption(start=start, path=path, eliminated=Elimination.MISSED_STOPS))


def _slide_ends(
    track: Track,
    request: MoveRequest,
    seq: list[int],
    verdict: Verdict,
    out: _Collector,
    slip_from: int | None = None,
) -> list[tuple[list[int], Verdict]]:
    """The sequences after rain sliding / profile adjustment (see movegen.apply_slide);
    ``slip_from`` when the slide follows a slipstream."""
    if request.slide == 0 or not _required_stop(track, seq, verdict):
        return [(seq, verdict)]
    if request.slide < 0:
        if len(seq) == 1:
            return [(seq, verdict)]
        shorter = seq[:-1]
        return [(shorter, evaluate(track, request, shorter))]
    longest: list[tuple[list[int], Verdict]] = []
    reach = 0
    for candidate in _all_sequences(track, request, seq, request.slide):
        extra = len(candidate) - len(seq)
        if slip_from is None:
            result = evaluate(track, request, candidate)
        else:
            result = evaluate(track, request, candidate, slip_from, len(seq))
        if result.eliminated_at:
            out.missed_stops(request.start, candidate, result.eliminated_at)
            continue
        if result.violation is not None:
            continue
        if extra > reach:
            reach, longest = extra, []
        if extra == reach:
            longest.append((candidate, result))
    return longest


def _slipstreams(
    track: Track,
    request: MoveRequest,
    seq: list[int],
    slip_from: int,
    verdict: Verdict,
    slips: int,
    out: _Collector,
    slid: bool,
    pending: bool = False,
) -> None:
    """Every slipstream chain from ``seq`` (Masters 18); ``pending``: the soft-tyre +1 is still
    unspent and may follow any full slipstream (18-3-1), or costs a brake point unspent."""
    gear = request.gear
    ahead = track.ahead_in_lane[seq[-1]]
    other = request.slipstream_gears.get(ahead)
    if (
        gear < request.slipstream_min_gear
        or verdict.over
        or other is None
        or not request.slipstream_min_gear <= other <= gear
        or track.spaces[seq[-1]].kind is SpaceKind.BOX
    ):
        return
    base = len(seq)
    for candidate in _all_sequences(track, request, seq, request.slipstream_spaces):
        used = len(candidate) - base
        if used == 0:
            continue
        slides, ends = _slipstream_ends(track, request, candidate, slip_from, out, slid)
        for end_seq, end_verdict in ends:
            braking = request.slipstream_spaces - used + int(pending)
            if track.spaces[end_seq[-1]].kind is SpaceKind.BOX:
                # the own box ends the move; the unused slipstream spaces are left over
                out.add(
                    _option(
                        track, request, end_seq, end_verdict, 0, slips + 1, leftover=braking
                    )
                )
                continue
            out.add(_option(track, request, end_seq, end_verdict, braking, slips + 1))
            if used == request.slipstream_spaces:
                now_slid = slid or slides
                _slipstreams(
                    track,
                    request,
                    end_seq,
                    slip_from,
                    end_verdict,
                    slips + 1,
                    out,
                    now_slid,
                    pending,
                )
                if pending:
                    _soft_bonus(track, request, end_seq, slip_from, slips + 1, out, now_slid)


def _slipstream_ends(
    track: Track,
    request: MoveRequest,
    candidate: list[int],
    slip_from: int,
    out: _Collector,
    slid: bool,
) -> tuple[bool, list[tuple[list[int], Verdict]]]:
    """The legal ends of a slipstream sequence, with whether it slides (a rain corner stop,
    Masters 8-1-2); a sequence that misses stops is filed as eliminated and has no end."""
    result = evaluate(track, request, candidate, slip_from)
    if result.eliminated_at:
        out.missed_stops(request.start, candidate, result.eliminated_at)
        return False, []
    if result.violation is not None:
        return False, []
    slides = not slid and request.slide > 0 and _required_stop(track, candidate, result)
    if slides:
        return True, _slide_ends(track, request, candidate, result, out, slip_from)
    return False, [(candidate, result)]


def _soft_bonus(
    track: Track,
    request: MoveRequest,
    seq: list[int],
    slip_from: int,
    slips: int,
    out: _Collector,
    slid: bool,
) -> None:
    """The soft-tyre +1 after a full slipstream (Masters 18-3-1): one more space of the
    slipstream move (its corner entry costs the late-braking point, 18-3-2), then perhaps
    another slipstream."""
    for candidate in _all_sequences(track, request, seq, 1):
        if len(candidate) == len(seq):
            continue
        slides, ends = _slipstream_ends(track, request, candidate, slip_from, out, slid)
        for end_seq, end_verdict in ends:
            out.add(_option(track, request, end_seq, end_verdict, 0, slips))
            _slipstreams(
                track, request, end_seq, slip_from, end_verdict, slips, out, slid or slides
            )


def reference_moves(track: Track, request: MoveRequest) -> list[MoveOption]:
    """Brute force: every path, every rule checked literally on the whole path."""
    distance = max(request.distance, 0)
    out = _Collector()
    start_kind = track.spaces[request.start].kind
    if start_kind is SpaceKind.BOX and request.start != request.box:
        return []
    legal: list[tuple[list[int], Verdict]] = []
    any_elimination = False
    for seq in _all_sequences(track, request, [request.start], distance):
        verdict = evaluate(track, request, seq)
        if verdict.eliminated_at:
            any_elimination = True
            out.missed_stops(request.start, seq, verdict.eliminated_at)
        elif verdict.violation is None:
            legal.append((seq, verdict))
    box_reached = False
    for seq, verdict in legal:
        moved = len(seq) - 1
        if track.spaces[seq[-1]].kind is SpaceKind.BOX and moved:
            box_reached = True
            out.add(_option(track, request, seq, verdict, 0, leftover=distance - moved))
            continue
        braking = distance - moved
        if braking and _waits(track, request, seq):
            # waiting in the pit lane ends the move at no cost (rule decision "Waiting in the
            # pit lane"; Dresden Boxenstopp, Masters 19-1-5)
            out.add(_option(track, request, seq, verdict, 0, blocked=(braking, 0, 0)))
            continue
        deferred = braking == 1 and request.soft_bonus  # the +1 kept for later (18-3-1)
        if braking > request.brakes and not deferred:
            continue
        slid = request.slide > 0 and _required_stop(track, seq, verdict)
        for end_seq, end_verdict in _slide_ends(track, request, seq, verdict, out):
            out.add(_option(track, request, end_seq, end_verdict, braking))
            if braking == 0 or deferred:
                _slipstreams(
                    track, request, end_seq, len(end_seq), end_verdict, 0, out, slid, deferred
                )
    farthest = max(len(seq) - 1 for seq, _ in legal)
    if farthest < distance and not any_elimination and not box_reached:
        shortfall = distance - farthest
        ends = [(seq, verdict) for seq, verdict in legal if len(seq) - 1 == farthest]
        if request.blocked_plays_first:  # Masters 12-1-3: the end that would play first
            best = max(_play_order(track, request, seq) for seq, _ in ends)
            ends = [(seq, v) for seq, v in ends if _play_order(track, request, seq) == best]
        for seq, verdict in ends:
            for end_seq, end_verdict in _slide_ends(track, request, seq, verdict, out):
                _blocked_options(track, request, end_seq, end_verdict, shortfall, out)
    return list(out.by_key.values())


def _waits(track: Track, request: MoveRequest, seq: list[int]) -> bool:
    """The car at the end of ``seq`` stands in the pit lane and cannot go on because a car is
    in the way, ahead in the lane or in its own box: every other next space breaks a rule."""
    end = seq[-1]
    if track.spaces[end].kind is not SpaceKind.PIT_LANE:
        return False
    occupied = set(request.occupants)
    by_car = False
    for nxt in track.successors[end]:
        if nxt in occupied or (nxt == request.box and request.box_taken):
            by_car = True
            continue
        verdict = evaluate(track, request, [*seq, nxt])
        if verdict.violation is None:
            return False
    return by_car


def _play_order(track: Track, request: MoveRequest, seq: list[int]) -> tuple[int, float]:
    """Lines crossed, then height along the lap: the larger plays first (Masters 6-2-2)."""
    return count_laps(track, request.start, tuple(seq[1:])), track.spaces[seq[-1]].height


def _blocked_options(
    track: Track,
    request: MoveRequest,
    seq: list[int],
    verdict: Verdict,
    shortfall: int,
    out: _Collector,
) -> None:
    if track.spaces[seq[-1]].kind is not SpaceKind.TRACK:
        out.add(_option(track, request, seq, verdict, 0, blocked=(shortfall, 0, 0)))
        return
    for voluntary in range(shortfall):
        cost = request.blocked_cost(shortfall - voluntary)
        if cost is not None and voluntary + cost[0] <= request.brakes:
            out.add(_option(track, request, seq, verdict, voluntary, blocked=(shortfall, *cost)))
            continue
        if voluntary == 0:
            option = _option(track, request, seq, verdict, 0, blocked=(shortfall, 0, 0))
            if option is not None:
                reason = Elimination.BLOCKED_TOO_FAR if cost is None else request.blocked_unpaid
                out.add(option.replace_elimination(reason, _front(track, request, seq[-1])))


def check_move(track: Track, request: MoveRequest, path: Sequence[int]) -> list[MoveOption]:
    """The options whose path is exactly ``path``; raises ``IllegalMove`` naming the first rule
    the path breaks when there is none. Acceptance runs the generator along the path (the same
    rules, no folding); the message comes from the literal rules."""
    wanted = tuple(path)
    matches = [o for o in generate_moves(track, request, follow=wanted) if o.path == wanted]
    if matches:
        return matches
    verdict = evaluate(track, request, [request.start, *wanted])
    if verdict.violation is not None:
        v = verdict.violation
        raise IllegalMove(v.de, v.en, f"{v.rule} (Schritt/step {v.step})")
    # the distance, not "the roll": with a profile, tyre or boost it differs from the die
    raise IllegalMove(
        f"{len(wanted)} Felder passen nicht zu {request.distance} zu fahrenden Feldern (Wurf "
        "samt Fahrerprofil, Reifen und Boost) und den Regeln für Bremsen, Blockade, Rutschen "
        "und Windschatten",
        f"{len(wanted)} spaces do not fit the {request.distance} spaces to move (the roll with "
        "profile, tyres and boost) and the rules for braking, blocking, sliding and slipstream",
        "Masters 11/12/18",
    )
