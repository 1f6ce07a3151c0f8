"""Every role against every action: a visitor, a stranger, the two drivers, the organiser and
another organiser; other people's cars, other organisers' races, a missing or foreign CSRF token,
a stale version, a replayed request. Each refusal has the right status and changes nothing in
the database (every row of every table compared, sign-in attempts aside). SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from rennleitung.store.models import Base
from tests.conftest import PRODUCTION_HASHER
from tests.web.conftest import Client, LiveServer, client, signed_up

COUNTED = {"web_sign_in_attempts"}


def snapshot(server: LiveServer) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (attempt counters aside)."""
    tables = {}
    with server.app.state.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            if table.name in COUNTED:
                continue
            rows = connection.execute(select(table)).all()
            tables[table.name] = sorted(tuple(str(v) for v in row) for row in rows)
    return tables


def version(person: Client, race: int) -> str:
    page = person.page(f"/races/{race}").text
    found = re.search(r'id="race-version" data-version="(\d+)"', page)
    assert found is not None
    return found.group(1)


def answer_of(server: LiveServer, race: int) -> tuple[str, dict[str, str]]:
    """The asked car and a legal answer to its question (the engine's first legal decision)."""
    live = server.app.state.races.race(race)
    ask = live.pending
    decision = live.legal_decisions()[0]
    kind = ask.kind.value
    data: dict[str, str] = {"car": ask.car, "kind": kind}
    if kind == "setup":
        data.update({f"wear_{k}": str(v) for k, v in decision.wear.as_dict().items()})
        data["tyre"] = decision.tyre.value
    elif kind == "box":
        data["box"] = str(decision.box)
    return ask.car, data


def test_every_role_against_every_action(server: LiveServer) -> None:
    organiser = signed_up(server, "Olga")
    rival = signed_up(server, "Rudi")
    anna = signed_up(server, "Anna")
    ben = signed_up(server, "Ben")
    stranger = signed_up(server, "Sven")
    visitor = client(server)

    organiser.page("/races/new")
    made = organiser.submit("/races/new", {"name": "Cup", "track": "monaco",
                                           "ruleset": "dresden-2006", "laps": "1",
                                           "people": "2", "bots": "2", "bot": "simple"})
    assert made.status_code == 303
    race = int(made.headers["location"].rsplit("/", 1)[1])
    rival.page("/races/new")
    other = rival.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                        "people": "1", "bots": "1"})
    other_race = int(other.headers["location"].rsplit("/", 1)[1])

    for person, car in ((anna, "car1"), (ben, "car2")):
        person.page(f"/races/{race}")
        assert person.submit(f"/races/{race}/join", {"car": car}).status_code == 303

    # before the start
    open_cases = [
        ("visitor joins", visitor, f"/races/{race}/join", {"car": "car1"}, 401),
        ("driver starts", anna, f"/races/{race}/start", {}, 403),
        ("other organiser starts", rival, f"/races/{race}/start", {}, 403),
        ("stranger joins a full race", stranger, f"/races/{race}/join", {}, 409),
        ("driver takes a second seat", anna, f"/races/{other_race}/join", {}, None),
        ("visitor creates a race", visitor, "/races/new", {"track": "monaco"}, 401),
    ]
    check(server, race, open_cases)
    organiser.page(f"/races/{race}")
    started = organiser.submit(f"/races/{race}/start", {"version": version(organiser, race)})
    assert started.status_code == 303

    # the first answer is taken once; the same request again is refused and changes nothing
    car, answer = answer_of(server, race)
    first = anna if car == "car1" else ben
    sent = {**answer, "version": version(first, race)}
    accepted = first.submit(f"/races/{race}/act", sent)
    assert accepted.status_code == 303, accepted.text
    check(server, race, [("replayed request", first, f"/races/{race}/act", sent, 409)])
    replayed = first.submit(f"/races/{race}/act", sent)
    assert "since then" in replayed.text

    # past the setups asked of all drivers at once, for which an answer made a few versions ago
    # is still current (docs/play.md): from here one driver is asked at a time
    races = server.app.state.races
    while (ask := races.race(race).pending) is not None and ask.kind.value == "setup":
        live = races.race(race)
        races.apply(race, ask.car, live.legal_decisions(ask.car)[0], live.version)
    car, answer = answer_of(server, race)
    driver, other_driver = (anna, ben) if car == "car1" else (ben, anna)
    current = version(driver, race)
    good = {**answer, "version": current}
    other_car = "car2" if car == "car1" else "car1"
    foreign = client(server)
    foreign.page("/signin")

    running_cases = [
        ("visitor answers", visitor, f"/races/{race}/act", good, 401),
        ("stranger answers for a car", stranger, f"/races/{race}/act", good, 403),
        ("driver answers for another's car", other_driver, f"/races/{race}/act", good, 403),
        ("driver answers for a bot's car", driver, f"/races/{race}/act",
         {**good, "car": "car3"}, 403),
        ("driver answers though not asked", other_driver, f"/races/{race}/act",
         {**good, "car": other_car}, 422),
        ("stale version", driver, f"/races/{race}/act",
         {**good, "version": str(int(current) - 1)}, 409),
        ("version from the future", driver, f"/races/{race}/act",
         {**good, "version": str(int(current) + 5)}, 409),
        ("broken version", driver, f"/races/{race}/act", {**good, "version": "x"}, 400),
        ("no CSRF token", driver, f"/races/{race}/act", {**good, "csrf": ""}, 403),
        ("another session's CSRF token", driver, f"/races/{race}/act",
         {**good, "csrf": foreign.csrf}, 403),
        ("driver halts", driver, f"/races/{race}/halt", {"car": other_car, "version": current},
         403),
        ("other organiser halts", rival, f"/races/{race}/halt",
         {"car": car, "version": current}, 403),
        ("other organiser closes", rival, f"/races/{race}/close", {"version": current}, 403),
        ("other organiser seats a bot", rival, f"/races/{race}/seat",
         {"car": car, "kind": "bot", "version": current}, 403),
        ("driver closes", driver, f"/races/{race}/close", {"version": current}, 403),
        ("organiser halts with a stale version", organiser, f"/races/{race}/halt",
         {"car": car, "version": str(int(current) - 1)}, 409),
        ("organiser answers for a driver", organiser, f"/races/{race}/act", good, 403),
        ("verify before the flag", visitor, f"/races/{race}/verify", {}, 409),
        ("record before the flag", visitor, f"/races/{race}/record.json", None, 409),
        ("join a running race", stranger, f"/races/{race}/join", {"car": "car1"}, 409),
        ("unknown race", driver, "/races/999/act", good, 404),
        ("visitor takes a seat back", visitor, f"/races/{race}/back", {}, 401),
        ("stranger takes a seat back", stranger, f"/races/{race}/back", {}, 403),
        ("seat taken back without CSRF", driver, f"/races/{race}/back", {"csrf": ""}, 403),
        ("seat taken back in no race", driver, "/races/999/back", {}, 404),
    ]
    check(server, race, running_cases)
    assert anna.page(f"/races/{other_race}").status_code == 200


def check(server: LiveServer, race: int,
          cases: list[tuple[str, Client, str, dict[str, str] | None, int | None]]) -> None:
    for name, person, path, data, status in cases:
        before = snapshot(server)
        if data is None:
            answer = person.get(path)
        else:
            person.page(f"/races/{race}")
            sent = {"csrf": person.csrf, **data}
            answer = person.post(path, data=sent)
        after = snapshot(server)
        if status is None:  # allowed: a person may hold seats in different races
            assert answer.status_code == 303, (name, answer.status_code, answer.text[:300])
            continue
        assert answer.status_code == status, (name, answer.status_code, answer.text[:300])
        assert before == after, name
        assert "Traceback" not in answer.text


def test_passwords_are_hashed_at_the_production_cost_outside_the_tests() -> None:
    """The tests hash cheaply (tests/conftest.py); the server itself uses argon2id at 3 passes
    over 64 MiB, and a hash says so, so a cheap hasher cannot slip into production unseen."""
    hashed = PRODUCTION_HASHER.hash("a password")
    assert hashed.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), hashed
    assert PRODUCTION_HASHER.verify(hashed, "a password")
