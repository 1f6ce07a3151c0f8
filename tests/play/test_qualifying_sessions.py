"""Qualifying sessions held here (issues 27 and 29), each rule at a position where it decides.

At a table the organiser enters the gear die's number, so a lap goes exactly where the test
wants it on the short circuit (start B60, corner 1 with one stop at B9–B12, lane B). Online the
dice are the server's; the time comes from the service's clock, moved by the test. On SQLite and
PostgreSQL (``database_url``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueKind
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.roster import Driver
from rennleitung.play.league_races import league_race_spec
from rennleitung.play.qualifying_sessions import QualifyingSessions
from rennleitung.play.qualifying_views import LapView
from rennleitung.store.database import open_database
from tests.play.support import START, Clock

WINDOW = {"opens_at": START, "closes_at": START + timedelta(hours=2)}
CLEAN = [(1, 2), (2, 4), (3, 4), (4, 8), (4, 7), (4, 9), (5, 12), (5, 14), (4, 8)]
"""A table lap that crosses the line with its 9th roll (23 penalty points on the way)."""


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def sessions(database_url: str, clock: Clock) -> Iterator[QualifyingSessions]:
    engine = open_database(database_url)
    try:
        yield QualifyingSessions(engine, clock)
    finally:
        engine.dispose()


def league(sessions: QualifyingSessions, kind: LeagueKind = LeagueKind.SEASON,
           drivers: Sequence[tuple[str, DriverProfile]] = (
               ("Anna", DriverProfile.NORMAL), ("Ben", DriverProfile.NORMAL),
               ("Clara", DriverProfile.NORMAL))) -> str:
    name = "Open" if kind is LeagueKind.OPEN else "Saison"
    store = sessions.leagues
    store.create_league(name, kind)
    store.add_team(name, "Rot")
    store.add_team(name, "Blau")
    for n, (driver, profile) in enumerate(drivers):
        store.add_driver(name, Driver(driver, ("Rot", "Blau")[n % 2], profile, city="Dresden"))
    return name


def lane_b(view: LapView) -> tuple[int, ...]:
    """The offered move that keeps to lane B, else the first ending in lane B."""
    ending = [m for m in view.moves if m.end.startswith("B")]
    keeping = [m for m in ending if all(n.startswith("B") for n in m.names)]
    return (keeping or ending)[0].path


def cheapest(view: LapView) -> tuple[int, ...]:
    """The move that keeps the lap alive at the fewest penalty points."""
    return min(view.moves, key=lambda m: (m.aborts, m.penalty)).path


def table_lap(sessions: QualifyingSessions, sid: int, driver: str,
              rolls: Sequence[tuple[int, int]], clock: Clock, seconds: float = 60,
              run: int = 1, stop: bool = True,
              pick: Callable[[LapView], tuple[int, ...]] = lane_b) -> LapView:
    """The organiser starts the stopwatch, enters each gear and number, points at lane B,
    and stops the watch ``seconds`` later."""
    sessions.stopwatch(sid, driver, run, "start", organiser=True)
    view = sessions.lap_view(sid, driver, run, None, organiser=True)
    for gear, roll in rolls:
        if not view.ask:
            break
        view = sessions.decide(sid, driver, run, {"gear": gear, "roll": roll}, None, True)
        if view.ask == "move":
            view = sessions.decide(sid, driver, run, {"path": list(pick(view))}, None, True)
    clock.advance(seconds)
    if stop:
        sessions.stopwatch(sid, driver, run, "stop", organiser=True)
    return sessions.lap_view(sid, driver, run, None, organiser=True)


def table_session(sessions: QualifyingSessions, name: str, runs: int = 1, seed: int = 0) -> int:
    return sessions.open(name, 1, "short", mode="table", runs=runs, seed=seed, **WINDOW)


def test_leaving_a_corner_short_of_its_stop_costs_penalty_points(
        sessions: QualifyingSessions, clock: Clock) -> None:
    sid = table_session(sessions, league(sessions))
    view = table_lap(sessions, sid, "Anna", [(1, 2), (2, 4), (3, 8)], clock, stop=False)
    # 8 in 3rd from B6 runs through corner 1 without its stop: 2 spaces beyond, hard tyres
    assert (view.space, view.penalty_points, view.rolls) == ("B14", 2, 3)
    assert view.protocol[-1][1] == "overshoots 2 spaces: 2 penalty points"
    assert view.state == "driving" and view.ask == "gear"


def test_a_number_that_is_no_face_of_the_die_is_refused_naming_it(
        sessions: QualifyingSessions) -> None:
    sid = table_session(sessions, league(sessions))
    sessions.stopwatch(sid, "Anna", 1, "start", organiser=True)
    with pytest.raises(RennleitungError) as refused:
        sessions.decide(sid, "Anna", 1, {"gear": 1, "roll": 3}, None, True)
    assert "yellow die (gear 1) has no 3" in refused.value.en
    assert "gelbe Würfel" in refused.value.de and "Masters 6-1-1" in refused.value.where
    assert sessions.lap_view(sid, "Anna", 1, None, True).rolls == 0


def test_any_downshift_is_free_but_sixth_to_first_is_refused(
        sessions: QualifyingSessions, clock: Clock) -> None:
    sid = table_session(sessions, league(sessions))
    view = table_lap(sessions, sid, "Anna", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 11), (6, 21)],
                     clock, stop=False, pick=cheapest)
    assert view.gear == 6 and view.gears == (2, 3, 4, 5, 6)
    with pytest.raises(RennleitungError) as refused:
        sessions.decide(sid, "Anna", 1, {"gear": 1, "roll": 1}, None, True)
    assert "Masters 6-1-2" in refused.value.where
    assert sessions.lap_view(sid, "Anna", 1, None, True).rolls == 6  # nothing changed
    view = sessions.decide(sid, "Anna", 1, {"gear": 2, "roll": 2}, None, True)  # 6 -> 2: free
    assert view.gear == 2 and view.rolls == 7


def test_no_braking_every_move_uses_the_whole_roll(sessions: QualifyingSessions) -> None:
    sid = table_session(sessions, league(sessions))
    sessions.stopwatch(sid, "Anna", 1, "start", organiser=True)
    view = sessions.decide(sid, "Anna", 1, {"gear": 1, "roll": 2}, None, True)
    assert view.ask == "move" and view.moves
    assert all(len(m.path) == 2 for m in view.moves)  # never fewer spaces than rolled


def test_the_lap_time_breaks_a_tie_and_whole_minutes_count(
        sessions: QualifyingSessions, clock: Clock) -> None:
    sid = table_session(sessions, league(sessions))
    table_lap(sessions, sid, "Anna", CLEAN, clock, seconds=50)
    table_lap(sessions, sid, "Ben", CLEAN, clock, seconds=40)
    table_lap(sessions, sid, "Clara", CLEAN, clock, seconds=61)  # a whole minute: +1
    rows = sessions.view(sid).standings
    assert [(r.driver, r.score, r.lap_time) for r in rows] == [
        ("Ben", 9 + 23, "0:40.000"), ("Anna", 9 + 23, "0:50.000"),
        ("Clara", 9 + 23 + 1, "1:01.000")]


def test_theoretiker_minus_one_praktiker_plus_one(
        sessions: QualifyingSessions, clock: Clock) -> None:
    name = league(sessions, drivers=(("Anna", DriverProfile.PRACTITIONER),
                                     ("Ben", DriverProfile.NORMAL),
                                     ("Clara", DriverProfile.THEORIST)))
    sid = table_session(sessions, name)
    for driver, seconds in (("Anna", 10), ("Ben", 20), ("Clara", 30)):
        table_lap(sessions, sid, driver, CLEAN, clock, seconds=seconds)
    rows = sessions.view(sid).standings
    assert [(r.driver, r.score) for r in rows] == [("Clara", 31), ("Ben", 32), ("Anna", 33)]


def test_the_open_gives_100_for_pole_and_its_second_run_takes_the_first_runs_weather(
        sessions: QualifyingSessions, clock: Clock) -> None:
    name = league(sessions, LeagueKind.OPEN)
    sid = table_session(sessions, name, runs=2, seed=23)  # the die: rain, then changeable
    view = sessions.view(sid)
    assert view.rolled == (("Regen", "rain"), ("wechselhaft", "changeable"))
    assert [en for _, en in view.weather] == ["rain", "rain"]
    assert sessions.lap_view(sid, "Anna", 2, None, True).tyre == "rain"
    with pytest.raises(RennleitungError, match="finish run 1 first"):
        sessions.stopwatch(sid, "Anna", 2, "start", organiser=True)
    table_lap(sessions, sid, "Anna", CLEAN, clock, seconds=20)
    table_lap(sessions, sid, "Ben", CLEAN, clock, seconds=10)
    table_lap(sessions, sid, "Anna", CLEAN, clock, seconds=5, run=2)  # his better run counts
    assert [(r.driver, r.run, r.qualifying_points) for r in sessions.view(sid).standings] == [
        ("Anna", 2, 100), ("Ben", 1, 99)]
    result = sessions.close(sid)
    assert [(s.driver, s.qualifying_points) for s in result.grid] == [
        ("Anna", 100), ("Ben", 99), ("Clara", 0)]


def test_changeable_counts_as_sun(sessions: QualifyingSessions) -> None:
    sid = table_session(sessions, league(sessions), seed=3)  # the die: changeable
    view = sessions.view(sid)
    assert view.rolled == (("wechselhaft", "changeable"),)
    assert view.weather == (("Sonne", "sun"),)


def test_drivers_without_a_lap_are_drawn_and_the_league_race_starts_from_the_grid(
        sessions: QualifyingSessions, clock: Clock) -> None:
    name = league(sessions)
    sid = table_session(sessions, name)
    table_lap(sessions, sid, "Clara", CLEAN, clock)
    # Ben's lap is left unfinished; Anna never starts
    table_lap(sessions, sid, "Ben", CLEAN[:3], clock, stop=False)
    result = sessions.close(sid)
    assert result.grid[0].driver == "Clara" and result.grid[0].score == 9 + 23 + 1  # 1:00
    drawn = result.grid[1:]
    assert {s.driver for s in drawn} == {"Anna", "Ben"}
    assert all(s.score is None and s.draw_rolls for s in drawn)
    view = sessions.view(sid)
    assert view.state == "entered" and view.seed == 0
    assert [g.drawn for g in view.grid] == [False, True, True]
    spec = league_race_spec(sessions.leagues, name, 1, "short")
    assert spec.config is not None and spec.config.qualifying == result.grid_order()
    with pytest.raises(RennleitungError, match="over"):
        sessions.stopwatch(sid, "Anna", 1, "start", organiser=True)


def test_online_the_time_runs_from_the_first_roll_to_the_line(
        sessions: QualifyingSessions, clock: Clock) -> None:
    name = league(sessions)
    sid = sessions.open(name, 1, "short", seed=5, **WINDOW)
    assert sessions.view(sid).seed is None  # the laps' dice stay secret while the session runs
    with pytest.raises(RennleitungError, match="someone else"):
        sessions.decide(sid, "Anna", 1, {"gear": 1}, "acc-anna")
    sessions.hold(sid, "Anna", "acc-anna")
    with pytest.raises(RennleitungError, match="already drives"):
        sessions.hold(sid, "Anna", "acc-ben")
    clock.advance(300)  # looking at the lap costs nothing: the clock starts with the first roll
    view = sessions.lap_view(sid, "Anna", 1, "acc-anna")
    assert view.may_drive and view.ask == "gear" and view.gears == (1,)
    steps = 0
    while view.ask:
        if view.ask == "gear":
            gear = max(g for g in view.gears if g <= 4)
            view = sessions.decide(sid, "Anna", 1, {"gear": gear, "tyre": "hard"}, "acc-anna")
        else:
            view = sessions.decide(sid, "Anna", 1, {"path": list(view.moves[0].path)},
                                   "acc-anna")
        clock.advance(3)
        steps += 1
    assert view.state in ("done", "aborted")
    if view.state == "done":
        assert view.lap_time == f"0:{3 * (steps - 1):02d}.000"
        row = sessions.view(sid).standings[0]
        assert (row.driver, row.rolls) == ("Anna", view.rolls)


def test_the_window_is_kept(sessions: QualifyingSessions, clock: Clock) -> None:
    name = league(sessions)
    sid = sessions.open(name, 1, "short", opens_at=START + timedelta(minutes=10),
                        closes_at=START + timedelta(minutes=20))
    with pytest.raises(RennleitungError, match="not opened yet"):
        sessions.hold(sid, "Anna", "acc-anna")
    clock.advance(600)
    sessions.hold(sid, "Anna", "acc-anna")
    sessions.decide(sid, "Anna", 1, {"gear": 1}, "acc-anna")
    clock.advance(600)
    with pytest.raises(RennleitungError, match="window is closed"):
        sessions.decide(sid, "Anna", 1, {"gear": 1}, "acc-anna")
    assert sessions.close_due(sid)  # after its window the session closes on the next look
    assert sessions.view(sid).state == "entered"
    with pytest.raises(RennleitungError, match="already been entered"):
        sessions.open(name, 1, "short", **WINDOW)  # the race has its qualifying now


def test_at_a_table_the_last_entry_is_taken_back_and_the_protocol_keeps_it(
        sessions: QualifyingSessions) -> None:
    sid = table_session(sessions, league(sessions))
    sessions.stopwatch(sid, "Anna", 1, "start", organiser=True)
    sessions.decide(sid, "Anna", 1, {"gear": 1, "roll": 2}, None, True)
    view = sessions.lap_view(sid, "Anna", 1, None, True)
    sessions.decide(sid, "Anna", 1, {"path": list(lane_b(view))}, None, True)
    sessions.decide(sid, "Anna", 1, {"gear": 2, "roll": 4}, None, True)  # the table showed 3
    sessions.take_back(sid, "Anna", 1, organiser=True)
    view = sessions.lap_view(sid, "Anna", 1, None, True)
    assert (view.space, view.rolls, view.ask) == ("B2", 1, "gear")
    assert view.protocol[-1] == ("zurückgenommen: 2. Gang, Würfel 4",
                                 "taken back: gear 2, die 4")
    view = sessions.decide(sid, "Anna", 1, {"gear": 2, "roll": 3}, None, True)
    assert view.rolls == 2 and view.can_take_back
    with pytest.raises(RennleitungError, match="only the organiser"):
        sessions.take_back(sid, "Anna", 1, organiser=False)
