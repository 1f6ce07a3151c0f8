"""Qualifying run here: bot laps (and a lap at the terminal) become the league's grid."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from league_builders import roster
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.car import Weather as EngineWeather
from rennleitung.league.formats import LeagueKind, format_for
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.qualifying import qualifying_score
from rennleitung.league.qualifying_run import (
    roll_weather,
    run_bot_qualifying,
    tyre_for,
)
from rennleitung.league.qualifying_weather import Weather, applied_weather
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.store.league_store import LeagueStore

runner = CliRunner()
TEAMS = {"Elbe": ["Anna", "Ben"], "Solo": ["Carl"]}
PROFILES = {"Anna": DriverProfile.THEORIST, "Carl": DriverProfile.PRACTITIONER}


def drivers() -> list[Driver]:
    return list(roster(format_for(LeagueKind.SEASON), TEAMS, PROFILES).drivers)


def test_bot_laps_are_seeded_per_driver_and_timed_per_roll() -> None:
    laps = run_bot_qualifying(drivers(), "short", "dresden-2006", [Weather.SUN], 7, 1,
                              seconds_per_roll=6)
    again = run_bot_qualifying(drivers(), "short", "dresden-2006", [Weather.SUN], 7, 1,
                               seconds_per_roll=6)
    assert [(x.driver, x.result) for x in laps] == [(x.driver, x.result) for x in again]
    for lap in laps:
        assert lap.result is not None
        assert lap.result.rolls == lap.lap.rolls and lap.result.errors == 0
        assert lap.result.lap_time_ms == lap.lap.rolls * 6000
    # one driver's lap does not depend on who else qualifies
    alone = run_bot_qualifying(drivers()[1:2], "short", "dresden-2006", [Weather.SUN], 7, 1)
    assert alone[0].lap.rolls == laps[1].lap.rolls
    other_seed = run_bot_qualifying(drivers(), "short", "dresden-2006", [Weather.SUN], 8, 1)
    assert [x.lap.roll_total for x in other_seed] != [x.lap.roll_total for x in laps]


def test_weather_rolled_on_the_track_table_and_changeable_handled() -> None:
    track = builtin_track("short")  # 1-4 rain, 5-8 changeable, 9-20 sun
    dice = random.Random(1)
    rolled = [roll_weather(track, dice) for _ in range(200)]
    for roll, weather in rolled:
        expected = (Weather.RAIN if roll <= 4 else Weather.CHANGEABLE if roll <= 8
                    else Weather.SUN)
        assert weather is expected
    assert applied_weather([Weather.CHANGEABLE]) == (Weather.SUN,)
    assert applied_weather([Weather.RAIN, Weather.CHANGEABLE]) == (Weather.RAIN, Weather.RAIN)
    assert tyre_for(Weather.RAIN) is Tyre.RAIN and tyre_for(Weather.SUN) is Tyre.HARD


def test_rain_laps_use_rain_tyres_and_wet_track() -> None:
    laps = run_bot_qualifying(drivers()[:1], "short", "dresden-2006", [Weather.RAIN], 3, 1)
    config = laps[0].lap.config
    assert config.weather is EngineWeather.RAIN and config.tyre is Tyre.RAIN


def test_seconds_per_roll_must_be_positive() -> None:
    with pytest.raises(RennleitungError) as error:
        run_bot_qualifying(drivers(), "short", "dresden-2006", [Weather.SUN], 7, 1, 0)
    assert "--seconds-per-roll" in str(error.value)


def league_cli(db: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["league", *args, "--db", str(db)], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def setup(tmp_path: Path, kind: str = "season") -> Path:
    db = tmp_path / "q.sqlite3"
    assert league_cli(db, "create", "L", "--kind", kind)[0] == 0
    for team, members in TEAMS.items():
        assert league_cli(db, "add-team", "L", team)[0] == 0
        for name in members:
            profile = PROFILES.get(name, DriverProfile.NORMAL).value
            code, _, err = league_cli(db, "add-driver", "L", name, "--team", team,
                                      "--profile", profile, "--city", "Dresden")
            assert code == 0, err
    return db


def stored(db: Path) -> League:
    return LeagueStore.open(f"sqlite:///{db}").load("L")


def test_run_qualifying_stores_the_grid_ranked_by_score(tmp_path: Path) -> None:
    db = setup(tmp_path)
    code, out, err = league_cli(db, "run-qualifying", "L", "1", "--track", "short",
                                "--seed", "33", "--seconds-per-roll", "7")
    assert code == 0, err
    assert "Würfe" in out and "rolls" in out and "seed: 33" in out
    league = stored(db)
    result = league.qualifying_of(1)
    assert result is not None and len(result.laps) == 3
    profiles = {d.name: d.profile for d in league.roster.drivers}
    keys = {lap.driver: (qualifying_score(lap, profiles[lap.driver]), lap.lap_time_ms)
            for lap in result.laps}
    assert list(result.grid_order()) == sorted(keys, key=lambda name: keys[name])
    for lap in result.laps:  # score = rolls + penalties + whole minutes + profile
        minutes = lap.rolls * 7 // 60
        adjust = {"Anna": -1, "Carl": 1}.get(lap.driver, 0)
        assert qualifying_score(lap, profiles[lap.driver]) == (
            lap.rolls + lap.penalty_points + minutes + adjust
        )
    assert len(result.weather) == 1
    # a second qualifying for the same race is refused, nothing written
    code, _, err = league_cli(db, "run-qualifying", "L", "1", "--track", "short")
    assert code == 1 and "already been entered" in err
    assert stored(db).qualifying_of(1) == result


def test_two_runs_only_in_the_open(tmp_path: Path) -> None:
    db = setup(tmp_path)
    code, _, err = league_cli(db, "run-qualifying", "L", "1", "--runs", "2", "--track", "short")
    assert code == 1 and "--runs" in err and "Läufe" in err
    open_db = setup(tmp_path / "open", "open")
    code, _, err = league_cli(open_db, "run-qualifying", "L", "1", "--runs", "2",
                              "--track", "short", "--seed", "4")
    assert code == 0, err
    result = stored(open_db).qualifying_of(1)
    assert result is not None
    assert sorted({lap.run for lap in result.laps}) == [1, 2]
    assert len(result.weather) == 2
    assert [s.qualifying_points for s in result.grid] == [100, 99, 98]


def test_a_lap_driven_at_the_terminal(tmp_path: Path) -> None:
    db = setup(tmp_path)
    # always 1st gear, always the first move: slow but never misses a stop
    code, out, err = league_cli(db, "run-qualifying", "L", "1", "--track", "short",
                                "--seed", "2", "--driver", "Ben", stdin="1\n" * 800)
    assert code == 0, err
    assert "start on B60" in out and "over the line" in out
    result = stored(db).qualifying_of(1)
    assert result is not None
    ben = next(lap for lap in result.laps if lap.driver == "Ben")
    assert ben.rolls >= 60 // 2 and ben.penalty_points == 0
    assert result.grid_order()[-1] == "Ben"  # far slower than the bots


def test_unknown_starter_and_driver_are_refused(tmp_path: Path) -> None:
    db = setup(tmp_path)
    code, _, err = league_cli(db, "run-qualifying", "L", "1", "--starters", "Anna,Zoe")
    assert code == 1 and "--starters" in err
    code, _, err = league_cli(db, "run-qualifying", "L", "1", "--starters", "Anna",
                              "--driver", "Ben")
    assert code == 1 and "--driver" in err
    assert stored(db).qualifying_of(1) is None
