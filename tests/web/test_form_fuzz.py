"""Broken forms against every form the server takes, on both databases: each one is answered
with a refusal (4xx) or handled (2xx, 3xx), never a server error, and the server keeps serving.

Every case starts from a form that works, then replaces some fields with hostile values (empty,
huge numbers, NaN, control characters, JSON nested thousands deep, very long text), drops some
and adds a stray one; race numbers in the path are hostile too. Seeded, so a failure repeats.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import timedelta
from urllib.parse import quote

from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.web.league_pages import league_url
from tests.web.conftest import Client, LiveServer, client, signed_up
from tests.web.test_league_pages import NAME, RACE, season

HOSTILE = [
    "", " ", "x", "-1", "0", "1", "7", "1e999", "-1e999", "nan", "inf", "9" * 40, "-" + "9" * 40,
    "3.5", "0x10", "١٢", "\x00", "a\x00b", "\r\nX-Injected: 1", "ä" * 3000, "<script>x</script>",
    "../../../etc/passwd", "car1", "car9", "bot", "person", "strong", "monaco", "oval",
    "dresden-2006", "[" * 5000, "{" * 3000, '{"kind": "turn", "gear": 1e999}',
    '{"kind": "turn", "gear": 99999999999999999999}', '{"kind": "move", "path": ["A1", null]}',
    '{"kind": "move", "path": "A1"}', '{"kind": "setup", "wear": {"tyres": -5}}', '{"kind": null}',
    "[]", "{}", "null", '"x"', "driver,place\n" + "Anna,1\n" * 3, "driver,rolls,lap_time\nA,1,",
]
BIG_IDS = ["0", "-1", "99999999999999999999", "2147483648"]


def forms(race: int, open_race: int, online: int = 1, table: int = 2
          ) -> list[tuple[str, dict[str, str]]]:
    """(path, a form that is accepted or refused for a reason) for every form of the server."""
    decision = json.dumps({"kind": "turn", "gear": 1})
    return [
        ("/signup", {"name": "Neu", "email": "neu@example.org", "password": "lang-genug-1"}),
        ("/signin", {"login": "Orga", "password": "correct horse"}),
        ("/signin/link", {"login": "orga@example.org"}),
        ("/signin/link/abc", {}),
        ("/races/new", {"name": "R", "track": "monaco", "ruleset": "dresden-2006", "laps": "1",
                        "people": "1", "bots": "1", "bot": "simple", "seconds": "60",
                        "drive": "1"}),
        (f"/races/{race}/act", {"car": "car1", "version": "0", "decision": decision}),
        (f"/races/{race}/act", {"car": "car1", "version": "0", "kind": "setup", "tyre": "hard",
                                "wear_tyres": "4", "wear_brakes": "3", "wear_box": "1"}),
        (f"/races/{race}/act", {"car": "car1", "version": "0", "kind": "turn", "gear": "2",
                                "boost": "1", "soft": "1"}),
        (f"/races/{race}/act", {"car": "car1", "version": "0", "kind": "move", "path": "A1 A2"}),
        (f"/races/{open_race}/join", {"car": "car1"}),
        (f"/races/{open_race}/seat", {"car": "car2", "kind": "bot", "bot": "simple",
                                      "version": "0"}),
        (f"/races/{race}/halt", {"car": "car2", "version": "0"}),
        (f"/races/{race}/verify", {}),
        (league_url(NAME, "/race"), {"race": "3", "laps": "3", "track": "monaco", "csv": RACE}),
        (league_url(NAME, "/qualifying"), {"race": "3", "seed": "5", "weather": "dry",
                                           "csv": "driver,rolls,lap_time\nAnna,40,3:10",
                                           "starters": "Anna"}),
        (league_url(NAME, "/qualifying/delete"), {"race": "3"}),
        (league_url(NAME, "/play"), {"race": "4", "track": "oval", "people": "Anna", "laps": "1",
                                     "seconds": "60"}),
        (league_url(NAME, "/sessions"), {"race": "1", "track": "short", "mode": "table",
                                         "runs": "1", "opens": "2026-12-01T10:00",
                                         "closes": "2026-12-09T10:00"}),
        (f"/qualifying/{online}/hold", {"driver": "Anna"}),
        (f"/qualifying/{online}/lap?driver=Anna&run=1", {"action": "gear", "gear": "1",
                                                         "tyre": "soft", "soft": "1"}),
        (f"/qualifying/{online}/lap?driver=Anna&run=1", {"action": "move", "path": "1 2"}),
        (f"/qualifying/{table}/lap?driver=Ben&run=1", {"action": "start"}),
        (f"/qualifying/{table}/lap?driver=Ben&run=1", {"action": "gear", "gear": "1",
                                                       "roll": "2"}),
        (f"/qualifying/{table}/lap?driver=Ben&run=1", {"action": "take_back"}),
        (f"/qualifying/{table}/close", {}),
    ]


def mutated(rng: random.Random, form: dict[str, str]) -> dict[str, str]:
    changed = dict(form)
    for name in list(changed):
        roll = rng.random()
        if roll < 0.35:
            changed[name] = rng.choice(HOSTILE)
        elif roll < 0.45:
            del changed[name]
    if rng.random() < 0.3:
        changed[rng.choice(["gear", "version", "kind", "path", "replace", "race_csv", "x"])] = (
            rng.choice(HOSTILE))
    return changed


def hostile_path(rng: random.Random, path: str) -> str:
    if path.startswith(("/races/", "/qualifying/")) and rng.random() < 0.2:
        parts = path.split("/")
        parts[2] = rng.choice(BIG_IDS)
        return "/".join(parts)
    return path


def new_race(orga: Client, **form: str) -> int:
    """A race made through the organiser's form (oval, Dresden rules), by its number."""
    orga.page("/races/new")
    made = orga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006", **form})
    race = int(made.headers["location"].rsplit("/", 1)[1])
    orga.page(f"/races/{race}")
    return race


def test_broken_forms_are_refused_never_a_server_error(server: LiveServer) -> None:
    store = season(server)
    orga = signed_up(server, "Orga", "orga@example.org")
    store.add_organiser(NAME, "Orga")
    sessions = server.app.state.qualifying
    now = sessions.now()
    online = sessions.open(NAME, 1, "short", opens_at=now, closes_at=now + timedelta(days=9))
    store.create_league("Tisch", LeagueKind.SEASON)  # a race has one open session at a time
    store.add_team("Tisch", "Rot")
    store.add_driver("Tisch", Driver("Ben", "Rot"))
    store.add_organiser("Tisch", "Orga")
    table = sessions.open("Tisch", 1, "short", mode="table", opens_at=now,
                          closes_at=now + timedelta(days=9), organiser="x")
    race = new_race(orga, laps="1", people="1", bots="1", drive="1")
    assert orga.submit(f"/races/{race}/start", {"version": "0"}).status_code in (200, 303)
    open_race = new_race(orga, people="2", bots="0")
    people: list[Client] = [orga, signed_up(server, "Gast")]
    rng = random.Random(20261201)
    failures = []
    seen: Counter[int] = Counter()
    for n in range(400):
        path, form = rng.choice(forms(race, open_race, online, table))
        person = rng.choice(people)
        person.page("/races/new")  # the session's CSRF token now (a sign-in changes it)
        target = hostile_path(rng, path)
        sent = mutated(rng, form)
        answer = person.post(target, data={"csrf": person.csrf, **sent},
                             headers={"Accept": "application/json"} if n % 2 else {})
        seen[answer.status_code] += 1
        if answer.status_code >= 500:
            failures.append((target, sent, answer.status_code, answer.text[:200]))
    assert not failures, failures[:5]
    assert seen[200] + seen[303] >= 15 and len(seen) > 5, seen  # the forms got past the door
    assert orga.get("/healthz").text == "ok"
    assert orga.page(f"/races/{race}").status_code == 200


QUERIES = ["/signup?next={}", "/signin?next={}", "/signin/link/{}", "/lang/{}?next={}",
           "/tracks/{}.svg", "/tracks/monaco.svg?v={}", "/league?name={}", "/league/karma?name={}",
           "/league/history?name={}", "/league/organise?name={}", "/races/{{race}}/replay?at={}",
           "/races/{{race}}/replay/frame?at={}", "/races/{{race}}/parts?x={}",
           "/league/sessions?name={}", "/qualifying/{}", "/qualifying/1/lap?driver={}&run={}",
           "/qualifying/{}/standings"]
AWAY = ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)",
        "http:evil.example", " //evil.example"]


def test_hostile_addresses_are_refused_never_a_server_error(server: LiveServer) -> None:
    season(server)
    orga = signed_up(server, "Orga", "orga@example.org")
    race = new_race(orga, laps="1", people="0", bots="2", bot="simple")
    orga.submit(f"/races/{race}/start", {"version": "0"})  # two bots play to the flag at once
    assert orga.get(f"/races/{race}/state.json").json()["state"] == "finished"
    rng = random.Random(20261202)
    failures = []
    for n in range(300):
        pattern = rng.choice(QUERIES).replace("{{race}}", str(race))
        values = [quote(rng.choice(HOSTILE + AWAY), safe="") for _ in range(pattern.count("{}"))]
        target = pattern.format(*values)
        answer = (orga if n % 2 else client(server)).get(target)
        location = answer.headers.get("location", "")
        if answer.status_code >= 500 or (location and not _local(location)):
            failures.append((target, answer.status_code, location))
    for wrong in BIG_IDS:  # race numbers no row can have, in pages and JSON
        for page in ("", "/parts", "/question.json", "/record.json", "/replay",
                     "/replay/frame?at=1", "/state.json"):
            answer = orga.get(f"/races/{wrong}{page}")
            if answer.status_code >= 500:
                failures.append((f"/races/{wrong}{page}", answer.status_code, ""))
    assert not failures, failures[:5]
    refused = orga.get("/league?name=a%00b")
    assert refused.status_code == 400 and "NUL" in refused.text


def _local(location: str) -> bool:
    """A redirect that stays on this server."""
    return location.startswith("/") and not location.startswith(("//", "/\\"))
