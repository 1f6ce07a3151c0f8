"""Invariants every built-in track must keep, and the published facts of each one."""

from collections import deque

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import (
    DEFAULT_TRACK,
    builtin_track,
    builtin_track_names,
    builtin_track_text,
)
from rennleitung.formula_de.car import WeatherRoll
from rennleitung.formula_de.track import SpaceKind, Track
from rennleitung.formula_de.trackcheck import check_track
from rennleitung.formula_de.trackfile import CornerSpec, StraightSpec, parse_track_file

NAMES = builtin_track_names()


def _reach(track: Track, starts: list[int], edges: tuple[tuple[int, ...], ...]) -> set[int]:
    seen = set(starts)
    queue = deque(starts)
    while queue:
        for nxt in edges[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def test_the_four_tracks_are_built_in() -> None:
    assert set(NAMES) == {"monaco", "monza", "oval", "short"}
    assert DEFAULT_TRACK in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_file_has_no_problem(name: str) -> None:
    assert check_track(builtin_track_text(name)) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_space_reachable_from_the_grid(name: str) -> None:
    track = builtin_track(name)
    reached = _reach(track, list(track.grid), track.successors)
    assert reached == set(range(len(track.spaces)))


@pytest.mark.parametrize("name", NAMES)
def test_every_space_leads_back_over_the_line(name: str) -> None:
    track = builtin_track(name)
    sources = [a for a, _b in track.line_edges]
    back = _reach(track, sources, track.predecessors)
    assert back == set(range(len(track.spaces)))
    assert all(track.successors[n] for n in range(len(track.spaces)))


@pytest.mark.parametrize("name", NAMES)
def test_corners_agree_with_their_flags(name: str) -> None:
    track = builtin_track(name)
    spec = parse_track_file(builtin_track_text(name))
    corner_specs = [s for s in spec.segments if isinstance(s, CornerSpec)]
    assert len(track.corners) == len(corner_specs)
    for corner, seg in zip(track.corners, corner_specs, strict=True):
        assert (corner.longest, corner.shortest) == (seg.longest, seg.shortest)
        assert corner.stops == seg.stops
        assert len(corner.spaces) == sum(seg.spaces)
        for lane, count in enumerate(seg.spaces):
            assert sum(1 for s in corner.spaces if track.spaces[s].lane == lane) == count
        assert all(track.corner_of(s) is corner for s in corner.spaces)
        assert corner.entry_spaces and corner.exit_spaces
    corner_members = set().union(*(c.spaces for c in track.corners))
    for index in track.track_spaces():
        assert track.in_corner(index) == (index in corner_members)
        assert (track.straight_of[index] >= 0) != track.in_corner(index)


@pytest.mark.parametrize("name", NAMES)
def test_lanes_pattern_gives_max_and_min_lane_count(name: str) -> None:
    spec = parse_track_file(builtin_track_text(name))
    track = builtin_track(name)
    corner_specs = [s for s in spec.segments if isinstance(s, CornerSpec)]
    for corner, seg in zip(track.corners, corner_specs, strict=True):
        if seg.pattern == "lanes":
            assert (corner.longest, corner.shortest) == (max(seg.spaces), min(seg.spaces))


@pytest.mark.parametrize("name", NAMES)
def test_straights_are_staggered_by_half_a_space(name: str) -> None:
    """Lanes B and D sit half a space ahead of A and C on every straight."""
    track = builtin_track(name)
    spec = parse_track_file(builtin_track_text(name))
    for seg_no, seg in enumerate(spec.segments):
        if not isinstance(seg, StraightSpec):
            continue
        by_lane: dict[int, list[float]] = {}
        for space in track.spaces:
            if space.kind is SpaceKind.TRACK and space.segment == seg_no:
                by_lane.setdefault(space.lane, []).append(space.start)
        assert all(len(starts) == seg.length for starts in by_lane.values())
        for lane, starts in by_lane.items():
            reference = by_lane[0]
            shift = 0.5 if lane % 2 else 0.0
            assert [s - r for s, r in zip(starts, reference, strict=True)] == pytest.approx(
                [shift] * seg.length
            )


@pytest.mark.parametrize("name", NAMES)
def test_straight_moves_forward_or_diagonal(name: str) -> None:
    """On straights a space leads to the next space of its lane and to the touching spaces
    ahead in the neighbouring lanes, nothing else."""
    track = builtin_track(name)
    for index in track.track_spaces():
        if (
            track.in_corner(index)
            or track.spaces[index].segment != track.spaces[track.ahead_in_lane[index]].segment
        ):
            continue
        space = track.spaces[index]
        targets = [t for t in track.successors[index] if track.spaces[t].kind is SpaceKind.TRACK]
        assert targets[0] == track.ahead_in_lane[index]
        for target in targets[1:]:
            other = track.spaces[target]
            assert abs(other.lane - space.lane) == 1
            assert other.start > space.start
            assert target in track.beside[index] or other.start >= space.end


@pytest.mark.parametrize("name", NAMES)
def test_lap_counting_edges(name: str) -> None:
    """Driving straight on in one lane crosses the line exactly once per lap."""
    track = builtin_track(name)
    lengths = track.lane_lengths()
    for lane, first in enumerate(track.first_after_line):
        assert track.spaces[first].number == 1 and track.spaces[first].lane == lane
        here, crossings = first, 0
        for _ in range(lengths[lane]):
            nxt = track.ahead_in_lane[here]
            crossings += track.crosses_line(here, nxt)
            here = nxt
        assert here == first
        assert crossings == 1
    for a, b in track.line_edges:
        assert track.spaces[b].height < track.spaces[a].height
        assert track.progress(b, 1) > track.progress(a, 0)


@pytest.mark.parametrize("name", NAMES)
def test_grid_slots_distinct_on_straights_behind_the_line(name: str) -> None:
    track = builtin_track(name)
    assert len(track.grid) >= 10
    assert len(set(track.grid)) == len(track.grid)
    for slot in track.grid:
        assert track.spaces[slot].kind is SpaceKind.TRACK and not track.in_corner(slot)
    heights = [track.spaces[s].height for s in track.grid]
    assert heights == sorted(heights, reverse=True)  # pole furthest ahead


@pytest.mark.parametrize("name", NAMES)
def test_pit_lane_rejoins_and_boxes_have_one_door(name: str) -> None:
    track = builtin_track(name)
    pit = track.pit
    assert pit is not None
    assert len(pit.boxes) >= 10
    assert pit.entry_limit == pit.entry_from[-1]
    assert all(track.spaces[s].kind is SpaceKind.TRACK for s in pit.entry_from + pit.exit_to)
    for source, target in zip(pit.entry_from, pit.entry_to, strict=True):
        assert target in track.successors[source]
    for k, space in enumerate(pit.lane[:-1]):
        assert pit.lane[k + 1] in track.successors[space]
        assert track.ahead_in_lane[space] == pit.lane[k + 1]
    assert set(track.successors[pit.lane[-1]]) == set(pit.exit_to)
    for box, door in zip(pit.boxes, pit.box_from, strict=True):
        assert track.predecessors[box] == (door,)  # Masters 4-0-2: one space leads in
        assert track.successors[box] and all(
            track.spaces[s].kind is SpaceKind.PIT_LANE for s in track.successors[box]
        )
    for index in (*pit.lane, *pit.entry_from, *pit.exit_to):
        assert not track.in_corner(index)
    spec = parse_track_file(builtin_track_text(name))
    for index in pit.lane:  # beside straights only (Masters 19-1)
        assert isinstance(spec.segments[track.spaces[index].segment], StraightSpec)


@pytest.mark.parametrize("name", NAMES)
def test_beside_and_behind_are_consistent(name: str) -> None:
    track = builtin_track(name)
    for index in range(len(track.spaces)):
        for other in track.beside[index]:
            assert index in track.beside[other]
            assert track.is_side_by_side(index, other)
            assert abs(track.spaces[other].lane - track.spaces[index].lane) == 1
        ahead = track.ahead_in_lane[index]
        if ahead >= 0:
            assert track.behind_in_lane[ahead] == index
            assert track.is_directly_behind(index, ahead)


@pytest.mark.parametrize("name", NAMES)
def test_staggered_space_over_the_line_touches_both_sides(name: str) -> None:
    """The last B space of a lap reaches half a space over the line (stagger), so it sits
    beside the first A space of the next lap too (collisions at the line, Masters 14)."""
    track = builtin_track(name)
    last_b = track.behind_in_lane[track.first_after_line[1]]
    assert track.first_after_line[0] in track.beside[last_b]


@pytest.mark.parametrize("name", NAMES)
def test_notation_round_trips(name: str) -> None:
    track = builtin_track(name)
    for index, space in enumerate(track.spaces):
        assert track.space(space.name) == index
        assert track.space(space.name.lower()) == index
        assert track.name_of(index) == space.name
        assert track.space(index) == index
        if space.kind is SpaceKind.TRACK:
            assert space.name == f"{'ABCD'[space.lane]}{space.number}"
    pit = track.pit
    assert pit is not None
    assert [track.name_of(s) for s in pit.lane] == [f"P{k}" for k in range(1, len(pit.lane) + 1)]
    assert [track.name_of(s) for s in pit.boxes] == [
        f"BOX{k}" for k in range(1, len(pit.boxes) + 1)
    ]


def test_unknown_space_names_the_track() -> None:
    track = builtin_track("monaco")
    with pytest.raises(RennleitungError) as caught:
        track.space("E5")
    assert "E5" in caught.value.de and "E5" in caught.value.en
    with pytest.raises(RennleitungError):
        track.space(len(track.spaces))


def test_unknown_builtin_lists_the_available() -> None:
    with pytest.raises(RennleitungError) as caught:
        builtin_track("hockenheim")
    assert "monaco" in caught.value.en and "unbekannte" in caught.value.de


def test_monaco_has_the_published_corners() -> None:
    track = builtin_track("monaco")
    assert [c.stops for c in track.corners] == [1, 1, 1, 1, 3, 1, 1, 2, 2, 1]
    assert [(c.longest, c.shortest) for c in track.corners] == [
        (7, 3),
        (10, 5),
        (6, 2),
        (6, 2),
        (18, 8),
        (9, 5),
        (7, 3),
        (13, 8),
        (11, 6),
        (6, 2),
    ]
    assert all(163 <= n <= 168 for n in track.lane_lengths())
    assert track.last_corner.number == 10


def test_monza_has_six_corners_and_about_125_spaces() -> None:
    track = builtin_track("monza")
    assert [c.stops for c in track.corners] == [2, 1, 1, 1, 2, 1]
    assert all(118 <= n <= 132 for n in track.lane_lengths())


def test_oval_has_four_lanes_and_the_wall_outside() -> None:
    track = builtin_track("oval")
    assert track.lanes == 4
    outside = {s.index for s in track.spaces if s.kind is SpaceKind.TRACK and s.lane == 3}
    assert track.wall == frozenset(outside)
    assert track.pit is not None
    assert all(track.spaces[s].lane == 0 for s in track.pit.entry_from)  # infield, away from wall


def test_short_track_is_short() -> None:
    track = builtin_track("short")
    assert max(track.lane_lengths()) < 70
    assert len(track.corners) >= 3


def test_weather_table_of_monaco() -> None:
    weather = builtin_track("monaco").weather
    assert [weather.weather_for(r) for r in (1, 4, 5, 8, 9, 20)] == [
        WeatherRoll.RAIN,
        WeatherRoll.RAIN,
        WeatherRoll.CHANGEABLE,
        WeatherRoll.CHANGEABLE,
        WeatherRoll.SUN,
        WeatherRoll.SUN,
    ]
    with pytest.raises(RennleitungError):
        weather.weather_for(21)


def test_order_along_the_lap() -> None:
    """Who is ahead: height along the lap, laps first; A and C level on straights."""
    track = builtin_track("monaco")
    a5, b5, c5 = track.space("A5"), track.space("B5"), track.space("C5")
    assert track.same_height(a5, c5)
    assert not track.same_height(a5, b5)
    assert track.progress(b5, 0) > track.progress(a5, 0)
    assert track.progress(a5, 1) > track.progress(track.space("A160"), 0)


def test_builtin_tracks_are_shared() -> None:
    assert builtin_track("short") is builtin_track("short")
