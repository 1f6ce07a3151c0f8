"""The race page's event log: every line in the page's language only, from ``event_text``."""

from __future__ import annotations

from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.web.view import log_lines


def test_the_log_speaks_the_page_language_only() -> None:
    race = run_bot_race("monaco", "dresden-2006", 4, 1, "log", "simple")
    names = race.driver_names()
    german, english = log_lines(race, "de", last=200), log_lines(race, "en", last=200)
    assert len(german) == len(english) == 200
    assert german[0] == render(race.events[-1], "de", names)
    rounds = [line for line in german if ": " in line and line[0].isupper()]
    assert all(not line.startswith("Round ") for line in german)
    assert any(line.startswith("Spielrunde ") for line in rounds)
    assert all(not line.startswith("Spielrunde ") for line in english)
    assert not any(" / " in line for line in german + english)  # never "de / en"
