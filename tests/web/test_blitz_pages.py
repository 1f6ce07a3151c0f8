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
        eve.page(path)
        refused = eve.submit(f"{path}/heat", headers={"Accept-Language": "en"})
        assert refused.status_code == 400 and "only the players or the organiser" in refused.text
        view = ada.get(f"{path}/view.json").json()
        assert view["limit_s"] == 180 and [c["player"] for c in view["clocks"]] == ["Ada", "Bob"]
        assert view["next_heat"] == 1 and view["winner"] is None and view["race"] is None
        record = ada.get(f"{path}/match.json").json()
        assert set(record) == {"players", "limit_s", "seed", "runs", "current", "clock"}
        assert ada.get("/blitz/999").status_code == 404
