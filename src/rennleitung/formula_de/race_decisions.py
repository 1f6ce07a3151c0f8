"""What a driver decides, and what the race asks: decisions as frozen values with a JSON form.

A race record is its configuration, its seed and this list of decisions, so every decision has a
plain JSON form that names spaces in track notation (``A12``) rather than internal indices; a
record therefore survives changes of the move generator's internal order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Tyre, Wear, WearArea
from rennleitung.formula_de.race_kinds import AskKind, KarmaAction
from rennleitung.formula_de.race_questions import Ask, Question
from rennleitung.formula_de.track import Track


class DecisionError(RennleitungError):
    """A decision the race cannot accept now; ``where`` names the rule or field."""


__all__ = ["Ask", "AskKind", "KarmaAction", "Question"]  # re-exported for older callers


class StaleVersion(DecisionError):
    """A decision made against another version of the race than the current one: stale (the
    race moved on) or sent twice. The race is left unchanged; ``expected`` is the version the
    sender saw, ``actual`` the race's version now."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(
            f"veraltete Entscheidung: gesehen Stand {expected}, das Rennen ist bei Stand {actual}",
            f"stale decision: made against version {expected}, the race is at version {actual}",
            "version",
        )
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """The starting setup and tyres of one car."""

    wear: Wear
    tyre: Tyre


@dataclass(frozen=True, slots=True)
class BoxChoice:
    """The box of a team (1-based)."""

    box: int


@dataclass(frozen=True, slots=True)
class PitPlan:
    """Work in the pit: new tyres (None = keep), fuel points, areas to repair from the box
    reserve, and for ``masters-2002`` whether the stop is long (19-4) rather than quick (19-3)."""

    tyre: Tyre | None = None
    fuel: int = 0
    repairs: tuple[WearArea, ...] = ()
    long: bool = False


@dataclass(frozen=True, slots=True)
class TurnChoice:
    """Before the roll (Masters 6-3 steps 1–3): gear, engine boost (Dresden "Verschleiß"), the
    soft-tyre +1 (Dresden "Reifen"), a Praktiker's optional launch +1 (Dresden
    "Fahrerprofile"), and a pit-stop announcement (Dresden "Boxenstopp": the last one counts)."""

    gear: int
    boost: bool = False
    soft_bonus: bool = False
    launch: bool = True
    pit: PitPlan | None = None


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """One legal move, named by its path (space indices; JSON uses names)."""

    path: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PitChoice:
    """The work done on arrival in the box."""

    plan: PitPlan


@dataclass(frozen=True, slots=True)
class KarmaChoice:
    """Spend karma on a failed own body, engine or road-holding check."""

    action: KarmaAction = KarmaAction.NONE


@dataclass(frozen=True, slots=True)
class BidChoice:
    """Karma offered, in secret, to play earlier among level cars (0: no bid)."""

    karma: int = 0


@dataclass(frozen=True, slots=True)
class Halt:
    """The car stops for the rest of the race and stands where it is (Dresden "FD Blitz": a
    player whose chess clock runs out "muß sofort seinen Zug beenden. Das Auto bleibt dort
    stehen"). Not an answer to a question: ``Race.halt`` records it among the decisions so
    that the race replays."""


@dataclass(frozen=True, slots=True)
class RollEntry:
    """The number a real die showed at the table, entered by the organiser (issue 29): the
    answer to a ``RollQuestion``; kept among the decisions, so the race replays from them."""

    result: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The organiser takes back the last entry at the table not yet taken back (a mistyped
    roll, a wrong tap): the race goes back to the question it answered. Kept among the
    decisions with the entry it takes back, so the log keeps both (``race/table.py``)."""


Decision = (
    SetupChoice
    | BoxChoice
    | TurnChoice
    | MoveChoice
    | PitChoice
    | KarmaChoice
    | BidChoice
    | Halt
    | RollEntry
    | TakeBack
)

DECISION_KIND: dict[type, AskKind] = {
    SetupChoice: AskKind.SETUP,
    BoxChoice: AskKind.BOX,
    TurnChoice: AskKind.TURN,
    MoveChoice: AskKind.MOVE,
    PitChoice: AskKind.PIT,
    KarmaChoice: AskKind.KARMA,
    BidChoice: AskKind.BID,
    RollEntry: AskKind.ROLL,
}


def plan_to_data(plan: PitPlan) -> dict[str, Any]:
    return {
        "tyre": plan.tyre.value if plan.tyre else None,
        "fuel": plan.fuel,
        "repairs": [a.value for a in plan.repairs],
        "long": plan.long,
    }


def _field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise DecisionError(f"Feld {key!r} fehlt", f"field {key!r} is missing", f"{where}.{key}")
    return data[key]


def _int(data: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    """A whole number field; ``default`` when absent (required when None)."""
    value = data.get(key, default) if default is not None else _field(data, key, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DecisionError(
            f"ganze Zahl erwartet, nicht {value!r}",
            f"whole number expected, not {value!r}",
            f"{where}.{key}",
        )
    return value


def _bool(data: dict[str, Any], key: str, where: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise DecisionError(
            f"true oder false erwartet, nicht {value!r}",
            f"true or false expected, not {value!r}",
            f"{where}.{key}",
        )
    return value


def _choice(enum: Any, value: Any, where: str) -> Any:
    """A member of ``enum`` by its JSON value; the message lists the allowed values."""
    try:
        return enum(value)
    except (ValueError, TypeError):
        allowed = ", ".join(str(m.value) for m in enum)
        raise DecisionError(
            f"{value!r} ist nicht erlaubt (möglich: {allowed})",
            f"{value!r} is not allowed (possible: {allowed})",
            where,
        ) from None


def _object(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise DecisionError("Objekt erwartet", "object expected", where)
    return data


def plan_from_data(data: Any, where: str) -> PitPlan:
    """Parse the JSON form of a pit plan; errors name the field."""
    data = _object(data, where)
    tyre = data.get("tyre")
    repairs = data.get("repairs", [])
    if not isinstance(repairs, list):
        raise DecisionError("Liste erwartet", "list expected", f"{where}.repairs")
    return PitPlan(
        tyre=None if tyre is None else _choice(Tyre, tyre, f"{where}.tyre"),
        fuel=_int(data, "fuel", where, 0),
        repairs=tuple(
            _choice(WearArea, a, f"{where}.repairs[{n}]") for n, a in enumerate(repairs)
        ),
        long=_bool(data, "long", where, False),
    )


def decision_to_data(track: Track, decision: Decision) -> dict[str, Any]:
    """The JSON form of a decision; moves by space names. These forms are in stored records:
    extend them, never rename a field (``docs/formula_de/questions.md``)."""
    match decision:
        case SetupChoice(wear=wear, tyre=tyre):
            return {"kind": "setup", "wear": wear.as_dict(), "tyre": tyre.value}
        case BoxChoice(box=box):
            return {"kind": "box", "box": box}
        case TurnChoice():
            data: dict[str, Any] = {"kind": "turn", "gear": decision.gear}
            if decision.boost:
                data["boost"] = True
            if decision.soft_bonus:
                data["soft_bonus"] = True
            if not decision.launch:
                data["launch"] = False
            if decision.pit is not None:
                data["pit"] = plan_to_data(decision.pit)
            return data
        case MoveChoice(path=path):
            return {"kind": "move", "path": [track.name_of(s) for s in path]}
        case PitChoice(plan=plan):
            return {"kind": "pit", "plan": plan_to_data(plan)}
        case KarmaChoice(action=action):
            return {"kind": "karma", "action": action.value}
        case BidChoice(karma=karma):
            return {"kind": "bid", "karma": karma}
        case Halt():
            return {"kind": "halt"}
        case RollEntry(result=result):
            return {"kind": "roll", "result": result}
        case TakeBack():
            return {"kind": "take_back"}
    raise AssertionError(decision)  # pragma: no cover


def _path_from_data(track: Track, data: dict[str, Any], where: str) -> tuple[int, ...]:
    names = _field(data, "path", where)
    if not isinstance(names, list):
        raise DecisionError(
            "Liste von Feldnamen erwartet", "list of space names expected", f"{where}.path"
        )
    path = []
    for n, name in enumerate(names):
        if not isinstance(name, str):
            raise DecisionError(
                f"Feldname erwartet, nicht {name!r}",
                f"space name expected, not {name!r}",
                f"{where}.path[{n}]",
            )
        try:
            path.append(track.space(name))
        except RennleitungError as error:
            raise DecisionError(error.de, error.en, f"{where}.path[{n}]") from None
    return tuple(path)


def _setup_from_data(data: dict[str, Any], where: str) -> SetupChoice:
    wear = _object(_field(data, "wear", where), f"{where}.wear")
    try:
        parsed = Wear.from_mapping(wear)
    except RennleitungError as error:
        place = error.where.removeprefix("wear.")
        raise DecisionError(error.de, error.en, f"{where}.wear.{place}") from None
    tyre = _choice(Tyre, _field(data, "tyre", where), f"{where}.tyre")
    return SetupChoice(wear=parsed, tyre=tyre)


def decision_from_data(track: Track, data: Any, where: str = "decision") -> Decision:
    """Parse the JSON form of an answer (any kind, ``halt`` included); every error names the
    field at fault, e.g. ``decision.pit.repairs[1]``."""
    if not isinstance(data, dict) or "kind" not in data:
        raise DecisionError("Objekt mit 'kind' erwartet", "object with 'kind' expected", where)
    kind = data["kind"]
    if kind == "setup":
        return _setup_from_data(data, where)
    if kind == "box":
        return BoxChoice(box=_int(data, "box", where))
    if kind == "turn":
        pit = data.get("pit")
        return TurnChoice(
            gear=_int(data, "gear", where),
            boost=_bool(data, "boost", where, False),
            soft_bonus=_bool(data, "soft_bonus", where, False),
            launch=_bool(data, "launch", where, True),
            pit=None if pit is None else plan_from_data(pit, f"{where}.pit"),
        )
    if kind == "move":
        return MoveChoice(path=_path_from_data(track, data, where))
    if kind == "pit":
        return PitChoice(plan=plan_from_data(_field(data, "plan", where), f"{where}.plan"))
    if kind == "karma":
        action = _choice(KarmaAction, _field(data, "action", where), f"{where}.action")
        return KarmaChoice(action=action)
    if kind == "bid":
        return BidChoice(karma=_int(data, "karma", where))
    if kind == "halt":
        return Halt()
    if kind == "roll":
        return RollEntry(result=_int(data, "result", where))
    if kind == "take_back":
        return TakeBack()
    allowed = "setup, box, turn, move, pit, karma, bid, halt, roll, take_back"
    raise DecisionError(
        f"unbekannte Art {kind!r} (möglich: {allowed})",
        f"unknown kind {kind!r} (possible: {allowed})",
        f"{where}.kind",
    )
