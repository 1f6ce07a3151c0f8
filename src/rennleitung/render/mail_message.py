"""A mail as bytes, and header text as one safe line: what the mail gateway and the web server
send, built whole (pure standard library, no I/O).

Every answer carries ``Auto-Submitted: auto-replied`` (RFC 3834) so that other robots do not
answer it, and ``In-Reply-To`` so the player's mail program threads it with his orders. Every
header value passes ``clean_header`` (no line breaks), so nothing a player wrote can add a
header; reading a received mail (``mail/decode.py``) cleans its headers the same way.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from email.charset import QP, Charset
from email.encoders import encode_base64
from email.errors import MessageError
from email.header import Header, decode_header, make_header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, make_msgid

CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
"""Control characters, which never belong in a header line."""


def clean_header(value: object, limit: int = 300) -> str:
    """A header as one safe line: encoded words decoded, no line breaks or control characters
    (so a name cannot inject headers into an answer), at most ``limit`` characters."""
    if value is None:
        return ""
    text = header_text(value)
    if text.isascii():
        text = _decoded_words(text)
    else:  # raw 8-bit text read already: the encoded words among it, one run at a time
        text = _WORDS.sub(lambda run: _decoded_words(run.group(0)), text)
    return CONTROL.sub(" ", text).strip()[:limit]


def _decoded_words(text: str) -> str:
    """``text`` (ASCII) with its RFC 2047 encoded words decoded."""
    with contextlib.suppress(ValueError, LookupError, UnicodeError, AssertionError,
                             MessageError):  # an unknown or broken charset keeps the raw text
        return str(make_header(decode_header(text)))
    return text


_WORD = r"=\?[!->@-~]+\?[qQbB]\?[!->@-~]*\?="
_WORDS = re.compile(rf"{_WORD}(?:[ \t]+{_WORD})*")
"""A run of encoded words (RFC 2047 §2; the blanks between two of them do not count, §6.2)."""


def header_text(value: object) -> str:
    """A header value as text. Raw 8-bit bytes in a header (RFC 6532 allows UTF-8; older
    programs send Latin-1) reach us as a ``Header`` of unknown charset or as surrogate escapes;
    they are read as ``decode_bytes`` reads a body, not replaced by question marks."""
    if isinstance(value, Header):
        chunks = []
        for data, charset in decode_header(value):
            if isinstance(data, bytes):
                known = None if charset in (None, "unknown-8bit") else str(charset)
                chunks.append(decode_bytes(data, known))
            else:
                chunks.append(data)
        return "".join(chunks)
    text = str(value)
    if not _SURROGATE.search(text):
        return text
    return decode_bytes(text.encode("utf-8", errors="surrogateescape"), None)


_SURROGATE = re.compile("[\udc80-\udcff]")
def decode_bytes(data: bytes, charset: str | None) -> str:
    """Bytes as text: a byte-order mark decides, else the declared charset, else UTF-8, else
    Windows-1252 (which also reads Latin-1 text; Latin-1 mail often really is 1252)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    candidates: list[str] = []
    if charset:
        name = charset.strip().strip('"').lower()
        candidates.append("cp1252" if name in ("iso-8859-1", "latin-1", "latin1", "us-ascii",
                                                "ascii") else name)
    candidates += ["utf-8", "cp1252"]
    for candidate in candidates:
        try:
            return data.decode(candidate)
        except (LookupError, UnicodeError):
            continue
    return data.decode("latin-1")


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
