"""Every command that reads a track file refuses what ``track check`` refuses, with its messages.

``race simulate`` raced on a board ``track check`` rejected with 13 errors (issue 21): building
a track asks less than checking it (a corner's flag, the drawing, the grid). Now every reader
goes through ``trackcheck.checked_track``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.trackcheck import TrackRefused, check_track, checked_track
from rennleitung.play.engine import uploaded_track

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SHORT = ROOT / "src/rennleitung/formula_de/tracks/short.toml"
MIDRACE = ROOT / "examples/positions/monaco-midrace.json"


def bad_text() -> str:
    """short.toml with corner 1's flag wrong: it builds, but ``track check`` rejects it
    (Masters 7-1-1: the flag must tell the truth)."""
    return SHORT.read_text(encoding="utf-8").replace("flag = [5, 3]", "flag = [9, 9]", 1)


MESSAGE = {
    "de": ("Strecke abgelehnt, 1 Fehler", "Zeile 28, segment[2].flag: Kurve 1"),
    "en": ("track refused, 1 error", "line 28, segment[2].flag: corner 1"),
}


def run(*args: str, lang: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "300", "RENNLEITUNG_LANG": lang})


def test_the_bad_track_builds_but_the_check_rejects_it() -> None:
    errors = [p for p in check_track(bad_text(), "bad") if p.severity == "error"]
    assert [(p.kind, p.line, p.key) for p in errors] == [("flag", 28, "segment[2].flag")]
    with pytest.raises(TrackRefused) as caught:
        checked_track(bad_text(), "bad", "bad.toml")
    assert caught.value.where == "bad.toml"
    assert errors[0].message_en in caught.value.en and errors[0].message_de in caught.value.de


def test_warnings_do_not_refuse_and_the_board_keeps_its_text() -> None:
    text = SHORT.read_text(encoding="utf-8").replace("turn = 88", "turn = 10", 1)
    assert {p.severity for p in check_track(text, "short")} == {"warning"}
    assert checked_track(text, "short").source == text


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    board = tmp_path / "bad.toml"
    board.write_text(bad_text(), encoding="utf-8")
    position = json.loads(MIDRACE.read_text(encoding="utf-8"))
    position["track"] = "bad.toml"
    (tmp_path / "position.json").write_text(json.dumps(position), encoding="utf-8")
    pos = str(tmp_path / "position.json")
    match = tmp_path / "match.json"
    assert run("blitz", "new", str(match), "anna", "bert", "--seed", "3",
               lang="en").exit_code == 0
    db = str(tmp_path / "league.sqlite")
    assert run("league", "create", "Liga", "--db", db, lang="en").exit_code == 0
    record = tmp_path / "race.json"
    assert run("race", "simulate", "--track", "short", "--cars", "2", "--laps", "1", "--seed",
               "1", "--record", str(record), lang="en").exit_code == 0
    return {
        "race simulate": ["race", "simulate", "--track", str(board), "--cars", "2"],
        "race verify": ["race", "verify", str(record), "--track", str(board)],
        "moves": ["moves", pos, "--car", "alonso", "--roll", "5"],
        "position render": ["position", "render", pos, "-o", str(tmp_path / "p.svg")],
        "track show": ["track", "show", str(board)],
        "track render": ["track", "render", str(board), "-o", str(tmp_path / "t.svg")],
        "blitz run": ["blitz", "run", str(match), "--track", str(board), "--now", "0"],
        "league run-race": ["league", "run-race", "Liga", "1", "--track", str(board),
                            "--db", db],
        "league run-qualifying": ["league", "run-qualifying", "Liga", "1", "--track",
                                  str(board), "--db", db],
    }


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_command_that_reads_a_track_refuses_it(tmp_path: Path, lang: str) -> None:
    for name, args in _commands(tmp_path).items():
        result = run(*args, lang=lang)
        assert result.exit_code == 1, (name, result.output)
        assert "Traceback" not in result.output, name
        for fragment in MESSAGE[lang]:
            assert fragment in result.output, (name, result.output)


def test_the_check_agrees_with_the_command(tmp_path: Path) -> None:
    board = tmp_path / "bad.toml"
    board.write_text(bad_text(), encoding="utf-8")
    checked = run("track", "check", str(board), lang="en")
    assert checked.exit_code == 1 and "corner 1: the flag says L9/C9" in checked.output
    simulated = run("race", "simulate", "--track", str(board), lang="en")
    assert "corner 1: the flag says L9/C9" in simulated.output


def test_a_track_uploaded_to_the_server_is_checked() -> None:
    with pytest.raises(RennleitungError) as caught:
        uploaded_track("bad", bad_text())
    assert "track refused" in caught.value.en and "segment[2].flag" in caught.value.en
    assert uploaded_track("bad", bad_text(), stored=True).source == bad_text()
