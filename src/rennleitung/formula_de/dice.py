"""The dice of Formula Dé as data, and a recorded roller around an injected generator.

The six gear dice have uneven faces (a d4 for 1st gear shows 1, 1, 2, 2; the d30 for 6th shows
21–30 three times each), so a die is its list of faces, never a range. The black d20 decides every
other event (Masters 0-0-5). One ``random.Random`` per race, seeded once and passed in, makes a
race replayable; every roll is kept as a ``DiceRoll`` so a record can be checked roll by roll.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.commitment import seed_text
from rennleitung.formula_de.race_log import Log


class DiceError(RennleitungError):
    """A die or gear that does not exist."""


@dataclass(frozen=True, slots=True)
class Die:
    """A physical die: its name, colour and the number printed on each face."""

    name: str
    colour_de: str
    colour_en: str
    faces: tuple[int, ...]

    @property
    def minimum(self) -> int:
        return min(self.faces)

    @property
    def maximum(self) -> int:
        return max(self.faces)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(self.faces), len(self.faces))

    def probabilities(self) -> dict[int, Fraction]:
        """Result -> exact probability, in ascending order of result (for bots)."""
        counts = Counter(self.faces)
        return {value: Fraction(counts[value], len(self.faces)) for value in sorted(counts)}


# Faces as read off the physical dice (rules notes §1; Masters 6-1-1 table of ranges).
GEAR_DICE: dict[int, Die] = {
    1: Die("gear1", "gelb", "yellow", (1, 1, 2, 2)),
    2: Die("gear2", "orange", "orange", (2, 3, 3, 4, 4, 4)),
    3: Die("gear3", "rot", "red", (4, 5, 6, 6, 7, 7, 8, 8)),
    4: Die("gear4", "grün", "green", tuple(sorted(list(range(7, 13)) * 2))),
    5: Die("gear5", "lila", "purple", tuple(sorted(list(range(11, 21)) * 2))),
    6: Die("gear6", "blau", "blue", tuple(sorted(list(range(21, 31)) * 3))),
}

BLACK_DIE = Die("black", "schwarz", "black", tuple(range(1, 21)))
"""The black d20 for start, weather, collision, engine, road-holding and pit rolls."""

DICE: dict[str, Die] = {die.name: die for die in (*GEAR_DICE.values(), BLACK_DIE)}

GEAR_PROBABILITIES: dict[int, dict[int, Fraction]] = {
    gear: die.probabilities() for gear, die in GEAR_DICE.items()
}
"""Gear -> (spaces -> probability); what a bot weighs when it picks a gear."""


def gear_die(gear: int) -> Die:
    """The die for ``gear`` (1–6); any other gear is an error naming the gear."""
    try:
        return GEAR_DICE[gear]
    except KeyError:
        raise DiceError(
            f"es gibt keinen {gear}. Gang (1 bis 6)",
            f"there is no gear {gear} (1 to 6)",
            where="Masters 6-1-1",
        ) from None


def gear_range(gear: int) -> tuple[int, int]:
    """Smallest and largest roll of a gear (Masters 6-1-1: 1–2, 2–4, 4–8, 7–12, 11–20, 21–30)."""
    die = gear_die(gear)
    return die.minimum, die.maximum


class RollPurpose(StrEnum):
    """Why a die was rolled; recorded with every roll so a record reads like a race report."""

    GEAR = "gear"
    START = "start"  # Dresden "Startwurf"; Masters 9
    RESTART = "restart"  # after a spin, Masters 10-4-6
    WEATHER = "weather"  # Masters 3
    COLLISION = "collision"  # Masters 14
    WALL = "wall"  # Masters 15
    ENGINE = "engine"  # Masters 16
    ROAD_HOLDING = "road_holding"  # Masters 17
    QUICK_STOP = "quick_stop"  # Masters 19-3
    GRID_DRAW = "grid_draw"  # Dresden "Qualifizierung": drivers without a lap
    KARMA_REROLL = "karma_reroll"  # Dresden "Karmapool"
    ORDER = "order"  # Dresden "FD Blitz": who begins the third heat


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One roll: which die, why, what it showed, and who rolled it ("" when nobody in
    particular did, e.g. a qualifying draw outside a race)."""

    die: str
    purpose: str
    result: int
    car: str = ""


class Dice:
    """Rolls dice with one injected generator and keeps every roll in order.

    Pass a ``random.Random`` that belongs to this race alone; the global generator is never
    touched, so two races never disturb each other and a seed replays the same rolls.
    """

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._history: Log[DiceRoll] = Log()

    @classmethod
    def from_seed(cls, seed: int | str) -> Dice:
        """A fresh roller for a race seed; the seed is used as text, as the commitment does."""
        return cls(random.Random(seed_text(seed)))

    @classmethod
    def resumed(cls, state: Any, history: Log[DiceRoll] | None = None) -> Dice:
        """A roller at a known position in its stream: ``state`` as ``stream_state`` gave it,
        ``history`` the rolls made up to there (``Race.resume``)."""
        rng = random.Random()
        rng.setstate(state)
        dice = cls(rng)
        dice._history = history if history is not None else Log()
        return dice

    def stream_state(self) -> Any:
        """The position in the stream of rolls (the generator's state), for ``resumed``."""
        return self._rng.getstate()

    @property
    def history(self) -> tuple[DiceRoll, ...]:
        """Every roll so far, oldest first."""
        return tuple(self._history.items())

    def since(self, start: int) -> list[DiceRoll]:
        """The rolls from number ``start`` (0-based) on (reads older ones only if needed)."""
        return self._history.since(start)

    def __len__(self) -> int:
        return len(self._history)

    def _draw(self, die: Die) -> int:
        return die.faces[self._rng.randrange(len(die.faces))]

    def roll(self, die: Die, purpose: str, car: str = "") -> DiceRoll:
        """Roll ``die`` for ``purpose`` on behalf of ``car``, record it and return it."""
        result = self._draw(die)
        event = DiceRoll(die=die.name, purpose=str(purpose), result=result, car=car)
        self._history.append(event)
        return event

    def gear(self, gear: int, purpose: str = RollPurpose.GEAR, car: str = "") -> DiceRoll:
        """Roll the die of ``gear``."""
        return self.roll(gear_die(gear), purpose, car)

    def black(self, purpose: str, car: str = "") -> DiceRoll:
        """Roll the black d20."""
        return self.roll(BLACK_DIE, purpose, car)


class ScriptedDice(Dice):
    """Dice that show given results in order: for scenario tests in which one roll decides.

    Each result must be a face of the die it is rolled on, so a script cannot make a 1st-gear
    die show 3; running out of results is an error rather than a silent random roll.
    """

    def __init__(self, results: Iterable[int]) -> None:
        super().__init__(random.Random(0))
        self._script = list(results)
        self._next = 0

    @property
    def remaining(self) -> int:
        """Scripted results not yet used."""
        return len(self._script) - self._next

    def _draw(self, die: Die) -> int:
        if self._next >= len(self._script):
            raise DiceError(
                f"keine vorgegebenen Würfe mehr für {die.name}",
                f"no scripted results left for {die.name}",
                where=f"roll {self._next + 1}",
            )
        result = self._script[self._next]
        if result not in die.faces:
            raise DiceError(
                f"{die.name} hat keine Seite {result}",
                f"{die.name} has no face {result}",
                where=f"roll {self._next + 1}",
            )
        self._next += 1
        return result


class RollWanted(Exception):
    """A table race needs a die the table has not entered yet: raised out of the flow by
    ``TableDice``; the race turns it into a ``RollQuestion`` (``race/table.py``)."""

    def __init__(self, die: Die, purpose: str, car: str) -> None:
        super().__init__(die.name, purpose, car)
        self.die = die
        self.purpose = purpose
        self.car = car


class TableDice(Dice):
    """Dice rolled on a real table (issue 29): each result is the number a player read off the
    die and the organiser entered; none is drawn here. ``feed`` hands over entered results in
    order; a roll with none left raises ``RollWanted``. A result that is no face of its die is
    refused naming the die (Masters 6-1-1)."""

    def __init__(self, history: Log[DiceRoll] | None = None) -> None:
        super().__init__(random.Random(0))
        if history is not None:
            self._history = history
        self._fed: list[int] = []

    def feed(self, results: Iterable[int]) -> None:
        """Results entered at the table, in the order the race will ask for them."""
        self._fed.extend(results)

    @property
    def fed(self) -> int:
        """Entered results not used yet."""
        return len(self._fed)

    def roll(self, die: Die, purpose: str, car: str = "") -> DiceRoll:
        if not self._fed:
            raise RollWanted(die, str(purpose), car)
        result = self._fed.pop(0)
        check_face(die, result)
        event = DiceRoll(die=die.name, purpose=str(purpose), result=result, car=car)
        self._history.append(event)
        return event


def check_face(die: Die, result: int) -> None:
    """Refuse a number that no face of ``die`` shows, naming the die and its faces."""
    if result in die.faces:
        return
    faces = ", ".join(str(v) for v in sorted(set(die.faces)))
    raise DiceError(
        f"der Würfel {die.name} ({die.colour_de}) hat keine Seite {result} (möglich: {faces})",
        f"the die {die.name} ({die.colour_en}) has no face {result} (possible: {faces})",
        where=f"{die.name} (Masters 6-1-1)",
    )
