"""Sending the queue: each due mail goes to the configured SMTP server; a failure waits longer.

A mail server that is down only delays mail: the row stays ``queued``, the attempt is recorded
with its error, and the next try comes after a backoff that doubles from 30 seconds up to one
hour. Nothing is dropped, ever; a permanent refusal by the server (5xx) is recorded too and
retried at the longest interval, so the game master can see and fix it.

Several processes may send from one database: a mail is leased for a while before it is sent,
so two senders never take the same row at once.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parseaddr

from sqlalchemy import or_, select, update

from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.store.mail_tables import MailAttemptRow, MailOutRow

FIRST_WAIT = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
LEASE = timedelta(minutes=2)


def backoff(attempts: int) -> timedelta:
    """How long to wait after ``attempts`` failed tries: 30 s, 1 min, 2 min, … at most 1 h."""
    wait: timedelta = FIRST_WAIT * (2 ** min(max(attempts - 1, 0), 12))
    return min(wait, LONGEST_WAIT)


class SmtpTransport:
    """One SMTP connection per batch, with STARTTLS or TLS and a login if configured."""

    def __init__(self, settings: MailSettings, timeout: float = 20.0) -> None:
        self.settings = settings
        self.timeout = timeout
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> SmtpTransport:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        smtp: smtplib.SMTP
        if s.smtp_security == "tls":
            smtp = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=self.timeout,
                                    context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=self.timeout)
            if s.smtp_security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if s.smtp_user:
            smtp.login(s.smtp_user, s.smtp_password)
        return smtp

    def send(self, recipient: str, raw: bytes) -> str:
        """Hand one mail to the server; returns its answer, raises on failure."""
        if self._smtp is None:
            self._smtp = self._connect()
        sender = parseaddr(self.settings.sender)[1] or self.settings.sender
        refused = self._smtp.sendmail(sender, [recipient], raw)
        if refused:
            raise smtplib.SMTPRecipientsRefused(refused)
        return "250 accepted"

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                self._smtp.close()
            self._smtp = None


@dataclass(frozen=True)
class SendResult:
    """What one run of the outbox did."""

    sent: int
    failed: int
    waiting: int


def send_due(service: MailService, now: datetime | None = None,
             transport_factory: Callable[[MailSettings], SmtpTransport] = SmtpTransport,
             limit: int = 200) -> SendResult:
    """Send every queued mail whose time has come; record each attempt."""
    moment = now or service.clock()
    with service.read() as session:
        due = list(session.scalars(
            select(MailOutRow.id).where(MailOutRow.status == "queued",
                                        MailOutRow.next_attempt_at <= moment)
            .order_by(MailOutRow.id).limit(limit)))
    sent = failed = 0
    transport = transport_factory(service.settings)
    try:
        for out_id in due:
            with service.write() as session:
                leased = session.execute(
                    update(MailOutRow).where(
                        MailOutRow.id == out_id, MailOutRow.status == "queued",
                        or_(MailOutRow.lease_until.is_(None), MailOutRow.lease_until < moment))
                    .values(lease_until=moment + LEASE))
                if getattr(leased, "rowcount", 1) == 0:
                    continue
                row = session.get(MailOutRow, out_id)
                assert row is not None
                recipient, raw, attempts = row.recipient, row.raw, row.attempts
            try:
                answer = transport.send(recipient, raw)
            except (smtplib.SMTPException, OSError, ValueError) as error:
                transport.close()
                failed += 1
                reason = f"{type(error).__name__}: {error}"[:1000]
                with service.write() as session:
                    session.execute(update(MailOutRow).where(MailOutRow.id == out_id).values(
                        attempts=attempts + 1, last_error=reason, lease_until=None,
                        next_attempt_at=moment + backoff(attempts + 1)))
                    session.add(MailAttemptRow(out_id=out_id, at=moment, result=reason))
                if isinstance(error, OSError | smtplib.SMTPServerDisconnected |
                              smtplib.SMTPConnectError):
                    break  # the server is away: the rest waits for the next run
                continue
            sent += 1
            with service.write() as session:
                session.execute(update(MailOutRow).where(MailOutRow.id == out_id).values(
                    attempts=attempts + 1, status="sent", sent_at=moment, lease_until=None,
                    last_error=""))
                session.add(MailAttemptRow(out_id=out_id, at=moment, result=answer))
    finally:
        transport.close()
    with service.read() as session:
        waiting = len(list(session.scalars(select(MailOutRow.id).where(
            MailOutRow.status == "queued"))))
    return SendResult(sent, failed, waiting)
