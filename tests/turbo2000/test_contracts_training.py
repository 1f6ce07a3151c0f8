"""Driver contracts, the blank contract (April 2000 §16) and training camps (§1)."""

from __future__ import annotations

from .helpers import CONFIG, game, hire, notes, run, sheet


def test_highest_salary_wins_the_driver() -> None:
    state = game("Ferrari", "Honda", "Lotus")
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 20.000"),
                  sheet(state, "Honda", "Vertrag: Lauda 25.000"),
                  sheet(state, "Lotus", "Vertrag: Lauda 12.000 Folgejahr"))
    lauda = outcome.state.drivers["Lauda"]
    assert (lauda.team, lauda.salary) == ("Honda", 25_000)
    assert (lauda.next_team, lauda.next_salary) == ("Lotus", 12_000)
    assert "überboten / outbid" in notes(outcome, "Ferrari")


def test_salary_is_paid_every_round() -> None:
    state = game("Ferrari", "Honda")
    hire(state, "Lauda", "Ferrari", salary=30_000)
    outcome = run(state)
    assert outcome.state.teams["Ferrari"].money == \
        state.teams["Ferrari"].money + CONFIG.sponsor_money - 30_000


def test_blank_contract_gives_another_driver_of_the_same_rating() -> None:
    state = game("Ferrari", "Honda")
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 10.000 Blankovertrag"),
                  sheet(state, "Honda", "Vertrag: Lauda 40.000"))
    mine = [d for d in outcome.state.drivers.values() if d.team == "Ferrari"]
    assert len(mine) == 1 and mine[0].name != "Lauda" and mine[0].salary == 10_000
    assert outcome.state.drivers["Lauda"].team == "Honda"


def test_blank_contract_only_in_the_entry_turn() -> None:
    state = game("Ferrari", "Honda")
    state.round = 2
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 10.000 Blankovertrag"))
    assert "nur im Einstiegszug (§16)" in notes(outcome, "Ferrari")
    assert outcome.state.drivers["Lauda"].team is None


def test_blank_contract_in_a_years_last_round_is_for_the_next_year() -> None:
    state = game("Ferrari", "Honda")
    state.round = 6
    for team in state.teams.values():
        team.entry_round = 6
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 10.000 Blankovertrag"))
    # the year ends in this evaluation, so the next-year contract is now the running one
    assert outcome.state.drivers["Lauda"].team == "Ferrari"


def test_training_places_go_to_the_highest_bids() -> None:
    # two places (rules version 3's number; version 4 has one, below)
    from dataclasses import replace

    state = game("Ferrari", "Honda")
    for name, team in (("Lauda", "Ferrari"), ("Piquet", "Ferrari"), ("Prost", "Honda")):
        hire(state, name, team)
    outcome = run(state, sheet(state, "Ferrari", "Training: Lauda 30.000",
                               "Training: Piquet 10.000"),
                  sheet(state, "Honda", "Training: Prost 20.000"),
                  config=replace(CONFIG, training_places=2))
    drivers = outcome.state.drivers
    assert drivers["Lauda"].rating == 120 and drivers["Prost"].rating == 120
    assert drivers["Piquet"].rating == 100  # no place: no gain, no payment
    paid = state.teams["Ferrari"].money + CONFIG.sponsor_money - 20_000 - \
        outcome.state.teams["Ferrari"].money
    assert paid == 30_000
    assert "[Training]: Piquet: kein Platz (§1) / Piquet: no place (§1)" in \
        notes(outcome, "Ferrari")


def test_training_needs_a_driver_under_contract() -> None:
    state = game("Ferrari", "Honda")
    outcome = run(state, sheet(state, "Ferrari", "Training: Lauda 30.000"))
    assert "not under contract this year (§1)" in notes(outcome, "Ferrari")


def test_a_fourth_driver_costs_the_extra_driver_fee_every_round() -> None:
    # the option of rules version 3 (rules.md §2): three drivers a team are free of the fee,
    # each one more pays it every round on top of his salary; without it (the default, and
    # version 2) only the salaries are paid
    from dataclasses import replace

    config = replace(CONFIG, extra_driver_fee=150_000)
    state = game("Ferrari", "Honda", "Lotus")  # a pool of nine drivers
    for driver in ("Lauda", "Piquet", "Prost", "Senna"):
        hire(state, driver, "Ferrari")
    for driver in ("Mansell", "Berger", "Alboreto"):
        hire(state, driver, "Honda")
    before = {name: team.money for name, team in state.teams.items()}
    outcome = run(state, config=config)
    paid = {name: before[name] + CONFIG.sponsor_money - outcome.state.teams[name].money
            for name in before}
    assert (CONFIG.extra_driver_fee, CONFIG.fee_free_drivers) == (0, 3)
    assert paid == {"Ferrari": 4 * 10_000 + 150_000, "Honda": 3 * 10_000, "Lotus": 0}
    report = notes(outcome, "Ferrari")
    assert "Zuschlag für 1 Fahrer über 3" in report and "150.000" in report
    assert "fee for 1 driver beyond 3" in outcome.team_reports_en["Ferrari"]
    assert "Zuschlag" not in notes(outcome, "Honda")
    # a fifth driver pays it twice; without the fee (version 2) only the salaries are paid
    hire(state, "Patrese", "Ferrari")
    assert run(state, config=config).state.teams["Ferrari"].money == \
        before["Ferrari"] + CONFIG.sponsor_money - 5 * 10_000 - 2 * 150_000
    assert run(state).state.teams["Ferrari"].money == \
        before["Ferrari"] + CONFIG.sponsor_money - 5 * 10_000
    # the start sheet names the fee when there is one
    from rennleitung.turbo2000.document import as_text
    from rennleitung.turbo2000.reports import start_document

    fresh = game("Ferrari", "Honda", config=config)
    assert "Zuschlag je Fahrer über 3 / fee per driver beyond 3 150.000 je Runde / a round" in \
        as_text(start_document(fresh, config))
    assert "fee per driver beyond 3 150.000 a round" in \
        as_text(start_document(fresh, config, "en"))
    assert "Zuschlag" not in as_text(start_document(game("Ferrari", "Honda"), CONFIG))


def test_a_team_holds_at_most_three_drivers_a_year_and_the_next_bid_wins() -> None:
    # rules version 4 (rules.md §2, ``max_drivers``): Ferrari holds three drivers, so its bid
    # for a fourth is passed over and the lower bid of Honda wins him; Lotus, with two, may
    # bid for two but keeps one (Alboreto comes first, the alphabetical order of the drivers),
    # and a bid for the next year counts that year's contracts, not this year's
    state = game("Ferrari", "Honda", "Lotus", "Brabham")
    for driver in ("Lauda", "Piquet", "Prost"):
        hire(state, driver, "Ferrari")
    for driver in ("Senna", "Mansell"):
        hire(state, driver, "Lotus")
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Berger 50.000",
                               "Vertrag: Patrese 10.000 Folgejahr"),
                  sheet(state, "Honda", "Vertrag: Berger 11.000"),
                  sheet(state, "Lotus", "Vertrag: Alboreto 12.000", "Vertrag: Arnoux 12.000"))
    drivers = outcome.state.drivers
    assert (drivers["Berger"].team, drivers["Berger"].salary) == ("Honda", 11_000)
    assert drivers["Patrese"].next_team == "Ferrari"
    assert drivers["Alboreto"].team == "Lotus" and drivers["Arnoux"].team is None
    report = notes(outcome, "Ferrari")
    assert "Zeile 4 / line 4 [Berger]: Rennstall hat schon 3 Fahrer für dieses Jahr " \
        "(höchstens 3, Regelversion 4)" in report
    assert "the team already has 3 drivers for that year (at most 3, rules version 4)" in \
        outcome.team_reports_en["Ferrari"]
    assert "[Arnoux]: Rennstall hat schon 3 Fahrer" in notes(outcome, "Lotus")
    assert sum(d.team == "Ferrari" for d in drivers.values()) == 3
    # the start sheet says so, in the reader's language; a version-3 game has no such line
    from dataclasses import replace

    from rennleitung.turbo2000.document import as_text
    from rennleitung.turbo2000.reports import start_document

    fresh = game("Ferrari", "Honda")
    assert "Höchstens 3 Fahrer je Rennstall und Jahr / at most 3 drivers a team and year" in \
        as_text(start_document(fresh, CONFIG))
    assert "  at most 3 drivers a team and year" in as_text(start_document(fresh, CONFIG, "en"))
    german = as_text(start_document(fresh, CONFIG, "de"))
    assert "  Höchstens 3 Fahrer je Rennstall und Jahr\n" in german and "at most" not in german
    assert "drivers a team and year" not in as_text(
        start_document(fresh, replace(CONFIG, max_drivers=0)))


def test_a_game_of_rules_version_three_has_no_driver_limit() -> None:
    from dataclasses import replace

    state = game("Ferrari", "Honda")
    for driver in ("Lauda", "Piquet", "Prost"):
        hire(state, driver, "Ferrari")
    bid = sheet(state, "Ferrari", "Vertrag: Senna 10.000")
    assert CONFIG.max_drivers == 3
    assert run(state, bid).state.drivers["Senna"].team is None
    assert run(state, bid, config=replace(CONFIG, max_drivers=0)).state.drivers["Senna"].team \
        == "Ferrari"


def test_a_blank_contract_that_lost_respects_the_driver_limit() -> None:
    # Ferrari enters with two drivers (a game master's start), bids blank for Lauda and
    # plainly for Mansell: Lauda goes to Honda, Mansell (after him in the alphabet) fills
    # Ferrari's third place, so the blank contract finds no place for another driver
    state = game("Ferrari", "Honda", "Lotus")
    for driver in ("Piquet", "Prost"):
        hire(state, driver, "Ferrari")
    outcome = run(state, sheet(state, "Ferrari", "Vertrag: Lauda 10.000 Blankovertrag",
                               "Vertrag: Mansell 10.000"),
                  sheet(state, "Honda", "Vertrag: Lauda 40.000"))
    assert outcome.state.drivers["Mansell"].team == "Ferrari"
    assert sum(d.team == "Ferrari" for d in outcome.state.drivers.values()) == 3
    assert "[Blankovertrag]: Rennstall hat schon 3 Fahrer" in notes(outcome, "Ferrari")


def test_one_training_place_and_the_option_of_places_by_the_field() -> None:
    # rules version 4 (rules.md §2): one place whatever the field (``training_places`` 1); a
    # game master may choose one for every ``teams_per_training_place`` teams instead, at least
    # one, at most ``training_places``; the start sheet and the announcements publish it (§1)
    from dataclasses import replace

    assert {CONFIG.places_for_training(n) for n in range(1, 25)} == {1}
    by_field = replace(CONFIG, training_places=2, teams_per_training_place=6)
    assert [by_field.places_for_training(n) for n in (1, 5, 6, 11, 12, 17, 18, 24)] == \
        [1, 1, 1, 1, 2, 2, 2, 2]
    assert replace(by_field, training_places=4).places_for_training(24) == 4
    # two teams: only the highest bid trains; Lauda's bid is refused for want of a place
    state = game("Ferrari", "Honda")
    for name, team in (("Lauda", "Ferrari"), ("Prost", "Honda")):
        hire(state, name, team)
    outcome = run(state, sheet(state, "Ferrari", "Training: Lauda 30.000"),
                  sheet(state, "Honda", "Training: Prost 40.000"))
    assert (outcome.state.drivers["Prost"].rating, outcome.state.drivers["Lauda"].rating) == \
        (120, 100)
    assert "Lauda: kein Platz (§1)" in notes(outcome, "Ferrari")
    # by the field, a team that left the game no longer counts: twelve teams give two places,
    # eleven one
    from rennleitung.turbo2000.document import as_text
    from rennleitung.turbo2000.reports import start_document

    names = ("Ferrari", "Honda", "Lotus", "Brabham", "Tyrrell", "Williams", "Ligier",
             "Arrows", "Osella", "Minardi", "Zakspeed", "March")
    big = game(*names)
    assert "Trainingsplätze: 1" in as_text(start_document(big, CONFIG))
    assert "Trainingsplätze: 2" in as_text(start_document(big, by_field))
    big.teams["March"].active = False
    assert "Trainingsplätze: 1" in as_text(start_document(big, by_field))
