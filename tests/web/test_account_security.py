"""Accounts against a real server on both databases: a sign-out ends its session on the server,
a stranger cannot lock the owner out from elsewhere, name and e-mail share one counter,
failures are slowed down, and look-alike names are refused."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.store.league_store import LeagueStore
from rennleitung.web import accounts as account_routes
from rennleitung.web.security import FAILURES_PER_ACCOUNT, SESSION_COOKIE
from tests.web.conftest import Client, LiveServer, client, make_settings, signed_up


@pytest.fixture
def proxied(database_url: str) -> Iterator[LiveServer]:
    """A server behind a proxy on 127.0.0.1: the test plays clients at many addresses."""
    with LiveServer(make_settings(database_url, trusted_proxies=("127.0.0.1",))) as live:
        yield live


def at(server: LiveServer, address: str) -> Client:
    person = client(server)
    person.headers["X-Forwarded-For"] = address
    person.page("/signin")
    return person


def test_a_sign_out_ends_that_session_on_the_server(server: LiveServer) -> None:
    anna = signed_up(server, "Anna")
    copied = anna.cookies[SESSION_COOKIE]
    assert "Signed in as Anna" in anna.page("/").text
    other = signed_up(server, "Bert")  # a second device of someone else stays signed in
    assert anna.submit("/signout").status_code == 303
    thief = client(server)
    thief.cookies.set(SESSION_COOKIE, copied)
    assert "Signed in as" not in thief.page("/").text
    assert thief.submit("/races/new", {"track": "monaco"}).status_code == 401
    assert "Signed in as Bert" in other.page("/").text
    # signing in again makes a new session; two devices of one person are independent
    phone, laptop = client(server), client(server)
    for device in (phone, laptop):
        device.page("/signin")
        assert device.submit("/signin", {"login": "Anna", "password": "correct horse"}
                             ).status_code == 303
    phone.page("/")
    phone.submit("/signout")
    assert "Signed in as Anna" in laptop.page("/").text
    laptop.submit("/signout", {"everywhere": "1"})
    assert "Signed in as" not in laptop.page("/").text


def test_a_stranger_cannot_lock_the_owner_out(proxied: LiveServer) -> None:
    signed_up(proxied, "Anna", email="anna@example.org", password="geheim-123")
    stranger = at(proxied, "10.0.0.66")
    for _ in range(FAILURES_PER_ACCOUNT):
        assert stranger.submit("/signin", {"login": "Anna", "password": "wrong"}
                               ).status_code == 401
    assert stranger.submit("/signin", {"login": "Anna", "password": "geheim-123"}
                           ).status_code == 429
    owner = at(proxied, "10.0.0.7")
    assert owner.submit("/signin", {"login": "Anna", "password": "geheim-123"}
                        ).status_code == 303


def test_name_and_email_share_one_counter(proxied: LiveServer) -> None:
    signed_up(proxied, "Bert", email="bert@example.org", password="geheim-123")
    guesser = at(proxied, "10.0.1.1")
    logins = ["Bert", "bert@example.org", "BERT", "Bert@Example.org", "bert"]
    assert len(logins) == FAILURES_PER_ACCOUNT
    for login in logins:
        assert guesser.submit("/signin", {"login": login, "password": "wrong"}
                              ).status_code == 401
    for login in ("bert@example.org", "Bert"):
        assert guesser.submit("/signin", {"login": login, "password": "geheim-123"}
                              ).status_code == 429


def test_repeated_failures_are_slowed_down(proxied: LiveServer,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A second per earlier failure here, so the waiting stands out of a busy machine's noise
    in the password hashing (the server's own step is ``FAILURE_DELAY``)."""
    monkeypatch.setattr(account_routes, "FAILURE_DELAY", 1.0)
    signed_up(proxied, "Cora", password="geheim-123")
    times = []
    for n in range(4):  # each from another address: guessing from many is slowed too
        guesser = at(proxied, f"10.0.2.{n + 1}")
        started = time.monotonic()
        assert guesser.submit("/signin", {"login": "Cora", "password": "wrong"}
                              ).status_code == 401
        times.append(time.monotonic() - started)
    assert times[3] >= 3.0 and times[3] - times[0] >= 2.0, times
    owner = at(proxied, "10.0.2.99")
    started = time.monotonic()
    assert owner.submit("/signin", {"login": "Cora", "password": "geheim-123"}
                        ).status_code == 303
    assert time.monotonic() - started < times[3]  # the right password is not kept waiting


@pytest.mark.parametrize(("taken", "refused", "why"), [
    ("Zoë", "Zoe\u0308", "taken"),                     # NFD twin of the NFC name
    ("Anna", "\u0410nna", "looks like"),               # Cyrillic capital A
    ("Paul", "\u0420aul", "looks like"),               # Cyrillic capital Er
    ("Alex", "AIex", "looks like"),                    # capital I for small l
    ("Bob", "B0b", "looks like"),                      # zero for o
    ("Martin", "rnartin", "looks like"),               # r n for m
    ("Omega", "\u039fmega", "looks like"),             # Greek capital Omicron
    ("Zoë", "Zoë\u202eevil", "invisible or control"),  # right-to-left override
    ("Eve", "E\u200bve", "invisible or control"),      # zero-width space
    ("Ida", "Ida\u00a0Maria", "invisible or control"),  # no-break space
])
def test_look_alike_names_are_refused(server: LiveServer, taken: str, refused: str,
                                      why: str) -> None:
    signed_up(server, taken)
    late = client(server)
    late.page("/signup")
    answer = late.submit("/signup", {"name": refused, "password": "correct horse"})
    assert answer.status_code == 422 and why in answer.text, answer.text[-600:]


def test_names_are_kept_in_one_form(server: LiveServer) -> None:
    """A name typed decomposed is stored composed, and signs in typed either way."""
    signed_up(server, "Zoe\u0308  Lou", password="geheim-123")
    page = client(server)
    page.page("/signin")
    assert page.submit("/signin", {"login": "Zoë Lou", "password": "geheim-123"}
                       ).status_code == 303
    assert "Signed in as Zoë Lou" in page.page("/").text


def test_race_and_league_driver_names_are_checked_too(server: LiveServer) -> None:
    orga = signed_up(server, "Orga")
    orga.page("/races/new")
    refused = orga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                         "name": "Cup\u202etxe"})
    assert refused.status_code == 422 and "control character" in refused.text
    store = LeagueStore(server.app.state.engine)
    store.create_league("L", LeagueKind.SEASON)
    store.add_team("L", "Rot")
    store.add_driver("L", Driver("Zoe\u0308", "Rot"))
    assert [d.name for d in store.load("L").roster.drivers] == ["Zoë"]
    for twin in ("Z0ë", "Zoë\u200b"):
        with pytest.raises(RennleitungError, match=r"looks like|control"):
            store.add_driver("L", Driver(twin, "Rot"))
    store.add_driver("L", Driver("Ben", "Rot"))
    with pytest.raises(RennleitungError, match="looks like 'Zoë'"):
        store.rename_driver("L", "Ben", "Z\u043eë")  # Cyrillic o
