"""A Blitz match file names exactly two players (Dresden FD Blitz); one with twenty was read as
its first two (issue 21)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()


def run(*args: str, lang: str = "en") -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "300", "RENNLEITUNG_LANG": lang})


@pytest.mark.parametrize(("players", "lang", "words"), [
    ([f"p{n}" for n in range(20)], "en", "FD Blitz has exactly two players (names up to 60 "
                                         "characters), the file names 20"),
    (["anna"], "de", "FD Blitz hat genau zwei Spieler (Namen bis 60 Zeichen), die Datei nennt 1"),
    (["anna", 7], "en", "the file names 2"),
    (["anna", "b" * 61], "de", "die Datei nennt 2"),
    ("anna,bert", "en", "the file names 0"),
])
def test_a_match_file_without_exactly_two_players_is_refused(
    tmp_path: Path, players: Any, lang: str, words: str
) -> None:
    path = tmp_path / "match.json"
    assert run("blitz", "new", str(path), "anna", "bert", "--seed", "3").exit_code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["players"] = players
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in (["blitz", "status", str(path), "--now", "0"],
                    ["blitz", "start", str(path), "--now", "0"]):
        result = run(*command, lang=lang)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert words in " ".join(result.output.split())
        assert "players (Dresden FD Blitz)" in result.output


def test_a_new_match_with_a_name_too_long_is_refused() -> None:
    result = run("blitz", "new", "/tmp/never-written.json", "anna", "b" * 61)
    assert result.exit_code == 1 and "names up to 60 characters" in result.output
