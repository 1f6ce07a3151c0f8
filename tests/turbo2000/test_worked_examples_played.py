"""The April 2000 examples once more, played through whole evaluations instead of single rules."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.model import Announcement, GameState, Part

from .helpers import CONFIG, game, hire, run, sheet, stock

NOBODY_FINISHES = replace(CONFIG, risk_table=("Reifenschaden",))
"""Every qualified car loses its tyres in the first section: qualified, never placed."""


def _f1(state: GameState, team: str, driver: str, lp_q: int, sections: str,
        rating: int = 10) -> str:
    parts = f"Turbo-W{rating} Turbo-M{rating} Turbo-R{rating}"
    return sheet(state, team, f"Rennen F1: {driver} {parts} d=1 e=1 Q={lp_q} A={sections}")


def _lp_of_entry(outcome_report: str, driver: str) -> int:
    line = next(line for line in outcome_report.splitlines() if f"Formel I: {driver}" in line)
    return int(line.split(" LP ")[1].split(",")[0])


def test_lauda_qualifies_three_times_and_races_the_fourth_as_f11() -> None:
    state = game("Ferrari", "Honda")
    hire(state, "Lauda", "Ferrari")
    for started_as in ("Lauda-F10.0", "Lauda-F10.4", "Lauda-F10.8"):
        state.announcements = [Announcement("F1")]
        stock(state, "Ferrari", "Turbo-W12", "Turbo-M12", "Turbo-R12")
        outcome = run(state, _f1(state, "Ferrari", "Lauda", 20, "30/30/30", rating=12),
                      config=NOBODY_FINISHES)
        report = outcome.team_reports["Ferrari"]
        assert f"Formel I: {started_as} LP 158, Risiko 0: qualifiziert" in report
        state = outcome.state
    assert state.drivers["Lauda"].notation() == "Lauda-F11.2"
    state.announcements = [Announcement("F1")]
    stock(state, "Ferrari", "Turbo-W12", "Turbo-M12", "Turbo-R12")
    outcome = run(state, _f1(state, "Ferrari", "Lauda", 20, "30/30/30", rating=12),
                  config=NOBODY_FINISHES)
    # W12, M12+1, R12, F11+1: drop 13, 12 × 12 × 12 // 10 = 172 (as F10 it was 12 × 12 × 11)
    assert _lp_of_entry(outcome.team_reports["Ferrari"], "Lauda") == 172


def test_piquet_wins_then_qualifies_and_starts_the_third_race_as_f11() -> None:
    state = game("Ferrari", "Honda")
    hire(state, "Piquet", "Honda")
    stock(state, "Honda", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    state.announcements = [Announcement("F1")]
    won = run(state, _f1(state, "Honda", "Piquet", 20, "30/30/30"))
    assert "Platz 1" in won.team_reports["Honda"]
    state = won.state
    assert state.drivers["Piquet"].notation() == "Piquet-F10.9"
    state.announcements = [Announcement("F1")]
    second = run(state, _f1(state, "Honda", "Piquet", 20, "30/30/30"), config=NOBODY_FINISHES)
    state = second.state
    assert state.drivers["Piquet"].whole_rating == 11
    assert state.drivers["Piquet"].notation() == "Piquet-F11.3"


def _rally_first_stage(seed: str, config: GameConfig) -> tuple[GameState, str]:
    """Lauda and eight others in Rallye stage 1; the others' results are fixed (risk 0)."""
    teams = ("Ferrari", "Honda", "Lotus")
    state = game(*teams)
    state.round = 3  # the default calendar starts the Rallye in the third round of a year
    state.announcements = [Announcement("RALLYE", 1, 3)]
    others = ["Piquet", "Prost", "Senna", "Mansell", "Berger", "Alboreto", "Patrese", "Arnoux"]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W11", "Turbo-M9", "Turbo-R10")
    lines: dict[str, list[str]] = {team: [] for team in teams}
    lines["Ferrari"].append("Rennen RALLYE: Lauda Turbo-W11 Turbo-M9 Turbo-R10 d=3 e=2 Q=40 "
                            "A=30/30/25")
    for index, driver in enumerate(others):
        team = teams[index % 3]
        hire(state, driver, team)
        stock(state, team, "Turbo-W10", "Turbo-M10", "Turbo-R10")
        points = "30/30/30" if index < 6 else "30/25/25"  # six ahead of Lauda, two behind
        lines[team].append(f"Rennen RALLYE: {driver} Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                           f"Q=10 A={points}")
    outcome = run(state, *(sheet(state, team, *lines[team]) for team in teams), seed=seed,
                  config=config)
    return outcome.state, outcome.team_reports["Ferrari"]


def test_rallye_example_played_lauda_85_points_third_last_wear_wmm() -> None:
    # the others' fixed results put 30 LP into sections after a Q of 10: no qualifying pace
    config = replace(CONFIG, qualifying_pace_percent=0,
                     races=tuple(replace(t, sections=3) if t.code == "RALLYE" else t
                                 for t in CONFIG.races))
    for attempt in range(3000):
        state, report = _rally_first_stage(f"rallye-{attempt}", config)
        line = next(line for line in report.splitlines() if "Rallye Etappe 1/3: Lauda" in line)
        wear = line.split("Verschleiß ")[1].split(",")[0] if "Verschleiß" in line else ""
        if sorted(wear) == ["M", "M", "W"] and "Platz 7" in line and "85 Streckenpunkte" in line:
            break
    else:
        raise AssertionError("no seed gave Lauda the wear WMM")
    record = state.rally["Lauda"]
    assert (record.car, record.engine) == (Part("Turbo", "W", 10), Part("Turbo", "M", 7))
    assert (record.track_points, record.place, record.placed_count) == (85, 7, 9)
    ferrari = state.teams["Ferrari"]
    assert ferrari.count(Part("Turbo", "W", 11)) == 0 and ferrari.count(Part("Turbo", "M", 9)) == 0
    assert ferrari.count(Part("Turbo", "M", 7)) == 1
    assert [a.stage for a in state.announcements if a.code == "RALLYE"] == [2]
    stock(state, "Ferrari", "Honda-R10")
    admitted = run(state, sheet(state, "Ferrari", "Rennen RALLYE: Lauda Turbo-W10 Turbo-M7 "
                                "Honda-R10 d=2 e=1 Q=85 A=1/1/1"), config=config)
    assert "Rallye Etappe 2/3: Lauda" in admitted.team_reports["Ferrari"]
