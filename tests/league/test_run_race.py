"""A league race run here: league -> race engine -> RaceResult -> standings and karma.

The karma and points expected are computed by hand from the result's fields (Dresden
"Rennen", "Karmapool"), and cross-checked against the race engine's own karma count.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from league_builders import league_with, roster
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.car import DriverProfile as EngineProfile
from rennleitung.formula_de.car import Weather as EngineWeather
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_ledger import KarmaMove, KarmaReason
from rennleitung.formula_de.race_run import drive, run_bot_race
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import LeagueKind, format_for
from rennleitung.league.grid import build_qualifying
from rennleitung.league.karma import karma_balances, karma_ledger
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.qualifying_weather import Weather
from rennleitung.league.race_result import FinishStatus, InRaceKarma, InRaceKarmaKind, RaceResult
from rennleitung.league.race_run import in_race_karma, race_config, race_result, round_orders
from rennleitung.league.season import League
from rennleitung.store.league_store import LeagueStore

runner = CliRunner()
TEAMS = {"Elbe": ["Anna", "Ben"], "Solo": ["Carl"], "Neisse": ["Dora", "Emil"]}
PROFILES = {"Anna": DriverProfile.THEORIST, "Carl": DriverProfile.LIGHT_SPRINTER}
POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
SPEND = {
    InRaceKarmaKind.TWENTY_ROLLED: 1,
    InRaceKarmaKind.PLUS_ONE: -20,
    InRaceKarmaKind.REROLL: -40,
}


def season() -> League:
    return league_with(roster(format_for(LeagueKind.SEASON), TEAMS, PROFILES), [])


def run(league: League, number: int, seed: int, track: str = "short") -> tuple[Race, RaceResult]:
    config = race_config(league, number, track)
    race = Race.create(config, seed)
    drive(race, {e.id: make_bot("simple") for e in config.entries})
    return race, race_result(race, number)


def expected_karma(result: RaceResult, before: dict[str, int]) -> dict[str, int]:
    """Karma after the race from the result's fields, by the Karmapool table."""
    after = dict(before)
    for entry in result.drivers:
        points = POINTS[entry.position - 1] if entry.laps_completed >= 2 else 0
        gained = max(entry.grid - entry.position, 0)
        if entry.status is not FinishStatus.FINISHED:
            gained = 0
        spent = sum(
            -k.amount if k.kind is InRaceKarmaKind.HEAD_TO_HEAD else SPEND[k.kind]
            for k in entry.karma
        )
        after[entry.driver] += spent + points + 3 * gained + 3 * entry.laps_most_led
    return after


def test_race_config_hands_over_team_profile_karma_and_grid() -> None:
    league = season()
    config = race_config(league, 1, "short")
    assert [e.id for e in config.entries] == ["Anna", "Ben", "Carl", "Dora", "Emil"]
    anna = config.entries[0]
    assert (anna.team, anna.profile, anna.karma) == ("Elbe", EngineProfile.THEORIST, 30)
    assert config.entries[2].profile is EngineProfile.LIGHT_SPRINTER
    assert config.ruleset == "dresden-2006" and config.qualifying == ()
    laps = [QualifyingLap("Ben", 20, 0, 70_000), QualifyingLap("Emil", 22, 1, 80_000)]
    starters = ["Anna", "Ben", "Carl", "Dora", "Emil"]
    qualifying = build_qualifying(1, laps, starters, league.roster, random.Random(3),
                                  [Weather.RAIN])
    with_grid = league.with_qualifying(qualifying)
    config = race_config(with_grid, 1, "short")
    assert config.qualifying == qualifying.grid_order()
    assert config.qualifying[:2] == ("Ben", "Emil")
    assert config.qualifying_weather is EngineWeather.RAIN
    with pytest.raises(RennleitungError) as error:
        race_config(with_grid, 1, "short", starters=["Anna", "Ben"])
    assert "--starters" in str(error.value)


def test_race_number_out_of_season_and_a_race_entered_twice_are_refused() -> None:
    league = season()
    with pytest.raises(RennleitungError) as error:
        race_config(league, 11, "short")
    assert "race number 11" in str(error.value)
    _race, result = run(league, 1, seed=5)
    held, _ = enter_race(league, result)
    with pytest.raises(RennleitungError) as error:
        race_config(held, 1, "short")
    assert "already been entered" in str(error.value)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_seeded_bot_race_scores_and_books_karma_as_computed_by_hand(seed: int) -> None:
    league = season()
    race, result = run(league, 1, seed)
    assert result.laps == 3 and result.rounds
    assert sorted(e.position for e in result.drivers) == [1, 2, 3, 4, 5]
    assert sorted(e.grid for e in result.drivers) == [1, 2, 3, 4, 5]
    after, _booked = enter_race(league, result)
    balances = karma_balances(karma_ledger(after))
    assert balances == expected_karma(result, karma_balances(karma_ledger(league)))
    # the race engine's own count agrees with the league's ledger
    assert balances == {c: race.info[c].karma for c in race.entries}
    standings = {s.driver: s.points for s in driver_standings(after)}
    for entry in result.drivers:
        points = POINTS[entry.position - 1] if entry.laps_completed >= 2 else 0
        assert standings[entry.driver] == points


def test_round_orders_follow_the_race() -> None:
    race, result = run(season(), 1, seed=8)
    starters = {e.driver for e in result.drivers}
    assert len(result.rounds) == race.round - 1
    laps = [r.lap for r in result.rounds]
    assert laps == sorted(laps) and laps[0] == 1 and laps[-1] <= 3
    assert all(set(r.order) <= starters for r in result.rounds)
    first = result.rounds[0].order
    assert len(first) == 5


def test_karma_moves_become_league_movements_in_order() -> None:
    moves = [
        KarmaMove(1, "a", KarmaReason.NATURAL_TWENTY, 1),
        KarmaMove(2, "a", KarmaReason.PLUS_ONE, -20),
        KarmaMove(3, "b", KarmaReason.HEAD_TO_HEAD, -7),
        KarmaMove(4, "a", KarmaReason.END_OF_RACE, 12),
    ]
    race = cast(Race, SimpleNamespace(karma_moves=moves))
    found = in_race_karma(race)
    assert [k.kind for k in found["a"]] == [InRaceKarmaKind.TWENTY_ROLLED,
                                            InRaceKarmaKind.PLUS_ONE]
    assert [(k.kind, k.amount) for k in found["b"]] == [(InRaceKarmaKind.HEAD_TO_HEAD, 7)]


def test_the_league_reads_karma_and_orders_from_event_data() -> None:
    """The league's karma movements and running orders are the karma and round events' data:
    changing that data changes what the league books, and events carry no sentence to read."""
    race = run_bot_race("monaco", "dresden-2006", 4, 1, "ledger")
    karma, rounds = in_race_karma(race), round_orders(race)
    assert rounds and karma
    assert all(set(e.to_data()) == {"seq", "round", "kind", "car", "data"} for e in race.events)
    assert race.orders and all(set(o.cars) <= set(race.cars) for o in race.orders)
    assert [o.round for o in race.orders] == list(range(1, race.round + 1))
    later = next(e for e in race.events if e.kind is EventKind.ROUND and e.round == 2)
    order = later.get("order")
    assert isinstance(order, list) and len(order) > 1
    object.__setattr__(later, "data", (("order", order[::-1]),))
    assert round_orders(race)[0].order == tuple(race.driver(c) for c in order[::-1])
    spent = next(e for e in race.events if e.kind is EventKind.KARMA)
    object.__setattr__(spent, "data", tuple(
        (k, "head_to_head" if k == "reason" else -3 if k == "change" else v)
        for k, v in spent.data))
    booked = in_race_karma(race)[spent.car]
    assert booked[0] == InRaceKarma(InRaceKarmaKind.HEAD_TO_HEAD, 3) and booked != karma.get(
        spent.car)


# --- the commands on SQLite ----------------------------------------------------------------


def league_cli(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["league", *args, "--db", str(db)])
    return result.exit_code, result.stdout, result.stderr


def setup_season(tmp_path: Path) -> Path:
    db = tmp_path / "league.sqlite3"
    assert league_cli(db, "create", "Dresden")[0] == 0
    for team, members in TEAMS.items():
        assert league_cli(db, "add-team", "Dresden", team)[0] == 0
        for name in members:
            profile = PROFILES.get(name, DriverProfile.NORMAL).value
            code, _, err = league_cli(db, "add-driver", "Dresden", name, "--team", team,
                                      "--profile", profile)
            assert code == 0, err
    return db


def stored(db: Path) -> League:
    return LeagueStore.open(f"sqlite:///{db}").load("Dresden")


def test_qualifying_and_race_run_here_feed_standings_and_karma(tmp_path: Path) -> None:
    db = setup_season(tmp_path)
    code, out, err = league_cli(db, "run-qualifying", "Dresden", "1", "--track", "short",
                                "--seed", "21")
    assert code == 0, err
    assert "Boxenwahl" in out and "box choice" in out
    grid = stored(db).qualifying_of(1)
    assert grid is not None and len(grid.grid_order()) == 5
    before = stored(db)
    record = tmp_path / "race1.json"
    code, out, err = league_cli(db, "run-race", "Dresden", "1", "--track", "short",
                                "--seed", "9", "--record", str(record))
    assert code == 0, err
    assert "race entered" in out and "Rennen eingetragen" in out
    after = stored(db)
    result = after.race(1)
    assert result is not None
    assert result.rounds and result.source.value == "engine"
    by_grid = sorted(result.drivers, key=lambda e: e.grid)
    assert tuple(e.driver for e in by_grid) == grid.grid_order()
    assert karma_balances(karma_ledger(after)) == expected_karma(
        result, karma_balances(karma_ledger(before))
    )
    code, out, _ = league_cli(db, "standings", "Dresden", "--json")
    table = {row["driver"]: row["points"] for row in json.loads(out)}
    for entry in result.drivers:
        assert table[entry.driver] == (
            POINTS[entry.position - 1] if entry.laps_completed >= 2 else 0
        )
    verdict = runner.invoke(app, ["race", "verify", str(record)])
    assert verdict.exit_code == 0, verdict.stdout
    # the same race again is refused and nothing changes
    code, _, err = league_cli(db, "run-race", "Dresden", "1", "--track", "short", "--seed", "9")
    assert code == 1 and "already been entered" in err and "schon eingetragen" in err
    assert len(karma_ledger(stored(db))) == len(karma_ledger(after))


def test_run_race_without_qualifying_draws_the_grid_and_strong_bots_work(
    tmp_path: Path,
) -> None:
    db = setup_season(tmp_path)
    code, _, err = league_cli(db, "run-race", "Dresden", "1", "--track", "short", "--seed", "4",
                              "--bots", "strong", "--starters", "Anna,Carl,Dora", "--laps", "1")
    assert code == 0, err
    result = stored(db).race(1)
    assert result is not None and result.laps == 1
    assert {e.driver for e in result.drivers} == {"Anna", "Carl", "Dora"}


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--track", "nowhere"], "track"),
        (["--seed", "-1"], "--seed"),
        (["--starters", "Anna,Zoe"], "--starters"),
        (["--laps", "-2"], "--laps"),
    ],
)
def test_bad_options_are_refused_naming_the_field(
    tmp_path: Path, args: list[str], field: str
) -> None:
    db = setup_season(tmp_path)
    code, _, err = league_cli(db, "run-race", "Dresden", "1", *args)
    assert code == 1
    assert field in err and " / " in err
    assert stored(db).race(1) is None


def test_a_car_out_on_its_finishing_move_is_retired_with_its_last_lap_incomplete() -> None:
    from rennleitung.formula_de.race import Placing

    placings = [
        Placing("Anna", "Anna", 1, 3, "finished", 2, 10, 30),
        Placing("Ben", "Ben", 2, 3, "retired", 1, 8, 30, rule="Dresden Verschleiß"),
    ]
    stub = SimpleNamespace(
        finished=True, events=[], orders=[], karma_moves=[], entries={"Anna": None, "Ben": None},
        stopped=False, cars={}, laps=3, track=SimpleNamespace(title="Short circuit"),
        config=SimpleNamespace(track="short", table=False),
        classification=lambda: placings, driver=lambda car: car,
    )
    result = race_result(cast(Race, stub), 1)
    ben = result.result_of("Ben")
    assert ben is not None
    assert (ben.status, ben.laps_completed, ben.position) == (FinishStatus.RETIRED, 2, 2)
    league = league_with(roster(format_for(LeagueKind.SEASON), {"Elbe": ["Anna", "Ben"]}), [])
    after, _ = enter_race(league, result)
    standings = {s.driver: s.points for s in driver_standings(after)}
    assert standings == {"Anna": 10, "Ben": 8}  # two complete laps: Ben still scores


def test_a_karma_event_with_an_unknown_reason_is_refused_with_its_number() -> None:
    race = run_bot_race("monaco", "dresden-2006", 4, 1, "ledger")
    spent = next(e for e in race.events if e.kind is EventKind.KARMA)
    object.__setattr__(spent, "data", tuple(
        (k, "bribe" if k == "reason" else v) for k, v in spent.data))
    with pytest.raises(RennleitungError) as error:
        in_race_karma(race)
    assert error.value.where == f"event {spent.seq}" and "bribe" in error.value.en
