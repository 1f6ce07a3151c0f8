"""The gateway's outbox run: the mail queue of its database sent through its SMTP settings.

The queue and its sending are shared with the web server (``store/mail_queue.py``,
``play/outbox.py``: backoff from 30 seconds to one hour, leases, every attempt recorded).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from rennleitung.mail.service import MailService
from rennleitung.play.outbox import SendResult, SmtpSettings, SmtpTransport
from rennleitung.play.outbox import send_due as send_queue


def send_due(service: MailService, now: datetime | None = None,
             transport_factory: Callable[[SmtpSettings], SmtpTransport] = SmtpTransport,
             limit: int = 200) -> SendResult:
    """Send every queued mail whose time has come; record each attempt."""
    return send_queue(service.queue, service.settings.smtp(), now or service.clock(),
                      transport_factory, limit)
