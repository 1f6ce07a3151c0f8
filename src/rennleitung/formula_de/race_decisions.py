"""What a driver decides, and what the race asks: decisions as frozen values with a JSON form.

A race record is its configuration, its seed and this list of decisions, so every decision has a
plain JSON form that names spaces in track notation (``A12``) rather than internal indices; a
record therefore survives changes of the move generator's internal order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Tyre, Wear, WearArea
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.track import Track


class DecisionError(RennleitungError):
    """A decision the race cannot accept now; ``where`` names the rule or field."""


class AskKind(StrEnum):
    """The kinds of question a race asks a driver."""

    SETUP = "setup"  # 22 points and the starting tyres (Dresden "Rennen"; Masters 5)
    BOX = "box"  # box choice in grid order (Dresden "Rennen")
    TURN = "turn"  # gear, boost, soft bonus, launch, pit announcement (Masters 6-3 1–3)
    MOVE = "move"  # which legal move (Masters 6-3 5–8)
    PIT = "pit"  # what the crew does, on arrival (Dresden "Boxenstopp"; Masters 19-3, 19-4)
    KARMA = "karma"  # spend karma on a failed own event roll (Dresden "Karmapool")
    BID = "bid"  # secret karma bid when level with other cars (Dresden "Kopf an Kopf")


class KarmaAction(StrEnum):
    NONE = "none"
    PLUS_ONE = "plus_one"
    REROLL = "reroll"


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

    def describe(self) -> tuple[str, str]:
        """German and English summary, e.g. "Reifen hart, 2 VP Verbrauch"."""
        de: list[str] = []
        en: list[str] = []
        if self.tyre is not None:
            de.append(f"Reifen {self.tyre.label_de}")
            en.append(f"{self.tyre.label_en} tyres")
        if self.fuel:
            de.append(f"{self.fuel} VP Verbrauch")
            en.append(f"{self.fuel} fuel")
        for area in self.repairs:
            de.append(f"Reparatur {area.label_de}")
            en.append(f"repair {area.label_en}")
        if self.long:
            de.append("langer Stopp")
            en.append("long stop")
        return (", ".join(de) or "nichts", ", ".join(en) or "nothing")


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


Decision = (
    SetupChoice | BoxChoice | TurnChoice | MoveChoice | PitChoice | KarmaChoice | BidChoice | Halt
)

DECISION_KIND: dict[type, AskKind] = {
    SetupChoice: AskKind.SETUP,
    BoxChoice: AskKind.BOX,
    TurnChoice: AskKind.TURN,
    MoveChoice: AskKind.MOVE,
    PitChoice: AskKind.PIT,
    KarmaChoice: AskKind.KARMA,
    BidChoice: AskKind.BID,
}


@dataclass(frozen=True)
class Ask:
    """A question to one driver. ``gears`` are the legal gears of a turn; ``moves`` the legal
    options of a move; ``boxes`` the free boxes; ``test`` names the failed check of a karma
    question; ``roll`` the gear roll behind a move question; ``karma`` the most a driver may bid;
    ``extra`` holds details (``t_car`` and ``points`` for a T-car setup, ``rivals`` of a bid)."""

    kind: AskKind
    car: str
    gears: tuple[int, ...] = ()
    boost: bool = False
    soft_bonus: bool = False
    launch_optional: bool = False
    pit_plans: bool = False
    moves: tuple[MoveOption, ...] = ()
    boxes: tuple[int, ...] = ()
    karma_actions: tuple[KarmaAction, ...] = ()
    test: str = ""
    roll: int = 0
    karma: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def plan_to_data(plan: PitPlan) -> dict[str, Any]:
    return {
        "tyre": plan.tyre.value if plan.tyre else None,
        "fuel": plan.fuel,
        "repairs": [a.value for a in plan.repairs],
        "long": plan.long,
    }


def plan_from_data(data: Any, where: str) -> PitPlan:
    if not isinstance(data, dict):
        raise DecisionError("Objekt erwartet", "object expected", where)
    try:
        tyre = Tyre(data["tyre"]) if data.get("tyre") else None
        return PitPlan(
            tyre=tyre,
            fuel=int(data.get("fuel", 0)),
            repairs=tuple(WearArea(a) for a in data.get("repairs", [])),
            long=bool(data.get("long", False)),
        )
    except (KeyError, ValueError, TypeError) as error:
        raise DecisionError(
            f"ungültiger Boxenplan: {error}", f"invalid pit plan: {error}", where
        ) from None


def decision_to_data(track: Track, decision: Decision) -> dict[str, Any]:
    """The JSON form of a decision; moves by space names."""
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
    raise AssertionError(decision)  # pragma: no cover


def decision_from_data(track: Track, data: Any, where: str = "decision") -> Decision:
    """Parse the JSON form of a decision; errors name the field."""
    if not isinstance(data, dict) or "kind" not in data:
        raise DecisionError("Objekt mit 'kind' erwartet", "object with 'kind' expected", where)
    kind = data["kind"]
    try:
        if kind == "setup":
            return SetupChoice(wear=Wear.from_mapping(data["wear"]), tyre=Tyre(data["tyre"]))
        if kind == "box":
            return BoxChoice(box=int(data["box"]))
        if kind == "turn":
            pit = data.get("pit")
            return TurnChoice(
                gear=int(data["gear"]),
                boost=bool(data.get("boost", False)),
                soft_bonus=bool(data.get("soft_bonus", False)),
                launch=bool(data.get("launch", True)),
                pit=None if pit is None else plan_from_data(pit, f"{where}.pit"),
            )
        if kind == "move":
            return MoveChoice(path=tuple(track.space(name) for name in data["path"]))
        if kind == "pit":
            return PitChoice(plan=plan_from_data(data["plan"], f"{where}.plan"))
        if kind == "karma":
            return KarmaChoice(action=KarmaAction(data["action"]))
        if kind == "bid":
            return BidChoice(karma=int(data["karma"]))
        if kind == "halt":
            return Halt()
    except RennleitungError as error:
        raise DecisionError(error.de, error.en, where) from None
    except (KeyError, ValueError, TypeError) as error:
        raise DecisionError(
            f"ungültige Entscheidung: {error}", f"invalid decision: {error}", where
        ) from None
    raise DecisionError(f"unbekannte Art {kind!r}", f"unknown kind {kind!r}", f"{where}.kind")
