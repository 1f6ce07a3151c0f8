"""The queue: a server that is down delays mail and loses none; each mail arrives once."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play.outbox import LEASE_BATCH, backoff
from rennleitung.render.mail_message import Attachment, Outgoing, build
from rennleitung.store.mail_tables import MailAttemptRow, MailOutRow

from .conftest import SmtpServer, attachment_names, body_of


def test_backoff_doubles_up_to_an_hour() -> None:
    assert [backoff(n).total_seconds() for n in (1, 2, 3)] == [30, 60, 120]
    assert backoff(50) == timedelta(hours=1)


def test_mail_is_sent_once_with_attachments(service: MailService, smtp: SmtpServer) -> None:
    out = Outgoing("spieler@example.net", "Bericht", "Grüße\n", "report", ref="r1",
                   attachments=[Attachment("a.txt", "text/plain", "Überholt".encode())])
    assert service.enqueue(out) is not None
    assert service.enqueue(out) is None  # the same ref is queued once
    assert send_due(service).sent == 1
    assert send_due(service).sent == 0
    [mail] = smtp.sink.to("spieler@example.net")
    assert body_of(mail) == "Grüße\n"
    assert attachment_names(mail) == ["a.txt"]


def test_server_down_delays_then_delivers_every_mail_once(
        service: MailService, smtp: SmtpServer) -> None:
    for n in range(5):
        service.enqueue(Outgoing(f"team{n}@example.net", f"Runde {n}", "Bericht", "report"))
    smtp.stop()
    now = service.clock()
    first = send_due(service, now)
    assert (first.sent, first.waiting) == (0, 5)
    with service.store.sessions.read() as session:
        attempts = session.scalars(select(MailAttemptRow)).all()
        assert len(attempts) == 1 and "Error" in attempts[0].result
        failed = session.scalars(select(MailOutRow).where(MailOutRow.attempts == 1)).one()
        assert failed.next_attempt_at > now
        # the four leased with it and not tried are given back: not shown as "perhaps sent"
        assert all(r.lease_until is None for r in session.scalars(select(MailOutRow)))
    smtp.start()
    assert send_due(service, now).sent == 4  # the failed one waits for its backoff
    assert send_due(service, now + timedelta(minutes=1)).sent == 1
    assert send_due(service, now + timedelta(hours=2)).sent == 0
    assert sorted(r[0] for r, _m in smtp.sink.mails) == [f"team{n}@example.net" for n in range(5)]
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailOutRow)).all()
        assert all(r.status == "sent" and r.sent_at is not None for r in rows)


def test_mails_leased_in_batches_each_sent_once_and_a_held_one_left(
        service: MailService, smtp: SmtpServer) -> None:
    """More mails than one lease takes (``LEASE_BATCH``) all go out once; one held by another
    sender (the web server's outbox on the same database) is left to it."""
    count = LEASE_BATCH * 2 + 3
    ids = [service.enqueue(Outgoing(f"p{n}@example.net", f"Frage {n}", "Text", "question"))
           for n in range(count)]
    now = service.clock()
    assert len(service.queue.lease_many([ids[7]], now, now + timedelta(minutes=2))) == 1
    assert service.queue.lease_many([ids[7]], now, now + timedelta(minutes=2)) == []
    assert send_due(service, now).sent == count - 1
    assert sorted(r[0] for r, _m in smtp.sink.mails) == sorted(
        f"p{n}@example.net" for n in range(count) if n != 7)
    assert send_due(service, now + timedelta(minutes=3)).sent == 1  # its lease ran out


def test_built_mail_reads_back_as_written() -> None:
    """The hand-built MIME (issue 24: the email package's generator was most of a question
    mail's cost) reads back with any mail parser: text with its last line end, trailing
    blanks and '=' kept, an umlaut subject and sender name, attachments byte for byte."""
    text = "Hallo Straße,\nZeile 2 = ok  \n" + "lang " * 40 + "\n"
    picture = bytes(range(256)) * 300
    out = Outgoing("anna@example.net", "Formel Dé gp7: Größe " + "x" * 120 + " [v3]", text,
                   attachments=[Attachment("board.png", "image/png", picture),
                                Attachment("Größe.txt", "text/plain", "Ärger\n".encode())],
                   html="<p>Grüße</p>")
    raw = build(out, "Rennleitung Görlitz <rl@example.org>", datetime.now(UTC), "<a@b.c>")
    assert raw.isascii() and b"\n" not in raw.replace(b"\r\n", b"")
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(mail["Subject"]) == out.subject and mail["In-Reply-To"] == "<a@b.c>"
    assert str(mail["From"]) == "Rennleitung Görlitz <rl@example.org>"
    assert str(mail["Message-ID"]).endswith("@example.org>")
    plain = mail.get_body(("plain",))
    assert plain is not None and plain.get_content().replace("\r\n", "\n") == text
    html = mail.get_body(("html",))
    assert html is not None and html.get_content().strip() == "<p>Grüße</p>"
    files = {a.get_filename(): a.get_content() for a in mail.iter_attachments()}
    assert files["board.png"] == picture and files["Größe.txt"].strip() == "Ärger"
