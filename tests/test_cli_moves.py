"""`rennleitung moves`, `moves check` and `position render` through the real CLI app.

Positions are written next to a small track file (the scenery of
tests/formula_de/test_movement_support.py), which also checks that a position's track file is
found relative to the position file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from tests.formula_de.test_movement_support import TRACK_TOML

runner = CliRunner()
WIDE = {"COLUMNS": "250"}
EXAMPLES = Path(__file__).parents[1] / "examples" / "positions"
CLI_TRACK = TRACK_TOML.replace("flag = [8, 6]", "flag = [6, 6]").replace(
    "lanes = 3\n", "lanes = 3\ngrid = 8\n", 1)
"""The scenery as a file ``track check`` accepts (the commands refuse any other): corner 2's
flag tells the truth, and only the grid slots that lie on a straight."""


def flat(text: str) -> str:
    """Output with line wrapping undone."""
    return " ".join(text.split())


def wear(brakes: int = 0, tyres: int = 6) -> dict[str, int]:
    return {
        "tyres": tyres,
        "brakes": brakes,
        "fuel": 3,
        "body": 3,
        "engine": 3,
        "road_holding": 2,
        "box": 2,
    }


def write(tmp_path: Path, cars: list[dict[str, Any]], **extra: Any) -> Path:
    (tmp_path / "scenario.toml").write_text(CLI_TRACK, encoding="utf-8")
    data = {"format": "rennleitung-position/1", "track": "scenario.toml", "cars": cars, **extra}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def car(car_id: str, space: str, **fields: Any) -> dict[str, Any]:
    return {"id": car_id, "space": space, "gear": 2, "wear": wear(), **fields}


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), env=WIDE)


# --- moves -----------------------------------------------------------------------------------


def test_moves_json_lists_every_option(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", str(position), "--car", "x", "--roll", "3", "--json")
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)
    assert {o["end"] for o in options} == {"A4", "B3", "C3"}
    for option in options:
        assert {"end", "path", "brakes", "tyres", "eliminated"} <= set(option)
        assert option["path"][-1] == option["end"]
        assert len(option["path"]) == 3
        assert (option["brakes"], option["tyres"], option["eliminated"]) == (0, 0, False)


def test_moves_json_names_the_elimination_and_the_car_in_front(tmp_path: Path) -> None:
    cars = [car("x", "A1", wear=wear(brakes=3)), car("front", "A2"), car("side", "B1")]
    position = write(tmp_path, cars)
    result = run("moves", str(position), "--car", "x", "--roll", "7", "--gear", "4", "--json")
    assert result.exit_code == 0, result.output
    options = json.loads(result.stdout)
    assert options
    assert {o["elimination_rule"] for o in options} == {"Masters 12-1-1"}
    assert all(o["eliminated"] and o["body_loss"] == "A2" for o in options)
    assert all(o["elimination_reason_de"] and o["elimination_reason_en"] for o in options)


def test_moves_gear_boost_and_soft_options(tmp_path: Path) -> None:
    soft = car("x", "A21", tyre="soft", tyre_laps=0)
    position = write(tmp_path, [soft])
    plain = json.loads(run("moves", str(position), "--car", "x", "--roll", "2", "--json").stdout)
    assert {o["spaces"] for o in plain} == {2}
    result = run("moves", str(position), "--car", "x", "--roll", "2", "--soft", "--json")
    assert {o["spaces"] for o in json.loads(result.stdout)} == {3}
    result = run(
        "moves", str(position), "--car", "x", "--roll", "2", "--gear", "2", "--boost", "--json"
    )
    assert result.exit_code == 0, result.output
    assert {o["spaces"] for o in json.loads(result.stdout)} == {4}


def test_moves_table(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", str(position), "--car", "x", "--roll", "3")
    assert result.exit_code == 0, result.output
    assert "Züge / moves" in result.stdout
    for end in ("A4", "B3", "C3"):
        assert end in result.stdout


def test_moves_on_an_example_position() -> None:
    example = EXAMPLES / "monaco-midrace.json"
    result = run("moves", str(example), "--car", "alonso", "--roll", "8", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--car", "senna", "--roll", "3"], ["kein Auto 'senna'", "no car 'senna'"]),
        (["--car", "x", "--roll", "3", "--soft"], ["Weichreifen", "soft-tyre", "Dresden Reifen"]),
        (["--car", "x", "--roll", "3", "--boost"], []),
    ],
)
def test_moves_errors_are_bilingual(tmp_path: Path, args: list[str], expected: list[str]) -> None:
    position = write(tmp_path, [car("x", "A1", wear={**wear(), "engine": 1})])
    result = run("moves", str(position), *args)
    assert result.exit_code == 1
    output = flat(result.output)
    assert "Fehler:" in output and "Error:" in output
    for text in expected:
        assert text in output


def test_moves_rejects_a_malformed_position_naming_the_field(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1", gear=8)])
    result = run("moves", str(position), "--car", "x", "--roll", "3")
    assert result.exit_code == 1
    output = flat(result.output)
    assert "cars[0].gear: Gang muss 0 bis 6 sein" in output
    assert "cars[0].gear: gear must be 0 to 6" in output


# --- moves check -------------------------------------------------------------------------------


def test_check_accepts_a_legal_move(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "3", "--path", "A2,A3,A4")
    assert result.exit_code == 0, result.output
    assert "legal move" in result.stdout
    result = run(
        "moves",
        "check",
        str(position),
        "--car",
        "x",
        "--roll",
        "3",
        "--path",
        "a2, a3, a4",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["legal"] is True
    assert [o["path"] for o in data["options"]] == [["A2", "A3", "A4"]]


def test_check_names_the_rule_a_zig_zag_breaks(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "B1")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "3", "--path", "A2,A3,B3")
    assert result.exit_code == 1
    output = flat(result.output)
    assert "Masters 7-2-3/7-2-4" in output
    assert "Zickzack" in output and "zig-zag" in output


def test_check_names_the_rule_for_an_occupied_space(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1"), car("y", "A2")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "3", "--path", "A2,A3,A4")
    assert result.exit_code == 1
    output = flat(result.output)
    assert "Masters 7-0-1" in output
    assert "besetzt" in output and "taken" in output


def test_check_names_the_rule_for_a_lane_change_after_overshooting(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A8"), car("y", "A10")])
    result = run(
        "moves", "check", str(position), "--car", "x", "--roll", "3", "--path", "A9,B9,B10"
    )
    assert result.exit_code == 1
    assert "Masters 10-2-1" in flat(result.output)


def test_check_refuses_a_path_against_the_arrows(tmp_path: Path) -> None:
    # Masters 7-1-4: A5 does not follow A1 (see var/movement-bugs.md, bug 2)
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "2", "--path", "A5,A6")
    assert result.exit_code == 1
    assert "7-1-4" in flat(result.output)


def test_check_refuses_a_path_of_the_wrong_length(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "3", "--path", "A2,A3")
    assert result.exit_code == 1
    output = flat(result.output)
    assert "Masters 11/12/18" in output
    assert "passen nicht zu 3 zu fahrenden Feldern" in output
    assert "do not fit the 3 spaces to move" in output


def test_a_wrong_length_names_the_distance_not_the_die(tmp_path: Path) -> None:
    """Was "do not fit the roll (10)" after ``--roll 9``: the light sprinter's +1 is in it."""
    result = run("moves", "check", str(EXAMPLES / "monaco-midrace.json"), "--car", "alonso",
                 "--roll", "9", "--path", "B21,B22,B23", "--lang", "en")
    assert result.exit_code == 1
    assert "do not fit the 10 spaces to move (the roll with profile" in flat(result.output)


def test_check_names_an_unknown_space_in_the_path(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    result = run("moves", "check", str(position), "--car", "x", "--roll", "2", "--path", "A2,Z9")
    assert result.exit_code == 1
    assert "path[1]" in flat(result.output)


# --- position render --------------------------------------------------------------------------


def test_render_draws_the_position_with_options(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1"), car("y", "B5")], dangerous=["A3"])
    svg = tmp_path / "board.svg"
    result = run("position", "render", str(position), "-o", str(svg), "--car", "x", "--roll", "3")
    assert result.exit_code == 0, result.output
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and text.rstrip().endswith("</svg>")
    options = json.loads(run("moves", str(position), "--car", "x", "--roll", "3", "--json").stdout)
    assert f"{len(options)} Züge markiert" in result.stdout


def test_render_without_a_car_marks_nothing(tmp_path: Path) -> None:
    svg = tmp_path / "plain.svg"
    result = run("position", "render", str(EXAMPLES / "monaco-grid.json"), "-o", str(svg))
    assert result.exit_code == 0, result.output
    assert "0 Züge markiert" in result.stdout
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_render_needs_a_roll_for_a_car(tmp_path: Path) -> None:
    position = write(tmp_path, [car("x", "A1")])
    svg = tmp_path / "board.svg"
    result = run("position", "render", str(position), "-o", str(svg), "--car", "x")
    assert result.exit_code == 1
    assert "--car needs --roll" in flat(result.output)
    assert not svg.exists()
