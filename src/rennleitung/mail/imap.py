"""Polling an IMAP mailbox, for those whose only mail access is an account somewhere.

Each unseen message is fetched without marking it, stored as received, and only then flagged
``\\Seen``; a crash in between fetches it again, and the store recognises it (same content
hash), so it is processed once.
"""

from __future__ import annotations

import contextlib
import imaplib
import ssl
from datetime import datetime, timedelta

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import (  # type: ignore[import-untyped]
    CapabilityError,
    IMAPClientError,
    LoginError,
)

from rennleitung.errors import RennleitungError
from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.store.mail_store import GatewayPart

LONGEST_WAIT = timedelta(hours=1)


def imap_fault(error: Exception, settings: MailSettings) -> RennleitungError:
    """A fault of the IMAP mailbox as one bilingual line (IMAPClient's errors are neither
    ``OSError`` nor ``RennleitungError``; a wrong password ended ``mail serve``)."""
    where = f"{settings.imap_host}:{settings.imap_port}"
    reason = " ".join(str(error).split())[:200] or type(error).__name__
    if isinstance(error, LoginError):
        return RennleitungError(f"{where}: Anmeldung als {settings.imap_user!r} abgelehnt "
                                "(Benutzer oder Passwort falsch)", f"{where}: login as "
                                f"{settings.imap_user!r} refused (wrong user or password)",
                                "IMAP")
    if isinstance(error, CapabilityError) or "starttls" in reason.lower():
        return RennleitungError(f"{where}: der Server bietet kein STARTTLS "
                                "(RENNLEITUNG_IMAP_SECURITY)", f"{where}: the server offers no "
                                "STARTTLS (RENNLEITUNG_IMAP_SECURITY)", "IMAP")
    if isinstance(error, IMAPClientError | imaplib.IMAP4.error) and (
            "select" in reason.lower() or "mailbox" in reason.lower()
            or "folder" in reason.lower()):
        return RennleitungError(f"{where}: Ordner {settings.imap_folder!r} nicht lesbar "
                                f"({reason})", f"{where}: folder {settings.imap_folder!r} "
                                f"cannot be read ({reason})", "IMAP")
    if isinstance(error, OSError):
        return RennleitungError(f"{where}: nicht erreichbar ({reason})",
                                f"{where}: unreachable ({reason})", "IMAP")
    return RennleitungError(f"{where}: {reason}", f"{where}: {reason}", "IMAP")


def wait_after(failures: int, interval: float) -> timedelta:
    """How long ``mail serve`` waits before trying the mailbox again after ``failures``
    faults in a row: the interval, doubled each time, at most an hour."""
    return min(timedelta(seconds=interval * 2 ** min(failures, 20)), LONGEST_WAIT)


def poll_guarded(service: MailService, now: datetime, interval: float) -> str:
    """One poll for ``mail serve``: never raises. A fault is recorded (``mail status`` shows
    it) with the time of the next try, which grows with each fault in a row; until then the
    mailbox is not tried. Returns the line to print (empty: nothing to say)."""
    known = {p.part: p for p in service.store.parts()}.get("imap")
    if known is not None and known.next_try_at is not None and now < known.next_try_at:
        return ""
    try:
        count = poll_imap(service)
    except RennleitungError as fault:
        failures = (known.failures if known is not None and not known.ok else 0) + 1
        after = max(now, service.clock())  # a refused login may take the server seconds
        retry = after + wait_after(failures, interval)
        service.store.note_part(GatewayPart("imap", False, failures, fault.message_en, after,
                                            retry))
        return f"{fault}; next try / nächster Versuch {retry:%H:%M:%S} UTC"
    if known is None or not known.ok:
        service.store.note_part(GatewayPart("imap", True, 0, "", now, None))
    return f"IMAP: {count} new" if count else ""


def _connect(settings: MailSettings) -> IMAPClient:
    context = ssl.create_default_context()
    client = IMAPClient(settings.imap_host, port=settings.imap_port,
                        ssl=settings.imap_security == "tls", ssl_context=context, timeout=30)
    if settings.imap_security == "starttls":
        client.starttls(context)
    client.login(settings.imap_user, settings.imap_password)
    return client


def poll_imap(service: MailService, settings: MailSettings | None = None,
              batch: int = 100) -> int:
    """Fetch every unseen message of the folder into the store; returns how many were new.
    Any fault of the mailbox is a ``RennleitungError`` with one line (``imap_fault``)."""
    s = settings or service.settings
    try:
        return _poll(service, s, batch)
    except RennleitungError:
        raise
    except (IMAPClientError, imaplib.IMAP4.error, OSError) as error:
        raise imap_fault(error, s) from error


def _poll(service: MailService, s: MailSettings, batch: int) -> int:
    client = _connect(s)
    stored = 0
    try:
        client.select_folder(s.imap_folder)
        uids = client.search(["UNSEEN"])
        for start in range(0, len(uids), batch):
            chunk = uids[start:start + batch]
            fetched = client.fetch(chunk, ["BODY.PEEK[]"])
            for uid in chunk:
                data = fetched.get(uid, {})
                raw = data.get(b"BODY[]")
                if not isinstance(raw, bytes):
                    continue
                received = service.receive(raw, "imap")
                stored += not received.duplicate
                client.add_flags([uid], [b"\\Seen"])
    finally:
        with contextlib.suppress(Exception):
            client.logout()
    return stored
