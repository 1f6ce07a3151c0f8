"""The example sheets and settings in examples/turbo2000 stay valid (or, on purpose, invalid)."""

from __future__ import annotations

import json
from pathlib import Path

from rennleitung.turbo2000.config import config_from_dict
from rennleitung.turbo2000.sheet import parse_sheet

from .helpers import CONFIG, game, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "turbo2000"


def _text(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def test_example_config_is_the_default() -> None:
    assert config_from_dict(json.loads(_text("config.json"))) == CONFIG


def test_example_sheets_are_clean_and_evaluate_without_rejections() -> None:
    state = game("Ferrari", "Honda", "Lotus")
    state.teams["Ferrari"].password, state.teams["Honda"].password = "rosso", "ichi"
    for name in ("ferrari-runde-1.txt", "honda-runde-1.txt"):
        assert parse_sheet(_text(name), CONFIG).problems == []
    outcome = run(state, _text("ferrari-runde-1.txt"), _text("honda-runde-1.txt"))
    assert "Zeile" not in outcome.team_reports["Ferrari"]
    # only Honda's blank contract is outbid (on purpose: it then gets another driver); every
    # purchase, the factory and the building fit the start money
    assert "Ferrari" not in outcome.rejections
    assert [(p.line, p.field) for p in outcome.rejections["Honda"]] == [(5, "Lauda")]
    assert "Formel I: Lauda" in outcome.team_reports["Ferrari"]
    assert outcome.state.factory("Honda", "M") is not None
    assert any(d.team == "Honda" for d in outcome.state.drivers.values())  # blank contract


def test_faulty_example_shows_one_problem_per_bad_line() -> None:
    problems = parse_sheet(_text("fehlerhaft.txt"), CONFIG).problems
    assert sorted({p.line for p in problems}) == [5, 6, 7, 8, 9, 10, 11]
