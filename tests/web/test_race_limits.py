"""Races against a real server on both databases: a seat freed in a running race is driven by its
bot until someone takes it, one account cannot flood the server with races nor push the demo
and the running races off the home page, and a finished race is verified once."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from rennleitung.play.model import Actor, RaceSpec, SeatKind, SeatSpec
from rennleitung.web import races as race_routes
from tests.web.conftest import Client, LiveServer, client, make_settings, signed_up


def version(person: Client, race: str) -> str:
    return str(person.get(f"{race}/state.json").json()["version"])


def drive_once(person: Client, race: str) -> str:
    """Answer the person's open question with its first legal option: the race's state."""
    asked = person.get(f"{race}/question.json").json()
    if asked["state"] == "running" and asked["question"] is not None:
        first = json.dumps(asked["question"]["options"][0])
        answer = person.submit(f"{race}/act", {"car": asked["car"], "decision": first,
                                               "version": str(asked["version"])},
                               headers={"Accept": "application/json"})
        assert answer.status_code in (200, 409), answer.text  # 409: the race moved meanwhile
    return str(asked["state"])


def test_a_freed_seat_is_driven_by_its_bot_until_someone_takes_it(server: LiveServer) -> None:
    anna = signed_up(server, "Anna")
    anna.page("/races/new")
    made = anna.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006", "people": "2",
                                      "bots": "1", "laps": "1", "bot": "simple", "drive": "1"})
    assert made.status_code == 303, made.text
    race = made.headers["location"]
    race_id = int(race.rsplit("/", 1)[1])
    bert = signed_up(server, "Bert")
    bert.page(race)
    assert bert.submit(f"{race}/join", {"car": "car2"}).status_code == 303
    anna.page(race)
    assert anna.submit(f"{race}/start", {"version": version(anna, race)}).status_code == 303
    # the organiser frees Bert's seat (no time per decision: before, the race waited for ever)
    freed = anna.submit(f"{race}/seat", {"car": "car2", "kind": "person",
                                         "version": version(anna, race)})
    assert freed.status_code == 303, freed.text
    seat = next(s for s in anna.get(f"{race}/state.json").json()["seats"] if s["car"] == "car2")
    assert seat["kind"] == "person" and not seat["taken"]
    services = server.app.state.races
    freed_at = services.decisions(race_id)[-1].seq if services.decisions(race_id) else 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        drive_once(anna, race)
        by_bot = [d for d in services.decisions(race_id) if d.car == "car2" and d.seq > freed_at]
        if len(by_bot) >= 3:
            break
    assert len(by_bot) >= 3 and all(d.actor is Actor.BOT for d in by_bot), by_bot
    # someone takes the free seat of the running race; the entry keeps its driver's name
    cora = signed_up(server, "Cora")
    cora.page(race)
    assert "take" in cora.get(race).text.lower()
    assert cora.submit(f"{race}/join", {"car": "car2"}).status_code == 303, "joined running"
    assert cora.get(f"{race}/question.json").json()["car"] == "car2"
    taken_at = services.decisions(race_id)[-1].seq
    state = "running"
    while state == "running" and time.monotonic() < deadline + 120:
        state = drive_once(anna, race)
        drive_once(cora, race)
    assert state == "finished"
    after = [d for d in services.decisions(race_id) if d.car == "car2" and d.seq > taken_at]
    assert after and {d.actor for d in after} <= {Actor.PERSON}, after
    assert {d.holder for d in after} == {services.info(race_id).seat("car2").holder}


def race_form(n: int) -> dict[str, Any]:
    return {"track": "oval", "ruleset": "dresden-2006", "people": "1", "bots": "1",
            "name": f"flood {n}"}


def test_races_per_account_are_limited(server: LiveServer,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    flood = signed_up(server, "Flood")
    flood.page("/races/new")
    codes = [flood.submit("/races/new", race_form(n)).status_code
             for n in range(race_routes.OPEN_RACES_PER_ACCOUNT + 1)]
    assert codes == [303] * race_routes.OPEN_RACES_PER_ACCOUNT + [429], codes
    refused = flood.submit("/races/new", race_form(99))
    assert "too many races" in refused.text
    made = race_routes.OPEN_RACES_PER_ACCOUNT
    monkeypatch.setattr(race_routes, "OPEN_RACES_PER_ACCOUNT", 1000)
    monkeypatch.setattr(race_routes, "RACES_PER_DAY", made + 2)
    codes = [flood.submit("/races/new", race_form(n)).status_code for n in range(3)]
    assert codes == [303, 303, 429], codes
    other = signed_up(server, "Other")  # another account has its own share
    other.page("/races/new")
    assert other.submit("/races/new", race_form(0)).status_code == 303


def test_the_demo_and_running_races_stay_on_the_home_page(database_url: str) -> None:
    with LiveServer(make_settings(database_url, demo=True)) as server:
        services = server.app.state.races
        running = services.create_race(RaceSpec(
            track="oval", ruleset="dresden-2006", name="Running one", seats=(
                SeatSpec("car1", "", SeatKind.PERSON, "simple", "user:999"),
                SeatSpec("car2", "Bot", SeatKind.BOT, "simple"))))
        services.start(running)
        for n in range(100):  # as many open races as one account made in 0.7 s
            services.create_race(RaceSpec(track="oval", ruleset="dresden-2006",
                                          name=f"flood {n}", organiser="user:1", seats=(
                                              SeatSpec("car1", "", SeatKind.PERSON, "simple"),)))
        home = client(server).get("/").text
        assert 'id="demo-hint"' in home
        assert "Running one" in home and f'href="/races/{running}"' in home


def test_a_finished_race_is_verified_once(server: LiveServer) -> None:
    services = server.app.state.races
    race_id = services.create_race(RaceSpec(
        track="oval", ruleset="dresden-2006", laps=1, name="Bots only", seats=(
            SeatSpec("car1", "A", SeatKind.BOT, "simple"),
            SeatSpec("car2", "B", SeatKind.BOT, "simple"))))
    assert services.start(race_id).state.value == "finished"
    visitors = [client(server) for _ in range(12)]
    for visitor in visitors:
        visitor.page(f"/races/{race_id}")

    def ask(visitor: Client) -> str:
        answer = visitor.submit(f"/races/{race_id}/verify")
        assert answer.status_code == 200, answer.text
        return answer.text

    with ThreadPoolExecutor(12) as pool:
        pages = list(pool.map(ask, visitors))
    assert all('id="verdict" role="status"' in page for page in pages)
    assert server.app.state.verdicts.computed == 1
