"""A league's history of corrections as data: who changed what, when, and what was before.

The store keeps the entries (``store/league_history.py``); the renderers show them. ``before``
and ``after`` are plain JSON values in the shape of the league export.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ACTIONS: dict[str, tuple[str, str]] = {
    "replace-race": ("Rennen ersetzt", "race replaced"),
    "delete-race": ("Rennen gelöscht", "race deleted"),
    "replace-qualifying": ("Qualifizierung ersetzt", "qualifying replaced"),
    "delete-qualifying": ("Qualifizierung gelöscht", "qualifying deleted"),
    "rename-league": ("Liga umbenannt", "league renamed"),
    "rename-race": ("Rennen umbenannt", "race renamed"),
    "rename-team": ("Team umbenannt", "team renamed"),
    "rename-driver": ("Fahrer umbenannt", "driver renamed"),
    "remove-driver": ("Fahrer entfernt", "driver removed"),
    "remove-team": ("Team entfernt", "team removed"),
    "transfer": ("Teamwechsel", "transfer"),
    "remove-transfer": ("Teamwechsel zurückgenommen", "transfer taken back"),
}
"""Every kind of correction, with its words in German and English."""


@dataclass(frozen=True)
class Correction:
    """One entry of a league's history."""

    seq: int
    at: str
    """UTC time, ISO 8601."""
    by: str
    action: str
    subject: str
    before: Any
    after: Any
