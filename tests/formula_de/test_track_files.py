"""Track files: every kind of problem is found, with its line, key and both languages."""

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track_text
from rennleitung.formula_de.car import WeatherRoll
from rennleitung.formula_de.trackbuild import build_track, build_track_checked
from rennleitung.formula_de.trackcheck import ERROR, PROBLEM_KINDS, WARNING, Problem, check_track
from rennleitung.formula_de.trackfile import (
    CornerSpec,
    StraightSpec,
    TrackFileError,
    parse_track_file,
    read_track_file,
)

# A small closed track: four 90° corners, straights 6+6 / 12 / 12 / 12, lane C 68 spaces.
SQUARE = """\
name = "square"
title = "Square"
lanes = 3
grid = 4

[weather]
rain = 5
changeable = 10

[pit]
side = "right"
beside = "C64"
entries = 2
boxes = 3
exit_length = 1

[[segment]]
straight = 6

[[segment]]
stops = 1
spaces = [3, 4, 5]
flag = [8, 3]
turn = 90
radius = 4

[[segment]]
straight = 12

[[segment]]
stops = 2
spaces = [3, 4, 5]
flag = [8, 3]
turn = 90
radius = 4

[[segment]]
straight = 12

[[segment]]
stops = 1
spaces = [3, 4, 5]
flag = [5, 3]
pattern = "lanes"
turn = 90
radius = 4

[[segment]]
straight = 12

[[segment]]
stops = 1
spaces = [3, 4, 5]
flag = [8, 3]
turn = 90
radius = 4

[[segment]]
straight = 6
"""


def variant(old: str, new: str, count: int = 1, text: str = SQUARE) -> str:
    """SQUARE with the first ``count`` occurrences of ``old`` replaced."""
    assert old in text, old
    return text.replace(old, new, count)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line containing ``needle`` (or ``needle#nth``)."""
    if "#" in needle:
        needle, count = needle.rsplit("#", 1)
        nth = int(count)
    hits = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[nth - 1]


def only(problems: list[Problem], kind: str) -> list[Problem]:
    return [p for p in problems if p.kind == kind]


def test_square_is_good() -> None:
    assert check_track(SQUARE) == []
    track = build_track(parse_track_file(SQUARE))
    assert track.lane_lengths() == (60, 64, 68)
    assert [(c.longest, c.shortest) for c in track.corners] == [(8, 3), (8, 3), (5, 3), (8, 3)]
    assert track.weather.weather_for(5) is WeatherRoll.RAIN
    assert track.weather.weather_for(10) is WeatherRoll.CHANGEABLE


def test_weather_default_is_four_and_eight() -> None:
    text = variant("[weather]\nrain = 5\nchangeable = 10\n", "")
    spec = parse_track_file(text)
    assert (spec.weather_rain_max, spec.weather_changeable_max) == (4, 8)


def test_spec_reads_segments() -> None:
    spec = parse_track_file(SQUARE)
    assert [type(s) for s in spec.segments[:2]] == [StraightSpec, CornerSpec]
    corner = spec.segments[1]
    assert isinstance(corner, CornerSpec)
    assert (corner.stops, corner.spaces, corner.longest, corner.shortest) == (1, (3, 4, 5), 8, 3)
    assert corner.place.line == line_of(SQUARE, "[[segment]]", 2)


# --- the file format: (replace this, by that, expected key, needle for the line) ------------

FORMAT_ERRORS = [
    ("lanes = 3", "lanes = 5", "lanes", "lanes = 5"),
    ("lanes = 3", 'lanes = "three"', "lanes", "lanes ="),
    ('title = "Square"', 'title = "Square"\ncolour = "red"', "colour", "colour"),
    ("straight = 12", "length = 12", "segment[3].straight", "[[segment]]#3"),
    ("spaces = [3, 4, 5]", "spaces = [3, 4]", "segment[2].spaces", "spaces = [3, 4]"),
    ("spaces = [3, 4, 5]", "spaces = [3, 0, 5]", "segment[2].spaces", "spaces = [3, 0, 5]"),
    ("flag = [8, 3]", "flag = [8]", "segment[2].flag", "flag = [8]"),
    ("flag = [8, 3]", "flag = [3, 8]", "segment[2].flag", "flag = [3, 8]"),
    ('pattern = "lanes"', 'pattern = "zigzag"', "segment[6].pattern", "zigzag"),
    ("stops = 1", "stops = 0", "segment[2].stops", "stops = 0"),
    ("turn = 90", "turn = 0", "segment[2].turn", "turn = 0"),
    ("radius = 4", 'radius = "big"', "segment[2].radius", "big"),
    ("radius = 4", "radus = 4", "segment[2].radus", "radus"),
    ("straight = 6", "straight = 0", "segment[1].straight", "straight = 0"),
    ("straight = 6", "straight = 6\ndraw_length = -1", "segment[1].draw_length", "draw_length"),
    ('side = "right"', 'side = "up"', "pit.side", "up"),
    ("boxes = 3\n", "", "pit.boxes", "[pit]"),
    ("entries = 2", "entries = 0", "pit.entries", "entries = 0"),
    ("changeable = 10", "changeable = 3", "weather.changeable", "changeable = 3"),
    ("rain = 5", "rain = 5\nsnow = 1", "weather.snow", "snow"),
    ("grid = 4", 'grid = "ten"', "grid", "grid ="),
    ("grid = 4", "grid = 0", "grid", "grid ="),
    ("grid = 4", "grid = 4\nwall = 3", "wall", "wall ="),
    ("grid = 4", "grid = 4\n[[arrow]]\nfrom = 1\nto = []", "arrow[1].from", "from = 1"),
]


@pytest.mark.parametrize(("old", "new", "key", "needle"), FORMAT_ERRORS)
def test_format_error_names_line_and_key(old: str, new: str, key: str, needle: str) -> None:
    text = variant(old, new)
    problems = check_track(text)
    matching = [p for p in problems if p.key == key]
    assert matching, problems
    problem = matching[0]
    assert problem.severity == ERROR
    assert problem.line == line_of(text, needle)
    assert problem.de and problem.en and problem.de != problem.en
    assert f"Zeile/line {problem.line}" in str(problem)
    with pytest.raises(TrackFileError) as caught:
        build_track(parse_track_file(text))
    assert caught.value.de and caught.value.en


def test_not_toml_gives_the_line() -> None:
    text = variant("lanes = 3", "lanes = = 3")
    problems = check_track(text)
    assert [p.kind for p in problems] == ["toml"]
    assert problems[0].line == line_of(text, "lanes = = 3")
    assert "TOML" in problems[0].en and "TOML" in problems[0].de


def test_no_segments() -> None:
    text = SQUARE[: SQUARE.index("[[segment]]")]
    problems = check_track(text)
    assert [p.key for p in problems] == ["segment"]
    assert "segment" in problems[0].en


def test_parse_raises_the_first_problem_with_its_place() -> None:
    text = variant("stops = 1", "stops = 0")
    with pytest.raises(TrackFileError) as caught:
        parse_track_file(text)
    assert caught.value.place.line == line_of(text, "stops = 0")
    assert "segment[2].stops" in str(caught.value)
    spec, problems = read_track_file(text)
    assert spec is not None and len(problems) == 1


# --- building: spaces named in the file must exist --------------------------------------------

BUILD_ERRORS = [
    ("grid = 4", 'grid = 4\n[[arrow]]\nfrom = "A1"\nto = ["Z9"]', "arrow", "[[arrow]]"),
    ("grid = 4", 'grid = ["A60", "Q3"]', "grid", "grid ="),
    ("grid = 4", 'grid = 4\ngrid_lanes = ["A", "Z"]', "grid", "grid_lanes"),
    ("grid = 4", 'grid = 4\nwall = "E"', "wall", "wall ="),
    ('beside = "C64"', 'beside = "A64"', "pit", "beside ="),
    ("boxes = 3\nexit_length = 1", "boxes = 40\nexit_length = 30", "pit", "[pit]"),
]


@pytest.mark.parametrize(("old", "new", "kind", "needle"), BUILD_ERRORS)
def test_build_error_names_line(old: str, new: str, kind: str, needle: str) -> None:
    text = variant(old, new)
    problems = only(check_track(text), kind)
    assert problems
    assert problems[0].line == line_of(text, needle)
    assert problems[0].de != problems[0].en
    with pytest.raises(TrackFileError):
        build_track(parse_track_file(text))
    track, found = build_track_checked(parse_track_file(text))
    assert found and len(track.spaces) > 0


# --- the graph ----------------------------------------------------------------------------


def _arrows(*pairs: tuple[str, list[str]]) -> str:
    tables = "".join(
        f'\n[[arrow]]\nfrom = "{source}"\nto = [{", ".join(repr(t) for t in targets)}]\n'
        for source, targets in pairs
    )
    return SQUARE.replace("grid = 4\n", "grid = 4\n").rstrip("\n") + "\n" + tables.replace("'", '"')


def test_flag_that_does_not_match_the_spaces() -> None:
    text = variant("flag = [8, 3]", "flag = [9, 3]")
    problems = check_track(text)
    assert [p.kind for p in problems] == ["flag"]
    assert problems[0].line == line_of(text, "flag = [9, 3]")
    assert problems[0].key == "segment[2].flag"
    assert "L9/C3" in problems[0].en and "L8/C3" in problems[0].en and "7-1-1" in problems[0].de


def test_arrow_override_changes_the_corner_paths() -> None:
    """The third corner keeps its lanes apart; a short cut in lane C makes C = 2 and L = 4."""
    text = _arrows(("C41", ["C45"]))
    problems = check_track(text)
    flags = only(problems, "flag")
    assert len(flags) == 1 and "L4/C2" in flags[0].en
    unreachable = only(problems, "unreachable")
    assert unreachable and "C42" in unreachable[0].en
    assert unreachable[0].key == "segment[6]"
    assert unreachable[0].line == line_of(text, "[[segment]]#6")


def test_unreachable_box() -> None:
    text = _arrows(("P2", ["P3"]))  # P2 is the one door of box 1
    problems = check_track(text)
    assert [p.kind for p in problems] == ["unreachable"]
    assert "BOX1" in problems[0].en and problems[0].key == "pit"
    assert problems[0].line == line_of(text, "[pit]")


def test_dead_end() -> None:
    text = _arrows(("A3", []))
    problems = only(check_track(text), "dead_end")
    assert len(problems) == 1 and "A3" in problems[0].en
    assert problems[0].key == "arrow[1]"
    assert problems[0].line == line_of(text, "[[arrow]]")


def test_no_way_back_to_the_line() -> None:
    text = _arrows(("A2", ["A3"]), ("A3", ["A2"]))
    problems = only(check_track(text), "no_way_to_line")
    assert {p.key for p in problems} == {"arrow[1]", "arrow[2]"}
    assert "A2" in problems[0].en and "Linie" in problems[0].de


def test_corner_without_exit() -> None:
    track = build_track(parse_track_file(SQUARE))
    corner = track.corners[0]
    firsts = {}
    for index in sorted(corner.spaces):
        firsts.setdefault(track.spaces[index].lane, track.name_of(index))
    pairs = [(track.name_of(e), [firsts[track.spaces[e].lane]]) for e in corner.exit_spaces]
    problems = check_track(_arrows(*pairs))
    exits = only(problems, "corner_exit")
    assert len(exits) == 1 and "corner 1" in exits[0].en and "Ausgang" in exits[0].de
    assert exits[0].key == "segment[2]"


def test_grid_slots_that_overlap() -> None:
    text = variant("grid = 4", 'grid = ["A60", "C67", "a60"]')
    problems = check_track(text)
    assert [p.kind for p in problems] == ["grid"]
    assert "A60" in problems[0].en and "3" in problems[0].en
    assert problems[0].line == line_of(text, "grid =")


def test_grid_slot_in_a_corner() -> None:
    problems = check_track(variant("grid = 4", 'grid = ["A7"]'))
    assert [p.kind for p in problems] == ["grid"]
    assert "straight" in problems[0].en and "Geraden" in problems[0].de


def test_pit_lane_beside_a_corner() -> None:
    text = variant('beside = "C64"', 'beside = "C61"')
    problems = check_track(text)
    assert [p.kind for p in problems] == ["pit"]
    assert problems[0].key == "pit.beside" and "C61" in problems[0].en
    assert problems[0].line == line_of(text, "beside =")


def test_pit_lane_that_does_not_rejoin() -> None:
    problems = only(check_track(_arrows(("P6", ["P5"]))), "pit")
    assert len(problems) == 1
    assert "rejoin" in problems[0].en and "P6" in problems[0].en


def test_radius_too_small_for_the_lanes() -> None:
    text = variant("radius = 4", "radius = 1.5")
    problems = check_track(text)
    radius = only(problems, "radius")
    assert len(radius) == 1 and radius[0].key == "segment[2].radius"
    assert radius[0].line == line_of(text, "radius = 1.5")


def test_wall_on_the_middle_lane() -> None:
    text = variant("grid = 4", 'grid = 4\nwall = "B"')
    problems = check_track(text)
    assert [p.kind for p in problems] == ["wall"]
    assert "15-0-1" in problems[0].en and problems[0].line == line_of(text, "wall =")


def test_turns_that_do_not_make_a_circle() -> None:
    problems = check_track(variant("turn = 90", "turn = 80"))
    assert [(p.kind, p.severity) for p in problems] == [("drawing", WARNING)]
    assert "350" in problems[0].en


def test_drawing_that_does_not_close() -> None:
    problems = check_track(variant("straight = 6", "straight = 6\ndraw_length = 8"))
    assert [(p.kind, p.severity) for p in problems] == [("drawing", WARNING)]
    assert "2.0" in problems[0].en


def test_every_problem_at_once_in_file_order() -> None:
    text = variant("flag = [8, 3]", "flag = [9, 3]")
    text = variant('title = "Square"', 'title = "Square"\ncolour = 1', text=text)
    text = variant("grid = 4", 'grid = 4\nwall = "B"', text=text)
    text = variant("radius = 4", "radius = 1", text=text)
    problems = check_track(text)
    errors = [p.kind for p in problems if p.severity == ERROR]
    assert errors == ["field", "wall", "flag", "radius"]
    assert {p.kind for p in problems if p.severity == WARNING} == {"drawing"}
    assert [p.line for p in problems] == sorted(p.line for p in problems)


def test_problem_kinds_are_documented() -> None:
    text = open_doc()
    for kind in PROBLEM_KINDS:
        assert f"`{kind}`" in text


def open_doc() -> str:
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "formula_de" / "track-files.md"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["monaco", "monza", "oval", "short"])
def test_builtin_files_check_clean(name: str) -> None:
    assert check_track(builtin_track_text(name)) == []


def with_draw_lengths(lengths: dict[int, float]) -> str:
    """SQUARE with ``draw_length`` set on the given segments (1-based)."""
    parts = SQUARE.split("[[segment]]")
    for segment, length in lengths.items():
        lines = parts[segment].split("\n")  # "", "straight = N", …
        lines.insert(2, f"draw_length = {length}")
        parts[segment] = "\n".join(lines)
    return "[[segment]]".join(parts)


def test_drawing_that_lies_on_top_of_itself() -> None:
    """Squeeze the square from east to west (it still closes): its corners run into each other."""
    text = with_draw_lengths({1: 0.25, 5: 0.5, 9: 0.25})
    assert "draw_length = 0.5" in text.split("[[segment]]")[5]
    problems = check_track(text)
    assert problems and all(p.kind == "drawing" and p.severity == WARNING for p in problems)
    assert any("lies on top of" in p.en and "liegt auf" in p.de for p in problems)
    assert not any("ends" in p.en for p in problems)
