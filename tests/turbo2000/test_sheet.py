"""The order-sheet parser: every order read, every mistake named by line, German and English."""

from __future__ import annotations

from rennleitung.turbo2000.amounts import parse_amount
from rennleitung.turbo2000.notation import PartSpec
from rennleitung.turbo2000.sheet import parse_sheet

from .helpers import CONFIG

FULL_SHEET = """\
Rennstall: Ferrari
Passwort: rosso
Runde: 3
# ein Kommentar
Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R10 d=1 e=2 Q=30 A=20/20/20
Rennen DRAG: Prost Honda-W12 Honda-M12 Honda-R12 d=2 e=2 Q=90
Training: Senna 40.000
an alle: Biete 2 Ferrari-W12 zu 650.000
an Honda: Kaufe Honda-M12 zu 300.000
an alle: Suche 3 R12 zu 20.000
an McLaren: Verkaufe 1 Ferrari-R14 zu 20.000
an alle: Biete Ferrari-W-Fabrik ab 2.000.000
an Honda: Kaufe Honda-M-Fabrik zu 3.000.000
Errichtung: R
Bau R: 20
Bau W: 1.200.000
Entwicklung M: 600.000
Elimination: 4 Turbo-R15-
Elimination: Honda-M[5-7]
Vertrag: Berger 30.000 Folgejahr
Vertrag: Mansell 20.000 Blankovertrag
Abstimmung: ja
Kontakt: Suche Partner für Motoren.
"""


def test_full_sheet_is_read_without_problems() -> None:
    sheet = parse_sheet(FULL_SHEET, CONFIG)
    assert sheet.problems == []
    assert (sheet.team, sheet.password, sheet.round) == ("Ferrari", "rosso", 3)
    lauda = sheet.entries[0]
    assert (lauda.race, lauda.driver, lauda.d, lauda.e, lauda.qualifying) == ("F1", "Lauda", 1,
                                                                               2, 30)
    assert lauda.sections == (20, 20, 20)
    assert lauda.engine == PartSpec("Turbo", "M", 9)
    assert sheet.entries[1].sections == ()
    assert [(t.verb, t.to, t.count) for t in sheet.trades] == [
        ("Biete", None, 2), ("Kaufe", "Honda", 1), ("Suche", None, 3), ("Verkaufe", "McLaren", 1),
        ("Biete", None, 1), ("Kaufe", "Honda", 1)]
    assert sheet.trades[2].part == PartSpec(None, "R", 12)
    assert sheet.trades[4].factory_owner == "Ferrari" and sheet.trades[4].factory_kind == "W"
    assert sheet.trades[5].price == 3_000_000
    assert [(b.kind, b.amount) for b in sheet.builds] == [("R", 20), ("W", 1_200_000)]
    assert sheet.developments[0].amount == 600_000
    assert [e.order.count for e in sheet.eliminations] == [4, 1]
    assert sheet.contracts[0].next_year and sheet.contracts[1].blank
    assert sheet.vote is True
    assert sheet.contacts == [(23, "Suche Partner für Motoren.")]
    assert sheet.training[0].bid == 40_000


def test_missing_count_in_a_trade_line_means_one() -> None:
    # April 2000 §12: "Kaufe Turbo-R10 zu 20.000"
    sheet = parse_sheet("Rennstall: A\nPasswort: a\nRunde: 1\nan B: Kaufe Turbo-R10 zu 20.000\n",
                        CONFIG)
    assert sheet.trades[0].count == 1


def _problems(*lines: str) -> list[tuple[int, str, str]]:
    text = "\n".join(["Rennstall: A", "Passwort: a", "Runde: 1", *lines])
    return [(p.line, p.de, p.en) for p in parse_sheet(text, CONFIG).problems]


def test_every_problem_names_its_line_in_both_languages() -> None:
    problems = _problems(
        "Rennen F1: Lauda Turbo-W11 Turbo-M9 d=1 e=1 Q=30 A=1/1/1",
        "Training: Lauda 1.500",
        "an alle: Kaufe Turbo-W10 zu 700.000",
        "Bau X: 3",
        "Elimination: 4 Turbo-Q15-",
        "Vertrag: Senna 5.000",
        "Abstimmung: vielleicht",
        "Rennen F1: Senna Turbo-W11 Turbo-M9 Turbo-R9 d=9 e=1 Q=30 A=1/1/1",
        "Fahrt ins Blaue",
    )
    lines = [line for line, _, _ in problems]
    assert lines == [4, 5, 6, 7, 8, 9, 10, 11, 12]
    texts = {line: (de, en) for line, de, en in problems}
    assert texts[4] == ("Komponente R fehlt", "component R missing")
    assert "durch 1000 teilbar" in texts[5][0] and "divisible by 1000" in texts[5][1]
    assert "answers one team" in texts[6][1]
    assert "W, M oder R" in texts[7][0]
    assert "§6" in texts[8][0] and "§6" in texts[8][1]
    assert "Mindestgehalt" in texts[9][0] and "minimum salary" in texts[9][1]
    assert "d muss zwischen 1 und 7" in texts[11][0]
    assert texts[12][1].startswith("unknown line")


def test_missing_header_is_a_sheet_problem() -> None:
    problems = parse_sheet("Kontakt: hallo\n", CONFIG).problems
    assert {p.field for p in problems} == {"Rennstall", "Passwort", "Runde"}
    assert all(p.line == 0 for p in problems)
    assert problems[0].text().startswith("Blatt / sheet [Rennstall]")


def test_training_driver_may_not_also_race() -> None:
    problems = _problems("Training: Lauda 10.000",
                         "Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R9 d=1 e=1 Q=3 A=1/1/1")
    assert problems[0][0] == 5 and "§1" in problems[0][1]


def test_driver_in_two_races_keeps_the_first() -> None:
    text = "\n".join(["Rennstall: A", "Passwort: a", "Runde: 1",
                      "Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R9 d=1 e=1 Q=3 A=1/1/1",
                      "Rennen DRAG: Lauda Turbo-W11 Turbo-M9 Turbo-R9 d=1 e=1 Q=3"])
    sheet = parse_sheet(text, CONFIG)
    assert [e.race for e in sheet.entries] == ["F1"]
    assert sheet.problems[0].line == 5


def test_factory_elimination_only_without_other_building() -> None:
    # April 2000 §9
    alone = parse_sheet("Rennstall: A\nPasswort: a\nRunde: 1\nEntwicklung W: Elimination\n",
                        CONFIG)
    assert alone.problems == [] and alone.developments[0].action == "Elimination"
    mixed = _problems("Entwicklung W: Elimination", "Bau R: 3")
    assert mixed[0][0] == 4 and "§9" in mixed[0][1]


def test_factory_offers_follow_rule_15() -> None:
    problems = _problems("an Honda: Biete A-W-Fabrik ab 100.000",
                         "an alle: Biete Honda-W-Fabrik ab 100.000",
                         "an alle: Suche Honda-W-Fabrik zu 100.000",
                         "an Lotus: Kaufe Honda-W-Fabrik zu 100.000")
    assert [line for line, _, _ in problems] == [4, 5, 6, 7]
    assert all("§15" in de for _, de, _ in problems)


def test_only_one_blank_contract_and_only_for_the_running_year() -> None:
    problems = _problems("Vertrag: Lauda 10.000 Blankovertrag",
                         "Vertrag: Senna 10.000 Blankovertrag",
                         "Vertrag: Prost 10.000 Blankovertrag Folgejahr")
    assert [line for line, _, _ in problems] == [6, 5]
    assert all("§16" in de for _, de, _ in problems)


def test_amounts_accept_german_thousands_separators_only() -> None:
    assert parse_amount("1.200.000") == 1_200_000
    assert parse_amount("999") == 999
    assert parse_amount("1,5") is None
    assert parse_amount("12.00") is None
