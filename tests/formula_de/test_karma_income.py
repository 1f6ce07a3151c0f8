"""The end-of-race karma and "most laps led" have one home (issue 20 item 6): the engine's
``karma_income``, which the race pays from and the league's ledger books from."""

from __future__ import annotations

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.karma_income import end_of_race_karma, laps_most_led
from rennleitung.formula_de.ruleset import get_ruleset
from rennleitung.league import lap_leaders


def test_a_lap_goes_to_every_car_tied_on_the_most_rounds_led() -> None:
    """Rule decision "meiste Führungsrunden in einer Rennrunde": per lap the most rounds led
    earn it, tied cars all do; a car that led no round earns nothing."""
    rounds_led = {"a": {1: 2, 2: 1}, "b": {1: 2, 2: 3}, "c": {}}
    assert laps_most_led(rounds_led) == {"a": 1, "b": 2}


def test_the_league_reads_its_lap_chart_into_the_engines_count() -> None:
    leaders = [(1, "a"), (1, "b"), (1, "a"), (2, "b"), (2, "b"), (2, "a")]
    by_car = {"a": {1: 2, 2: 1}, "b": {1: 1, 2: 2}}
    assert lap_leaders.laps_most_led(leaders) == laps_most_led(by_car) == {"a": 1, "b": 1}


def test_income_under_the_dresden_karmapool() -> None:
    """Dresden Karmapool: 1 per point, 3 per place gained (finishers only), 3 per lap led most;
    the Open pays 1 per 100 points."""
    dresden = get_ruleset("dresden-2006")
    income = end_of_race_karma(dresden, points=8, grid=5, position=2, finished=True,
                               laps_most_led=1)
    assert (income.points, income.places, income.laps_led, income.total) == (8, 9, 3, 20)
    retired = end_of_race_karma(dresden, points=0, grid=5, position=2, finished=False,
                                laps_most_led=0)
    assert retired.total == 0
    open_rules = get_ruleset("dresden-open")
    assert end_of_race_karma(open_rules, 250, 1, 1, True, 0).points == 250 // 100


def test_one_word_table_for_the_car_states() -> None:
    """The web said "gedreht", the command line "Dreher": one table now (``CarStatus``'s
    labels), which the web's status column and the command line both read."""
    assert (CarStatus.SPUN.label_de, CarStatus.SPUN.label_en) == ("gedreht", "spun")
    assert all(s.label_de and s.label_en for s in CarStatus)
