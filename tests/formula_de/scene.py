"""Races that begin where a test needs them: cars placed, their bookkeeping set, dice scripted.

A scene is written down before the race exists and built through the engine's public entry
points only: the race is played to its first round boundary (grid, weather, setups and boxes
answered; ``keep_boundaries``, ``take_boundaries``), that ``RaceState`` is changed as the scene
says (``dataclasses.replace`` on its cars and their ``CarInfo``), and the race is built from the
changed state (``Race(..., state=...)``, what ``Race.resume`` does) with the scripted dice that
remain. Nothing writes into a live race's ``cars`` or ``info``, so a scene survives changes to
the race's insides as long as the state keeps its fields (docs/formula_de/state.md).

Why in the tests and not the engine: a scene may put a car anywhere with any bookkeeping, which
no rule allows; the engine offers positions (``position.py``) and states that rules made.

The race built keeps the logs of the setup: its decisions (setups, boxes), events and rolls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import Tyre, Wear
from rennleitung.formula_de.dice import DICE, ScriptedDice
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import AskKind, BoxChoice, SetupChoice
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.race_state import CarInfo, RaceState
from rennleitung.formula_de.ruleset import Ruleset, get_ruleset
from rennleitung.formula_de.track import Track

SETUP = Wear(tyres=5, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=1)
"""The setup every car of a scene is given unless the scene says otherwise."""

CAR_FIELDS = frozenset(f.name for f in fields(CarState))
INFO_FIELDS = frozenset(f.name for f in fields(CarInfo))
STATE_FIELDS = frozenset({"weather", "dangerous", "finish_order", "t_cars_used", "halted"})


@dataclass(slots=True)
class Scene:
    """A race to be: its configuration, its scripted rolls (the setup's first, as the race rolls
    them: the weather, grid draws), and what to change at the first round boundary.
    ``keep_boundaries`` is handed on to the race (``Race.take_boundaries``)."""

    config: RaceConfig
    rolls: list[int]
    track: Track | None = None
    ruleset: Ruleset | None = None
    setup: Wear = SETUP
    tyre: Tyre = Tyre.HARD
    changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    state_changes: dict[str, Any] = field(default_factory=dict)
    keep_boundaries: bool = False

    def place(self, car: str, space: str, **changes: Any) -> Scene:
        """Put ``car`` on ``space`` (a name) as a car under way: the start done, the launch
        spent, one line crossing (the grid's), its laps following from its crossings, unless
        ``changes`` say otherwise. ``changes`` name fields of ``CarState`` or ``CarInfo``."""
        board = self.track or builtin_track(self.config.track)
        defaults = {"crossings": 1, "needs_start": False, "launch_pending": False}
        return self.set(car, **{**defaults, **changes, "space": board.space(space)})

    def set(self, car: str, **changes: Any) -> Scene:
        """Change fields of ``car`` (``CarState`` or ``CarInfo``; a space by its index)."""
        unknown = set(changes) - CAR_FIELDS - INFO_FIELDS
        if unknown:
            raise TypeError(f"no such field of a car: {sorted(unknown)}")
        self.changes.setdefault(car, {}).update(changes)
        return self

    def danger(self, *spaces: str) -> Scene:
        """Mark these spaces (names) dangerous (Masters 17-0-1), besides any the race has."""
        board = self.track or builtin_track(self.config.track)
        marked = set(self.state_changes.get("dangerous", ())) | {board.space(s) for s in spaces}
        self.state_changes["dangerous"] = frozenset(marked)
        return self

    def race_state(self, **changes: Any) -> Scene:
        """Change fields of the race at the boundary (``weather``, ``dangerous`` …)."""
        unknown = set(changes) - STATE_FIELDS
        if unknown:
            raise TypeError(f"no such field of the race state: {sorted(unknown)}")
        self.state_changes.update(changes)
        return self

    def race(self) -> Race:
        """The race from the changed boundary on, at its first question of round 1."""
        before, state = self._boundary()
        race = self._build(self._changed(state, laps={}), before)
        laps = {
            car: race.laps_done(car)
            for car, change in self.changes.items()
            if "laps" not in change and race.laps_done(car) != race.cars[car].laps
        }
        if laps:  # laps follow from the crossings (``Race.laps_done``): build again with them
            race = self._build(self._changed(state, laps), before)
        return race

    # --- building ------------------------------------------------------------------------------

    def opening(self) -> Race:
        """The race itself, its setups answered and the boxes still to choose: for tests of the
        setup, which place no car."""
        assert not self.changes and not self.state_changes, "a scene with changes: use race()"
        race = Race(self.config, ScriptedDice(self.rolls), track=self.track, ruleset=self.ruleset)
        while race.pending is not None and race.pending.kind is AskKind.SETUP:
            race.apply(SetupChoice(self.setup, self.tyre))
        return race

    def _boundary(self) -> tuple[Race, RaceState]:
        """The race played through its setup to the first round boundary."""
        race = Race(self.config, ScriptedDice(self.rolls), track=self.track, ruleset=self.ruleset)
        race.keep_boundaries = True
        box = 1
        try:
            while race.pending is not None and race.pending.kind in (AskKind.SETUP, AskKind.BOX):
                if race.pending.kind is AskKind.SETUP:
                    race.apply(SetupChoice(self.setup, self.tyre))
                else:
                    race.apply(BoxChoice(box))
                    box += 1
        except RennleitungError:
            pass  # the race went on past the boundary with rolls meant for the scene
        taken = race.take_boundaries()
        assert taken, "the scene's race never reached its first round boundary"
        return race, taken[0]

    def _changed(self, state: RaceState, laps: dict[str, int]) -> RaceState:
        cars: list[CarState] = []
        info: list[CarInfo] = []
        for car, book in zip(state.cars, state.info, strict=True):
            change = self.changes.get(car.id, {})
            car_change = {k: v for k, v in change.items() if k in CAR_FIELDS}
            if car.id in laps:
                car_change["laps"] = laps[car.id]
            cars.append(replace(car, **car_change))
            info.append(replace(book, **{k: v for k, v in change.items() if k in INFO_FIELDS}))
        unknown = set(self.changes) - {c.id for c in cars}
        assert not unknown, f"no such car in the scene: {sorted(unknown)}"
        extra = dict(self.state_changes)
        for key in ("dangerous", "halted", "t_cars_used"):
            if key in extra:
                extra[key] = frozenset(extra[key])
        if "finish_order" in extra:
            extra["finish_order"] = tuple(extra["finish_order"])
        return replace(state, cars=tuple(cars), info=tuple(info), **extra)

    def _build(self, state: RaceState, before: Race) -> Race:
        """The race from ``state`` on, its logs those of ``before`` up to the boundary (the
        setup's rolls rolled again from the script, so that the roll log is whole)."""
        logs = (
            before.decisions[: state.version],
            before.events[: state.events],
            self.keep_boundaries,
        )
        dice = ScriptedDice(self.rolls)
        for made in before.dice.history[: state.rolls]:
            dice.roll(DICE[made.die], made.purpose, made.car)
        return Race(
            self.config,
            dice,
            track=self.track,
            ruleset=self.ruleset,
            commitment=before.commitment,
            state=state,
            logs=logs,
        )


def scene(
    cars: Iterable[str],
    rolls: Iterable[int],
    *,
    track: str = "monaco",
    ruleset: str | Ruleset = "dresden-2006",
    board: Track | None = None,
    setup: Wear = SETUP,
    tyre: Tyre = Tyre.HARD,
    **config: Any,
) -> Scene:
    """A scene of ``cars`` (ids; the names their upper case) on the grid in that order
    (qualifying), on a built-in track or ``board``, under a preset or a ``Ruleset``; every car
    set up with ``setup`` on ``tyre``. ``config`` adds fields of ``RaceConfig``."""
    from rennleitung.formula_de.race_setup import Entry

    ids = tuple(cars)
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    entries = config.pop("entries", tuple(Entry(id=c, name=c.upper()) for c in ids))
    made = RaceConfig(
        track=board.name if board is not None else track,
        ruleset=rules.name,
        entries=entries,
        qualifying=config.pop("qualifying", ids),
        **config,
    )
    return Scene(made, list(rolls), track=board, ruleset=rules, setup=setup, tyre=tyre)
