"""Factories: construction, development, modernisation, elimination (April 2000 §7–§9)."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.turbo2000.factories import develop_once, new_factory_ratings
from rennleitung.turbo2000.model import Factory

from .helpers import CONFIG, game, notes, run, sheet


def test_new_factory_gets_zero_digits_and_the_published_rating() -> None:
    state = game("Ferrari", "Honda")
    state.new_factory_rating["M"] = 13
    outcome = run(state, sheet(state, "Ferrari", "Errichtung: M"))
    factory = outcome.state.factory("Ferrari", "M")
    assert factory is not None
    assert factory.digits == [0] * 10 and factory.rating == 13
    assert outcome.state.teams["Ferrari"].money == \
        state.teams["Ferrari"].money + CONFIG.sponsor_money - CONFIG.factory_cost["M"]


def test_second_factory_of_a_kind_is_refused() -> None:
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "R", 10))
    outcome = run(state, sheet(state, "Ferrari", "Errichtung: R"))
    assert "already has a factory of this kind" in notes(outcome, "Ferrari")


def test_rating_rises_when_the_smallest_digit_rises() -> None:
    config = replace(CONFIG, development_rule="min_digit")  # the first reconstruction
    factory = Factory("Ferrari", "W", 10, [1, 1, 1, 1, 1, 1, 1, 1, 1, 0])
    assert not develop_once(factory, 1, config)
    assert factory.digits[0] == 2 and factory.rating == 10
    assert develop_once(factory, 10, config)
    assert factory.rating == 11 and factory.digits[9] == 1


def test_rating_rises_with_every_few_digits_raised() -> None:
    # default: +1 for every development_steps_per_rating (4) digits raised, whichever they are
    factory = Factory("Ferrari", "W", 18)
    risen = [develop_once(factory, roll, CONFIG) for roll in (1, 1, 2, 3, 1, 5, 5, 5)]
    assert risen == [False, False, False, True, False, False, False, True]
    assert factory.rating == 20 and sum(factory.digits) == 8


def test_digits_stop_at_nine() -> None:
    factory = Factory("Ferrari", "W", 10, [9] * 10)
    assert not develop_once(factory, 4, CONFIG)
    assert factory.digits == [9] * 10


def test_development_steps_are_paid_and_rolled() -> None:
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "W", 10))
    outcome = run(state, sheet(state, "Ferrari", "Entwicklung W: 3"))
    factory = outcome.state.factory("Ferrari", "W")
    assert factory is not None and sum(factory.digits) == 3
    assert sum(1 for line in outcome.log if "W10 Entwicklung Ferrari W" in line) == 3
    before = state.teams["Ferrari"].money + CONFIG.sponsor_money
    spent = before - outcome.state.teams["Ferrari"].money
    assert spent == 3 * CONFIG.development_step_cost


def test_modernisation_sets_the_published_rating_and_keeps_the_digits() -> None:
    # April 2000 §8
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "M", 9, [3] * 10))
    state.new_factory_rating["M"] = 12
    outcome = run(state, sheet(state, "Ferrari", "Entwicklung M: Modernisierung"))
    factory = outcome.state.factory("Ferrari", "M")
    assert factory is not None and factory.rating == 12 and factory.digits == [3] * 10
    assert outcome.state.teams["Ferrari"].money == \
        state.teams["Ferrari"].money + CONFIG.sponsor_money - 500_000


def test_modernisation_only_below_the_new_factory_rating() -> None:
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "M", 12))
    state.new_factory_rating["M"] = 12
    outcome = run(state, sheet(state, "Ferrari", "Entwicklung M: Modernisierung"))
    assert "§8" in notes(outcome, "Ferrari")


def test_factory_elimination_refunds_digit_sum_times_150000() -> None:
    # April 2000 §9: refund by the digits, not the rating
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "R", 17, [1, 2, 0, 0, 3, 0, 0, 0, 0, 1]))
    outcome = run(state, sheet(state, "Ferrari", "Entwicklung R: Elimination"))
    assert outcome.state.factory("Ferrari", "R") is None
    assert outcome.state.teams["Ferrari"].money == \
        state.teams["Ferrari"].money + CONFIG.sponsor_money + 7 * 150_000


def test_new_factory_rating_is_the_lower_median_minus_offset_at_least_minimum() -> None:
    state = game("A", "B")
    assert new_factory_ratings(state, CONFIG) == {"W": 18, "M": 16, "R": 18}  # engines -2
    state.factories += [Factory("A", "W", 22), Factory("B", "W", 25), Factory("C", "W", 23)]
    assert new_factory_ratings(state, CONFIG)["W"] == 21
    state.round = 13  # year 3: the minimum has risen twice by new_factory_min_per_year
    assert new_factory_ratings(state, CONFIG)["R"] == 18 + 2 * CONFIG.new_factory_min_per_year


def test_building_without_money_builds_what_can_be_paid() -> None:
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "W", 10))
    state.teams["Ferrari"].money = 1_000_000
    outcome = run(state, sheet(state, "Ferrari", "Bau W: 5"))
    assert "money only enough for 2 of 5 pieces" in notes(outcome, "Ferrari")


def test_an_amount_too_small_for_one_piece_or_step_is_noted_with_its_line() -> None:
    # §11: from 1,000 on the amount is money; Bau M: 1000 and Entwicklung M: 150.000 buy nothing
    state = game("Ferrari", "Honda")
    state.factories.append(Factory("Ferrari", "M", 12))
    outcome = run(state, sheet(state, "Ferrari", "Bau M: 1000", "Entwicklung M: 150.000"))
    problems = outcome.rejections["Ferrari"]
    build = next(p for p in problems if p.field == "Bau M")
    develop = next(p for p in problems if p.field == "Entwicklung M")
    assert build.line == 4 and develop.line == 5
    assert "pays for no piece" in build.en and "kein Stück" in build.de
    assert "200.000 per step" in develop.en and "nichts gekauft" in develop.de
    assert "Zeile 4 / line 4" in outcome.team_reports["Ferrari"]
    assert "1.000 is money from 1.000 on" in outcome.team_reports["Ferrari"]
    factory = outcome.state.factory("Ferrari", "M")
    assert factory is not None and sum(factory.digits) == 0
