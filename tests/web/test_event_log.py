"""The race page's words: the event log in the page's language only, from ``event_text``,
and a move's costs counted with singular and plural."""

from __future__ import annotations

from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.play.view_build import local_view
from rennleitung.web.view import log_lines, option_cost


def test_the_log_speaks_the_page_language_only() -> None:
    race = run_bot_race("monaco", "dresden-2006", 4, 1, "log", "simple")
    names = race.driver_names()
    seen = local_view(race)
    german, english = log_lines(seen, "de", last=200), log_lines(seen, "en", last=200)
    assert len(german) == len(english) == 200
    assert german[0] == render(race.events[-1], "de", names)
    rounds = [line for line in german if ": " in line and line[0].isupper()]
    assert all(not line.startswith("Round ") for line in german)
    assert any(line.startswith("Spielrunde ") for line in rounds)
    assert all(not line.startswith("Spielrunde ") for line in english)
    assert not any(" / " in line for line in german + english)  # never "de / en"


def test_a_move_counts_its_costs_with_singular_and_plural() -> None:
    """Was "1 Bremspunkte", "1 Felder überschossen", "1 Mauertest(s)"."""
    race = run_bot_race("monaco", "dresden-2006", 2, 1, "cost", "simple")
    one = MoveOption(start=0, path=(1, 2), brakes=1, tyres=1, overshoot=1, wall_tests=1,
                     dangerous=(2,), contacts=(2,), blocked=1)
    two = one._replace(brakes=2, overshoot=2, wall_tests=2, dangerous=(1, 2))
    german = option_cost(race.track, one, "de")
    for said in ("1 Bremspunkt ", "1 Reifenpunkt ", "1 Feld überschossen", "1 Mauertest ",
                 "1 Straßenlagetest auf gefährlichem Feld", "1 Kollisionstest ",
                 "1 Feld blockiert"):
        assert said in german, german
    assert "(s)" not in german + option_cost(race.track, one, "en")
    assert "2 Bremspunkte" in option_cost(race.track, two, "de")
    assert "2 wall tests" in option_cost(race.track, two, "en")
    assert "1 brake point " in option_cost(race.track, one, "en")
