"""Trade lines: published in one round, answered in the next (April 2000 §12–§15, §19)."""

from __future__ import annotations

from rennleitung.turbo2000.model import Factory, GameState, Part
from rennleitung.turbo2000.pipeline import RoundOutcome

from .helpers import CONFIG, game, notes, run, sheet, stock

TEAMS = ("Ferrari", "Honda", "Lotus", "Brabham")


def _published(*lines: tuple[str, str]) -> GameState:
    state = game(*TEAMS)
    stock(state, "Ferrari", "2 Ferrari-W12", "Ferrari-R14")
    stock(state, "Honda", "3 Honda-R14", "Honda-R16", "Honda-R12")
    state = run(state, *(sheet(state, team, line) for team, line in lines)).state
    return state


def _answer(state: GameState, *lines: tuple[str, str]) -> RoundOutcome:
    return run(state, *(sheet(state, team, line) for team, line in lines))


def test_biete_goes_to_the_highest_kaufe_prices() -> None:
    state = _published(("Ferrari", "an alle: Biete 2 Ferrari-W12 zu 600.000"))
    assert state.offers[0].describe() == "#1 Ferrari an alle: Biete 2 Ferrari-W12 zu 600.000"
    money = {name: state.teams[name].money for name in TEAMS}
    outcome = _answer(state, ("Honda", "an Ferrari: Kaufe Ferrari-W12 zu 600.000"),
                      ("Lotus", "an Ferrari: Kaufe Ferrari-W12 zu 700.000"),
                      ("Brabham", "an Ferrari: Kaufe 1 Ferrari-W12 zu 650.000"))
    teams = outcome.state.teams
    w12 = Part("Ferrari", "W", 12)
    assert teams["Lotus"].count(w12) == 1 and teams["Brabham"].count(w12) == 1
    assert teams["Honda"].count(w12) == 0 and teams["Ferrari"].count(w12) == 0
    sponsor, fee = CONFIG.sponsor_money, CONFIG.storage_fee
    assert teams["Lotus"].money == money["Lotus"] + sponsor - 700_000
    assert teams["Ferrari"].money == money["Ferrari"] + sponsor - 2 * fee["W"] - fee["R"] \
        + 1_350_000
    assert "[Kaufe]: Angebot #1 ausverkauft / offer #1 sold out" in notes(outcome, "Honda")


def test_kaufe_below_the_asking_price_is_refused() -> None:
    state = _published(("Ferrari", "an alle: Biete Ferrari-W12 zu 600.000"))
    outcome = _answer(state, ("Honda", "an Ferrari: Kaufe Ferrari-W12 zu 500.000"))
    assert "unter dem Mindestpreis 600.000" in notes(outcome, "Honda")
    assert "below the asking price 600.000" in notes(outcome, "Honda")


def test_kaufe_must_name_the_offered_rating() -> None:
    # April 2000 §13
    state = _published(("Ferrari", "an alle: Biete Ferrari-W12 zu 600.000"))
    outcome = _answer(state, ("Honda", "an Ferrari: Kaufe Ferrari-W11 zu 600.000"))
    assert "keine passende veröffentlichte Biete-Zeile" in notes(outcome, "Honda")
    assert outcome.state.teams["Ferrari"].count(Part("Ferrari", "W", 12)) == 2


def test_offer_to_one_team_is_not_open_to_others() -> None:
    state = _published(("Ferrari", "an Honda: Biete Ferrari-W12 zu 600.000"))
    outcome = _answer(state, ("Lotus", "an Ferrari: Kaufe Ferrari-W12 zu 900.000"))
    assert "no matching published Biete line" in notes(outcome, "Lotus")


def test_suche_buys_the_cheapest_verkaufe_and_a_higher_rating_must_be_delivered() -> None:
    state = _published(("Lotus", "an alle: Suche R12 zu 20.000"))
    outcome = _answer(state, ("Honda", "an Lotus: Verkaufe Honda-R16 zu 18.000"),
                      ("Ferrari", "an Lotus: Verkaufe Ferrari-R14 zu 19.000"))
    lotus = outcome.state.teams["Lotus"]
    assert lotus.count(Part("Honda", "R", 16)) == 1
    assert lotus.count(Part("Ferrari", "R", 14)) == 0
    assert "schon erfüllt" in notes(outcome, "Ferrari")


def test_missing_part_is_replaced_by_a_better_one_of_the_same_maker() -> None:
    state = _published(("Lotus", "an alle: Suche 2 R12 zu 20.000"))
    outcome = _answer(state, ("Honda", "an Lotus: Verkaufe 2 Honda-R15 zu 18.000"))
    lotus = outcome.state.teams["Lotus"]
    # no Honda-R15: the next better Honda tyres (R16, then none) replace it; the rest is a penalty
    assert lotus.count(Part("Honda", "R", 16)) == 1
    assert sum(lotus.stock.values()) == 1
    assert "Konventionalstrafe von Honda" in notes(outcome, "Lotus")
    assert "Zeile 4 / line 4 [Verkaufe]: Honda-R15 nicht lieferbar" in notes(outcome, "Honda")
    assert "not deliverable: penalty 18.000 to Lotus" in notes(outcome, "Honda")


def test_unfulfillable_offer_loses_its_highest_kaufe() -> None:
    # April 2000 §14: Ferrari offers two R14 but holds one and cannot build them
    state = _published(("Ferrari", "an alle: Biete 2 Ferrari-R14 zu 10.000"))
    assert state.offers[0].unfulfillable
    outcome = _answer(state, ("Honda", "an Ferrari: Kaufe Ferrari-R14 zu 30.000"),
                      ("Lotus", "an Ferrari: Kaufe Ferrari-R14 zu 20.000"),
                      ("Brabham", "an Ferrari: Kaufe Ferrari-R14 zu 15.000"))
    teams = outcome.state.teams
    assert teams["Honda"].count(Part("Ferrari", "R", 14)) == 0
    assert "(§14)" in notes(outcome, "Honda")
    assert teams["Lotus"].count(Part("Ferrari", "R", 14)) == 1
    assert "Konventionalstrafe von Ferrari" in notes(outcome, "Brabham")


def test_offer_covered_by_stock_is_not_unfulfillable() -> None:
    state = _published(("Honda", "an alle: Biete 3 Honda-R14 zu 10.000"))
    assert not state.offers[0].unfulfillable


def test_factory_sale_goes_to_the_highest_bid_of_a_team_without_one() -> None:
    state = game(*TEAMS)
    state.factories += [Factory("Ferrari", "W", 14, [1] * 10), Factory("Lotus", "W", 12)]
    state.wm_points["Ferrari"] = 30
    state = run(state, sheet(state, "Ferrari", "an alle: Biete Ferrari-W-Fabrik ab 1.000.000")
                ).state
    outcome = _answer(state, ("Honda", "an Ferrari: Kaufe Ferrari-W-Fabrik zu 1.500.000"),
                      ("Lotus", "an Ferrari: Kaufe Ferrari-W-Fabrik zu 2.000.000"),
                      ("Brabham", "an Ferrari: Kaufe Ferrari-W-Fabrik zu 900.000"))
    after = outcome.state
    assert after.factory("Honda", "W") is not None and after.factory("Ferrari", "W") is None
    assert after.factory("Honda", "W").rating == 14  # type: ignore[union-attr]
    assert "§15" in notes(outcome, "Lotus")
    assert "unter dem Mindestpreis" in notes(outcome, "Brabham")
    assert after.wm_points["Ferrari"] == 30 and after.wm_points["Honda"] == 0


def test_turbo_sells_at_the_new_factory_rating_and_list_price() -> None:
    state = game(*TEAMS)
    rating, car = state.new_factory_rating["M"], state.new_factory_rating["W"]
    before = state.teams["Honda"].money
    outcome = run(state, sheet(state, "Honda", f"an Turbo: Kaufe 2 Turbo-M{rating} zu 300.000",
                               f"an Turbo: Kaufe Turbo-W{car + 1} zu 900.000"))
    honda = outcome.state.teams["Honda"]
    assert honda.count(Part("Turbo", "M", rating)) == 2
    assert honda.money == before + CONFIG.sponsor_money - 2 * CONFIG.turbo_price["M"]
    assert f"Turbo verkauft Turbo-W{car}" in notes(outcome, "Honda")


def test_leaving_team_material_is_offered_at_zero_then_eliminated() -> None:
    # April 2000 §19
    state = game(*TEAMS)
    stock(state, "Ferrari", "2 Ferrari-W12")
    state.factories.append(Factory("Ferrari", "R", 11))
    state.drivers["Lauda"].team, state.drivers["Lauda"].next_team = "Ferrari", "Ferrari"
    left = run(state, sheet(state, "Ferrari", "Ausstieg: ferrari")).state
    assert not left.teams["Ferrari"].active
    assert left.drivers["Lauda"].team is None and left.drivers["Lauda"].next_team is None
    assert [(o.team, o.count, o.price, o.factory) for o in left.offers] == [
        ("Ferrari", 2, 0, False), ("Ferrari", 1, 0, True)]
    after = _answer(left, ("Honda", "an Ferrari: Kaufe Ferrari-W12 zu 0")).state
    assert after.teams["Honda"].count(Part("Ferrari", "W", 12)) == 1
    assert after.teams["Ferrari"].stock == {}
    assert after.factory("Ferrari", "R") is None
