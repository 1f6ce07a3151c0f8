"""`rennleitung blitz` with the time passed in: a whole match, and its refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.league.blitz_codec import BlitzSession, session_from_json, session_to_json
from rennleitung.league.blitz_match import BlitzMatch
from rennleitung.league.chess_clock import ChessClock

runner = CliRunner()


def blitz(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["blitz", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_match_with_simulated_time(tmp_path: Path) -> None:
    file = str(tmp_path / "match.json")
    assert blitz("new", file, "Ada", "Bob", "--minutes", "1", "--seed", "3")[0] == 0
    code, out, _ = blitz("start", file, "--now", "0")
    assert code == 0 and "Ada on pole" in out
    code, out, _ = blitz("press", file, "Ada", "--now", "20")
    assert "Ada: 0:40.0" in out and "on the move: Bob" in out
    # Bob's 60 s run out at 80; Ada drives on alone from there.
    code, out, _ = blitz("status", file, "--now", "95")
    assert "Bob: 0:00.0 (Zeit abgelaufen / time up)" in out and "Ada: 0:25.0" in out
    assert "on the move: Ada" in out
    code, out, _ = blitz("status", file, "--now", "200")
    assert "the farther car wins" in out
    # at 95 Ada's clock still runs: no result by distance yet (her car may still finish)
    code, _, err = blitz("result", file, "--distance", "Ada=20", "--distance", "Bob=30",
                         "--now", "95")
    assert code == 1 and "Ada's clock is still running (0:25.0)" in err
    code, out, _ = blitz("result", file, "--distance", "Ada=20", "--distance", "Bob=30",
                         "--now", "200")
    assert "Bob wins the run (Ada 0 : 1 Bob)" in out
    code, out, _ = blitz("start", file, "--now", "300")
    assert "Bob on pole" in out
    blitz("result", file, "--distance", "Ada=9", "--distance", "Bob=9")
    code, out, _ = blitz("start", file, "--now", "400")
    assert "run 2: Bob on pole" in out  # a drawn run is driven again
    blitz("result", file, "--distance", "Ada=9", "--distance", "Bob=30", "--finished", "Ada")
    code, out, _ = blitz("start", file, "--now", "500")
    assert "side by side" in out
    code, out, _ = blitz("result", file, "--distance", "Ada=1", "--distance", "Bob=2")
    assert "Bob wins the match" in out


def test_blitz_refusals(tmp_path: Path) -> None:
    file = str(tmp_path / "match.json")
    code, _, err = blitz("new", file, "Ada", "Bob", "--minutes", "0")
    assert code == 1 and "--minutes" in err
    blitz("new", file, "Ada", "Bob")
    code, _, err = blitz("press", file, "Ada", "--now", "1")
    assert code == 1 and "no run started" in err and "kein Lauf" in err
    code, _, err = blitz("result", file, "--distance", "Ada=1", "--distance", "Bob=2")
    assert code == 1 and "no run started" in err
    blitz("start", file, "--now", "0")
    code, _, err = blitz("start", file, "--now", "1")
    assert code == 1 and "still open" in err
    code, _, err = blitz("press", file, "Bob", "--now", "1")
    assert code == 1 and "not Bob's move" in err
    code, _, err = blitz("result", file, "--distance", "Ada=x", "--distance", "Bob=2")
    assert code == 1 and "--distance" in err
    code, _, err = blitz("status", str(tmp_path / "none.json"))
    assert code == 1 and "none.json" in err
    Path(file).write_text('{"players": []}', encoding="utf-8")
    code, _, err = blitz("status", file)
    assert code == 1 and "damaged" in err and "beschädigt" in err


def test_session_codec_round_trip() -> None:
    match = BlitzMatch(("Ada", "Bob"))
    first = match.next_start(random.Random(0))
    match = match.with_run(first, {"Ada": 3, "Bob": 4})
    match = match.with_run(match.next_start(random.Random(0)), {"Ada": 5, "Bob": 4})
    third = match.next_start(random.Random(0))
    clock = ChessClock(("Ada", "Bob"), 90.0).start(third.first_to_move, 10.0).press(
        third.first_to_move, 12.5
    )
    session = BlitzSession(match, 90.0, 7, third, clock)
    assert session_from_json(json.loads(json.dumps(session_to_json(session)))) == session
