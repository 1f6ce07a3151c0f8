"""Every mail stored as received, processed once, unknown senders refused politely and kept."""

from __future__ import annotations

import smtplib
import socket
from pathlib import Path

from sqlalchemy import func, select

from rennleitung.mail.listener import start_listener
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService, content_hash
from rennleitung.store.mail_tables import MailInRow, MailOutRow

from .conftest import SmtpServer, body_of, free_port, plain_mail

NOT_WELCOME = MailOutRow.kind != "welcome"
"""Queued mail other than the welcome each binding sends (``mail/service.welcome``)."""


def _count(service: MailService, table: type[MailInRow] | type[MailOutRow]) -> int:
    query = select(func.count()).select_from(table)
    if table is MailOutRow:
        query = query.where(NOT_WELCOME)
    with service.store.sessions.read() as session:
        return int(session.scalar(query) or 0)


def test_same_mail_twice_is_stored_and_processed_once(service: MailService) -> None:
    raw = plain_mail("fremd@example.net", "Hallo", "Gang 5")
    first = service.receive(raw, "smtp")
    again = service.receive(b"Received: from relay by mx; Mon, 1 Dec 2026\r\n" + raw, "imap")
    assert again == type(first)(first.id, True)
    assert service.process_pending() == 1
    assert service.process_pending() == 0
    assert _count(service, MailInRow) == 1
    assert _count(service, MailOutRow) == 1


def test_same_message_id_other_content_is_kept_as_duplicate(service: MailService) -> None:
    one = service.receive(plain_mail("a@example.net", "x", "Gang 5", message_id="<m1@p>"), "smtp")
    two = service.receive(plain_mail("a@example.net", "x", "Gang 6", message_id="<m1@p>"), "smtp")
    assert two.duplicate and two.id != one.id
    with service.store.sessions.read() as session:
        row = session.get(MailInRow, two.id)
        assert row is not None and row.status == "duplicate" and row.duplicate_of == one.id
        assert b"Gang 6" in row.raw
    assert service.process_pending() == 1


def test_trace_headers_do_not_change_the_hash() -> None:
    raw = b"From: a@b.de\r\nSubject: x\r\n\r\nbody\r\n"
    traced = b"Return-Path: <a@b.de>\r\nReceived: from x\r\n\tby y\r\n" + raw
    assert content_hash(raw) == content_hash(traced)
    assert content_hash(raw) != content_hash(raw.replace(b"body", b"b0dy"))


def test_unknown_sender_gets_a_polite_refusal_in_both_languages(
        service: MailService, smtp: SmtpServer) -> None:
    service.receive(plain_mail("fremd@example.net", "Mein Zug", "Gang 5"), "smtp")
    service.process_pending()
    assert send_due(service).sent == 1
    [answer] = smtp.sink.to("fremd@example.net")
    text = body_of(answer)
    assert "nicht auswerten" in text and "cannot evaluate" in text
    assert answer["Subject"] == "Re: Mein Zug"
    assert answer["Auto-Submitted"] == "auto-replied"
    with service.store.sessions.read() as session:
        row = session.scalars(select(MailInRow)).one()
        assert row.status == "refused" and b"Gang 5" in row.raw


def test_automatic_mail_is_kept_and_never_answered(service: MailService) -> None:
    raw = b"From: MAILER-DAEMON@x.de\r\nAuto-Submitted: auto-replied\r\n\r\nbounce\r\n"
    service.receive(raw, "smtp")
    service.process_pending()
    assert _count(service, MailOutRow) == 0
    assert _count(service, MailInRow) == 1


def test_missing_secret_is_refused_in_the_players_language(
        service: MailService, tmp_path: Path) -> None:
    service.add_game("liga", "turbo", str(tmp_path), secret="geheim42")
    service.bind("liga", "Spieler@Example.net", "Ferrari", "en")
    service.receive(plain_mail("spieler@example.net", "orders", "Rennstall: Ferrari"), "smtp")
    service.process_pending()
    with service.store.sessions.read() as session:
        out = session.scalars(select(MailOutRow).where(NOT_WELCOME)).one()
        assert b"secret word is missing" in out.raw
        assert session.scalars(select(MailInRow)).one().outcome == '{"refused": "secret"}'


def _lmtp_session(port: int, recipients: list[str], raw: bytes) -> list[bytes]:
    """Talk LMTP by hand (smtplib reads one reply after DATA, LMTP sends one per recipient)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        reader = conn.makefile("rb")
        reader.readline()
        conn.sendall(b"LHLO test\r\n")
        while not reader.readline().startswith(b"250 "):
            pass
        conn.sendall(b"MAIL FROM:<fremd@example.net>\r\n")
        reader.readline()
        for recipient in recipients:
            conn.sendall(f"RCPT TO:<{recipient}>\r\n".encode())
            reader.readline()
        conn.sendall(b"DATA\r\n")
        reader.readline()
        conn.sendall(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") + b"\r\n.\r\n")
        replies = [reader.readline() for _ in recipients]
        conn.sendall(b"QUIT\r\n")
        return replies


def test_lmtp_listener_stores_before_acknowledging(service: MailService) -> None:
    port = free_port()
    listener = start_listener(service, "127.0.0.1", port, "lmtp")
    try:
        with smtplib.LMTP("127.0.0.1", port) as client:
            assert client.sendmail("fremd@example.net", ["spiel@example.org"],
                                   plain_mail("fremd@example.net", "Hallo", "Gang 5")) == {}
        replies = _lmtp_session(port, ["spiel@example.org", "b@example.org"],
                                plain_mail("fremd2@example.net", "Noch", "Gang 6"))
    finally:
        listener.stop()
    assert [r[:3] for r in replies] == [b"250", b"250"]
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailInRow).order_by(MailInRow.id)).all()
        assert [r.source for r in rows] == ["lmtp", "lmtp"]
        assert rows[1].envelope_to == "spiel@example.org,b@example.org"
    service.process_pending()
    assert _count(service, MailOutRow) == 2


def test_smtp_listener_takes_mail_too(service: MailService) -> None:
    port = free_port()
    listener = start_listener(service, "127.0.0.1", port, "smtp")
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.sendmail("x@example.net", ["spiel@example.org"],
                            plain_mail("x@example.net", "Hi", "gear 3"))
    finally:
        listener.stop()
    assert _count(service, MailInRow) == 1
