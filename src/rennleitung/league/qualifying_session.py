"""A qualifying session on the server: one lap per driver and run, rebuilt from its decisions.

Dresden "Qualifizierung" as it runs online (issue 27) or at a table with the organiser's
stopwatch (issue 29). A lap is stored as what the driver decided, not as a board: gear choices
(with the soft-tyre +1 and, at a table, the number the gear die showed) and move choices. This
module turns those decisions back into a ``formula_de.qualifying.TimedLap`` and applies the
next one, so every rule of the lap is the engine's: penalty points instead of wear, any
downshift but 6th to 1st, no braking, rolls counted.

- **Online** the dice are the lap's own, seeded from the session's seed, the driver and the run
  (``qualifying_run.lap_seed``), so one driver's lap never changes another's and a replay gives
  the same rolls.
- **At a table** the dice are the table's: each gear choice carries the number rolled, refused
  when it is no face of that gear's die (Masters 6-1-1), and the engine reads it as its roll.

The weather is rolled once for the session with the black die, one roll per run
(``session_weather``); what applies follows ``qualifying_weather.applied_weather`` (changeable
counts as sun, in the Open's second run as the first run's weather). Time is the caller's: the
engines read no clock; the lap time in milliseconds comes in with the standings.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.dice import Dice, Die, gear_die
from rennleitung.formula_de.events import JsonValue
from rennleitung.formula_de.qualifying import (
    GearChoice,
    PathChoice,
    QualifyingAskKind,
    QualifyingDecision,
    QualifyingError,
    TimedLap,
)
from rennleitung.formula_de.track import Track
from rennleitung.league.formats import LeagueFormat
from rennleitung.league.points import qualifying_points
from rennleitung.league.qualifying import QualifyingLap, qualifying_score
from rennleitung.league.qualifying_run import lap_seed, new_lap, roll_weather
from rennleitung.league.qualifying_weather import Weather
from rennleitung.league.roster import Driver, Roster

Decision = Mapping[str, JsonValue]
"""One stored decision: ``{"gear": 3, "soft": false}`` (at a table also ``"roll": 6``) or
``{"path": [12, 13, 14]}`` (space indices, start excluded)."""


class TableDice(Dice):
    """The table's dice: each gear roll is the number the organiser entered for it."""

    def __init__(self, results: Iterable[int] = ()) -> None:
        super().__init__(random.Random(0))
        self._entered = list(results)
        self._used = 0

    def enter(self, result: int) -> None:
        """The number the die showed for the next roll."""
        self._entered.append(result)

    def withdraw(self) -> None:
        """Take back the last number entered while it is unrolled (its decision was refused)."""
        if len(self._entered) > self._used:
            self._entered.pop()

    def _draw(self, die: Die) -> int:
        if self._used >= len(self._entered):
            raise QualifyingError("der Würfelwurf fehlt", "the die's number is missing",
                                  "roll")
        result = self._entered[self._used]
        self._used += 1
        return result


def check_face(gear: int, roll: int) -> None:
    """Refuse a number that is no face of the gear's die, naming the die (Masters 6-1-1)."""
    die = gear_die(gear)
    if roll not in die.faces:
        faces = ", ".join(str(f) for f in sorted(set(die.faces)))
        raise QualifyingError(
            f"der {die.colour_de}e Würfel ({gear}. Gang) hat keine {roll}; seine Seiten: {faces}",
            f"the {die.colour_en} die (gear {gear}) has no {roll}; its faces: {faces}",
            f"roll (gear {gear}, Masters 6-1-1)",
        )


def session_weather(track: Track, seed: int, race: int, runs: int) -> tuple[Weather, ...]:
    """The weather rolled once for the session, one black-die roll per run against the track's
    table (Dresden "Qualifizierung"; the same dice as ``league run-qualifying``)."""
    dice = random.Random(f"{seed}:weather:{race}")
    return tuple(roll_weather(track, dice)[1] for _ in range(runs))


def _decision(data: Decision, where: str) -> tuple[QualifyingDecision, int | None]:
    if "path" in data:
        path = data["path"]
        if not isinstance(path, list) or not all(isinstance(s, int) for s in path):
            raise RennleitungError("Zug nicht lesbar", "cannot read the move", where)
        return PathChoice(tuple(s for s in path if isinstance(s, int))), None
    gear, soft, roll = data.get("gear"), data.get("soft", False), data.get("roll")
    if not isinstance(gear, int) or isinstance(gear, bool):
        raise RennleitungError("Gang nicht lesbar", "cannot read the gear", where)
    if roll is not None and (not isinstance(roll, int) or isinstance(roll, bool)):
        raise RennleitungError("Würfelzahl nicht lesbar", "cannot read the die's number", where)
    return GearChoice(gear, bool(soft)), roll


TAKE_BACK = "take_back"
"""A stored entry ``{"take_back": true}``: the organiser at a table took the last entry back
(a mistyped number); the entry stays in the list, so the protocol keeps what was taken back."""


def effective(decisions: Sequence[Decision]) -> tuple[list[Decision], list[Decision]]:
    """The decisions that count, and those taken back, in order."""
    counted: list[Decision] = []
    taken: list[Decision] = []
    for data in decisions:
        if TAKE_BACK in data:
            if counted:
                taken.append(counted.pop())
        else:
            counted.append(data)
    return counted, taken


def replay_lap(
    track: str,
    ruleset: str,
    driver: Driver,
    weather: Weather,
    tyre: Tyre | None,
    decisions: Sequence[Decision],
    *,
    seed: int,
    race: int,
    run: int,
    table: bool,
    track_data: Track | None = None,
) -> TimedLap:
    """The lap as far as it was driven: a fresh lap, every stored decision applied again."""
    lap = new_lap(track, ruleset, driver, weather, lap_seed(seed, race, run, driver.name),
                  tyre=tyre, track_data=track_data)
    if table:
        lap.dice = TableDice()
    for number, data in enumerate(effective(decisions)[0], start=1):
        apply_decision(lap, data, table, f"decision {number}")
    return lap


def apply_decision(lap: TimedLap, data: Decision, table: bool, where: str = "decision") -> None:
    """Apply one decision to the lap; at a table a gear choice must bring the die's number, a
    face of that gear's die, and the engine rolls it. The lap is unchanged on a refusal."""
    decision, roll = _decision(data, where)
    ask = lap.pending
    dice = lap.dice
    if not (table and isinstance(decision, GearChoice) and ask is not None
            and ask.kind is QualifyingAskKind.GEAR and isinstance(dice, TableDice)):
        lap.apply(decision)
        return
    if roll is None:
        raise QualifyingError("die Würfelzahl fehlt", "the die's number is missing", "roll")
    if decision.gear in ask.gears:
        check_face(decision.gear, roll)
    dice.enter(roll)
    try:
        lap.apply(decision)  # the engine refuses a gear or bonus it does not allow, naming why
    finally:
        dice.withdraw()


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a session's live standings: a driver's counted lap (his better run)."""

    place: int
    driver: str
    run: int
    rolls: int
    penalty_points: int
    lap_time_ms: int
    score: int
    qualifying_points: int
    """Open: 100 for pole, one less per place (Dresden "Open", "Qualifizierung"); else 0."""


def standings(laps: Sequence[QualifyingLap], roster: Roster, fmt: LeagueFormat) -> tuple[
        Standing, ...]:
    """The finished laps ranked as the grid ranks them: score, then lap time; a driver's better
    run counts (``grid.build_qualifying``, which also draws those equal to the millisecond and
    the drivers without a lap when the session is closed)."""
    best: dict[str, tuple[tuple[int, int], QualifyingLap]] = {}
    for lap in laps:
        driver = roster.driver(lap.driver, "qualifying, driver")
        key = (qualifying_score(lap, driver.profile, fmt.ruleset), lap.lap_time_ms)
        if lap.driver not in best or key < best[lap.driver][0]:
            best[lap.driver] = (key, lap)
    ranked = sorted(best.values(), key=lambda item: item[0])
    return tuple(
        Standing(place, lap.driver, lap.run, lap.rolls, lap.penalty_points, lap.lap_time_ms,
                 key[0], qualifying_points(fmt, place))
        for place, (key, lap) in enumerate(ranked, start=1)
    )
