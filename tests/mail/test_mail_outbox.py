"""The queue: a server that is down delays mail and loses none; each mail arrives once."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play.outbox import backoff
from rennleitung.render.mail_message import Attachment, Outgoing
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
    smtp.start()
    assert send_due(service, now).sent == 4  # the failed one waits for its backoff
    assert send_due(service, now + timedelta(minutes=1)).sent == 1
    assert send_due(service, now + timedelta(hours=2)).sent == 0
    assert sorted(r[0] for r, _m in smtp.sink.mails) == [f"team{n}@example.net" for n in range(5)]
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailOutRow)).all()
        assert all(r.status == "sent" and r.sent_at is not None for r in rows)
