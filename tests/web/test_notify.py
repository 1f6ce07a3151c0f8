"""The driver whose move it is gets a mail with a link to it, through a real SMTP server."""

from __future__ import annotations

import re

from tests.web.conftest import Inbox, LiveServer, make_settings, signed_up


def test_your_move_mail(database_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with LiveServer(make_settings(database_url, smtp_host="127.0.0.1", smtp_port=port)) as server:
        olga = signed_up(server, "Olga")
        paul = signed_up(server, "Paul", email="paul@example.org")
        olga.page("/races/new")
        made = olga.submit("/races/new", {"track": "oval", "ruleset": "dresden-2006",
                                          "laps": "1", "people": "1", "bots": "1"})
        race = made.headers["location"]
        paul.page(race)
        assert paul.submit(f"{race}/join", {"car": "car1"}).status_code == 303
        assert not inbox.messages
        olga.page(race)
        version = re.search(r'data-version="(\d+)"', olga.page(race).text)
        assert version is not None
        assert olga.submit(f"{race}/start", {"version": version.group(1)}).status_code == 303
        assert inbox.arrived.wait(30)
        mail = inbox.messages[0]
        assert mail["To"] == "paul@example.org"
        assert "your move" in mail["Subject"]
        body = mail.get_content()
        assert f"{server.url}{race}" in body and "car1" in body
        assert "csrf" not in body and "password" not in body.lower()
