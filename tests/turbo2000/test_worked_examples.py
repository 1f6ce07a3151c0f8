"""Every worked example of the April 2000 rule changes, with the document's numbers."""

from __future__ import annotations

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.driver_ratings import PLACED, QUALIFIED, race_gain
from rennleitung.turbo2000.factories import build_cost
from rennleitung.turbo2000.model import Announcement, Driver, Factory, Part, RallyRecord
from rennleitung.turbo2000.notation import PartSpec, parse_elimination
from rennleitung.turbo2000.performance import available_lp, original_lp
from rennleitung.turbo2000.races import Car, close_rally_stage, return_parts
from rennleitung.turbo2000.sheet import RaceEntry
from rennleitung.turbo2000.turn import Turn, round_random

from .helpers import CONFIG, game, hire, notes, run, sheet, stock

# --- §4.2 Formel 1000: W17, M18, R17, F17 only with d = e = 1 (original LP rule) -----------

def test_formel_1000_example_numbers() -> None:
    assert original_lp(17, 18, 17, 17, 1, 1, CONFIG) == 988
    assert original_lp(17, 18, 17, 17, 2, 1, CONFIG) == 1040
    assert original_lp(17, 18, 17, 17, 1, 2, CONFIG) == 1043


def _formel_1000_round() -> tuple[str, str]:
    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1000")]
    hire(state, "Lauda", "Ferrari", rating=170)
    hire(state, "Piquet", "Honda", rating=170)
    stock(state, "Ferrari", "Turbo-W17", "Turbo-M18", "Turbo-R17")
    stock(state, "Honda", "Turbo-W17", "Turbo-M18", "Turbo-R17")
    outcome = run(
        state,
        sheet(state, "Ferrari", "Rennen F1000: Lauda Turbo-W17 Turbo-M18 Turbo-R17 d=1 e=1 "
              "Q=100 A=100/100"),
        sheet(state, "Honda", "Rennen F1000: Piquet Turbo-W17 Turbo-M18 Turbo-R17 d=2 e=1 "
              "Q=100 A=100/100"),
    )
    return notes(outcome, "Ferrari"), notes(outcome, "Honda")


def test_formel_1000_example_in_a_race() -> None:
    ferrari, honda = _formel_1000_round()
    assert "Formel 1000: Lauda" in ferrari
    assert "1040 LP (Originalregel) über 1000 (§4.2)" in honda
    assert "1040 LP (original rule) above 1000" in honda


# --- §10 build cost example: tyre makers and the cost of one set -------------------------

TYRE_MAKERS = {"Goodyear": (23, 20_000), "Dunlop": (18, 15_000), "Uniroyal": (14, 11_000),
               "Michelin": (21, 18_000), "Pirelli": (10, 10_000)}


def test_build_cost_example_table() -> None:
    best = max(rating for rating, _ in TYRE_MAKERS.values())
    for _name, (rating, cost) in TYRE_MAKERS.items():
        assert build_cost("R", rating, best, CONFIG) == cost


def test_build_cost_example_charged_in_an_evaluation() -> None:
    state = game(*TYRE_MAKERS)
    for name, (rating, _) in TYRE_MAKERS.items():
        state.factories.append(Factory(name, "R", rating))
    outcome = run(state, *(sheet(state, name, "Bau R: 2") for name in TYRE_MAKERS))
    for name, (rating, cost) in TYRE_MAKERS.items():
        team = outcome.state.teams[name]
        assert team.count(Part(name, "R", rating)) == 2
        assert f"Bau 2 {name}-R{rating} à {amount(cost)}" in notes(outcome, name)


def test_amount_below_1000_is_a_count_and_above_is_money() -> None:
    state = game("Dunlop", "Goodyear")
    state.factories += [Factory("Dunlop", "R", 18), Factory("Goodyear", "R", 23)]
    outcome = run(state, sheet(state, "Dunlop", "Bau R: 45.000"),
                  sheet(state, "Goodyear", "Bau R: 3"))
    assert outcome.state.teams["Dunlop"].count(Part("Dunlop", "R", 18)) == 3  # 45.000 // 15.000
    assert outcome.state.teams["Goodyear"].count(Part("Goodyear", "R", 23)) == 3


# --- §4.6 Rallye: Lauda 85 track points, third-last, wear WMM ---------------------------

def _lauda_after_first_stage() -> RallyRecord:
    state = game("Ferrari", "Honda")
    turn = Turn(state, CONFIG, round_random("x", 1))
    lauda = Driver("Lauda", 100, "Ferrari")
    parts = {"W": Part("Turbo", "W", 11), "M": Part("Turbo", "M", 9), "R": Part("Turbo", "R", 10)}
    entry = RaceEntry(1, "RALLYE", "Lauda", PartSpec("Turbo", "W", 11), PartSpec("Turbo", "M", 9),
                      PartSpec("Turbo", "R", 10), 1, 1, 20, (40, 45))
    placed = []
    for place in range(1, 10):  # nine placed cars; Lauda is 7th = third-last
        driver = lauda if place == 7 else Driver(f"X{place}", 100)
        placed.append(Car("Ferrari", entry, driver, dict(parts), 110, 0, place=place,
                          outcome=PLACED, points=85 if place == 7 else 90))
    placed[6].wear = "WMM"
    pay = close_rally_stage(turn, Announcement("RALLYE", 1, 3), placed)
    return_parts(turn, placed[6])
    assert not pay
    assert state.teams["Ferrari"].count(Part("Turbo", "W", 10)) == 1
    assert state.teams["Ferrari"].count(Part("Turbo", "M", 7)) == 1
    return state.rally["Lauda"]


def test_rallye_example_wear_gives_w10_m7_and_85_points() -> None:
    record = _lauda_after_first_stage()
    assert record.car == Part("Turbo", "W", 10)
    assert record.engine == Part("Turbo", "M", 7)
    assert record.tyre_rating == 10
    assert record.track_points == 85


def _second_stage(entry: str) -> str:
    state = game("Ferrari", "Honda")
    state.rally = {"Lauda": _lauda_after_first_stage()}
    state.rally_stage_done = 1
    state.announcements = [Announcement("RALLYE", 2, 3)]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M7", "Turbo-M9", "Honda-R10", "Turbo-R11")
    return notes(run(state, sheet(state, "Ferrari", entry)), "Ferrari")


def test_rallye_example_lp_needs_d2_for_q85() -> None:
    # W10, M7+d, R10, F10+e: with d = e = 1 only 80 LP (April 2000 §2), with d = 2 90 LP
    assert available_lp(10, 7, 10, 10, 1, 1, CONFIG) == 80
    assert available_lp(10, 7, 10, 10, 2, 1, CONFIG) == 90


def test_rallye_example_second_stage_admits_w10_m7_any_r10_with_q85() -> None:
    report = _second_stage("Rennen RALLYE: Lauda Turbo-W10 Turbo-M7 Honda-R10 d=2 e=1 Q=85 "
                           "A=1/1")
    assert "Rallye Etappe 2/3: Lauda" in report
    assert "§4.6" not in report


def test_rallye_example_second_stage_refuses_each_broken_condition() -> None:
    assert "§4.6 Bed. 4" in _second_stage(
        "Rennen RALLYE: Lauda Turbo-W10 Turbo-M7 Honda-R10 d=2 e=1 Q=80 A=1/1")
    assert "§4.6 Bed. 2" in _second_stage(
        "Rennen RALLYE: Lauda Turbo-W10 Turbo-M9 Honda-R10 d=1 e=1 Q=85 A=1/1")
    assert "§4.6 Bed. 3" in _second_stage(
        "Rennen RALLYE: Lauda Turbo-W10 Turbo-M7 Turbo-R11 d=2 e=1 Q=85 A=1/1")


def test_rallye_last_and_second_last_may_not_continue() -> None:
    record = _lauda_after_first_stage()
    assert record.place == 7 and record.placed_count == 9  # third-last: allowed
    assert record.place <= record.placed_count - CONFIG.rally_excluded_last


# --- §5 rating examples: Lauda and Piquet -----------------------------------------------

def test_lauda_three_qualifications_make_f11_2() -> None:
    rating = 100
    for _ in range(3):
        assert rating // 10 == 10  # still starts as F10
        rating += race_gain(QUALIFIED, 0, "formel1", CONFIG)
    assert rating == 112
    assert Driver("Lauda", rating).whole_rating == 11


def test_piquet_winner_needs_one_qualification_for_f11() -> None:
    rating = 100 + race_gain(PLACED, 1, "formel1", CONFIG)
    assert rating == 109
    assert Driver("Piquet", rating).notation() == "Piquet-F10.9"
    rating += race_gain(QUALIFIED, 0, "formel1", CONFIG)
    assert rating // 10 == 11


# --- §6 elimination examples ---------------------------------------------------------------

STOCK = {
    Part("Turbo", "W", 8): 3, Part("Turbo", "W", 9): 1, Part("Honda", "W", 4): 1,
    Part("Turbo", "R", 17): 2, Part("Turbo", "R", 16): 1, Part("Turbo", "R", 15): 2,
    Part("Turbo", "R", 14): 1, Part("Turbo", "R", 12): 3, Part("Honda", "R", 15): 1,
    Part("Honda", "M", 4): 1, Part("Honda", "M", 6): 2, Part("Honda", "M", 8): 1,
    Part("Turbo", "M", 6): 1,
}


def _choose(text: str) -> list[tuple[Part, int]]:
    order = parse_elimination(text)
    assert order is not None
    return order.choose(dict(STOCK))


def test_elimination_2_turbo_w8_means_exactly_those() -> None:
    assert _choose("2 Turbo-W8") == [(Part("Turbo", "W", 8), 2)]


def test_elimination_4_turbo_r15_minus_takes_the_best_four_below_16() -> None:
    assert _choose("4 Turbo-R15-") == [(Part("Turbo", "R", 15), 2), (Part("Turbo", "R", 14), 1),
                                       (Part("Turbo", "R", 12), 1)]


def test_elimination_w1_plus_is_the_worst_car() -> None:
    assert _choose("W1+") == [(Part("Honda", "W", 4), 1)]


def test_elimination_range_takes_one_honda_engine_between_5_and_7() -> None:
    chosen = _choose("Honda-M[5-7]")
    assert chosen == [(Part("Honda", "M", 6), 1)]


def test_eliminating_missing_parts_has_no_consequence() -> None:
    state = game("Honda", "Ferrari")
    stock(state, "Honda", "2 Turbo-W8")
    outcome = run(state, sheet(state, "Honda", "Elimination: 3 Turbo-W8",
                               "Elimination: Turbo-M12"))
    assert outcome.state.teams["Honda"].stock == {}
    assert "2 von 3" in notes(outcome, "Honda")


# --- §20 vote example: no in round 12, yes in round 18, end after round 24 -----------------

def test_vote_example_ends_after_round_24() -> None:
    config = GameConfig()
    state = game("Ferrari", "Honda", "Lotus", config=config)
    calls = []
    while not state.finished:
        vote = {12: "nein", 18: "ja"}.get(state.round)
        votes = [] if vote is None else [sheet(state, name, f"Abstimmung: {vote}")
                                         for name in ("Ferrari", "Honda", "Lotus")]
        outcome = run(state, *votes, config=config)
        if outcome.state.vote_open:
            calls.append(state.round)
        state = outcome.state
        assert state.round <= 25
    assert calls == [11, 17]
    assert state.end_after_round == 24
    assert state.round == 25
