"""Amounts on a sheet have an upper bound, only ASCII digits are numbers, a salary must be on
the account, and settings and teams are checked (issue 21).

A salary of 12.000.000.000.000.000 was "fine", won the driver and left the team at −12
quadrillion; Arabic-Indic and full-width digits were read as numbers; a settings file with an
unknown key in a race was a traceback; ``--teams ,`` made a game without teams.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.turbo import app
from rennleitung.turbo2000.amounts import MAX_AMOUNT, parse_amount
from rennleitung.turbo2000.config import GameConfig, config_from_dict
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.sheet import parse_sheet

from .helpers import game, notes, run, sheet

runner = CliRunner()
HEAD = "Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\n"


def problems(line: str) -> list[tuple[int, str, str, str]]:
    parsed = parse_sheet(HEAD + line + "\n", GameConfig())
    return [(p.line, p.where, p.de, p.en) for p in parsed.problems]


@pytest.mark.parametrize("line", [
    "Vertrag: Lauda 12.000.000.000.000.000",
    "Training: Lauda 2.000.000.000",
    "an alle: Biete 2 Ferrari-W12 zu 650.000.000.000",
    "an Honda: Kaufe 99999999999 Honda-M12 zu 300.000",
    "Bau R: 5.000.000.000",
    "Entwicklung M: 1000000000000",
    "Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R10 d=1 e=2 Q=30000000000 A=20/20/20",
])
def test_a_number_above_the_bound_leaves_the_line_out(line: str) -> None:
    found = problems(line)
    assert [(n, de[:25], en[:28]) for n, _, de, en in found] == [
        (4, "Zahl über der Obergrenze ", "number above the upper bound")]
    assert "1.000.000.000" in found[0][3]


def test_the_bound_itself_is_a_number() -> None:
    assert problems(f"Vertrag: Lauda {MAX_AMOUNT:,}".replace(",", ".")) == []


@pytest.mark.parametrize(("line", "digit"), [
    ("Vertrag: Lauda ١٠.٠٠٠", "ARABIC-INDIC DIGIT ONE"),
    ("Vertrag: Lauda １０.０００", "FULLWIDTH DIGIT ONE"),
    ("Bau R: ۲۰", "EXTENDED ARABIC-INDIC DIGIT TWO"),
    ("Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R10 d=1 e=2 Q=٣0 A=20/20/20",
     "ARABIC-INDIC DIGIT THREE"),
    ("Runde: ١", "ARABIC-INDIC DIGIT ONE"),
])
def test_only_ascii_digits_are_numbers(line: str, digit: str) -> None:
    found = problems(line)
    assert found and found[0][0] == 4
    assert digit in found[0][2] and "keine Ziffer 0–9" in found[0][2]
    assert "is not a digit 0–9" in found[0][3]


def test_parse_amount_reads_ascii_digits_only() -> None:
    assert parse_amount("1.200.000") == 1_200_000
    assert parse_amount("١٢٠٠") is None and parse_amount("１２") is None
    assert parse_amount("12\n") == 12 and parse_amount("1.2") is None


def test_free_text_may_hold_any_digits() -> None:
    assert problems("Kontakt: Ruf an: ٠١٢٣ oder 0123456789012345") == []


def test_a_salary_above_the_balance_is_refused_and_the_money_stays() -> None:
    state = game("Ferrari", "Honda")
    money = state.teams["Ferrari"].money + GameConfig().sponsor_money  # at step 5
    written = f"{money + 1_000:,}".replace(",", ".")
    outcome = run(state, sheet(state, "Ferrari", f"Vertrag: Lauda {written}"),
                  sheet(state, "Honda", "Vertrag: Lauda 20.000"))
    lauda = outcome.state.drivers["Lauda"]
    assert (lauda.team, lauda.salary) == ("Honda", 20_000)
    said = notes(outcome, "Ferrari")
    assert "über dem Kontostand" in said and "above the balance" in said
    assert outcome.state.teams["Ferrari"].money >= 0


@pytest.mark.parametrize("lang", ["de", "en"])
def test_turbo_check_names_the_line(tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "g"
    assert runner.invoke(app, ["new", str(folder), "--teams", "Ferrari:rosso,Honda"]).exit_code == 0
    written = tmp_path / "sheet.txt"
    written.write_text(HEAD + "Vertrag: Lauda 12.000.000.000.000.000\nBau R: ١٠\n",
                       encoding="utf-8")
    result = runner.invoke(app, ["check", str(written), "--game", str(folder)],
                           env={"RENNLEITUNG_LANG": lang, "COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    words = {"de": ("Zahl über der Obergrenze", "keine Ziffer 0–9"),
             "en": ("number above the upper bound", "is not a digit 0–9")}[lang]
    assert f"{written}:4:" in result.output and f"{written}:5:" in result.output
    for word in words:
        assert word in result.output


# --- settings and teams -----------------------------------------------------------------------


@pytest.mark.parametrize(("data", "where"), [
    ({"races": [{"code": "F1", "bogus": 1}]}, "races[0].bogus"),
    ({"races": [{"code": "F1"}]}, "races[0].series"),
    ({"races": [7]}, "races[0]"),
    ({"races": []}, "races"),
    ({"build_costs": [1, 2]}, "build_costs"),
    ({"storage_fee": {"W": "5000"}}, "storage_fee.W"),
    ({"start_money": 10**15}, "start_money"),
    ({"start_money": True}, "start_money"),
    ({"calendar": [[1]]}, "calendar[0][0]"),
    ({"vote_tie_ends_game": 1}, "vote_tie_ends_game"),
])
def test_settings_of_the_wrong_shape_are_refused_naming_the_key(data: dict[str, object],
                                                                  where: str) -> None:
    with pytest.raises(TurboError) as caught:
        config_from_dict(data)
    assert caught.value.where == f"config.json: {where}"


@pytest.mark.parametrize("key", ["max_push", "risk_dice", "qualifying_full_grid_push"])
@pytest.mark.parametrize("value", [-1, 10**9])
def test_settings_that_count_dice_are_bounded(key: str, value: int) -> None:
    # with risk_model "sixes" a car rolls a die per step: a billion would hang the evaluation
    # (rules version 5 rolls qualifying_full_grid_push dice for a car that is not pushed)
    with pytest.raises(TurboError) as caught:
        config_from_dict({"risk_model": "sixes", key: value})
    assert caught.value.where == f"config.json: {key}"
    assert "zwischen 0 und 100" in caught.value.de and "between 0 and 100" in caught.value.en


@pytest.mark.parametrize("lang", ["de", "en"])
def test_turbo_new_with_an_unknown_key_in_a_race_is_refused(tmp_path: Path, lang: str) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"races": [{"code": "F1", "series": "formel1", "name": "GP",
                                             "sections": 3, "grid": 12, "prizes": [1],
                                             "laps": 3}]}), encoding="utf-8")
    result = runner.invoke(app, ["new", str(tmp_path / "g"), "--teams", "A,B", "--config",
                                 str(config)], env={"RENNLEITUNG_LANG": lang, "COLUMNS": "200"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "races[0].laps" in result.output
    assert ("unbekannter Schlüssel" if lang == "de" else "unknown key") in result.output


@pytest.mark.parametrize(("teams", "lang", "words"), [
    (",", "de", "eine Partie braucht 1 bis 100 Rennställe, nicht 0"),
    (" , ,", "en", "a game needs 1 to 100 teams, not 0"),
])
def test_a_game_without_teams_is_refused(tmp_path: Path, teams: str, lang: str,
                                         words: str) -> None:
    result = runner.invoke(app, ["new", str(tmp_path / "g"), "--teams", teams],
                           env={"RENNLEITUNG_LANG": lang, "COLUMNS": "200"})
    assert result.exit_code == 1 and words in result.output
    assert not (tmp_path / "g").exists()
