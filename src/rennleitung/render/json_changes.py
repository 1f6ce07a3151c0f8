"""What a correction changed, in words a person reads: one line per value that differs.

The history keeps ``before`` and ``after`` as the league export's JSON (``league/history.py``);
an organiser wants "Anna: position 3 → 1", not two blobs to compare by eye. Lists of records
are matched by the field that names them (driver, team, race), so a reordered result reads as
the places that changed, not as every row.
"""

from __future__ import annotations

import json
from typing import Any

IDENTITY = ("driver", "name", "team", "race", "id")
"""Fields that name a record in a list, tried in this order."""

MISSING = "–"


def changes(before: Any, after: Any) -> list[str]:
    """Each differing value as ``path: old → new``; an empty list when nothing differs."""
    found: list[str] = []
    _walk("", before, after, found)
    return found


def _walk(path: str, before: Any, after: Any, found: list[str]) -> None:
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            _walk(_join(path, str(key)), before.get(key, MISSING), after.get(key, MISSING),
                  found)
        return
    if isinstance(before, list) and isinstance(after, list):
        key = _identity(before, after)
        if key is not None:
            old = {_text(item[key]): item for item in before}
            new = {_text(item[key]): item for item in after}
            for name in [*old, *(n for n in new if n not in old)]:
                _walk(_join(path, name), old.get(name, MISSING), new.get(name, MISSING), found)
            return
        if len(before) == len(after):
            for i, (b, a) in enumerate(zip(before, after, strict=True)):
                _walk(_join(path, str(i + 1)), b, a, found)
            return
    found.append(f"{path or '='}: {_text(before)} → {_text(after)}")


def _identity(before: list[Any], after: list[Any]) -> str | None:
    items = [*before, *after]
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in IDENTITY:
        values = [i.get(key) for i in items]
        if all(v is not None for v in values) and all(
                len({_text(i[key]) for i in side}) == len(side) for side in (before, after)):
            return key
    return None


def _join(path: str, key: str) -> str:
    return f"{path} {key}" if path else key


def _text(value: Any) -> str:
    if value is MISSING or value is None:
        return MISSING
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
