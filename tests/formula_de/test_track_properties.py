"""Properties of the generated graph for any track file, not only the built-in ones."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackcheck import ERROR, check_track
from rennleitung.formula_de.trackfile import CornerSpec, parse_track_file


@st.composite
def track_files(draw: st.DrawFn) -> str:
    """A random lap: 2-4 lanes, 2-6 corners with straights between them."""
    lanes = draw(st.integers(2, 4))
    corners = draw(st.integers(2, 6))
    lines = [f"lanes = {lanes}", "grid = 2", ""]
    for _ in range(corners):
        lines += ["[[segment]]", f"straight = {draw(st.integers(2, 12))}", ""]
        counts = draw(st.lists(st.integers(1, 10), min_size=lanes, max_size=lanes))
        pattern = draw(st.sampled_from(["cross", "lanes"]))
        lines += [
            "[[segment]]",
            f"stops = {draw(st.integers(1, 3))}",
            f"spaces = [{', '.join(map(str, counts))}]",
            "flag = [1, 1]",
            f'pattern = "{pattern}"',
            f"turn = {360 / corners}",
            "radius = 9",
            "",
        ]
    lines += ["[[segment]]", f"straight = {draw(st.integers(2, 12))}", ""]
    return "\n".join(lines)


def _build(text: str) -> Track:
    return build_track(parse_track_file(text))


@settings(max_examples=60, deadline=None)
@given(track_files())
def test_only_the_placeholder_flags_are_wrong(text: str) -> None:
    """Generated arrows never leave a space unreachable, stuck or without a way back over the
    line; the only errors are the flags we wrote as [1, 1]."""
    kinds = {p.kind for p in check_track(text) if p.severity == ERROR}
    assert kinds <= {"flag"}


@settings(max_examples=60, deadline=None)
@given(track_files())
def test_flag_paths_bound_the_lane_counts(text: str) -> None:
    track = _build(text)
    spec = parse_track_file(text)
    corner_specs = [s for s in spec.segments if isinstance(s, CornerSpec)]
    for corner, seg in zip(track.corners, corner_specs, strict=True):
        assert 1 <= corner.shortest <= min(seg.spaces)
        assert corner.longest >= max(seg.spaces)
        if seg.pattern == "lanes":
            assert (corner.longest, corner.shortest) == (max(seg.spaces), min(seg.spaces))


@settings(max_examples=60, deadline=None)
@given(track_files())
def test_each_lane_crosses_the_line_once_per_lap(text: str) -> None:
    track = _build(text)
    for lane, first in enumerate(track.first_after_line):
        here, crossings = first, 0
        for _ in range(track.lane_lengths()[lane]):
            nxt = track.ahead_in_lane[here]
            crossings += track.crosses_line(here, nxt)
            here = nxt
        assert (here, crossings) == (first, 1)
    for index in track.track_spaces():
        assert all(index in track.beside[other] for other in track.beside[index])
        name = track.name_of(index)
        assert track.space(name) == index
