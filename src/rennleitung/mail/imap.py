"""Polling an IMAP mailbox, for those whose only mail access is an account somewhere.

Each unseen message is fetched without marking it, stored as received, and only then flagged
``\\Seen``; a crash in between fetches it again, and the store recognises it (same content
hash), so it is processed once.
"""

from __future__ import annotations

import contextlib
import ssl

from imapclient import IMAPClient  # type: ignore[import-untyped]

from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings


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
    """Fetch every unseen message of the folder into the store; returns how many were new."""
    s = settings or service.settings
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
