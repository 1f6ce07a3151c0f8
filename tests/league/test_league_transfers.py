"""Transfers in the engine: who is a team-mate in which race, team sizes per race, and a row
that names a team (``league/transfers.py``, ``docs/league/rules.md#transfers``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.league.league_builders import race, roster

from rennleitung.errors import RennleitungError
from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import DRESDEN_SEASON_2006
from rennleitung.league.season import League
from rennleitung.league.transfers import Transfer


def league() -> League:
    teams = {"Nord": ["Mo", "Ute"], "Süd": ["Kai"], "Ost": ["Lea", "Tim"]}
    return League("T", roster(DRESDEN_SEASON_2006, teams))


def test_the_team_mate_is_the_one_of_that_race() -> None:
    moved = league().with_transfer(Transfer("Mo", "Süd", 2))
    order = ["Lea", "Tim", "Mo", "Ute", "Kai"]
    first, _ = enter_race(moved, race(1, order, driven_by={"Mo": "Ute"}))
    # race 2: Ute is no longer Mo's team-mate; Kai is
    with pytest.raises(RennleitungError, match="not a team-mate of Mo") as refused:
        enter_race(first, race(2, order, driven_by={"Mo": "Ute"}))
    assert refused.value.where == "race 2, Mo, driven_by"
    second, _ = enter_race(first, race(2, order, driven_by={"Mo": "Kai"}))
    teams = {t.team: t.points for t in constructor_standings(second)}
    # places 10-8-6-5-4: race 1 Mo 6 + Ute 5 for Nord, Kai 4 for Süd; race 2 Mo 6 + Kai 4
    # for Süd, Ute 5 for Nord
    assert teams == {"Ost": 36, "Nord": 6 + 5 + 5, "Süd": 4 + 6 + 4}


def test_a_transfer_after_races_moves_their_points_and_checks_them_again() -> None:
    order = ["Lea", "Tim", "Mo", "Ute", "Kai"]
    entered, _ = enter_race(league(), race(1, order))
    entered, _ = enter_race(entered, race(2, order))
    moved = entered.with_transfer(Transfer("Mo", "Süd", 2))
    assert {t.team: t.points for t in constructor_standings(moved)} == {
        "Ost": 36, "Nord": 6 + 5 + 5, "Süd": 4 + 6 + 4}
    with_stand_in, _ = enter_race(league(), race(1, order))
    with_stand_in, _ = enter_race(with_stand_in, race(2, order, driven_by={"Mo": "Ute"}))
    with pytest.raises(RennleitungError, match="not a team-mate of Mo"):
        with_stand_in.with_transfer(Transfer("Mo", "Süd", 2))


def test_a_row_naming_a_new_team_enters_the_transfer() -> None:
    result = race(1, ["Lea", "Tim", "Mo", "Ute", "Kai"])
    rows = tuple(replace(e, team="Süd") if e.driver == "Mo" else e for e in result.drivers)
    updated, _ = enter_race(league(), replace(result, drivers=rows))
    assert updated.roster.transfers == (Transfer("Mo", "Süd", 1),)
    full = tuple(replace(e, team="Ost") if e.driver == "Mo" else e for e in result.drivers)
    with pytest.raises(RennleitungError, match="team 'Ost' would have 3 drivers") as refused:
        enter_race(league(), replace(result, drivers=full))
    assert refused.value.where == "race 1, Mo, team"


def test_no_more_than_two_cars_of_a_team_in_one_race() -> None:
    # Ute leaves Nord from race 2 and comes back from race 3 while Kai has moved in
    moved = (league().with_transfer(Transfer("Ute", "Süd", 2))
             .with_transfer(Transfer("Kai", "Nord", 2)))
    with pytest.raises(RennleitungError, match="team 'Nord' would have 3 drivers"):
        moved.with_transfer(Transfer("Ute", "Nord", 3))
