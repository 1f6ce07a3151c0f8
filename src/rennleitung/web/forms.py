"""From a submitted race form to the JSON form of a decision (``race_decisions``), and from a race
setup form to a ``RaceSpec``. Missing or broken fields are named; the engine checks the rules."""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Tyre, WearArea
from rennleitung.play.model import (
    MAX_ABANDON_SECONDS,
    MAX_BANK_SECONDS,
    MAX_MISSES,
    AbandonAction,
)
from rennleitung.textinput import load_json
from rennleitung.web.context import field

AREA_NAMES = tuple(a.value for a in WearArea)


def number(form: FormData, name: str, default: int | None = None, lo: int = 0,
           hi: int = 10_000) -> int:
    raw = field(form, name).strip()
    if not raw and default is not None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RennleitungError(f"Zahl erwartet, nicht {raw[:20]!r}",
                               f"a number is expected, not {raw[:20]!r}", name) from None
    if not lo <= value <= hi:
        raise RennleitungError(f"muss zwischen {lo} und {hi} liegen",
                               f"must be between {lo} and {hi}", name)
    return value


def flag(form: FormData, name: str) -> bool:
    return field(form, name) in ("1", "on", "true", "yes")


def clock(form: FormData) -> dict[str, Any]:
    """A race form's clock (``/races/new``, a league's race played here): a time bank in
    seconds, the missed decisions after which the bot drives, and the hours without a
    decision after which the race is abandoned, and how (``RaceSpec``; the service checks
    that they fit together)."""
    bank = field(form, "bank_seconds").strip()
    hours = field(form, "abandon_hours").strip()
    action = field(form, "abandon_action", AbandonAction.CLOSE.value)
    if action not in {a.value for a in AbandonAction}:
        raise RennleitungError("unbekannte Wahl", "unknown choice", "abandon_action")
    return {
        "bank_seconds": number(form, "bank_seconds", None, 1, MAX_BANK_SECONDS)
        if bank else None,
        "bot_after_misses": number(form, "bot_after_misses", 0, 0, MAX_MISSES),
        "abandon_seconds": number(form, "abandon_hours", None, 1, MAX_ABANDON_SECONDS // 3600)
        * 3600 if hours else None,
        "abandon_action": AbandonAction(action),
    }


def _tyre(form: FormData, name: str, optional: bool = False) -> str | None:
    value = field(form, name)
    if optional and value in ("", "keep"):
        return None
    if value not in {t.value for t in Tyre}:
        raise RennleitungError("unbekannte Reifenart", "unknown tyre type", name)
    return value


def plan(form: FormData, prefix: str) -> dict[str, Any]:
    """A pit plan: new tyres (or keep), fuel points, repairs, long stop."""
    repairs = [a for a in form.getlist(f"{prefix}repairs") if isinstance(a, str)]
    for area in repairs:
        if area not in AREA_NAMES:
            raise RennleitungError("unbekannter Bereich", "unknown area", f"{prefix}repairs")
    return {
        "tyre": _tyre(form, f"{prefix}tyre", optional=True),
        "fuel": number(form, f"{prefix}fuel", 0, 0, 50),
        "repairs": repairs,
        "long": flag(form, f"{prefix}long"),
    }


def decision(form: FormData) -> dict[str, Any]:
    """The decision JSON of a question form (field ``kind`` says which)."""
    raw = field(form, "decision")
    if raw:  # the JSON form itself (``docs/formula_de/questions.md``), as scripts send it
        sent: Any = load_json(raw, "decision")  # too deep, NaN, 1e999: refused, naming it
        if not isinstance(sent, dict):
            raise RennleitungError("Objekt erwartet", "object expected", "decision")
        return dict(sent)
    kind = field(form, "kind")
    if kind == "setup":
        wear = {area: number(form, f"wear_{area}", None, 0, 22) for area in AREA_NAMES}
        wear["box"] = number(form, "wear_box", 0, 0, 22)
        return {"kind": "setup", "wear": wear, "tyre": _tyre(form, "tyre")}
    if kind == "box":
        return {"kind": "box", "box": number(form, "box", None, 1, 40)}
    if kind == "turn":
        data: dict[str, Any] = {"kind": "turn", "gear": number(form, "gear", None, 1, 6),
                                "boost": flag(form, "boost"),
                                "soft_bonus": flag(form, "soft_bonus"),
                                "launch": not flag(form, "no_launch")}
        if flag(form, "pit"):
            data["pit"] = plan(form, "pit_")
        return data
    if kind == "move":
        path = [s.strip() for s in field(form, "option").split(",") if s.strip()]
        if not path:
            raise RennleitungError("kein Ziel gewählt", "no destination chosen", "option")
        return {"kind": "move", "path": path}
    if kind == "pit":
        return {"kind": "pit", "plan": plan(form, "pit_")}
    if kind == "karma":
        return {"kind": "karma", "action": field(form, "action", "none")}
    if kind == "bid":
        return {"kind": "bid", "karma": number(form, "karma", 0, 0, 99)}
    if kind == "roll":  # the number a real die showed, entered at the table (issue 29)
        return {"kind": "roll", "result": number(form, "result", None, 0, 99)}
    raise RennleitungError(f"unbekannte Art {kind[:20]!r}", f"unknown kind {kind[:20]!r}", "kind")
