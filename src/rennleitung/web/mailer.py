"""Mail from the web server: sign-in links and "your move" notices, through the project's SMTP
settings (``mail/settings.py``: host, port, STARTTLS or TLS, login from the environment).

Sent from a worker thread so that a slow mail server never holds up a page; a mail server that
is down costs the notice, never the action (the action is already stored).
"""

from __future__ import annotations

import logging
import smtplib
import threading
from dataclasses import replace
from email.message import EmailMessage

from rennleitung.errors import RennleitungError
from rennleitung.mail.outbox import SmtpTransport
from rennleitung.mail.settings import MailSettings, settings_from_env
from rennleitung.web.settings import Settings

log = logging.getLogger("rennleitung.web.mail")


def mail_settings(settings: Settings) -> MailSettings:
    """The project's mail settings with this server's host, port and sender."""
    try:
        base = settings_from_env()
    except RennleitungError as error:
        log.warning("mail settings: %s", error.en)
        base = MailSettings()
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
