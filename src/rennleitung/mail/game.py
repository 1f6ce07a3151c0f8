"""What a game played by mail sees of the gateway: the mail it is handed, what it answers, and
the few things it may ask of the gateway (``Mailroom``). The adapters (``fd_game``,
``turbo_game``) import this module, never ``service.py``, so the gateway can load them without
an import circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from rennleitung.mail.decode import Decoded
from rennleitung.render.mail_message import Outgoing
from rennleitung.store.mail_store import Binding, GameInfo


@dataclass
class Order:
    """A stored mail from a bound sender, cleaned, for a game adapter."""

    mail_id: int
    binding: Binding
    decoded: Decoded
    text: str  # the order sheet or body, secret line blanked, line numbers kept
    received_at: datetime


@dataclass
class Handled:
    """What an adapter made of a mail: a short outcome for the record, and the answers."""

    outcome: dict[str, object]
    answers: list[Outgoing]
    status: str = "processed"


class Mailroom(Protocol):
    """The gateway as an adapter may use it (``mail/service.MailService`` is one)."""

    def game(self, key: str) -> GameInfo: ...
    def bindings(self, key: str | None = None) -> list[Binding]: ...
    def enqueue(self, outgoing: Outgoing, game_id: int | None = None,
                in_reply_to: str = "") -> int | None: ...
    def queued(self, ref: str) -> bool: ...
    def last_ref(self, prefix: str) -> str | None: ...


class GameAdapter(Protocol):
    """One kind of game played by mail (TURBO 2000, Formula Dé)."""

    def handle(self, service: Mailroom, order: Order) -> Handled:
        """Act on a mail of a bound sender; return the outcome and the answers."""
        ...

    def tick(self, service: Mailroom, game: GameInfo, now: datetime) -> list[Outgoing]:
        """Mail the game wants to send by itself (reports, questions, deadlines passed)."""
        ...


def reply_subject(subject: str) -> str:
    """``Re: `` in front of a subject (once)."""
    subject = subject.strip()
    return subject if subject.lower().startswith("re:") else f"Re: {subject}".strip()
