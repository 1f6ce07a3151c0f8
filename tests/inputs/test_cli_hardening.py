"""The command line refuses what it cannot answer, in one language, with exit code 1 (2 for
wrong usage), and never reads a file outside its place."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
MIDRACE = ROOT / "examples/positions/monaco-midrace.json"
SHORT = ROOT / "src/rennleitung/formula_de/tracks/short.toml"
TEMPLATE = ROOT / "examples/tracks/template.toml"


def run(*args: str, **env: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "200", **env})


def position_with(tmp_path: Path, **changes: Any) -> Path:
    data = json.loads(MIDRACE.read_text(encoding="utf-8"))
    data.update(changes)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("straight = 8\n", "straight = 1000000\n", "segment[1].straight"),
        ("radius = 3.4", "radius = nan", "segment[2].radius"),
        ("radius = 3.4", "radius = 0", "segment[2].radius"),
        ("radius = 3.4", "radius = inf", "segment[2].radius"),
        ("stops = 1", "stops = 1000000000000000000000000000000", "segment[2].stops"),
    ],
)
def test_track_sizes_and_geometry_are_refused(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    track = tmp_path / "big.toml"
    track.write_text(SHORT.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    result = run("track", "check", str(track), "--lang", "en")
    assert result.exit_code == 1
    assert field in result.output


@pytest.mark.parametrize("reference", ["/etc/passwd", "../short.toml", "sub/../../x.toml"])
def test_a_position_cannot_name_a_track_outside_its_folder(tmp_path: Path, reference: str) -> None:
    position = position_with(tmp_path, track=reference)
    result = run("moves", str(position), "--car", "alonso", "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert "track" in result.output and "folder" in result.output


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "t.toml").symlink_to(SHORT)
    position = position_with(tmp_path / "inner", track="t.toml")
    result = run("moves", str(position), "--car", "alonso", "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert "leads out of the folder" in result.output


def test_a_fifo_as_position_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result = run("moves", str(fifo), "--car", "alonso", "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert "not a regular file" in result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--roll", "-5"], "roll of -5"),
        (["--roll", "0"], "roll of 0"),
        (["--roll", "5", "--gear", "7"], "no gear 7"),
    ],
)
def test_moves_refuses_options_out_of_range(args: list[str], needle: str) -> None:
    result = run("moves", str(MIDRACE), "--car", "alonso", *args, "--lang", "en")
    assert result.exit_code == 1
    assert needle in result.output


def test_a_move_for_a_wreck_is_refused(tmp_path: Path) -> None:
    data = json.loads(MIDRACE.read_text(encoding="utf-8"))
    data["cars"][0]["status"] = "wreck"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    car = data["cars"][0]["id"]
    result = run("moves", str(path), "--car", car, "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert "does not move" in result.output


def test_a_negative_round_is_refused(tmp_path: Path) -> None:
    result = run("moves", str(position_with(tmp_path, round=-5)), "--car", "alonso",
                 "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert "round" in result.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [(["--laps", "-1"], "laps"), (["--bots", ","], "no bots"), (["--cars", "0"], "cars")],
)
def test_race_simulate_refuses_options_out_of_range(args: list[str], needle: str) -> None:
    result = run("race", "simulate", "--seed", "1", *args, "--lang", "en")
    assert result.exit_code == 1
    assert needle in result.output


def test_markup_in_a_car_id_is_printed_not_interpreted() -> None:
    result = run("moves", str(MIDRACE), "--car", "[/x]" + "y" * 100_000, "--roll", "5",
                 "--lang", "en")
    assert result.exit_code == 1
    assert "[/x]" in result.output
    assert len(result.output) < 3000


def test_one_language_at_a_time() -> None:
    german = run("moves", str(MIDRACE), "--car", "nobody", "--roll", "5", "--lang", "de")
    english = run("moves", str(MIDRACE), "--car", "nobody", "--roll", "5",
                  RENNLEITUNG_LANG="en")
    assert "kein Auto" in german.output and "no car" not in german.output
    assert "no car" in english.output and "kein Auto" not in english.output
    table = run("track", "check", str(TEMPLATE), "--lang", "de")
    assert table.exit_code == 0 and "in Ordnung" in table.output and "OK" not in table.output


def test_wrong_usage_is_exit_code_2() -> None:
    assert run("moves", str(MIDRACE), "--car", "alonso", "--roll", "x").exit_code == 2
    assert run("track", "show", "monaco", "--lang", "fr").exit_code == 2


def test_an_output_file_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    result = run("track", "render", "short", "-o", str(tmp_path / "no" / "b.svg"), "--lang", "en")
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_the_template_track_races_and_verifies(tmp_path: Path) -> None:
    assert run("track", "check", str(TEMPLATE), "--lang", "en").exit_code == 0
    record = tmp_path / "race.json"
    result = run("race", "simulate", "--track", str(TEMPLATE), "--cars", "3", "--laps", "1",
                 "--seed", "4", "--record", str(record), "--lang", "en")
    assert result.exit_code == 0, result.output
    verified = run("race", "verify", str(record), "--track", str(TEMPLATE), "--lang", "en")
    assert verified.exit_code == 0, verified.output
    assert "honest" in verified.output


def test_position_render_draws_paths_costs_and_a_legend(tmp_path: Path) -> None:
    out = tmp_path / "options.svg"
    result = run("position", "render", str(MIDRACE), "--car", "alonso", "--roll", "9",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "alonso" in svg and "eliminated" in svg
    assert svg.count('stroke-linecap="round" stroke-linejoin="round"') >= 10
