"""Races: qualifying, sections and the risk table, results, series rules (April 2000 §3–§5)."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.turbo2000.config import CONSEQUENCES, SERIES, GameConfig
from rennleitung.turbo2000.model import Announcement, GameState, Part
from rennleitung.turbo2000.performance import consequence
from rennleitung.turbo2000.races import EFFECTS, SERIES_CONDITIONS

from .helpers import CONFIG, game, hire, notes, run, sheet, stock

SAFE = "d=1 e=1"  # risk 0: no dice, so the result follows from the LP split alone


def _two_cars(race: str = "F1") -> GameState:
    state = game("Ferrari", "Honda", "Lotus")
    state.announcements = [Announcement(race)]
    for name, team in (("Lauda", "Ferrari"), ("Piquet", "Honda"), ("Prost", "Lotus")):
        hire(state, name, team)
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Honda-R10")
    stock(state, "Honda", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    stock(state, "Lotus", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    return state


def _entry(race: str, driver: str, r: str = "Turbo-R10", push: str = SAFE, q: int = 20,
           sections: str = "A=30/30/30") -> str:
    return f"Rennen {race}: {driver} Turbo-W10 Turbo-M10 {r} {push} Q={q} {sections}".strip()


def test_formel_one_points_go_to_team_and_makers() -> None:
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10", q=30,
                                                        sections="A=25/25/25")),
                  sheet(state, "Honda", _entry("F1", "Piquet", q=50, sections="A=20/20/20")))
    wm = outcome.state.wm_points
    assert wm["Ferrari"] == 9  # Lauda: 75 track points, first
    assert wm["Honda"] == 6 + CONFIG.maker_wm_points[0]  # second, and maker of Lauda's tyres
    drivers = outcome.state.drivers
    assert drivers["Lauda"].rating == 109 and drivers["Piquet"].rating == 108
    assert outcome.state.teams["Ferrari"].money == state.teams["Ferrari"].money + \
        CONFIG.sponsor_money - 10_000 - 7_500 + 600_000


def test_a_maker_scores_once_per_race_unless_set_otherwise() -> None:
    state = _two_cars()
    stock(state, "Lotus", "Honda-R10")
    entries = (sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10")),
               sheet(state, "Lotus", _entry("F1", "Prost", "Honda-R10", q=50,
                                            sections="A=20/20/20")))
    once = run(state, *entries).state.wm_points["Honda"]
    assert once == CONFIG.maker_wm_points[0]  # for the best-placed Honda part only
    every = replace(CONFIG, maker_points_once_per_race=False)
    assert run(state, *entries, config=every).state.wm_points["Honda"] == \
        CONFIG.maker_wm_points[0] + CONFIG.maker_wm_points[1]


def test_grid_size_limits_the_qualified() -> None:
    config = replace(CONFIG, races=tuple(replace(t, grid=2) if t.code == "F1" else t
                                         for t in CONFIG.races))
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10", q=20)),
                  sheet(state, "Honda", _entry("F1", "Piquet", q=15)),
                  sheet(state, "Lotus", _entry("F1", "Prost", q=10)), config=config)
    assert outcome.state.drivers["Prost"].rating == 100
    assert outcome.state.drivers["Piquet"].rating > 100
    assert "nicht qualifiziert" in notes(outcome, "Lotus")


def test_dragster_has_no_sections_and_qualified_means_placed() -> None:
    state = _two_cars("DRAG")
    outcome = run(state, sheet(state, "Ferrari", _entry("DRAG", "Lauda", "Honda-R10", q=90,
                                                        sections="")),
                  sheet(state, "Honda", _entry("DRAG", "Piquet", q=80, sections="")))
    assert outcome.state.drivers["Lauda"].rating == 109
    assert outcome.state.drivers["Piquet"].rating == 108
    assert outcome.state.wm_points["Ferrari"] == 0  # WM points only in Formel I


def test_stock_car_needs_the_minimum_risk() -> None:
    state = _two_cars("STOCK")
    outcome = run(state, sheet(state, "Ferrari", _entry("STOCK", "Lauda", "Honda-R10",
                                                        push="d=2 e=1")))
    assert "Risiko 1 unter dem Mindestrisiko 3 (§4.4)" in notes(outcome, "Ferrari")
    assert "risk 1 below the minimum risk 3 (§4.4)" in notes(outcome, "Ferrari")


def test_stock_car_gains_best_six_one_point_others_half() -> None:
    config = replace(CONFIG, risk_table=("-",))  # every car finishes, whatever the dice
    state = game("Ferrari", "Honda", "Lotus", "Brabham")
    state.announcements = [Announcement("STOCK")]
    drivers = ["Lauda", "Piquet", "Prost", "Senna", "Mansell", "Berger", "Alboreto", "Patrese",
               "Arnoux", "Tambay", "Laffite"]
    lines = []
    for index, name in enumerate(drivers):
        hire(state, name, "Ferrari")
        stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
        lines.append(f"Rennen STOCK: {name} Turbo-W10 Turbo-M10 Turbo-R10 d=3 e=2 "
                     f"Q={20 - index} A=10/10/10")
    after = run(state, sheet(state, "Ferrari", *lines), config=config).state
    gains = [after.drivers[name].rating - 100 for name in drivers]
    assert gains == [10] * 6 + [5] * 4 + [0]  # grid 10: the eleventh does not qualify
    from rennleitung.turbo2000.driver_ratings import QUALIFIED, race_gain
    assert race_gain(QUALIFIED, 0, "stockcar", CONFIG) == 3


def test_formel_junior_only_for_teams_without_wm_points() -> None:
    state = _two_cars("JUN")
    state.wm_points["Ferrari"] = 1
    outcome = run(state, sheet(state, "Ferrari", _entry("JUN", "Lauda", "Honda-R10",
                                                        sections="A=30/30")))
    assert "(§4.5)" in notes(outcome, "Ferrari")


def test_formel_two_conditions_and_constructors_prize() -> None:
    state = _two_cars("F2")
    state.announcements = [Announcement("F1"), Announcement("F2")]
    state.drivers["Senna"].team = "Ferrari"
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    state.last_formel2_winner = "Lotus"
    outcome = run(
        state,
        sheet(state, "Ferrari", _entry("F2", "Lauda", "Honda-R10"), _entry("F1", "Senna")),
        sheet(state, "Honda", _entry("F2", "Piquet", "Turbo-R10")),
        sheet(state, "Lotus", _entry("F2", "Prost")))
    assert "nur ohne Meldung für ein anderes Rennen (§4.1)" in notes(outcome, "Ferrari")
    assert "Sieger des letzten Formel-II-Rennens" in notes(outcome, "Lotus")
    assert outcome.state.last_formel2_winner == "Honda"
    assert outcome.state.teams["Honda"].money == state.teams["Honda"].money + \
        CONFIG.sponsor_money - 10_000 - 7_500 + 300_000
    assert outcome.state.wm_points["Honda"] == 0


def test_constructors_prize_goes_to_the_makers_of_the_winning_car() -> None:
    state = _two_cars("F2")
    state.announcements = [Announcement("F2")]
    outcome = run(state, sheet(state, "Ferrari", _entry("F2", "Lauda", "Honda-R10")))
    assert "Konstrukteursprämie Honda-R10 (§4.1)" in notes(outcome, "Honda")


def test_a_part_starts_in_one_race_per_round() -> None:
    state = _two_cars()
    state.announcements = [Announcement("F1"), Announcement("DRAG")]
    state.drivers["Senna"].team = "Ferrari"
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10"),
                               _entry("DRAG", "Senna", "Honda-R10", sections="")))
    assert "Zeile 5 / line 5 [Turbo-W10]: Komponente nicht (mehr) im Lager" in \
        notes(outcome, "Ferrari")


def test_lp_split_may_not_exceed_the_available_lp() -> None:
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10", q=50)))
    assert "140 LP verteilt, nur 110 vorhanden (§2)" in notes(outcome, "Ferrari")
    outcome = run(state, sheet(state, "Honda", _entry("F1", "Piquet", sections="A=30/30")))
    assert "Formel I hat 3 Abschnitte" in notes(outcome, "Honda")


def test_every_series_has_its_entry_condition() -> None:
    assert set(SERIES_CONDITIONS) == set(SERIES)


def test_every_risk_table_line_has_an_effect() -> None:
    assert set(EFFECTS) == set(CONSEQUENCES)
    assert all(name in EFFECTS for name in CONFIG.risk_table)
    assert consequence(0, CONFIG) == "-"
    assert consequence(4, CONFIG) == "MMM"
    assert consequence(11, CONFIG) == "Unfall" and consequence(15, CONFIG) == "Unfall"


def test_number_of_dice_per_section_is_the_risk() -> None:
    # the first reconstruction's risk model: risk dice, each six one Wurf
    sixes = replace(CONFIG, risk_model="sixes")
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10",
                                                        push="d=3 e=2", q=10,
                                                        sections="A=1/1/1")), seed="dice",
                  config=sixes)
    rolls = [line for line in outcome.log if "3W6 F1 A" in line]
    assert rolls  # at least the first section was rolled, each with (3-1) + (2-1) = 3 dice
    assert all(len(line.split(":")[-1].split()) == 3 for line in rolls)


def test_wear_letters_lower_ratings_for_good() -> None:
    config = replace(CONFIG, risk_table=("WWW",))
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10")),
                  config=config)
    ferrari = outcome.state.teams["Ferrari"]
    assert ferrari.count(Part("Turbo", "W", 1)) == 1  # 10 - 9, at least the minimum 1
    assert ferrari.count(Part("Turbo", "M", 10)) == 1


def test_accident_destroys_the_car_and_injures_the_driver() -> None:
    config: GameConfig = replace(CONFIG, risk_table=("Unfall",))
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10")),
                  config=config)
    lauda = outcome.state.drivers["Lauda"]
    assert lauda.rating == 100 + CONFIG.qualified_gain - CONFIG.injury_penalty
    assert lauda.out_in_round == 2
    assert outcome.state.teams["Ferrari"].stock == {}
    after = outcome.state
    stock(after, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    again = run(after, sheet(after, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 "
                             "d=1 e=1 Q=1 A=1/1/1"))
    assert "injured after an accident" in notes(again, "Ferrari")


def test_rallye_start_publishes_all_stages_and_ends_early_without_finishers() -> None:
    state = game("Ferrari", "Honda")
    state.round = 2
    before_rally = run(state)
    assert "Etappe 1/3; Etappen in Runden 3, 4, 5" in before_rally.results_sheet
    first_stage = run(before_rally.state)  # nobody enters: fewer than 7 reach the finish
    assert first_stage.state.rally_closed
    assert "RALLYE" not in [a.code for a in first_stage.state.announcements]
    assert "Rallye endet vorzeitig" in first_stage.results_sheet


def test_rallye_prizes_only_after_the_last_stage() -> None:
    config = replace(CONFIG, rally_min_finishers=1)
    state = _two_cars()
    state.announcements = [Announcement("RALLYE", 1, 3)]
    outcome = run(state, sheet(state, "Honda", _entry("RALLYE", "Piquet", q=30,
                                                      sections="A=30/30")), config=config)
    honda_money = outcome.state.teams["Honda"].money
    assert honda_money == state.teams["Honda"].money + CONFIG.sponsor_money - 10_000 - 7_500
    assert outcome.state.rally["Piquet"].track_points == 60
    state = _two_cars()
    state.announcements = [Announcement("RALLYE", 1, 1)]
    outcome = run(state, sheet(state, "Honda", _entry("RALLYE", "Piquet", q=30,
                                                      sections="A=30/30")), config=config)
    assert outcome.state.teams["Honda"].money == honda_money + 500_000


def test_sum_risk_model_no_push_no_dice_else_risk_plus_dice_minus_offset() -> None:
    from rennleitung.turbo2000.performance import dice_for, wuerfe_from_dice

    assert CONFIG.risk_model == "sum" and dice_for(0, CONFIG) == 0
    assert wuerfe_from_dice(0, [], CONFIG) == 0
    assert dice_for(3, CONFIG) == CONFIG.risk_dice == 2
    assert wuerfe_from_dice(3, [6, 6], CONFIG) == 3 + 12 - CONFIG.risk_offset
    assert wuerfe_from_dice(1, [1, 2], CONFIG) == 0  # never below zero
    assert consequence(wuerfe_from_dice(12, [6, 6], CONFIG), CONFIG) == "Unfall"
    state = _two_cars()
    outcome = run(state, sheet(state, "Ferrari", _entry("F1", "Lauda", "Honda-R10",
                                                        push="d=3 e=2", sections="A=1/1/1")))
    rolls = [line for line in outcome.log if "2W6 F1 A" in line]
    assert rolls and outcome.tally["section"] >= len(rolls)


def test_the_balance_tally_sees_a_formel_n_cap_bind() -> None:
    state = _two_cars()
    state.announcements = [Announcement("F1000")]
    hire(state, "Lauda", "Ferrari", rating=160)
    stock(state, "Ferrari", "Turbo-W18", "Turbo-M18", "Turbo-R18")
    # W18 (M18+1) R18 (F16+1) by the original rule: 18*19*18*17 // 100 = 1046 > 1000
    outcome = run(state, sheet(state, "Ferrari", "Rennen F1000: Lauda Turbo-W18 Turbo-M18 "
                               "Turbo-R18 d=1 e=1 Q=10 A=10/10"),
                  sheet(state, "Honda", "Rennen F1000: Piquet Turbo-W10 Turbo-M10 Turbo-R10 "
                        "d=1 e=1 Q=10 A=10/10"))
    assert "1046 LP (original rule) above 1000" in notes(outcome, "Ferrari")
    assert outcome.tally["formel_n_races"] == 1 and outcome.tally["formel_n_bound"] == 1
