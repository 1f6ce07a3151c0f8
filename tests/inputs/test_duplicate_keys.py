"""A key twice in one JSON object is refused in every file kind, naming the key and its line.

Readers differ in which of two equal keys they keep (Python the last, many others the first):
a record with two ``"name"`` keys showed one driver to one reader and another to the next, and
``race verify`` called it honest (issue 21).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.datastructures import FormData
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.textinput import load_json
from rennleitung.web.forms import decision

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
MIDRACE = ROOT / "examples/positions/monaco-midrace.json"


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def twice(text: str, old: str, new: str) -> tuple[str, int]:
    """``text`` with ``new`` (a repeated key) inserted after the first ``old``; and its line."""
    at = text.index(old) + len(old)
    return text[:at] + new + text[at:], text.count("\n", 0, at) + 1 + new.count("\n", 0, 1)


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ('{"a": 1, "a": 2}', "a", 1),
        ('{"a": {"b": 1,\n"c": [{"x": "{\\"b\\": 1}",\n "x": 2}]}}', "x", 3),
        ('[{"name": "A"},\n {"name": "B",\n\n  "name": "C"}]', "name", 4),
    ],
)
def test_load_json_names_the_repeated_key_and_its_line(text: str, key: str, line: int) -> None:
    with pytest.raises(RennleitungError) as caught:
        load_json(text, "f.json")
    assert f'"{key}"' in caught.value.de and f'"{key}"' in caught.value.en
    assert "doppelt" in caught.value.de and "twice" in caught.value.en
    assert caught.value.where == f"f.json, Zeile/line {line}"


def test_equal_keys_in_different_objects_are_fine() -> None:
    assert load_json('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}', "f") == {
        "a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "race.json"
    result = run("race", "simulate", "--track", "short", "--cars", "2", "--laps", "1",
                 "--seed", "7", "--record", str(path))
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize(("lang", "words"), [("de", "doppelt"), ("en", "twice")])
def test_a_record_with_two_driver_names_is_refused(tmp_path: Path, lang: str, words: str) -> None:
    path = _record(tmp_path)
    text, line = twice(path.read_text(encoding="utf-8"), '"name": "Alonso",',
                       '\n    "name": "Vettel",')
    path.write_text(text, encoding="utf-8")
    for command in ("verify", "replay"):
        result = run("race", command, str(path), "--lang", lang) if command == "replay" else \
            runner.invoke(app, ["race", command, str(path)],
                          env={"COLUMNS": "200", "RENNLEITUNG_LANG": lang})
        assert result.exit_code == 1, result.output
        assert words in result.output and '"name"' in result.output
        assert str(line) in result.output and "Traceback" not in result.output


def test_a_position_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    text, line = twice(MIDRACE.read_text(encoding="utf-8"), '"round": 14,', ' "round": 15,')
    path = tmp_path / "position.json"
    path.write_text(text, encoding="utf-8")
    result = run("moves", str(path), "--car", "alonso", "--roll", "5", "--lang", "en")
    assert result.exit_code == 1
    assert 'key "round" twice' in result.output and f"line {line}" in result.output


def test_a_blitz_file_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    assert run("blitz", "new", str(path), "anna", "bert", "--seed", "3").exit_code == 0
    text, line = twice(path.read_text(encoding="utf-8"), '"seed": 3,', '\n  "seed": 4,')
    path.write_text(text, encoding="utf-8")
    result = run("blitz", "status", str(path), "--now", "0")
    assert result.exit_code == 1
    assert 'key "seed" twice' in result.output and f"line {line}" in result.output


def test_turbo_settings_and_state_with_a_repeated_key_are_refused(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"start_money": 1,\n "start_money": 2}', encoding="utf-8")
    result = run("turbo", "new", str(tmp_path / "game"), "--teams", "Ferrari,Honda",
                 "--config", str(config), "--lang", "en")
    assert result.exit_code == 1
    assert 'key "start_money" twice' in result.output and "line 2" in result.output
    game = tmp_path / "game2"
    assert run("turbo", "new", str(game), "--teams", "Ferrari,Honda", "--seed", "1").exit_code == 0
    state = next((game / "rounds").glob("*/state.json"))
    data = state.read_text(encoding="utf-8")
    first_key = next(iter(json.loads(data)))
    state.write_text(data.replace("{", '{"' + first_key + '": 0,\n', 1), encoding="utf-8")
    result = run("turbo", "status", str(game), "--lang", "en")
    assert result.exit_code == 1
    assert f'key "{first_key}" twice' in result.output and "line 3" in result.output


def test_a_league_race_file_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "league.sqlite")
    assert run("league", "create", "Liga", "--db", db).exit_code == 0
    race = tmp_path / "race.json"
    race.write_text('{"race": 1,\n"laps": 3,\n"laps": 2, "results": []}', encoding="utf-8")
    result = run("league", "enter-race", "Liga", str(race), "--db", db, "--lang", "en")
    assert result.exit_code == 1
    assert 'key "laps" twice' in result.output and "line 3" in result.output


def test_a_web_decision_with_a_repeated_key_is_refused() -> None:
    with pytest.raises(RennleitungError) as caught:
        decision(FormData([("decision", '{"kind": "turn", "gear": 2, "gear": 6}')]))
    assert '"gear"' in caught.value.en and "line 1" in caught.value.where
