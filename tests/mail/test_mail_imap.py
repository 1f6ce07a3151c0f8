"""IMAP polling against the real Dovecot that ``scripts/services.sh`` starts on loopback."""

from __future__ import annotations

import os
import uuid
from dataclasses import replace

import pytest
from imapclient import IMAPClient  # type: ignore[import-untyped]
from sqlalchemy import select

from rennleitung.mail.imap import poll_imap
from rennleitung.mail.service import MailService
from rennleitung.store.mail_tables import MailInRow, MailOutRow

from .conftest import plain_mail

ENV = "RENNLEITUNG_TEST_IMAP"


def test_poll_stores_each_mail_once_and_marks_it_seen(service: MailService) -> None:
    if not os.environ.get(ENV):
        pytest.fail(f"{ENV} is not set: run `sh scripts/services.sh && . ./.services.env`")
    host, port, user, password = os.environ[ENV].split(":")
    folder = f"t{uuid.uuid4().hex[:12]}"
    settings = replace(service.settings, imap_host=host, imap_port=int(port),
                       imap_security="none", imap_user=user, imap_password=password,
                       imap_folder=folder)
    client = IMAPClient(host, port=int(port), ssl=False)
    client.login(user, password)
    try:
        client.create_folder(folder)
        first = plain_mail("fremd@example.net", "eins", "Gang 5")
        client.append(folder, first)
        client.append(folder, plain_mail("fremd2@example.net", "zwei", "Gang 6"))
        client.append(folder, b"Received: from relay\r\n" + first)  # delivered twice
        assert poll_imap(service, settings) == 2
        assert poll_imap(service, settings) == 0
        client.select_folder(folder)
        assert client.search(["UNSEEN"]) == []
        assert service.process_pending() == 2
        with service.store.sessions.read() as session:
            assert [r.source for r in session.scalars(select(MailInRow))] == ["imap", "imap"]
            answers = select(MailOutRow).where(MailOutRow.kind != "welcome")  # not the welcome
            assert len(session.scalars(answers).all()) == 2
    finally:
        client.select_folder("INBOX")
        client.delete_folder(folder)
        client.logout()
