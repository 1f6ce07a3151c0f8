"""What a race asks: one frozen type per kind of question, each with a JSON form.

A person answers through a web page or an e-mail, so a question must travel as data: every
question names its car and carries what the driver needs to answer it, and ``to_json()`` gives
the form documented (with an example of each) in ``docs/formula_de/questions.md``. The answers
are the decisions of ``race_decisions.py`` with their JSON forms.

Setup questions (Dresden "Rennen"; Masters 5) and the secret karma bids of cars level with each
other (Dresden "Kopf an Kopf") are asked of all their drivers at once: ``Race.questions()``
lists them all and the race goes on when every answer is in. Everything else is asked of one
driver at a time, in the order of play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rennleitung.formula_de.car import Tyre, Wear, WearArea
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import option_data
from rennleitung.formula_de.race_kinds import AskKind, KarmaAction
from rennleitung.formula_de.track import Track


@dataclass(frozen=True, slots=True)
class SetupQuestion:
    """Split the setup points and pick the starting tyres (Dresden "Rennen", "Auto"; Masters
    5-0-2, 5-2, 5-3). ``fixed`` is a setup the ruleset prescribes (FD Blitz); a T-car
    (Dresden "Ausfälle") has ``t_car`` set and ``points`` two less. ``suggested`` is a valid
    split to start from."""

    kind: ClassVar[Literal[AskKind.SETUP]] = AskKind.SETUP
    car: str
    points: int
    box_max: int
    area_minimum: int
    suggested: Wear
    fixed: Wear | None = None
    t_car: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "points": self.points,
            "box_max": self.box_max,
            "area_minimum": self.area_minimum,
            "fixed": self.fixed.as_dict() if self.fixed else None,
            "t_car": self.t_car,
            "tyres": [t.value for t in Tyre],
            "suggested": self.suggested.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class BoxQuestion:
    """Choose the team's box among the free ones (Dresden "Rennen"; Masters 4-0-1); asked of
    the team's best-placed car, one team after the other."""

    kind: ClassVar[Literal[AskKind.BOX]] = AskKind.BOX
    car: str
    boxes: tuple[int, ...]
    team: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "boxes": list(self.boxes),
            "team": list(self.team),
        }


@dataclass(frozen=True, slots=True)
class TurnQuestion:
    """Before the roll (Masters 6-3 steps 1–3): the gears allowed, and whether the engine
    boost (Dresden "Verschleiß"), the soft-tyre +1 (Dresden "Reifen"), declining a Praktiker's
    launch +1 (Dresden "Fahrerprofile") and a pit announcement (Dresden "Boxenstopp") are
    possible now."""

    kind: ClassVar[Literal[AskKind.TURN]] = AskKind.TURN
    car: str
    gears: tuple[int, ...]
    boost: bool = False
    soft_bonus: bool = False
    launch_optional: bool = False
    pit_plans: bool = False
    gear: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "gear": self.gear,
            "gears": list(self.gears),
            "boost": self.boost,
            "soft_bonus": self.soft_bonus,
            "launch_optional": self.launch_optional,
            "pit_plans": self.pit_plans,
        }


@dataclass(frozen=True, slots=True)
class MoveQuestion:
    """Which move after the roll (Masters 6-3 steps 5–8). ``moves`` are the generator's options,
    one path per end and cost; any other path the rules allow is accepted too, at its cost.
    ``occupants`` names the car on each occupied space, for the JSON form's collisions."""

    kind: ClassVar[Literal[AskKind.MOVE]] = AskKind.MOVE
    car: str
    moves: tuple[MoveOption, ...]
    roll: int
    track: Track = field(compare=False, repr=False)
    occupants: tuple[tuple[int, str], ...] = field(default=(), compare=False, repr=False)
    fuel_per_lap: int = field(default=1, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        occupants = dict(self.occupants)
        return {
            "kind": self.kind.value,
            "car": self.car,
            "roll": self.roll,
            "moves": [
                option_data(self.track, o, occupants, self.fuel_per_lap) for o in self.moves
            ],
        }


@dataclass(frozen=True, slots=True)
class PitQuestion:
    """What the crew does on arrival in the box (Dresden "Boxenstopp"; Masters 19-3, 19-4):
    tyres (``tyre_required`` in Masters), up to ``fuel_max`` fuel, up to ``repairs_max``
    repairs of the ``repairable`` areas, and whether a long stop may be chosen."""

    kind: ClassVar[Literal[AskKind.PIT]] = AskKind.PIT
    car: str
    box: int
    fuel_max: int
    repairs_max: int
    repairable: tuple[WearArea, ...]
    long_stop: bool = False
    tyre_required: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "box": self.box,
            "tyres": [t.value for t in Tyre],
            "tyre_required": self.tyre_required,
            "fuel_max": self.fuel_max,
            "repairs_max": self.repairs_max,
            "repairable": [a.value for a in self.repairable],
            "long_stop": self.long_stop,
        }


@dataclass(frozen=True, slots=True)
class KarmaQuestion:
    """A failed own test may be saved with karma (Dresden "Karmapool"): ``test`` is the roll's
    purpose, ``result`` the die, ``total`` with modifiers, lost at ``limit`` or below."""

    kind: ClassVar[Literal[AskKind.KARMA]] = AskKind.KARMA
    car: str
    karma_actions: tuple[KarmaAction, ...]
    test: str
    result: int
    limit: int
    total: int
    karma: int = 0
    costs: tuple[tuple[KarmaAction, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "test": self.test,
            "result": self.result,
            "total": self.total,
            "limit": self.limit,
            "karma": self.karma,
            "actions": [a.value for a in self.karma_actions],
            "costs": {a.value: c for a, c in self.costs},
        }


@dataclass(frozen=True, slots=True)
class BidQuestion:
    """A secret karma bid, 0 to ``karma``, to play before the ``rivals`` level with this car
    (Dresden "Kopf an Kopf"); the bids are revealed together."""

    kind: ClassVar[Literal[AskKind.BID]] = AskKind.BID
    car: str
    karma: int
    rivals: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "karma": self.karma,
            "rivals": list(self.rivals),
        }


@dataclass(frozen=True, slots=True)
class RollQuestion:
    """In a race at the table (``RaceConfig.table``): the number the real ``die`` showed when
    ``car`` rolled it for ``purpose`` (a ``RollPurpose``); any of ``faces`` is an answer. The
    gear dice have uneven faces (Masters 6-1-1), so the faces are listed, not a range."""

    kind: ClassVar[Literal[AskKind.ROLL]] = AskKind.ROLL
    car: str
    die: str
    purpose: str
    faces: tuple[int, ...]
    colour_de: str = ""
    colour_en: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "car": self.car,
            "die": self.die,
            "purpose": self.purpose,
            "faces": list(self.faces),
            "colour": {"de": self.colour_de, "en": self.colour_en},
        }


Question = (
    SetupQuestion
    | BoxQuestion
    | TurnQuestion
    | MoveQuestion
    | PitQuestion
    | KarmaQuestion
    | BidQuestion
    | RollQuestion
)

Ask = Question
"""The name the bots and older callers use."""

SIMULTANEOUS = frozenset({AskKind.SETUP, AskKind.BID})
"""Kinds asked of several drivers at once (Dresden "Rennen", "Kopf an Kopf")."""
