"""A mail as bytes, and header text as one safe line: what the mail gateway and the web server
send, built whole (pure standard library, no I/O).

Every answer carries ``Auto-Submitted: auto-replied`` (RFC 3834) so that other robots do not
answer it, and ``In-Reply-To`` so the player's mail program threads it with his orders. Every
header value passes ``clean_header`` (no line breaks), so nothing a player wrote can add a
header; reading a received mail (``mail/decode.py``) cleans its headers the same way.
"""

from __future__ import annotations

import base64
import contextlib
import quopri
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from email.charset import QP, Charset
from email.errors import MessageError
from email.header import Header, decode_header, make_header
from email.utils import encode_rfc2231, format_datetime, formataddr, make_msgid, parseaddr

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
_SAFE_NAME = re.compile(r"[A-Za-z0-9 ._()+,-]{1,100}")
"""A file name that goes into ``filename="..."`` as it is; any other is RFC 2231 encoded."""


def _text_part(text: str, subtype: str) -> bytes:
    """A text part, quoted-printable: readable, no long lines (``binascii``'s encoder; the
    email package's pure-Python one took a third of a question mail's build)."""
    body = quopri.encodestring(text.replace("\r\n", "\n").encode("utf-8"))
    return (f'Content-Type: text/{subtype}; charset="utf-8"\r\n'
            "Content-Transfer-Encoding: quoted-printable\r\n\r\n").encode() \
        + body.replace(b"\n", b"\r\n")


def _attachment_part(item: Attachment) -> bytes:
    """An attachment, base64 in lines of 76 characters."""
    maintype, _, subtype = item.mime.partition("/")
    kind = f"{maintype}/{subtype}" + ('; charset="utf-8"' if maintype == "text" else "")
    name = clean_header(item.filename, 100)
    disposition = (f'filename="{name}"' if _SAFE_NAME.fullmatch(name)
                   else f"filename*={encode_rfc2231(name, 'utf-8')}")
    return (f"Content-Type: {kind}\r\nContent-Transfer-Encoding: base64\r\n"
            f"Content-Disposition: attachment; {disposition}\r\n\r\n").encode() \
        + base64.encodebytes(item.data).replace(b"\n", b"\r\n")


def _multipart(subtype: str, parts: list[bytes]) -> bytes:
    """Parts under one boundary that none of them holds (a random one, as the email
    package draws it). The line break before a boundary belongs to it (RFC 2046 5.1.1), so
    each part gets one more: its text keeps its last line end."""
    boundary = f"=============={secrets.token_hex(12)}=="
    while any(boundary.encode() in part for part in parts):  # pragma: no cover - 96 bits
        boundary = f"=============={secrets.token_hex(12)}=="
    mark = f"--{boundary}\r\n".encode()
    return (f'Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n\r\n').encode() \
        + b"".join(mark + part + b"\r\n" for part in parts) + f"--{boundary}--\r\n".encode()


def build(outgoing: Outgoing, sender: str, when: datetime, in_reply_to: str = "") -> bytes:
    """The message as bytes with CRLF line ends, ready for SMTP. Every header value passes
    ``clean_header`` (no line breaks), so nothing a player wrote can add a header. Built by
    hand, not by the email package's generator: a question mail with its picture took 4 ms
    there, most of a mail's cost in ``mail serve`` (issue 24)."""
    body = _text_part(outgoing.text, "plain")
    if outgoing.html is not None:
        body = _multipart("alternative", [body, _text_part(outgoing.html, "html")])
    if outgoing.attachments:
        body = _multipart("mixed", [body, *(_attachment_part(item)
                                             for item in outgoing.attachments)])
    subject = clean_header(outgoing.subject, 200)
    domain = (parseaddr(sender)[1] or sender).rpartition("@")[2] or "localhost"
    headers = [
        ("From", clean_header(sender, 320)),
        ("To", clean_header(outgoing.recipient, 320)),
        ("Subject", Header(subject, _QP).encode() if not subject.isascii() else subject),
        ("Date", format_datetime(when)),
        ("Message-ID", make_msgid("rennleitung", domain=clean_header(domain, 200))),
        ("Auto-Submitted", "auto-replied" if in_reply_to else "auto-generated"),
    ]
    reply = clean_header(in_reply_to, 900)
    if reply.startswith("<") and reply.endswith(">") and " " not in reply:
        headers += [("In-Reply-To", reply), ("References", reply)]
    head = "".join(f"{name}: {_folded(_ascii(value))}\r\n" for name, value in headers)
    return (head + "MIME-Version: 1.0\r\n").encode("utf-8") + body


def _ascii(value: str) -> str:
    """A header value in ASCII: a name in an address (``Rennleitung Görlitz <…>``) as an
    encoded word, the address itself kept."""
    if value.isascii():
        return value
    name, address = parseaddr(value)
    if address and address.isascii():
        return formataddr((name, address), "utf-8")
    return Header(value, _QP).encode()


def _folded(value: str) -> str:
    """A long header value folded at blanks into lines of at most 78 characters (RFC 5322
    2.2.3); an encoded subject comes folded already."""
    if len(value) <= 70 or "\n" in value:
        return value.replace("\n", "\r\n")
    lines, line = [], ""
    for word in value.split(" "):
        if line and len(line) + 1 + len(word) > 70:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\r\n ".join([*lines, line])
