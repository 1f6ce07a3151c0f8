"""The driver whose move it is gets a mail with a link to it, through a real SMTP server."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from rennleitung.store.mail_tables import MailOutRow
from tests.web.conftest import Client, Inbox, LiveServer, free_port, make_settings, signed_up


def paul_is_asked(server: LiveServer, before_start: Callable[[], None] = lambda: None) -> str:
    """Olga organises a race on the oval, Paul (with an address) takes the seat, Olga starts:
    Paul is asked for his setup (``before_start`` runs just before). Returns the race's path."""
    olga = signed_up(server, "Olga")
    paul: Client = signed_up(server, "Paul", email="paul@example.org")
    olga.page("/races/new")
    made = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                      "laps": "1", "people": "1", "bots": "1"})
    race = made.headers["location"]
    paul.page(race)
    assert paul.submit(f"{race}/join", {"car": "car1"}).status_code == 303
    before_start()
    version = re.search(r'data-version="(\d+)"', olga.page(race).text)
    assert version is not None
    assert olga.submit(f"{race}/start", {"version": version.group(1)}).status_code == 303
    return race


def test_your_move_mail(database_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with LiveServer(make_settings(database_url, smtp_host="127.0.0.1", smtp_port=port)) as server:
        def nothing_sent_yet() -> None:
            assert not inbox.messages

        race = paul_is_asked(server, nothing_sent_yet)
        assert inbox.arrived.wait(30)
        mail = inbox.messages[0]
        assert mail["To"] == "paul@example.org"
        assert "your move" in mail["Subject"]
        body = mail.get_content()
        assert f"{server.url}{race}" in body and "car1" in body
        assert "csrf" not in body and "password" not in body.lower()


def test_your_move_mail_waits_in_the_outbox_while_the_mail_server_is_away(
        database_url: str, smtp: tuple[Inbox, int]) -> None:
    """Nothing listens on the mail port: the notice stays queued with the failed attempt
    recorded, and goes out on a later run of the outbox once a mail server is there."""
    inbox, port = smtp
    away = make_settings(database_url, smtp_host="127.0.0.1", smtp_port=free_port())
    with LiveServer(away) as server:
        race = paul_is_asked(server)
        outbox = server.app.state.outbox
        deadline = time.monotonic() + 30
        row = None
        while time.monotonic() < deadline:
            with outbox.mails.sessions.read() as session:
                row = session.scalar(select(MailOutRow).where(MailOutRow.kind == "notice"))
            if row is not None and row.attempts >= 1:
                break
            time.sleep(0.1)
        assert row is not None and row.attempts >= 1, "the notice was queued and tried"
        assert row.status == "queued" and row.last_error, (row.status, row.last_error)
        assert row.recipient == "paul@example.org"
        assert row.ref is not None and row.ref.startswith(f"web-move:{race.rsplit('/', 1)[1]}:")
        assert not inbox.messages
        outbox.smtp = replace(outbox.smtp, smtp_port=port)
        later = datetime.now(UTC) + timedelta(hours=2)
        assert outbox.send(now=later).sent == 1
    assert inbox.arrived.wait(10)
    assert inbox.messages[0]["To"] == "paul@example.org"
    assert f"{server.url}{race}" in inbox.messages[0].get_content()
