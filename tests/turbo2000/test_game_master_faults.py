"""Issue 15, the ten wrong results a game master hit; each test failed before its fix."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from rennleitung.cli.turbo import decode_sheet
from rennleitung.turbo2000.intake import check_sheet, inbox_status, missing_teams
from rennleitung.turbo2000.model import Announcement, Factory, Part
from rennleitung.turbo2000.reports import results_sheet
from rennleitung.turbo2000.season import close_round
from rennleitung.turbo2000.sheet import parse_sheet
from rennleitung.turbo2000.standings import winners
from rennleitung.turbo2000.turn import Turn, round_random

from .helpers import CONFIG, game, hire, notes, run, sheet, stock

DOCS = Path(__file__).resolve().parents[2] / "docs" / "turbo2000"


def test_a_buyer_who_cannot_pay_leaves_the_offer_to_the_next_bid() -> None:
    state = game("Ferrari", "Honda", "Lotus")
    stock(state, "Ferrari", "Ferrari-W12")
    state = run(state, sheet(state, "Ferrari", "an alle: Biete Ferrari-W12 zu 600.000")).state
    state.teams["Lotus"].money = -1_000_000  # broke even after the sponsor money
    outcome = run(state, sheet(state, "Lotus", "an Ferrari: Kaufe Ferrari-W12 zu 900.000"),
                  sheet(state, "Honda", "an Ferrari: Kaufe Ferrari-W12 zu 650.000"))
    w12 = Part("Ferrari", "W", 12)
    assert outcome.state.teams["Honda"].count(w12) == 1
    assert outcome.state.teams["Ferrari"].count(w12) == 0
    assert "ausverkauft" not in notes(outcome, "Honda")
    assert "not enough money" in notes(outcome, "Lotus")


def _formel_one_with_honda_tyres() -> tuple:  # type: ignore[type-arg]
    state = game("Ferrari", "Honda", "Lotus")
    state.announcements = [Announcement("F1"), Announcement("F2")]
    hire(state, "Lauda", "Ferrari")
    hire(state, "Prost", "Lotus")
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Honda-R10")
    stock(state, "Lotus", "Turbo-W10", "Turbo-M10", "Honda-R10")
    return state, ("Rennen F1: Lauda Turbo-W10 Turbo-M10 Honda-R10 d=1 e=1 Q=20 A=30/30/30",
                   "Rennen F2: Prost Turbo-W10 Turbo-M10 Honda-R10 d=1 e=1 Q=20 A=30/30/30")


def test_a_team_that_left_scores_nothing_more_and_cannot_win() -> None:
    state, (f1, f2) = _formel_one_with_honda_tyres()
    state.wm_points["Honda"] = 50  # won before leaving: stays in the eternal list
    state.teams["Honda"].active = False
    money = state.teams["Honda"].money
    outcome = run(state, sheet(state, "Ferrari", f1), sheet(state, "Lotus", f2))
    after = outcome.state
    assert after.wm_points["Honda"] == 50
    assert after.teams["Honda"].money == money
    assert "Konstrukteursprämie" not in outcome.results_sheet
    after.finished = True
    assert winners(after) == (["Ferrari"], 9)
    assert "50  ausgestiegen / left" in outcome.results_sheet


def test_leaving_needs_the_password_and_check_warns() -> None:
    state = game("Ferrari", "Honda")
    text = sheet(state, "Ferrari", "Ausstieg: nein, wir bleiben dabei!")
    checked = check_sheet(text, state, CONFIG)
    assert any(p.field == "Ausstieg" for p in checked.problems)
    outcome = run(state, text)
    assert outcome.state.teams["Ferrari"].active
    assert "Ausstieg: password" in notes(outcome, "Ferrari")
    text = sheet(state, "Ferrari", "Ausstieg: ferrari")
    checked = check_sheet(text, state, CONFIG)
    assert not checked.problems
    assert [w.field for w in checked.warnings] == ["Ausstieg"]
    outcome = run(state, text)
    assert not outcome.state.teams["Ferrari"].active
    assert "has left the game as asked" in notes(outcome, "Ferrari")


def test_the_same_driver_trains_once() -> None:
    state = game("Ferrari")
    hire(state, "Lauda", "Ferrari")
    outcome = run(state, sheet(state, "Ferrari", "Training: Lauda 40.000",
                               "Training: Lauda 30.000"))
    assert outcome.state.drivers["Lauda"].rating == 100 + CONFIG.training_gain
    assert "already entered for training" in notes(outcome, "Ferrari")
    paid = outcome.state.teams["Ferrari"].money - state.teams["Ferrari"].money
    assert paid == CONFIG.sponsor_money - 10_000 - 40_000  # salary and one training bid
    assert notes(outcome, "Ferrari").count("Training Lauda (§1)") == 1


def test_sheets_with_byte_order_mark_or_in_utf16_are_read() -> None:
    state = game("Ferrari")
    text = sheet(state, "Ferrari", "Kontakt: Grüße aus Maranello")
    for data in (b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16"),
                 text.encode("utf-16-le"), text.encode("utf-16-be"),
                 text.replace("\n", "\r\n").encode("cp1252")):
        decoded = decode_sheet(data)
        parsed = check_sheet(decoded, state, CONFIG)
        assert not parsed.problems, (data[:6], parsed.problems)
        assert parsed.contacts[0][1] == "Grüße aus Maranello"
    assert not parse_sheet("\ufeff" + text, CONFIG).problems


def test_status_tells_accepted_refused_and_missing() -> None:
    state = game("Ferrari", "Honda", "Lotus")
    wrong = sheet(state, "Honda").replace("Passwort: honda", "Passwort: falsch")
    statuses = inbox_status([sheet(state, "Ferrari", "Bau X: 1"), wrong], state, CONFIG)
    by_team = {s.team: s for s in statuses}
    assert by_team["Ferrari"].status == "accepted" and by_team["Ferrari"].problems == 1
    assert by_team["Honda"].status == "refused"
    assert by_team["Honda"].reasons[0].en == "wrong password"
    assert by_team["Lotus"].status == "missing"
    assert missing_teams(statuses, state) == ["Honda", "Lotus"]


def test_race_codes_ignore_letter_case() -> None:
    state = game("Ferrari")
    parsed = parse_sheet(sheet(state, "Ferrari", "Rennen f1: Lauda Turbo-W10 Turbo-M10 "
                               "Turbo-R10 d=1 e=1 Q=10 A=10/10/10"), CONFIG)
    assert not parsed.problems and parsed.entries[0].race == "F1"


def _section(text: str, start: str) -> list[str]:
    """The lines of the section whose title starts with ``start``."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"== {start}"))
    end = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("==")),
               len(lines))
    return lines[first:end]


def test_report_lines_stand_under_their_race() -> None:
    state, (f1, f2) = _formel_one_with_honda_tyres()
    outcome = run(state, sheet(state, "Ferrari", f1), sheet(state, "Lotus", f2))
    formel2 = _section(outcome.results_sheet, "Rennen / race: Formel II")
    assert any("Konstrukteursprämie" in line for line in formel2)
    formel1 = _section(outcome.results_sheet, "Rennen / race: Formel I (F1)")
    assert not any("Konstrukteursprämie" in line for line in formel1)
    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1"), Announcement("RALLYE", 1, 3)]
    outcome = run(state)
    rally = _section(outcome.results_sheet, "Rennen / race: Rallye")
    assert any("Rallye endet vorzeitig" in line for line in rally)


def _doc_sheets() -> list[tuple[str, str]]:
    """Every sheet and every sheet line shown in the TURBO 2000 docs."""
    found = []
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```\n(.*?)```", text, re.S):
            if block.startswith("Rennstall:"):
                found.append((path.name, block))
        for row in re.findall(r"^\| (`.*?) \|", text, re.M):
            for line in re.findall(r"`([^`]+)`", row):
                keyword = line.split(":")[0].split()[0].lower()
                if keyword in ("rennen", "training", "an", "errichtung", "bau", "entwicklung",
                               "elimination", "vertrag", "abstimmung", "kontakt", "ausstieg"):
                    found.append((path.name, line))
    return found


def test_every_sheet_in_the_docs_is_accepted() -> None:
    shown = _doc_sheets()
    assert len(shown) > 20
    state = game("Ferrari", "Honda", "McLaren")
    for name, text in shown:
        full = text if text.startswith("Rennstall:") else \
            f"Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\n{text}\n"
        parsed = parse_sheet(full, CONFIG)
        assert not parsed.problems, (name, text, parsed.problems)
    example = next(text for _, text in shown if "Errichtung: R" in text)
    state = game("Ferrari", "Honda")
    state.teams["Ferrari"].password = "rosso"
    outcome = run(state, example)
    assert not outcome.rejections.get("Ferrari"), outcome.rejections
    assert (DOCS.parents[1] / "examples" / "turbo2000" / "ferrari-runde-1.txt").read_text(
        encoding="utf-8").endswith(example)


def test_min_years_holds_against_an_early_vote() -> None:
    config = replace(CONFIG, first_vote_year=1)
    state = game("Ferrari", "Honda")
    state.round, state.vote_open = 6, True
    turn = Turn(state, config, round_random("t", 6))
    turn.sheets = {"Ferrari": parse_sheet(sheet(state, "Ferrari", "Abstimmung: ja"), config)}
    close_round(turn)
    assert state.end_after_round == config.min_years * config.rounds_per_year == 18
    assert "endet nach Runde 18" in results_sheet(turn, 6)


def test_factory_of_a_team_that_left_pays_no_constructors_prize() -> None:
    state, (_, f2) = _formel_one_with_honda_tyres()
    state.factories.append(Factory("Honda", "R", 10))
    state.teams["Honda"].active = False
    outcome = run(state, sheet(state, "Lotus", f2))
    assert outcome.state.teams["Ferrari"].money > 0
    assert all("Konstrukteursprämie" not in line for line in outcome.log)
