"""Mail from the web server: sign-in links and "your move" notices, through plain SMTP.

Sent from a worker thread so that a slow mail server never holds up a page; a mail server that
is down costs the notice, never the action (the action is already stored).
"""

from __future__ import annotations

import logging
import smtplib
import threading
from email.message import EmailMessage

from rennleitung.web.settings import Settings

log = logging.getLogger("rennleitung.web.mail")


def send(settings: Settings, to: str, subject: str, body: str, *, wait: bool = False) -> bool:
    """Send one plain-text mail; False when no SMTP host is set. ``wait`` blocks until sent."""
    if not settings.smtp_host:
        return False
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)

    def deliver() -> None:
        try:
            with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10) as smtp:
                smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("mail to a driver not sent: %s", type(error).__name__)

    if wait:
        deliver()
    else:
        threading.Thread(target=deliver, daemon=True).start()
    return True
