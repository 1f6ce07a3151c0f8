"""Outgoing mail built whole: headers safe from injection, text in one language, attachments.

Every answer carries ``Auto-Submitted: auto-replied`` (RFC 3834) so that other robots do not
answer it, and ``In-Reply-To`` so the player's mail program threads it with his orders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from email.charset import QP, Charset
from email.encoders import encode_base64
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
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


_QP = Charset("utf-8")
_QP.header_encoding = QP
_QP.body_encoding = QP


def _text_part(text: str, subtype: str) -> MIMEText:
    # quoted-printable: readable, no long lines (the stub wants a charset name; a Charset works)
    return MIMEText(text, subtype, _QP)  # type: ignore[arg-type]


def build(outgoing: Outgoing, sender: str, when: datetime, in_reply_to: str = "") -> bytes:
    """The message as bytes with CRLF line ends, ready for SMTP. Every header value passes
    ``clean_header`` (no line breaks), so nothing a player wrote can add a header."""
    body: Message = _text_part(outgoing.text, "plain")
    if outgoing.html is not None:
        alternative = MIMEMultipart("alternative")
        alternative.attach(body)
        alternative.attach(_text_part(outgoing.html, "html"))
        body = alternative
    if outgoing.attachments:
        message: Message = MIMEMultipart("mixed")
        message.attach(body)
        for item in outgoing.attachments:
            maintype, _, subtype = item.mime.partition("/")
            part = MIMEBase(maintype, subtype)
            if maintype == "text":
                part.set_param("charset", "utf-8")
            part.set_payload(item.data)
            encode_base64(part)
            part.add_header("Content-Disposition", "attachment",
                            filename=clean_header(item.filename, 100))
            message.attach(part)
    else:
        message = body
    subject = clean_header(outgoing.subject, 200)
    message["From"] = clean_header(sender, 320)
    message["To"] = clean_header(outgoing.recipient, 320)
    message["Subject"] = Header(subject, _QP).encode() if not subject.isascii() else subject
    message["Date"] = format_datetime(when)
    domain = sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid("rennleitung", domain=clean_header(domain, 200))
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    reply = clean_header(in_reply_to, 900)
    if reply.startswith("<") and reply.endswith(">") and " " not in reply:
        message["In-Reply-To"] = reply
        message["References"] = reply
    # CRLF line ends, as SMTP wants them (every line is short: QP and base64 wrap them)
    return re.sub(rb"\r?\n", b"\r\n", message.as_bytes())
