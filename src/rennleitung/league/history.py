"""A league's history of corrections as data: who changed what, when, and what was before.

The store keeps the entries (``store/league_history.py``); the renderers show them. ``before``
and ``after`` are plain JSON values in the shape of the league export.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rennleitung.errors import RennleitungError

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

    def to_json(self) -> dict[str, Any]:
        """The entry as the league export and ``league history --json`` write it."""
        return {"seq": self.seq, "at": self.at, "by": self.by, "action": self.action,
                "subject": self.subject, "before": self.before, "after": self.after}


def history_from_json(items: object) -> tuple[Correction, ...]:
    """The history of a league export (``Correction.to_json`` entries, oldest first), so a
    league moved by export and import keeps what was corrected; a bad entry names itself."""
    if not isinstance(items, list):
        raise RennleitungError("history muss eine Liste sein", "history must be a list",
                               "history")
    entries: list[Correction] = []
    for n, item in enumerate(items, start=1):
        place = f"history {n}"
        if not isinstance(item, dict):
            raise RennleitungError("kein Eintrag", "not an entry", place)
        for key in ("at", "by", "action", "subject"):
            if not isinstance(item.get(key), str):
                raise RennleitungError(f"{key} fehlt oder ist kein Text",
                                       f"{key} missing or not a text", f"{place}, {key}")
        if item["action"] not in ACTIONS:
            raise RennleitungError(f"unbekannte Korrektur {item['action']!r}",
                                   f"unknown correction {item['action']!r}", f"{place}, action")
        entries.append(Correction(n, item["at"], item["by"], item["action"], item["subject"],
                                  item.get("before"), item.get("after")))
    return tuple(entries)
