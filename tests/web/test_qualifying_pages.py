"""Who may do what in a qualifying session on the web (issues 27, 29): only the league's
organisers open and close sessions and run a table's stopwatch; a lap online is driven by the
account that took it and nobody else; a refusal names the reason in the reader's language and
changes nothing. SQLite and PostgreSQL, on a
controllable clock."""

from __future__ import annotations

from rennleitung.play.clock import ManualClock
from rennleitung.web.league_pages import league_url
from tests.web.conftest import LiveServer, client, make_settings, signed_up
from tests.web.test_league_pages import NAME, season
from tests.web.test_security import snapshot


def test_roles_in_a_qualifying_session(database_url: str) -> None:
    with LiveServer(make_settings(database_url, clock=ManualClock())) as server:
        roles(server)


def roles(server: LiveServer) -> None:
    store = season(server)
    orga = signed_up(server, "Orga")
    store.add_organiser(NAME, "Orga")
    anna, ben = signed_up(server, "Anna"), signed_up(server, "Ben")
    url = league_url(NAME, "/sessions")
    form = {"race": "1", "track": "short", "mode": "online", "runs": "1"}

    ben.page(url)
    assert ben.submit(url, form).status_code == 403  # not an organiser
    orga.page(url)
    made = orga.submit(url, form)
    assert made.status_code == 303, made.text
    session = made.headers["location"]
    assert client(server).get(session).status_code == 200  # anyone may watch

    anna.page(session)
    assert anna.submit(f"{session}/hold", {"driver": "Anna"}).status_code == 303
    ben.page(session)
    before = snapshot(server)
    taken = ben.submit(f"{session}/hold", {"driver": "Anna"})
    assert taken.status_code == 400 and "already drives" in taken.text
    lap = f"{session}/lap?driver=Anna&run=1"
    other = ben.submit(lap, {"action": "gear", "gear": "1"})
    assert other.status_code == 400 and "someone else drives this lap" in other.text
    assert ben.submit(f"{session}/close", {}).status_code == 403
    assert ben.submit(lap, {"action": "start"}).status_code == 400  # no stopwatch online
    assert snapshot(server) == before

    german = signed_up(server, "Dora")
    german.cookies.set("rl_lang", "de")
    german.page(session)
    refused = german.submit(lap, {"action": "gear", "gear": "1"})
    assert "diese Runde fährt jemand anderes" in refused.text

    anna.page(lap)
    assert anna.submit(lap, {"action": "gear", "gear": "1", "tyre": "hard"}).status_code == 303
    assert 'data-rolls="1"' in anna.page(lap).text
    assert "Seed" not in client(server).get(session).text  # secret while open

    server.clock.advance(2 * 24 * 3600)  # the window is over: the next look closes the session
    closed = client(server).get(session).text
    assert 'data-state="entered"' in closed and 'id="grid"' in closed
