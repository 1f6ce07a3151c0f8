"""Real parts for the mail tests: both databases (``database_url`` from the root
``tests/conftest.py``: a fresh SQLite file and a fresh PostgreSQL schema), an aiosmtpd server on
loopback that keeps what it receives (the players' mailboxes), and mails built with the standard
library."""

from __future__ import annotations

import email
import email.header
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import make_msgid
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.mail.turbo_game import TurboAdapter
from tests.conftest import free_port


@dataclass
class Sink:
    """What the SMTP server received: one (recipients, message) per mail."""

    mails: list[tuple[list[str], Message]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append((list(envelope.rcpt_tos), email.message_from_bytes(envelope.content)))
        return "250 OK"

    def to(self, address: str, welcome: bool = False) -> list[Message]:
        """The mails to ``address``; the welcome a binding sends only with ``welcome``."""
        return [m for rcpts, m in self.mails if address in rcpts
                and (welcome or not is_welcome(m))]


def is_welcome(message: Message) -> bool:
    """The mail a binding sends (``mail/service.welcome``)."""
    subject = str(email.header.make_header(email.header.decode_header(
        message.get("Subject", ""))))
    return ": Willkommen, " in subject or ": welcome, " in subject


class SmtpServer:
    """An aiosmtpd server on a fixed loopback port that can be stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.sink = Sink()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def settings(smtp: SmtpServer) -> MailSettings:
    return MailSettings(sender="rennleitung@example.org", smtp_host="127.0.0.1",
                        smtp_port=smtp.port)


@pytest.fixture
def service(database_url: str, settings: MailSettings) -> Iterator[MailService]:
    opened = MailService.open(database_url, settings)
    opened.adapters["turbo"] = TurboAdapter(preview=False)
    try:
        yield opened
    finally:
        opened.engine.dispose()


def plain_mail(sender: str, subject: str, body: str, *, to: str = "spiel@example.org",
               charset: str = "utf-8", message_id: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id or make_msgid(domain="player.example")
    message.set_content(body, charset=charset)
    return message.as_bytes()


def body_of(message: Message) -> str:
    """The text part of a received answer."""
    for part in message.walk():
        if part.get_content_type() == "text/plain" and not part.get_filename():
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            return data.decode(part.get_content_charset() or "utf-8").replace("\r\n", "\n")
    raise AssertionError("no text part")


def attachment_names(message: Message) -> list[str]:
    return [str(p.get_filename()) for p in message.walk() if p.get_filename()]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The mail tests share the one Dovecot mailbox that ``scripts/services.sh`` starts: under
    ``make test``'s parallel run (pytest-xdist, ``--dist loadgroup``) they all run in one worker,
    so no test polls away another's mail."""
    for item in items:
        if "tests/mail/" in item.nodeid.replace("\\", "/") or item.nodeid.startswith("mail/"):
            item.add_marker(pytest.mark.xdist_group("mail"))
