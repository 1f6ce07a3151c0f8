"""The SVG board: a well-formed document that shows what the track holds."""

import xml.etree.ElementTree as ET

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.track import Track
from rennleitung.render.board_svg import render_board

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def space_paths(root: ET.Element) -> dict[str, ET.Element]:
    """The path drawn for each space, found by its <title>."""
    found = {}
    for path in root.iter(f"{SVG}path"):
        title = path.find(f"{SVG}title")
        if title is not None and title.text:
            found[title.text] = path
    return found


@pytest.mark.parametrize("name", builtin_track_names())
def test_every_space_is_drawn_once(name: str) -> None:
    track = builtin_track(name)
    root = parse(render_board(track))
    paths = space_paths(root)
    for space in track.spaces:
        assert space.name in paths
    assert float(root.attrib["width"]) > 200 and float(root.attrib["height"]) > 200


@pytest.mark.parametrize("name", builtin_track_names())
def test_flags_show_stops_and_lc(name: str) -> None:
    track = builtin_track(name)
    shown = texts(parse(render_board(track)))
    for corner in track.corners:
        assert f"L{corner.longest} C{corner.shortest}" in shown
    assert shown.count(str(track.corners[0].stops)) >= 1
    assert track.title in shown


def test_grid_and_box_numbers() -> None:
    track = builtin_track("monaco")
    shown = texts(parse(render_board(track)))
    for number in range(1, len(track.grid) + 1):
        assert shown.count(str(number)) >= 2  # a grid number and a box number


def test_names_on_demand() -> None:
    track = builtin_track("short")
    without = texts(parse(render_board(track)))
    with_names = texts(parse(render_board(track, names=True)))
    assert "B17" not in without
    assert {"A1", "B17", "C62", "P1"} <= set(with_names)


def _fill(track: Track, svg: str, name: str) -> str:
    return space_paths(parse(svg))[name].attrib["fill"]


def test_highlights_colour_their_spaces_only() -> None:
    track = builtin_track("short")
    plain = render_board(track)
    marked = render_board(track, highlights={track.space("B5"): "#00ff00"})
    assert _fill(track, marked, "B5") == "#00ff00"
    assert _fill(track, plain, "B5") != "#00ff00"
    assert _fill(track, marked, "B6") == _fill(track, plain, "B6")


def test_cars_are_drawn_with_label_and_colour() -> None:
    track = builtin_track("short")
    cars = [(track.space("A3"), "7", "#1a5fb4"), (track.grid[0], "X", "red")]
    svg = render_board(track, cars=cars)
    root = parse(svg)
    assert {"7", "X"} <= set(texts(root))
    fills = {r.attrib.get("fill") for r in root.iter(f"{SVG}rect")}
    assert {"#1a5fb4", "red"} <= fills


def test_labels_are_escaped() -> None:
    track = builtin_track("short")
    root = parse(render_board(track, cars=[(0, "<&>", "blue")], title="A & B"))
    assert "<&>" in texts(root) and "A & B" in texts(root)


def test_wall_only_on_the_oval() -> None:
    def wall_paths(name: str) -> int:
        root = parse(render_board(builtin_track(name)))
        return sum(1 for p in root.iter(f"{SVG}path") if p.attrib.get("stroke") == "#6b1d1d")

    assert wall_paths("oval") == 1
    assert wall_paths("monaco") == 0


def test_arrows_in_corners_can_be_left_out() -> None:
    track = builtin_track("monaco")
    with_arrows = render_board(track)
    without = render_board(track, arrows=False)
    assert with_arrows.count("arrowhead") > len(track.corners)
    assert "arrowhead" not in without


def test_same_input_same_svg() -> None:
    track = builtin_track("monza")
    assert render_board(track) == render_board(track)
