"""Outgoing mail built whole: headers safe from injection, text in one language, attachments.

Every answer carries ``Auto-Submitted: auto-replied`` (RFC 3834) so that other robots do not
answer it, and ``In-Reply-To`` so the player's mail program threads it with his orders.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from rennleitung.mail.decode import clean_header


@dataclass(frozen=True)
class Attachment:
    """A file sent along: name, MIME type, content."""

    filename: str
    mime: str
    data: bytes


@dataclass
class Outgoing:
    """A mail to queue: one recipient, subject, text, attachments, and a key against doubles."""

    recipient: str
    subject: str
    text: str
    kind: str = "answer"
    ref: str | None = None  # the same ref is never queued twice
    attachments: list[Attachment] = field(default_factory=list)
    html: str | None = None


def build(outgoing: Outgoing, sender: str, when: datetime, in_reply_to: str = "") -> bytes:
    """The message as bytes, ready for SMTP."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = outgoing.recipient
    message["Subject"] = clean_header(outgoing.subject, 200)
    message["Date"] = format_datetime(when)
    domain = sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid("rennleitung", domain=domain)
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    reply = clean_header(in_reply_to, 900)
    if reply.startswith("<") and reply.endswith(">") and " " not in reply:
        message["In-Reply-To"] = reply
        message["References"] = reply
    message.set_content(outgoing.text, charset="utf-8", cte="quoted-printable")
    if outgoing.html is not None:
        message.add_alternative(outgoing.html, subtype="html", charset="utf-8",
                                cte="quoted-printable")
    for item in outgoing.attachments:
        maintype, _, subtype = item.mime.partition("/")
        message.add_attachment(item.data, maintype=maintype, subtype=subtype,
                               filename=clean_header(item.filename, 100))
    return message.as_bytes(policy=policy.SMTP)  # CRLF line ends, as SMTP wants them
