"""``moves`` and ``position render`` refuse questions the race could never ask (issue 21).

A roll the chosen gear's die cannot show (Masters 6-1-1: gear 1 rolls 1–2, gear 6 21–30), a
car that has finished its laps (Masters 21) and a car whose body, engine or road holding is at
0 (Dresden Verschleiß, Masters 5-1: the last point crossed out retires the car) were answered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()
MIDRACE = Path(__file__).resolve().parents[2] / "examples/positions/monaco-midrace.json"


def run(*args: str, lang: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "300", "RENNLEITUNG_LANG": lang})


def position(tmp_path: Path, **car: Any) -> str:
    data = json.loads(MIDRACE.read_text(encoding="utf-8"))
    data["cars"][0].update(car)  # alonso, gear 4, lap 1 of 3
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


ZERO = {"tyres": 0, "brakes": 0, "fuel": 0, "body": 0, "engine": 0, "road_holding": 0, "box": 0}

CASES = {
    "gear 1, roll 30": ({}, ["--gear", "1", "--roll", "30"], {
        "de": ["Wurf 30 zeigt der Würfel des 1. Gangs nicht (1–2)", "Masters 6-1-1"],
        "en": ["the die of gear 1 cannot show a roll of 30 (1–2)", "Masters 6-1-1"]}),
    "gear 6, roll 1": ({}, ["--gear", "6", "--roll", "1"], {
        "de": ["Wurf 1 zeigt der Würfel des 6. Gangs nicht (21–30)"],
        "en": ["the die of gear 6 cannot show a roll of 1 (21–30)"]}),
    "current gear 4, roll 30": ({}, ["--roll", "30"], {
        "de": ["des 4. Gangs nicht (7–12)"], "en": ["the die of gear 4 cannot show"]}),
    "laps done": ({"laps": 3}, ["--roll", "9"], {
        "de": ["hat seine 3 Runden schon beendet", "alonso.laps (Masters 21)"],
        "en": ["has already finished its 3 laps", "alonso.laps (Masters 21)"]}),
    "every wear area 0": ({"wear": ZERO}, ["--roll", "9"], {
        "de": ["0: mit dem letzten Punkt ist das Auto ausgeschieden", "Masters 5-1"],
        "en": ["0: losing the last point puts the car out", "alonso.wear.body"]}),
    "road holding 0": ({"wear": {**ZERO, "tyres": 4, "brakes": 3, "fuel": 3, "body": 3,
                                 "engine": 3}}, ["--roll", "9"], {
        "de": ["alonso.wear.road_holding (Dresden Verschleiß; Masters 5-1)"],
        "en": ["alonso.wear.road_holding (Dresden Verschleiß; Masters 5-1)"]}),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("case", list(CASES))
def test_moves_refuses_what_no_race_asks(tmp_path: Path, case: str, lang: str) -> None:
    car, args, words = CASES[case]
    path = position(tmp_path, **car)
    for command in (["moves", path], ["moves", "check", path, "--path", "B21"],
                    ["position", "render", path, "-o", str(tmp_path / "p.svg")]):
        result = run(*command, "--car", "alonso", *args, lang=lang)
        assert result.exit_code == 1, (command, result.output)
        text = " ".join(result.output.split())
        for fragment in words[lang]:
            assert fragment in text, (command, text)


@pytest.mark.parametrize(("gear", "roll"), [("1", "1"), ("1", "2"), ("6", "21"), ("6", "30"),
                                            ("4", "7"), ("4", "12")])
def test_every_face_of_the_chosen_die_is_answered(gear: str, roll: str) -> None:
    result = run("moves", str(MIDRACE), "--car", "alonso", "--gear", gear, "--roll", roll,
                 "--json", lang="en")
    assert result.exit_code == 0, result.output


def test_a_car_rolling_out_after_its_engine_failed_still_moves(tmp_path: Path) -> None:
    """Masters 16-0-6: engine 0 is how such a car rolls on to the line."""
    wear = {"tyres": 4, "brakes": 3, "fuel": 3, "body": 3, "engine": 0, "road_holding": 2,
            "box": 0}
    path = position(tmp_path, wear=wear, status="rolling_out", gear=3)
    result = run("moves", path, "--car", "alonso", "--roll", "5", "--json", lang="en")
    assert result.exit_code == 0, result.output
