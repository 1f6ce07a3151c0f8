"""A received mail as the games read it: who sent it, what it says, and the order sheet.

Mail programs wrap the same few lines in many ways: quoted-printable or base64, UTF-8, Latin-1 or
Windows-1252, a byte-order mark, CRLF line ends, an HTML part only, the reply quoting the last
answer, a signature, the sheet as an attachment. ``decode`` undoes all of that and never raises:
a broken mail yields what could be read plus ``problems`` for the answer.

Quoted lines and the line introducing them become empty lines rather than disappearing, so the
line numbers in an answer are the ones the player sees in the mail he sent.
"""

from __future__ import annotations

import email
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser

from rennleitung.render.mail_message import CONTROL, clean_header, decode_bytes, header_text

MAX_TEXT = 200_000
"""Characters of body or sheet read at most; a longer text is refused as too long."""

_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")


@dataclass
class Decoded:
    """What a mail says, cleaned for reading."""

    sender: str = ""  # the address, lower case; empty if none could be read
    sender_name: str = ""
    subject: str = ""
    message_id: str = ""
    written_at: datetime | None = None  # the Date header, if it can be read (UTC)
    body: str = ""
    sheet: str = ""  # a text attachment if there is one, else the body
    from_attachment: bool = False
    automatic: bool = False  # bounces, auto-replies, lists: never answered
    too_long: bool = False
    problems: list[str] = field(default_factory=list)


_ANGLE = re.compile(r"<([^<>\s]{3,254})>")


def sender_of(header: str) -> tuple[str, str]:
    """(name, address) of a From header. A header the address parser cannot read (an unclosed
    quote, an empty ``<>`` before the address, a name thousands of characters long) still
    yields its last address in angle brackets, so its writer gets an answer."""
    flat = CONTROL.sub(" ", header)
    name, address = "", ""
    try:
        pairs = getaddresses([flat[:1000]])
    except (ValueError, IndexError, TypeError):
        pairs = []
    if pairs:
        name, address = clean_header(pairs[0][0], 100), clean_address(pairs[0][1])
    if not address:
        found = _ANGLE.findall(flat[-2000:])
        address = clean_address(found[-1]) if found else ""
        if address:
            name = clean_header(flat[:flat.rfind("<")].strip().strip('"'), 100)
    return name, address


def clean_address(value: str) -> str:
    """The address in lower case if it is a plain ``local@domain``, else empty."""
    address = value.strip().strip("<>").strip()
    return address.lower() if _ADDRESS.match(address) and len(address) <= 254 else ""


def message_id_of(raw: bytes) -> str:
    """The Message-ID header of raw bytes (empty if none), without parsing the whole mail."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    match = re.search(rb"^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)", head, re.I | re.M)
    if not match:
        return ""
    text = match.group(1).decode("latin-1")
    return CONTROL.sub("", text).strip()[:998]


class _HtmlText(HTMLParser):
    """HTML to plain lines: block elements end a line, scripts and styles are dropped."""

    BLOCKS = frozenset({"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6",
                        "table", "ul", "ol", "pre", "blockquote", "hr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head"):
            self.skip += 1
        elif tag == "blockquote":
            self.quote += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        text = re.sub(r"[ \t\r\n\xa0]+", " ", data)
        self.parts.append(f"> {text}" if self.quote else text)


def html_to_text(html: str) -> str:
    """The readable text of an HTML mail, one block per line."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):
        pass
    lines = [line.strip() for line in "".join(parser.parts).split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


_INTRO = re.compile(r"\b(wrote|schrieb|écrit|geschrieben)\b.*:\s*$", re.I)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(ursprüngliche nachricht|original message|"
                       r"weitergeleitete nachricht|forwarded message)\s*-{2,}\s*$", re.I)
"""Outlook's (and others') line above the original, which follows unquoted."""
_HEADER_FROM = re.compile(r"^\s*\*?(von|from)\s*:\*?\s*\S", re.I)
_HEADER_MORE = re.compile(r"^\s*\*?(gesendet|sent|datum|date|an|to|cc|betreff|subject)\s*:",
                          re.I)
_HEADER_SUBJECT = re.compile(r"^\s*\*?(betreff|subject)\s*:", re.I)
_SENT_FROM = re.compile(r"^\s*(gesendet (von|mit) |sent (from|with) |von meinem .* gesendet|"
                        r"get outlook for |holen sie sich outlook für )", re.I)
"""The line a phone or a mail app puts below what its user wrote ("Gesendet von meinem
iPhone"): what follows is the quoted original."""


def _header_block(lines: list[str], start: int) -> bool:
    """Whether an Outlook header block of the original begins at ``start``: ``Von:``, then
    ``Gesendet:``/``An:``/… lines up to a ``Betreff:`` (``From:``, ``Sent:``, ``Subject:``)."""
    if not _HEADER_FROM.match(lines[start]):
        return False
    for line in lines[start + 1:start + 8]:
        if _HEADER_SUBJECT.match(line):
            return True
        if line.strip() and not _HEADER_MORE.match(line):
            return False
    return False


def _quote_follows(lines: list[str], after: int) -> bool:
    following = next((later for later in lines[after + 1:] if later.strip()), "")
    return following.lstrip().startswith(">")


def reading_text(text: str) -> str:
    """What the player wrote: one kind of line end, no BOM, quoted lines (and the line that
    introduces them, on one line or wrapped on two as Gmail writes it) blank, everything from
    the signature separator ``-- ``, a "Gesendet von meinem iPhone" line, an Outlook
    "-----Ursprüngliche Nachricht-----" line or an Outlook header block of the original
    (``Von:``/``Gesendet:``/``Betreff:``, unquoted below it) on blank."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")
    out: list[str] = []
    second = False  # the line is the second of a two-line attribution
    for number, line in enumerate(lines):
        if second:
            out.append("")
            second = False
            continue
        if line.rstrip() == "--" or _ORIGINAL.match(line) or _SENT_FROM.match(line) \
                or _header_block(lines, number):
            break
        if line.lstrip().startswith(">"):
            out.append("")
            continue
        if _INTRO.search(line) and _quote_follows(lines, number):
            out.append("")
            continue
        wrapped = number + 1 < len(lines) and _INTRO.search(f"{line} {lines[number + 1]}")
        if wrapped and not line.lstrip().startswith(">") and _quote_follows(lines, number + 1) \
                and re.search(r"\b(am|on|le)\b", line, re.I):
            out.append("")  # the first of a two-line attribution; the second is blanked next
            second = True
            continue
        out.append(line.rstrip())
    while out and re.fullmatch(r"[\s_]*", out[-1] or ""):
        out.pop()  # blank lines and Outlook's "____" rule above the original
    return "\n".join(out)


def _payload_text(part: Message) -> str:
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    return decode_bytes(data, part.get_content_charset())


def _is_attachment(part: Message) -> bool:
    disposition = str(part.get("Content-Disposition", "")).lower()
    return disposition.startswith("attachment") or bool(part.get_filename())


def _sheet_attachment(part: Message) -> bool:
    if not _is_attachment(part):
        return False
    name = clean_header(part.get_filename() or "").lower()
    kind = part.get_content_type()
    return kind == "text/plain" or (kind == "application/octet-stream"
                                    and name.endswith((".txt", ".text")))


def _automatic(message: Message, envelope_from: str | None) -> bool:
    """Mail that must never be answered (RFC 3834): bounces, auto-replies, mailing lists."""
    auto = clean_header(message.get("Auto-Submitted", "")).lower()
    precedence = clean_header(message.get("Precedence", "")).lower()
    sender = clean_header(message.get("From", "")).lower()
    return ((auto not in ("", "no")) or precedence in ("bulk", "list", "junk")
            or message.get("List-Id") is not None or envelope_from == ""
            or "mailer-daemon" in sender or sender.startswith("postmaster@"))


def written_at(header: str) -> datetime | None:
    """When the mail says it was written (its ``Date``), in UTC; None if missing or unreadable,
    so that it counts by arrival. A Date without a zone is taken as UTC."""
    try:
        when = parsedate_to_datetime(header) if header else None
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def decode(raw: bytes, envelope_from: str | None = None) -> Decoded:
    """Read a mail; never raises, whatever the bytes."""
    result = Decoded()
    try:
        message = email.message_from_bytes(raw, policy=policy.compat32)
    except Exception as error:
        result.problems.append(f"unreadable: {type(error).__name__}")
        return result
    result.subject = clean_header(message.get("Subject", ""))
    result.message_id = clean_header(message.get("Message-ID", ""), 998)
    result.written_at = written_at(clean_header(message.get("Date", "")))
    result.sender_name, result.sender = sender_of(header_text(message.get("From", "")))
    if not result.sender and envelope_from:
        result.sender = clean_address(envelope_from)
    result.automatic = _automatic(message, envelope_from)
    plain: str | None = None
    html: str | None = None
    sheet: str | None = None
    try:
        parts = list(message.walk())
    except (RecursionError, TypeError, AttributeError):
        parts = [message]
        result.problems.append("MIME structure unreadable")
    for part in parts[:200]:
        if part.is_multipart():
            continue
        try:
            kind = part.get_content_type()
            if sheet is None and _sheet_attachment(part):
                sheet = _payload_text(part)
            elif _is_attachment(part):
                continue
            elif kind == "text/plain" and plain is None:
                plain = _payload_text(part)
            elif kind == "text/html" and html is None:
                html = _payload_text(part)
        except (LookupError, ValueError, TypeError, AssertionError, UnicodeError) as error:
            result.problems.append(f"part unreadable: {type(error).__name__}")
    body = plain if plain is not None else html_to_text(html) if html is not None else ""
    if len(body) > MAX_TEXT or (sheet is not None and len(sheet) > MAX_TEXT):
        result.too_long = True
        body, sheet = body[:MAX_TEXT], sheet[:MAX_TEXT] if sheet is not None else None
    result.body = reading_text(body)
    result.from_attachment = sheet is not None
    result.sheet = reading_text(sheet) if sheet is not None else result.body
    return result
