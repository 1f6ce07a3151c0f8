"""`rennleitung league blitz add/show` (issue 27): a match file from `rennleitung blitz` entered
into a league's Blitz records once; a match not yet decided refused naming the field."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_a_decided_match_file_is_entered_once_and_an_open_one_refused(tmp_path: Path) -> None:
    db, file = str(tmp_path / "l.sqlite3"), str(tmp_path / "match.json")
    assert run("league", "create", "S", "--db", db)[0] == 0
    run("blitz", "new", file, "Ada", "Bob", "--seed", "3")
    run("blitz", "start", file, "--now", "0")
    run("blitz", "result", file, "--distance", "Ada=30", "--distance", "Bob=20", "--finished",
        "Ada")
    code, _, err = run("league", "blitz", "add", "S", file, "--board", "oval", "--db", db)
    assert code == 1 and "runs" in err and "not decided" in err and "Traceback" not in err
    run("blitz", "start", file, "--now", "100")
    run("blitz", "result", file, "--distance", "Ada=30", "--distance", "Bob=20", "--finished",
        "Ada")
    code, out, err = run("league", "blitz", "add", "S", file, "--board", "oval",
                         "--date", "2026-12-01", "--db", db)
    assert code == 0, err
    assert "Ada wins 2:0" in out
    code, _, err = run("league", "blitz", "add", "S", file, "--board", "oval", "--db", db)
    assert code == 1 and "already been entered" in err
    code, out, _ = run("league", "blitz", "show", "S", "--json", "--db", db)
    shown = json.loads(out)
    assert [r["driver"] for r in shown["table"]] == ["Ada", "Bob"]
    assert shown["matches"] == [{"seq": 1, "date": "2026-12-01", "board": "oval",
                                 "players": "Ada – Bob", "heats": "Ada, Ada", "winner": "Ada",
                                 "source": "command-line"}]
    code, out, _ = run("league", "blitz", "show", "S", "--lang", "en", "--db", db)
    assert code == 0 and "Match wins" in out and "command line" in out
    code, out, _ = run("league", "export", "S", "--db", db)
    assert json.loads(out)["blitz"][0]["heat_winners"] == ["Ada", "Ada"]
