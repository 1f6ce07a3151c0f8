"""Races run here on any board (a track file), with the strongest bots by default, and outputs
checked before anything is driven or stored."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from test_run_race import league_cli, setup_season, stored
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de import builtin_tracks

runner = CliRunner()
SHORT = Path(builtin_tracks.__file__).parent / "tracks" / "short.toml"


def own_board(tmp_path: Path) -> Path:
    board = tmp_path / "unsere-strecke.toml"
    shutil.copy(SHORT, board)
    return board


def test_run_qualifying_and_race_on_a_track_file_with_the_strongest_bots(tmp_path: Path) -> None:
    board = own_board(tmp_path)
    db = setup_season(tmp_path)
    code, out, err = league_cli(db, "run-qualifying", "Dresden", "1", "--track", str(board),
                                "--seed", "21")
    assert code == 0, err
    assert out.index("seed: 21") < out.index("box choice")  # the seed comes first
    code, out, err = league_cli(db, "run-race", "Dresden", "1", "--track", str(board),
                                "--seed", "9", "--laps", "1")
    assert code == 0, err
    by_default = stored(db).race(1)
    assert by_default is not None and by_default.rounds
    # The same race with --bots strong named: the default is the strongest bot.
    other = tmp_path / "other"
    other.mkdir()
    db2 = setup_season(other)
    league_cli(db2, "run-qualifying", "Dresden", "1", "--track", str(board), "--seed", "21")
    code, _, err = league_cli(db2, "run-race", "Dresden", "1", "--track", str(board),
                              "--seed", "9", "--laps", "1", "--bots", "strong")
    assert code == 0, err
    assert stored(db2).race(1) == by_default


def test_a_record_into_a_missing_folder_is_refused_before_the_race(tmp_path: Path) -> None:
    db = setup_season(tmp_path)
    record = tmp_path / "missing" / "race.json"
    code, _, err = league_cli(db, "run-race", "Dresden", "1", "--track", "short",
                              "--record", str(record))
    assert code == 1 and "--record" in err and "does not exist" in err
    assert stored(db).race(1) is None


def test_blitz_run_on_a_track_file(tmp_path: Path) -> None:
    board = own_board(tmp_path)
    match = tmp_path / "match.json"
    assert runner.invoke(app, ["blitz", "new", str(match), "Anna", "Ben", "--seed", "5"]
                         ).exit_code == 0
    result = runner.invoke(app, ["blitz", "run", str(match), "--track", str(board),
                                 "--now", "1000", "--record", str(tmp_path / "run.json")])
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(match.read_text(encoding="utf-8"))["runs"]) == 1
    recorded = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert recorded["config"]["track"] == str(board)  # the record names the file it ran on
    missing = runner.invoke(app, ["blitz", "run", str(match), "--record",
                                  str(tmp_path / "no" / "run.json")])
    assert missing.exit_code == 1 and "--record" in missing.stderr
    assert len(json.loads(match.read_text(encoding="utf-8"))["runs"]) == 1
