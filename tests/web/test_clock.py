"""A test server's clock stands still until the test moves it (``Settings.clock``, a
``ManualClock``): the page's countdown reads the server's time, ``LiveServer.advance`` runs the
deadlines due, and the server's own ticker reads the same clock. No test here sleeps out a
decision's time."""

from __future__ import annotations

import re
import time

from rennleitung.play import Actor
from rennleitung.play.clock import START, ManualClock
from tests.web.conftest import Client, LiveServer, client, make_settings, signed_up


def asked_with_a_minute(server: LiveServer) -> tuple[Client, str]:
    """Olga's race on the oval, 60 s a decision; she drives car1 and is asked her setup."""
    olga = signed_up(server, "Olga")
    olga.page("/races/new")
    made = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006", "laps": "1",
                                      "people": "1", "bots": "1", "seconds": "60",
                                      "drive": "on"})
    race = made.headers["location"]
    version = re.search(r'data-version="(\d+)"', olga.page(race).text)
    assert version is not None
    assert olga.submit(f"{race}/start", {"version": version.group(1)}).status_code == 303
    return olga, race


def seconds_shown(person: Client, race: str) -> int:
    found = re.search(r'id="countdown"[^>]*data-seconds="(\d+)"', person.page(race).text)
    assert found is not None, "no countdown on the page"
    return int(found.group(1))


def test_the_countdown_and_the_deadlines_follow_the_test_clock(sqlite_url: str) -> None:
    clock = ManualClock()
    with LiveServer(make_settings(sqlite_url, clock=clock, deadline_tick=3600)) as server:
        olga, race = asked_with_a_minute(server)
        race_id = int(race.rsplit("/", 1)[1])
        assert seconds_shown(olga, race) == 60
        assert server.advance(45) == []  # 15 s left: the bot does not decide yet
        assert seconds_shown(olga, race) == 15
        timed_out = server.advance(16)
        assert [(t.race_id, t.car) for t in timed_out] == [(race_id, "car1")]
        by_bot = [d for d in server.app.state.races.decisions(race_id)
                  if d.actor is Actor.TIMEOUT_BOT]
        assert len(by_bot) == 1 and by_bot[0].made_at == clock.now
        assert "car1" in olga.page(race).text


def test_the_servers_own_ticker_reads_the_same_clock(sqlite_url: str) -> None:
    clock = ManualClock()
    with LiveServer(make_settings(sqlite_url, clock=clock, deadline_tick=0.1)) as server:
        _, race = asked_with_a_minute(server)
        races = server.app.state.races
        race_id = int(race.rsplit("/", 1)[1])
        time.sleep(0.5)  # a few ticks: the clock stood still, nothing is due
        assert not [d for d in races.decisions(race_id) if d.actor is Actor.TIMEOUT_BOT]
        clock.advance(61)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if any(d.actor is Actor.TIMEOUT_BOT for d in races.decisions(race_id)):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the ticker did not run the deadline moved into the past")


def test_a_manual_clock_only_moves_forward() -> None:
    clock = ManualClock()
    assert clock() == START
    assert clock.advance(90) == START.replace(minute=1, second=30)
    for wrong in (lambda: clock.advance(-1), lambda: clock.set(START)):
        try:
            wrong()
        except ValueError as error:
            assert "forward" in str(error)
        else:
            raise AssertionError("moved back")


def test_the_create_form_sets_the_clock_and_the_page_shows_the_bank(sqlite_url: str) -> None:
    clock = ManualClock()
    with LiveServer(make_settings(sqlite_url, clock=clock, deadline_tick=3600)) as server:
        olga = signed_up(server, "Olga")
        olga.page("/races/new")
        refused = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                             "people": "1", "bots": "1", "bank_seconds": "90"})
        assert refused.status_code == 422 and "bank_seconds" in refused.text
        made = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                          "laps": "1", "people": "1", "bots": "1",
                                          "seconds": "60", "bank_seconds": "90",
                                          "bot_after_misses": "2", "abandon_hours": "48",
                                          "abandon_action": "bots", "drive": "on"})
        race = made.headers["location"]
        version = re.search(r'data-version="(\d+)"', olga.page(race).text)
        assert version is not None
        olga.submit(f"{race}/start", {"version": version.group(1)})
        page = olga.page(race).text
        assert re.search(r'id="countdown"[^>]*data-seconds="60" data-bank="90"', page)
        assert 'data-bank-of="car1">bank 1:30' in page
        server.advance(100)  # 40 s into the bank
        assert re.search(r'data-seconds="-40" data-bank="90"', olga.page(race).text)
        told = olga.get(f"{race}/view.json").json()
        assert told["clock"] == {"decision_seconds": 60, "bank_seconds": 90,
                                 "bot_after_misses": 2, "abandon_seconds": 48 * 3600,
                                 "abandon_action": "bots",
                                 "abandon_at": "2026-12-03T12:00:00+00:00"}
        assert told["seats"][0]["bank_left"] == 90 and told["seats"][0]["away"] is False


def test_a_quiet_race_is_closed_on_the_servers_clock_and_the_log_says_why(
        sqlite_url: str) -> None:
    clock = ManualClock()
    with LiveServer(make_settings(sqlite_url, clock=clock, deadline_tick=3600)) as server:
        olga = signed_up(server, "Olga")
        olga.page("/races/new")
        made = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                          "laps": "1", "people": "1", "bots": "1",
                                          "abandon_hours": "1", "drive": "on"})
        race = made.headers["location"]
        version = re.search(r'data-version="(\d+)"', olga.page(race).text)
        assert version is not None
        olga.submit(f"{race}/start", {"version": version.group(1)})
        server.advance(3599)
        assert 'data-state="running"' in olga.page(race).text
        server.advance(2)
        page = olga.page(race).text
        assert 'data-state="closed"' in page
        assert "Race abandoned: no decision for 1 hour; closed" in page
        visitor = client(server)  # a spectator reading German sees it too
        german = visitor.get(race, headers={"Accept-Language": "de"}).text
        assert "Rennen aufgegeben: 1 Stunde ohne Entscheidung; geschlossen" in german
