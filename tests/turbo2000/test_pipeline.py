"""The evaluation as a whole: pure, deterministic, replayable; sheets from the right sender."""

from __future__ import annotations

import copy

from rennleitung.turbo2000.config import GameConfig, config_from_dict, config_to_dict
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.intake import check_sheet
from rennleitung.turbo2000.pipeline import evaluate_round
from rennleitung.turbo2000.simulation import bot_round, bot_teams
from rennleitung.turbo2000.state_json import dump_state, load_state

from .helpers import CONFIG, game, notes, run, sheet


def _bot_game_rounds(rounds: int, seed: str) -> list[tuple[str, list[str], str]]:
    """(state before, sheets, state after) for each round, as JSON text."""
    strategies = bot_teams(6)
    state = new_game([(name, name.lower()) for name in sorted(strategies)], CONFIG)
    history = []
    for _ in range(rounds):
        sheets = bot_round(state, strategies, seed, CONFIG)
        outcome = evaluate_round(state, sheets, seed, CONFIG)
        history.append((dump_state(state), sheets, dump_state(outcome.state)))
        state = outcome.state
    return history


def test_replay_from_stored_inputs_gives_identical_states() -> None:
    history = _bot_game_rounds(8, "replay")
    for before, sheets, after in history:
        again = evaluate_round(load_state(before), sheets, "replay", CONFIG)
        assert dump_state(again.state) == after


def test_same_inputs_give_the_same_log_and_reports() -> None:
    state = _bot_game_rounds(3, "s")[-1][2]
    strategies = bot_teams(6)
    loaded = load_state(state)
    sheets = bot_round(loaded, strategies, "s", CONFIG)
    first = evaluate_round(loaded, sheets, "s", CONFIG)
    second = evaluate_round(load_state(state), sheets, "s", CONFIG)
    assert first.log == second.log
    assert first.results_sheet == second.results_sheet
    assert first.team_reports == second.team_reports


def test_another_seed_rolls_other_dice() -> None:
    a = _bot_game_rounds(4, "one")[-1][2]
    b = _bot_game_rounds(4, "two")[-1][2]
    assert a != b


def test_evaluation_does_not_change_its_input() -> None:
    state = _bot_game_rounds(2, "p")[-1][2]
    loaded = load_state(state)
    untouched = copy.deepcopy(loaded)
    evaluate_round(loaded, bot_round(loaded, bot_teams(6), "p", CONFIG), "p", CONFIG)
    assert loaded == untouched


def test_state_json_round_trip() -> None:
    text = _bot_game_rounds(5, "j")[-1][2]
    assert dump_state(load_state(text)) == text


def test_sheet_with_wrong_password_or_round_is_refused() -> None:
    state = game("Ferrari", "Honda")
    wrong = sheet(state, "Ferrari", "Vertrag: Lauda 10.000").replace("ferrari", "falsch")
    late = sheet(state, "Honda", "Vertrag: Piquet 10.000").replace("Runde: 1", "Runde: 2")
    outcome = run(state, wrong, late)
    assert outcome.state.drivers["Lauda"].team is None
    assert outcome.state.drivers["Piquet"].team is None
    assert "falsches Passwort / wrong password" in notes(outcome, "Ferrari")
    assert "Blatt für Runde 2" in notes(outcome, "Honda")


def test_names_in_other_letter_case_mean_the_games_names() -> None:
    state = game("Ferrari", "Honda")
    from .helpers import stock
    stock(state, "Ferrari", "2 Turbo-W8")
    text = "\n".join(["Rennstall: ferrari", "Passwort: ferrari", "Runde: 1",
                      "Vertrag: LAUDA 10.000", "an TURBO: Kaufe turbo-R18 zu 25.000",
                      "Elimination: 2 turbo-W8"])
    outcome = run(state, text)
    ferrari = outcome.state.teams["Ferrari"]
    assert outcome.state.drivers["Lauda"].team == "Ferrari"
    assert sum(ferrari.stock.values()) == 1 and outcome.rejections.get("Ferrari") is None


def test_later_sheet_of_a_team_replaces_the_earlier() -> None:
    state = game("Ferrari", "Honda")
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 10.000"),
                  sheet(state, "Ferrari", "Vertrag: Piquet 10.000"))
    assert outcome.state.drivers["Lauda"].team is None
    assert outcome.state.drivers["Piquet"].team == "Ferrari"
    assert any("ersetzt" in line for line in outcome.log)


def test_check_sheet_names_sender_problems_with_a_game() -> None:
    state = game("Ferrari", "Honda")
    checked = check_sheet("Rennstall: Tyrrell\nPasswort: x\nRunde: 1\n", state, CONFIG)
    assert "Tyrrell" in checked.problems[0].de and "not in this game" in checked.problems[0].en
    assert check_sheet("Rennstall: Tyrrell\nPasswort: x\nRunde: 1\n", None, CONFIG).problems == []


def test_year_end_adds_two_and_rolls_contracts_over() -> None:
    state = game("Ferrari", "Honda")
    state.round = 6
    lauda = state.drivers["Lauda"]
    lauda.team, lauda.salary, lauda.next_team, lauda.next_salary = "Ferrari", 1, "Honda", 2
    state.drivers["Piquet"].team = "Ferrari"
    after = run(state).state
    assert after.drivers["Lauda"].rating == 120
    assert (after.drivers["Lauda"].team, after.drivers["Lauda"].salary) == ("Honda", 2)
    assert after.drivers["Piquet"].team is None
    assert after.round == 7


def test_sponsor_money_and_storage_fees() -> None:
    state = game("Ferrari", "Honda")
    from .helpers import stock
    stock(state, "Ferrari", "2 Turbo-W10", "3 Turbo-R10")
    after = run(state).state
    fee = 2 * CONFIG.storage_fee["W"] + 3 * CONFIG.storage_fee["R"]
    assert after.teams["Ferrari"].money == CONFIG.start_money + 200_000 - fee


def test_finished_game_cannot_be_evaluated() -> None:
    state = game("Ferrari", "Honda")
    state.finished = True
    try:
        run(state)
    except TurboError as error:
        assert "beendet" in error.de and "over" in error.en
    else:
        raise AssertionError("a finished game was evaluated")


def test_config_round_trip_and_unknown_keys() -> None:
    data = config_to_dict(CONFIG)
    assert config_from_dict(data) == CONFIG
    assert config_from_dict({"sponsor_money": 1}).sponsor_money == 1
    for bad, word in (({"sponsor_mony": 1}, "sponsor_mony"),
                      ({"risk_table": ["-", "Crash"]}, "Crash"),
                      ({"calendar": [["F1"]] * 5 + [["F9"]]}, "F9")):
        try:
            config_from_dict(bad)
        except TurboError as error:
            assert word in error.en and word in error.de
        else:
            raise AssertionError(f"{bad} accepted")


def test_team_names_follow_the_1996_rules() -> None:
    for bad in ("Turbo", "Scuderia Ferrari", "Fourteen_Chars", "Abcdefghijklmn"):
        try:
            new_game([(bad, "x"), ("Honda", "y")], GameConfig())
        except TurboError as error:
            assert error.where == "--teams"
        else:
            raise AssertionError(f"{bad!r} accepted")


def test_a_team_joins_with_einstieg_and_may_use_a_blank_contract() -> None:
    state = game("Ferrari", "Honda")
    state.round = 3
    drivers_before = len(state.drivers)
    joining = "\n".join(["Einstieg", "Rennstall: Tyrrell", "Passwort: blau", "Runde: 3",
                         "Vertrag: Lauda 10.000 Blankovertrag"])
    outcome = run(state, joining, sheet(state, "Honda", "Vertrag: Lauda 50.000"))
    after = outcome.state
    assert after.teams["Tyrrell"].entry_round == 3
    assert after.wm_points["Tyrrell"] == 0
    assert len(after.drivers) == drivers_before + CONFIG.joining_drivers
    assert any(d.team == "Tyrrell" for d in after.drivers.values())
    assert "Tyrrell steigt in die Partie ein" in outcome.results_sheet


def test_joining_with_a_taken_or_bad_name_is_refused() -> None:
    state = game("Ferrari", "Honda")
    taken = check_sheet("Einstieg\nRennstall: honda\nPasswort: x\nRunde: 1\n", state, CONFIG)
    assert "already exists" in taken.problems[0].en
    bad = check_sheet("Einstieg\nRennstall: Turbo\nPasswort: x\nRunde: 1\n", state, CONFIG)
    assert "reserved" in bad.problems[0].en


def test_long_contacts_are_flagged_for_the_game_master_not_cut() -> None:
    # §18: the limit is the game master's setting; a long contact and a second one appear whole
    from dataclasses import replace

    from rennleitung.turbo2000.intake import check_sheet, inbox_status
    config = replace(CONFIG, contact_limit=10)
    state = game("Ferrari", "Honda", config=config)
    text = sheet(state, "Ferrari", "Kontakt: Wer verkauft Motoren?", "Kontakt: Und Reifen?")
    outcome = run(state, text, config=config)
    assert "Ferrari: Wer verkauft Motoren?\n" in outcome.results_sheet
    assert "Ferrari: Und Reifen?\n" in outcome.results_sheet
    assert "Ferrari" not in outcome.rejections
    assert any("game master: Ferrari: Kontakte 32 Zeichen über 10 (§18)" in line
               for line in outcome.log)
    checked = check_sheet(text, state, config)
    assert checked.warnings[0].line == 4 and "game master's 10 (§18)" in checked.warnings[0].en
    assert "Spielleiters (§18)" in checked.warnings[0].de
    assert inbox_status([text], state, config)[0].long_contact == 32
    within = run(state, text, config=CONFIG)
    assert not any("game master" in line for line in within.log)


def test_results_sheet_names_the_winner_when_the_game_ends() -> None:
    state = game("Ferrari", "Honda")
    state.round, state.end_after_round = 24, 24
    state.wm_points.update({"Ferrari": 12, "Honda": 30})
    outcome = run(state)
    assert outcome.state.finished
    assert "Partiesieger / winner of the game (§20): Honda mit 30 WM-Punkten" in \
        outcome.results_sheet


def test_an_evaluation_without_reports_gives_the_same_state_log_and_tally() -> None:
    # the balance benchmark skips the reports; what the game plays on must not change
    for before, sheets, after in _bot_game_rounds(7, "quiet"):
        full = evaluate_round(load_state(before), sheets, "quiet", CONFIG)
        quiet = evaluate_round(load_state(before), sheets, "quiet", CONFIG, reports=False)
        assert dump_state(quiet.state) == dump_state(full.state) == after
        assert (quiet.log, quiet.tally, quiet.rejections) == (full.log, full.tally,
                                                             full.rejections)
        assert full.team_reports and not quiet.team_reports
