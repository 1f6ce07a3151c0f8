"""The LMTP (or SMTP) endpoint the local mail system delivers to, built on aiosmtpd.

A mail is acknowledged only after it is stored: if the database cannot take it, the answer is a
temporary failure (451) and the delivering MTA keeps the mail and tries again later. Parsing
and answering happen after the acknowledgement, in a worker thread, so a slow game never holds
up delivery.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from rennleitung.mail.service import MailService

MAX_SIZE = 25 * 1024 * 1024
"""Largest mail taken (bytes); a larger one is refused by the protocol (552) before storing."""


class IntakeHandler:
    """aiosmtpd handler: store, acknowledge, then process in the background."""

    def __init__(self, service: MailService, protocol: str) -> None:
        self.service = service
        self.protocol = protocol
        self._worker = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(envelope.content, bytes) and not raw:
            raw = envelope.content
        recipients = tuple(str(r) for r in envelope.rcpt_tos)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(
                None, lambda: self.service.receive(raw, self.protocol,
                                                   envelope.mail_from or "", recipients))
        except Exception:
            reply = "451 4.3.0 mail not stored, try again later"
        else:
            reply = "250 2.0.0 stored"
            loop.run_in_executor(None, self._process)
        if self.protocol == "lmtp":  # LMTP answers once per recipient (RFC 2033)
            return "\r\n".join([reply] * max(1, len(recipients)))
        return reply

    def _process(self) -> None:
        if not self._worker.acquire(blocking=False):
            return  # the running worker takes the new mail too (it loops until none waits)
        try:
            while self.service.process_pending():
                pass
        finally:
            self._worker.release()


class IntakeController(Controller):
    """A controller that speaks LMTP or SMTP."""

    def __init__(self, service: MailService, host: str, port: int, protocol: str) -> None:
        self.protocol = protocol
        super().__init__(IntakeHandler(service, protocol), hostname=host, port=port,
                         data_size_limit=MAX_SIZE)

    def factory(self) -> Any:
        cls = LMTP if self.protocol == "lmtp" else SMTP
        return cls(self.handler, data_size_limit=MAX_SIZE, enable_SMTPUTF8=True,
                   decode_data=False, hostname="rennleitung")


def start_listener(service: MailService, host: str, port: int,
                   protocol: str = "lmtp") -> IntakeController:
    """Start listening in a thread of its own; ``stop()`` the result to end."""
    controller = IntakeController(service, host, port, protocol)
    controller.start()
    return controller
