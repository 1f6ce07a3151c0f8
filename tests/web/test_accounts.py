"""Accounts against a real server on SQLite and PostgreSQL: sign-up, password and link sign-in
(the link through a real SMTP server, aiosmtpd), CSRF, rate limits, languages, no secrets kept."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from rennleitung.store.accounts import SignInLinkRow, UserRow
from rennleitung.web import accounts as accounts_module
from rennleitung.web.security import FAILURES_PER_ACCOUNT
from tests.web.conftest import Inbox, LiveServer, client, make_settings, signed_up


def test_sign_up_sign_out_sign_in(server: LiveServer) -> None:
    anna = signed_up(server, "Anna", password="geheim-123")
    assert "Signed in as Anna" in anna.page("/").text
    assert anna.submit("/signout").status_code == 303
    assert "Signed in as" not in anna.page("/").text
    answer = anna.submit("/signin", {"login": "anna", "password": "geheim-123", "next": "/x"})
    assert answer.status_code == 303 and answer.headers["location"] == "/x"
    page = anna.page("/").text
    assert "Signed in as Anna" in page
    assert "geheim-123" not in page
    with server.app.state.engine.connect() as connection:
        stored = connection.scalar(select(UserRow.password_hash))
    assert stored is not None and stored.startswith("$argon2") and "geheim" not in stored


def test_refused_sign_ups_say_why(server: LiveServer) -> None:
    signed_up(server, "Anna")
    other = client(server)
    other.page("/signup")
    taken = other.submit("/signup", {"name": "anna", "password": "long enough"})
    assert taken.status_code == 422 and "is taken" in taken.text
    short = other.submit("/signup", {"name": "Ben", "password": "short"})
    assert short.status_code == 422 and "at least 8" in short.text
    mail = other.submit("/signup", {"name": "Ben", "email": "no-at-sign",
                                    "password": "long enough"})
    assert mail.status_code == 422 and "e-mail" in mail.text


def test_forms_without_the_session_token_are_refused(server: LiveServer) -> None:
    signed_up(server, "Anna", password="geheim-123")
    stranger = client(server)
    stranger.page("/signin")
    missing = stranger.post("/signin", data={"login": "Anna", "password": "geheim-123"})
    assert missing.status_code == 403 and "reload" in missing.text
    other = client(server)
    other.page("/signin")
    foreign = stranger.post("/signin", data={"csrf": other.csrf, "login": "Anna",
                                             "password": "geheim-123"})
    assert foreign.status_code == 403
    assert "Signed in" not in stranger.page("/").text


def test_sign_in_attempts_are_limited(server: LiveServer) -> None:
    signed_up(server, "Anna", password="geheim-123")
    guesser = client(server)
    guesser.page("/signin")
    for _ in range(FAILURES_PER_ACCOUNT):
        wrong = guesser.submit("/signin", {"login": "Anna", "password": "wrong-guess"})
        assert wrong.status_code == 401 and "wrong name" in wrong.text
    right = guesser.submit("/signin", {"login": "Anna", "password": "geheim-123"})
    assert right.status_code == 429 and "too many" in right.text
    assert "Signed in" not in guesser.page("/").text


def test_sign_ups_from_one_address_are_limited(server: LiveServer,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts_module, "SIGNUPS_PER_ADDRESS", 3)
    for n in range(3):
        signed_up(server, f"Fahrer {n}")
    late = client(server)
    late.page("/signup")
    refused = late.submit("/signup", {"name": "Fahrer 3", "password": "correct horse"})
    assert refused.status_code == 429 and "too many new accounts" in refused.text
    with server.app.state.engine.connect() as connection:
        names = set(connection.scalars(select(UserRow.name)))
    assert names == {"Fahrer 0", "Fahrer 1", "Fahrer 2"}  # the fourth was not made
    invalid = late.submit("/signup", {"name": "", "password": "x"})  # refused before hashing
    assert invalid.status_code == 422


def test_language_from_browser_and_switch(server: LiveServer) -> None:
    reader = client(server)
    german = reader.get("/signin", headers={"Accept-Language": "fr;q=0.9, de-AT;q=0.8, en;q=0.5"})
    assert '<html lang="de">' in german.text and "Passwort" in german.text
    assert "Password" not in german.text
    switched = reader.get("/lang/en?next=/signin")
    assert switched.status_code == 303 and switched.headers["location"] == "/signin"
    english = reader.get("/signin", headers={"Accept-Language": "de"})
    assert '<html lang="en">' in english.text and "Passwort" not in english.text


def test_redirects_stay_on_the_site(server: LiveServer) -> None:
    reader = client(server)
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        answer = reader.get("/lang/de", params={"next": target})
        assert answer.headers["location"] == "/"


def test_one_time_link_by_mail(database_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    settings = make_settings(database_url, smtp_host="127.0.0.1", smtp_port=port)
    with LiveServer(settings) as server:
        anna = signed_up(server, "Anna", email="anna@example.org")
        anna.submit("/signout")
        visitor = client(server)
        visitor.page("/signin")
        sent = visitor.submit("/signin/link", {"login": "anna@example.org", "next": "/"})
        assert sent.status_code == 200 and "on its way" in sent.text
        assert inbox.arrived.wait(30)
        mail = inbox.messages[0]
        assert mail["To"] == "anna@example.org"
        link = re.search(r"(http://127\.0\.0\.1:\d+/signin/link/\S+)", mail.get_content())
        assert link is not None
        path = link.group(1).removeprefix(server.url)
        with server.app.state.engine.connect() as connection:
            stored = connection.scalar(select(SignInLinkRow.token_hash))
        token = path.split("/")[3].split("?")[0]
        assert stored is not None and token not in stored
        confirm = visitor.page(path)
        assert confirm.status_code == 200 and "Signed in" not in confirm.text
        used = visitor.submit(path.split("?")[0], {"next": "/"})
        assert used.status_code == 303
        assert "Signed in as Anna" in visitor.page("/").text
        again = client(server)
        again.page(path)
        assert again.submit(path.split("?")[0]).status_code == 400
        unknown = visitor.submit("/signin/link", {"login": "nobody@example.org"})
        assert "on its way" in unknown.text and len(inbox.messages) == 1
