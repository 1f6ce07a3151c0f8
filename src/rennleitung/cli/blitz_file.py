"""The file of an FD Blitz match (``rennleitung blitz``): reading and writing it, and the time
of a command; shared by ``cli/blitz.py`` and ``cli/blitz_run.py``."""

from __future__ import annotations

import json
import time
from pathlib import Path

from rennleitung.errors import RennleitungError
from rennleitung.inputs import read_json
from rennleitung.league.blitz_codec import BlitzSession, session_from_json, session_to_json
from rennleitung.league.blitz_match import RunStart


def load_session(file: Path) -> BlitzSession:
    data = read_json(file)
    if not isinstance(data, dict):
        raise RennleitungError("JSON-Objekt erwartet", "JSON object expected", str(file))
    return session_from_json(data)


def save_session(file: Path, session: BlitzSession) -> None:
    file.write_text(json.dumps(session_to_json(session), indent=2), encoding="utf-8")


def describe_start(start: RunStart) -> tuple[str, str]:
    if start.pole is None:
        rolls = ", ".join(f"{n} {'/'.join(map(str, r))}" for n, r in start.die_rolls)
        return (
            f"Lauf {start.run}: nebeneinander, Würfel ({rolls}): {start.first_to_move} beginnt",
            f"run {start.run}: side by side, dice ({rolls}): {start.first_to_move} begins",
        )
    return (
        f"Lauf {start.run}: {start.pole} auf Pole, {start.second} auf Startplatz 2",
        f"run {start.run}: {start.pole} on pole, {start.second} second on the grid",
    )



def now_or(now: float | None) -> float:
    """``--now`` if given, else the clock."""
    return time.time() if now is None else now
