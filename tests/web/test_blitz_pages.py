"""FD Blitz pages over HTTP (issue 27): a wrong form is refused in the reader's language naming
the field, a stranger starts no heat, the JSON keeps the match's figures and the CLI's file."""

from __future__ import annotations

from tests.web.conftest import LiveServer, make_settings, signed_up


def test_blitz_forms_refuse_naming_the_field_and_the_json_keeps_the_match(
        sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        ada = signed_up(server, "Ada")
        ada.page("/blitz")
        same = ada.submit("/blitz", {"player1": "Ada", "player2": "Ada", "track": "oval"})
        assert same.status_code == 400
        assert "two different players" in same.text and "blitz, players" in same.text
        none = ada.submit("/blitz", {"player1": "Ada", "player2": "Bob", "minutes": "0"},
                          headers={"Accept-Language": "en"})
        assert none.status_code == 400 and "minutes" in none.text
        track = ada.submit("/blitz", {"player1": "Ada", "player2": "Bob", "track": "nowhere"})
        assert track.status_code == 400 and "nowhere" in track.text
        league = ada.submit("/blitz", {"player1": "Ada", "player2": "Bob", "league": "Nowhere"})
        assert league.status_code == 400 and "league: no league &#39;Nowhere&#39;" in league.text
        made = ada.submit("/blitz", {"player1": "Ada", "player2": "Bob", "track": "oval",
                                     "minutes": "3", "myself": "on"})
        assert made.status_code == 303
        path = made.headers["location"]
        eve = signed_up(server, "Eve")
        assert "· oval · 3:00</small>" in eve.page(path).text  # as a chess clock shows it
        refused = eve.submit(f"{path}/heat", headers={"Accept-Language": "en"})
        assert refused.status_code == 400 and "only the players or the organiser" in refused.text
        view = ada.get(f"{path}/view.json").json()
        assert view["limit_s"] == 180 and [c["player"] for c in view["clocks"]] == ["Ada", "Bob"]
        assert view["next_heat"] == 1 and view["winner"] is None and view["race"] is None
        record = ada.get(f"{path}/match.json").json()
        assert set(record) == {"players", "limit_s", "seed", "runs", "current", "clock"}
        assert ada.get("/blitz/999").status_code == 404


def test_broken_blitz_forms_are_refused_never_a_server_error(sqlite_url: str) -> None:
    import random
    from collections import Counter

    from tests.web.test_form_fuzz import hostile_path, mutated

    with LiveServer(make_settings(sqlite_url)) as server:
        ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
        ada.page("/blitz")
        online = ada.submit("/blitz", {"player1": "Ada", "player2": "Bob", "track": "oval",
                                       "minutes": "1", "laps": "1", "myself": "on"})
        table = ada.submit("/blitz", {"player1": "A", "player2": "B", "mode": "table"})
        match, desk = online.headers["location"], table.headers["location"]
        forms = [
            ("/blitz", {"player1": "Ada", "player2": "Bob", "track": "oval", "minutes": "5",
                        "laps": "1", "league": "", "myself": "on", "mode": "online"}),
            (f"{match}/join", {"place": "1"}),
            (f"{match}/heat", {}),
            (f"{desk}", {"winner": "A"}),
        ]
        rng = random.Random(20261202)
        seen: Counter[int] = Counter()
        failures = []
        for n in range(150):
            path, form = rng.choice(forms)
            person = rng.choice([ada, bob])
            person.page("/blitz")
            target = hostile_path(rng, path)
            answer = person.post(target, data={"csrf": person.csrf, **mutated(rng, form)},
                                 headers={"Accept": "application/json"} if n % 2 else {})
            seen[answer.status_code] += 1
            if answer.status_code >= 500:
                failures.append((target, answer.status_code, answer.text[:200]))
        for bad in ("0", "-1", "99999999999999999999", "x"):
            for tail in ("", "/panel?race=" + bad, "/view.json", "/match.json", "/table"):
                got = ada.get(f"/blitz/{bad}{tail}")
                if got.status_code >= 500:
                    failures.append((bad + tail, got.status_code, got.text[:200]))
        assert not failures, failures[:5]
        assert seen[303] >= 5, seen
