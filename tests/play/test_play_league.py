"""A league race played on the server goes into the league's standings the way `league run-race`
puts one there: same configuration from the league, same reading of the finished race, same
``LeagueStore`` call; entered once, and a race the league refuses is marked, not retried. On
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import LeagueKind
from rennleitung.league.race_result_codec import race_result_from_csv
from rennleitung.league.race_run import race_config, race_result
from rennleitung.league.roster import Driver
from rennleitung.play import RaceService, RaceState
from rennleitung.play.league_races import enter_finished, league_race_spec
from rennleitung.store.league_store import LeagueStore
from tests.play.support import SEED, play_on

LEAGUE = "Saison"
DRIVERS = (("Anna", "Rot"), ("Ben", "Rot"), ("Clara", "Blau"), ("Dora", "Blau"))


def season(service: RaceService) -> LeagueStore:
    leagues = LeagueStore(service.engine)
    leagues.create_league(LEAGUE, LeagueKind.SEASON)
    for team in ("Rot", "Blau"):
        leagues.add_team(LEAGUE, team)
    for name, team in DRIVERS:
        leagues.add_driver(LEAGUE, Driver(name, team))
    return leagues


def as_the_cli_runs_it(leagues: LeagueStore, number: int, seed: str) -> Race:
    """`league run-race` with the simple bot in every seat (cli/league_run.py, its steps)."""
    config = race_config(leagues.load(LEAGUE), number, "oval", laps=1)
    race = Race(config, Dice.from_seed(seed), commitment=commit(seed))
    bot = make_bot("simple")
    while (ask := race.pending) is not None:
        race.apply(bot.decide(race, ask))
    return race


def test_a_finished_league_race_is_entered_like_a_cli_run(service: RaceService) -> None:
    leagues = season(service)
    spec = league_race_spec(leagues, LEAGUE, 1, "oval", people={"Anna", "Clara"}, bot="simple",
                            laps=1)
    assert [s.car for s in spec.seats] == [e.id for e in spec.config.entries]  # type: ignore[union-attr]
    race_id = service.create_race(spec, seed=SEED)
    assert service.league_of(race_id) is not None
    service.join(race_id, "acc-Anna", car="Anna")
    service.join(race_id, "acc-Clara", car="Clara")
    service.start(race_id)
    assert enter_finished(service, leagues) == []  # running: nothing to enter yet
    play_on(service, race_id)  # the people answer as the simple bot would
    assert service.info(race_id).state is RaceState.FINISHED
    cli = as_the_cli_runs_it(leagues, 1, SEED)  # before the entry: the same karma balances

    entered = enter_finished(service, leagues)
    assert [(e.race_id, e.league, e.number, e.refusal) for e in entered] == [
        (race_id, LEAGUE, 1, "")]
    stored = leagues.load(LEAGUE).race(1)
    assert stored == race_result(cli, 1, cli.track.title or "oval")
    standings = driver_standings(leagues.load(LEAGUE))
    assert {(line.driver, line.races[0].position) for line in standings} == {
        (d.driver, d.position) for d in stored.drivers}  # type: ignore[union-attr]
    assert standings[0].driver == next(d.driver for d in stored.drivers if d.position == 1)  # type: ignore[union-attr]
    link = service.league_of(race_id)
    assert link is not None and link.entered_at is not None and link.note == ""
    assert enter_finished(service, leagues) == []  # entered once


def test_a_race_the_league_refuses_is_marked_and_left(service: RaceService) -> None:
    leagues = season(service)
    race_id = service.create_race(
        league_race_spec(leagues, LEAGUE, 1, "oval", bot="simple", laps=1), seed=SEED)
    table = "driver,grid,position\nAnna,1,1\nBen,2,2\nClara,3,3\nDora,4,4\n"
    leagues.enter_race(LEAGUE, race_result_from_csv(table, 1, 1, ""))  # from a table meanwhile
    service.start(race_id)  # bots only: they drive to the flag at once
    assert service.info(race_id).state is RaceState.FINISHED
    refused = enter_finished(service, leagues)
    assert len(refused) == 1 and "already" in refused[0].refusal
    link = service.league_of(race_id)
    assert link is not None and link.entered_at is None and "already" in link.note
    assert enter_finished(service, leagues) == []
    assert leagues.load(LEAGUE).race(1) == race_result_from_csv(table, 1, 1, "")


def test_people_must_be_starters(service: RaceService) -> None:
    leagues = season(service)
    with pytest.raises(RennleitungError) as refused:
        league_race_spec(leagues, LEAGUE, 1, "oval", people={"Zora"})
    assert "Zora" in refused.value.en and refused.value.where == "people"


def test_karma_is_taken_when_the_race_starts(service: RaceService) -> None:
    """Issue 26: the balances were fixed when the race was made; a correction in between
    (race 1 replaced) changed them, and the race started with the old ones."""
    leagues = season(service)
    first = "driver,grid,position\nAnna,1,1\nBen,2,2\nClara,3,3\nDora,4,4\n"
    leagues.enter_race(LEAGUE, race_result_from_csv(first, 1))
    spec = league_race_spec(leagues, LEAGUE, 2, "oval", people={"Anna"}, bot="simple", laps=1)
    assert spec.config is not None
    made = {e.id: e.karma for e in spec.config.entries}
    race_id = service.create_race(spec, seed=SEED)
    fixed = "driver,grid,position\nDora,1,1\nClara,2,2\nBen,3,3\nAnna,4,4\n"
    leagues.replace_race(LEAGUE, race_result_from_csv(fixed, 1), "Orga")
    booked = {e.driver: e.balance for e in leagues.karma_ledger(LEAGUE)}
    assert booked != made
    service.start(race_id)
    assert {e.id: e.karma for e in service.race(race_id).config.entries} == booked


def test_only_the_next_race_can_be_played(service: RaceService) -> None:
    leagues = season(service)
    with pytest.raises(RennleitungError) as refused:
        league_race_spec(leagues, LEAGUE, 3, "oval")
    assert "race 1 is next" in refused.value.en and refused.value.where == "race"
    with pytest.raises(RennleitungError, match="not between 1 and 10"):
        league_race_spec(leagues, LEAGUE, 11, "oval")
