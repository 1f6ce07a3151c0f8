"""Mail from the web server: "your move" notices and sign-in links, through the project's SMTP
settings (``play/outbox.py``: host, port, STARTTLS or TLS, login from the environment).

A "your move" notice goes through the mail queue (``store/mail_queue.py``, sent by
``play/outbox.py``, as the mail gateway's answers are): queued in the database
once per question (its ``ref``), sent by the server's outbox loop, and retried with a growing
wait while the mail server is down, so a mail server that is away delays the notice but does
not lose it. A sign-in link is sent directly from a worker thread and never queued: the outbox
keeps what it sends, and the database holds only hashes of sign-in tokens (``store/accounts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import threading
from dataclasses import replace
from datetime import UTC, datetime
from email.message import EmailMessage

from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from rennleitung.errors import RennleitungError
from rennleitung.play.outbox import SendResult, SmtpSettings, SmtpTransport, send_due, smtp_from_env
from rennleitung.render.mail_message import Outgoing, build
from rennleitung.store.mail_queue import MailQueue, NewMail
from rennleitung.web.settings import Settings

log = logging.getLogger("rennleitung.web.mail")


def mail_settings(settings: Settings) -> SmtpSettings:
    """The project's SMTP settings with this server's host, port and sender."""
    try:
        base = smtp_from_env()
    except RennleitungError as error:
        log.warning("mail settings: %s", error.en)
        base = SmtpSettings()
    return replace(base, sender=settings.mail_from, smtp_host=settings.smtp_host,
                   smtp_port=settings.smtp_port)


def send(settings: Settings, to: str, subject: str, body: str, *, wait: bool = False) -> bool:
    """Send one plain-text mail; False when no SMTP host is set. ``wait`` blocks until sent."""
    if not settings.smtp_host:
        return False
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    mail = mail_settings(settings)

    def deliver() -> None:
        try:
            with SmtpTransport(mail, timeout=10) as transport:
                transport.send(to, message.as_bytes())
        except (OSError, smtplib.SMTPException) as error:
            log.warning("mail not sent: %s", type(error).__name__)

    if wait:
        deliver()
    else:
        threading.Thread(target=deliver, daemon=True).start()
    return True


class Outbox:
    """The server's side of the mail outbox: queue a notice, and send what is due."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.mails = MailQueue(engine)
        self.smtp = mail_settings(settings)
        self._due = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def queue(self, to: str, subject: str, body: str, ref: str) -> bool:
        """Queue one plain-text notice (a ``ref`` queued before is not queued again) and wake
        the sending loop; False when it was a double. Called from any thread."""
        notice = Outgoing(to, subject, body, kind="notice", ref=ref)
        sender = self.smtp.sender
        queued = self.mails.enqueue(NewMail(to, subject, "notice", ref,
                                            lambda now: build(notice, sender, now)),
                                    datetime.now(UTC))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._due.set)
        return queued is not None

    def send(self, now: datetime | None = None) -> SendResult:
        """Send what is due at ``now`` (default: the clock)."""
        return send_due(self.mails, self.smtp, now or datetime.now(UTC))

    async def run(self, every: float) -> None:
        """Send what is due now and whenever a notice is queued, else every ``every`` seconds
        (retries come due by the outbox's backoff)."""
        self._loop = asyncio.get_running_loop()
        self._due.set()  # what was queued before the server started
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._due.wait(), timeout=every)
            self._due.clear()
            try:
                await run_in_threadpool(self.send)
            except Exception:
                log.exception("outbox run failed")
