"""The settings of a June 1996 start sheet (issue 28): team-name rules, a reserve team name for a
clash, 24 free drivers, the one-round "Direktvertrag" (examples/turbo2000/start-1996.json)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.turbo import app
from rennleitung.turbo2000.config import GameConfig, new_game_config
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.intake import check_sheet

from .helpers import CONFIG, run, sheet

runner = CliRunner()
START_1996 = Path(__file__).parents[2] / "examples" / "turbo2000" / "start-1996.json"


def test_a_taken_name_falls_back_to_the_reserve_name(tmp_path: Path) -> None:
    game = tmp_path / "game"
    result = runner.invoke(app, ["new", str(game), "--teams",
                                 "Ferrari:rosso,ferrari/Scuderia:nero", "--config",
                                 str(START_1996)])
    assert result.exit_code == 0, result.output
    state = json.loads((game / "rounds" / "001" / "state.json").read_text())
    assert sorted(team["name"] for team in state["teams"]) == ["Ferrari", "Scuderia"]
    assert len(state["drivers"]) == 24  # the 1996 start: 24 free drivers, whatever the field
    twice = runner.invoke(app, ["new", str(tmp_path / "g2"), "--teams", "Ferrari,Ferrari"])
    assert twice.exit_code == 1 and "team 'Ferrari' twice" in twice.output
    assert "Rennstall 'Ferrari' doppelt" in twice.output


def test_name_rules_are_settings() -> None:
    for bad, de, en in (("Scuderia-Rot", "Buchstaben und Ziffern", "letters and digits"),
                        ("Vierzehnzeichen", "höchstens 13", "at most 13"),
                        ("TURBO", "vorbehalten", "reserved for the game master")):
        with pytest.raises(TurboError) as error:
            new_game([(bad, "x")], GameConfig())
        assert de in error.value.de and en in error.value.en
    loose = replace(GameConfig(), team_name_letters_digits=False, team_name_max_length=20)
    assert "Équipe_Ligier" in new_game([("Équipe_Ligier", "x")], loose).teams
    with pytest.raises(TurboError) as error:  # a hyphen would break "Maker-W12"
        new_game([("Team-1", "x")], loose)
    assert "'-'" in error.value.en
    strict = replace(GameConfig(), reserve_team_names=False)
    with pytest.raises(TurboError) as error:
        new_game([("Ferrari", "x"), ("Ferrari", "y")], strict, ["", "Scuderia"])
    assert "reserve team names are not used" in error.value.en


def test_a_joining_team_takes_its_reserve_name_when_the_name_is_taken() -> None:
    state = new_game([("Ferrari", "ferrari"), ("Honda", "honda")], CONFIG)
    text = "Einstieg\nRennstall: Honda\nReserve: Minardi\nPasswort: m\nRunde: 1\n"
    assert check_sheet(text, state, CONFIG).problems == []
    outcome = run(state, text)
    assert "Minardi" in outcome.state.teams
    assert outcome.state.teams["Honda"].password == "honda"
    plain = run(state, "Einstieg\nRennstall: Honda\nPasswort: m\nRunde: 1\n")
    assert "Minardi" not in plain.state.teams and len(plain.state.teams) == 2


def test_the_one_round_direktvertrag_gives_an_outbid_team_another_free_driver() -> None:
    config = new_game_config(json.loads(START_1996.read_text()))
    state = new_game([("Ferrari", "ferrari"), ("Honda", "honda")], config)
    driver = sorted(state.drivers)[0]
    sheets = [sheet(state, "Ferrari", f"Vertrag: {driver} 30.000"),
              sheet(state, "Honda", f"Vertrag: {driver} 20.000")]
    direct = run(state, *sheets, config=config).state
    assert direct.drivers[driver].team == "Ferrari"
    hondas = [d for d in direct.drivers.values() if d.team == "Honda"]
    assert len(hondas) == 1 and hondas[0].salary == 20_000
    usual = run(state, *sheets, config=replace(config, direct_contract_round=0)).state
    assert not any(d.team == "Honda" for d in usual.drivers.values())
    later = replace(config, direct_contract_round=2)  # one round only: round 1 is as usual
    assert not any(d.team == "Honda" for d in run(state, *sheets, config=later).state
                   .drivers.values())
