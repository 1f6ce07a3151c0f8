"""The race state machine: from the grid to the flag, one decision or one die at a time.

In the style of OpenSpiel, a race is always waiting for exactly one driver's decision
(``pending`` / ``legal_decisions()``), or it is over. Between decisions the dice speak: every roll
comes from the one injected ``Dice`` and is an event. The flow of a race is written as one
generator (``_run``) that yields a question whenever a person must decide, so the rules read in
the order of the rulebook. The package follows the race's phases, one module each, and ``Race``
puts their mixins together on the shared base ``RaceCore`` (``core.py``):

- ``setup.py``: grid, weather, setups and boxes (Dresden "Rennen"); the T-car;
- ``round.py``: the round boundary (``RaceState``), head-to-head bids, one round of play in
  order (Masters 6-2, 19-5), the end of a round and its weather (Dresden "Wetter");
- ``turn.py``: one car's turn in the Masters 6-3 sequence (start roll, gear, skip costs, boost,
  roll, move) and what the move brings;
- ``tests.py``: road-holding, wall, collision and engine tests, karma for a failed one;
- ``pit.py``: pit announcements, the work in the box, the pit exit;
- ``restart.py``: the restart after a blockage (Dresden "Neustart");
- ``finish.py``: the flag (Masters 21), retirements, rolling out, the classification;
- ``answers.py``: open questions, legal decisions, ``apply`` and ``halt``;
- ``table.py``: a race on a real table: the dice entered, asked as questions, taken back.

A race is its configuration, its seed and its decisions: ``record.py`` replays it bit for bit.
"""

from __future__ import annotations

from rennleitung.formula_de import rules_version
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import WeatherState
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice, DiceRoll, RollWanted, TableDice
from rennleitung.formula_de.events import Event
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race.answers import Answers
from rennleitung.formula_de.race.core import RACING
from rennleitung.formula_de.race.finish import FinishPhase, Placing
from rennleitung.formula_de.race.pit import PitPhase
from rennleitung.formula_de.race.restart import RestartPhase
from rennleitung.formula_de.race.round import RoundPhase
from rennleitung.formula_de.race.setup import T_CAR_SETUP, SetupPhase
from rennleitung.formula_de.race.table import TABLE_ENTRIES, TablePhase, taken_back
from rennleitung.formula_de.race.tests import ChecksPhase
from rennleitung.formula_de.race.turn import TurnPhase
from rennleitung.formula_de.race_decisions import Decision, DecisionError, RollEntry
from rennleitung.formula_de.race_ledger import KarmaMove, PlayOrder, karma_moves, play_orders
from rennleitung.formula_de.race_log import Earlier, Log
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.race_setup import RaceConfig, check_config, grid_spaces
from rennleitung.formula_de.race_state import CarInfo, CornerPass, RaceState
from rennleitung.formula_de.race_view import RaceView, view_of
from rennleitung.formula_de.ruleset import Ruleset, WreckRemoval, get_ruleset
from rennleitung.formula_de.track import Track

__all__ = ["RACING", "T_CAR_SETUP", "CornerPass", "Placing", "Race"]


class Race(
    Answers,
    SetupPhase,
    RoundPhase,
    TurnPhase,
    ChecksPhase,
    PitPhase,
    RestartPhase,
    FinishPhase,
    TablePhase,
):
    """One race. Create with ``Race.create`` (built-in track, preset ruleset, seeded dice) or
    pass the parts in; then answer ``pending`` with ``apply`` until ``finished``.

    ``turns`` counts the turns begun and ``turn_car`` names the car whose turn is under way
    ("" between turns), so a caller can tell the first question of a turn (FD Blitz clock).
    ``halted`` holds the cars stopped with ``halt``."""

    def __init__(
        self,
        config: RaceConfig,
        dice: Dice,
        *,
        track: Track | None = None,
        ruleset: Ruleset | None = None,
        commitment: str = "",
        state: RaceState | None = None,
        logs: tuple[Earlier[tuple[str, Decision]], Earlier[Event], bool] = ((), (), False),
    ) -> None:
        self.config = config
        self.track = track if track is not None else builtin_track(config.track)
        self.ruleset = ruleset if ruleset is not None else get_ruleset(config.ruleset)
        self._wrecks_stay = self.ruleset.wreck_removal is WreckRemoval.WHEN_PASSED
        self.laps = config.laps or self.ruleset.laps
        if config.table and not isinstance(dice, TableDice):
            dice = TableDice(dice._history)  # the table's dice: none drawn from the seed
        self.dice = dice
        self.commitment = commitment
        check_config(config, self.ruleset, len(self.track.grid), len(self.track.boxes))
        self._grid = grid_spaces(self.track, len(config.entries), config.side_by_side)
        self.entries = {e.id: e for e in config.entries}
        self.cars: dict[str, CarState] = {}
        self.info: dict[str, CarInfo] = {}
        self.grid_order: list[str] = []
        self.finish_order: list[str] = []
        self.dangerous: set[int] = set()
        self.weather = WeatherState(current=config.qualifying_weather)
        self._events: Log[Event] = Log()
        self._decisions: Log[tuple[str, Decision]] = Log()
        self.round = 0
        self.stopped = False
        self.halted: set[str] = set()
        self.turns = 0
        self.turn_car = ""
        self._seq = 0
        self._weather_rolls_due = 0
        self._restart_round = 0  # the round after a restart: played in race order
        self._t_cars_used: set[str] = set()
        self._cuts: dict[frozenset[int], bool] = {}  # track_cut by the set of wrecks
        grid_first = self.track.grid[0] if self.track.grid else 0
        self._offset = 1 if self.track.spaces[grid_first].height > self.track.lap_rows / 2 else 0
        self._requests: tuple[MoveRequest, ...] = ()  # behind the open move question
        self._chosen: MoveOption | None = None  # the option of the accepted move answer
        self._answers: dict[str, Decision] = {}  # of the open batch, by car
        self.rules: list[tuple[int, int]] = [(0, rules_version.RULES_VERSION)]
        """(first round, rules version): the rules each stretch of the race was played under."""
        self.keep_boundaries = False
        """When set, the state at every round boundary is kept for ``take_boundaries``."""
        self._boundaries: list[RaceState] = []
        self._base = state
        self._prev_base: RaceState | None = None
        self._prev_known = False
        self._rewound: tuple[int, tuple[int, int]] | None = None
        self._replaying = 0
        self._after: list[tuple[str, Decision]] = []
        self._proc = self._run() if state is None else self._resumed(state, logs)
        self._open: tuple[Question, ...] = ()
        self._batch = False  # the open questions are asked at once (a tuple from the flow)
        try:
            self._open_now(next(self._proc))
        except StopIteration:  # resumed at the last boundary: over at once
            pass
        except RollWanted as wanted:  # at the table, a die before the first question
            self._roll_wanted(wanted)

    @classmethod
    def create(cls, config: RaceConfig, seed: int | str) -> Race:
        """A race on a built-in track with a preset ruleset and dice seeded by ``seed``."""
        return cls(config, Dice.from_seed(seed), commitment=commit(seed))

    @classmethod
    def resume(
        cls,
        state: RaceState,
        *,
        track: Track | None = None,
        decisions: Earlier[tuple[str, Decision]] = (),
        events: Earlier[Event] = (),
        rolls: Earlier[DiceRoll] = (),
        keep_boundaries: bool = False,
    ) -> Race:
        """The race continued from ``state``, a round boundary (``take_boundaries``): it goes on
        bit for bit as the race it was taken from, under the rules of this program (a state from
        older rules starts a new stretch in ``rules``). The logs up to the boundary (decisions,
        events, rolls) belong to the race: their lengths must be the state's; each may be given
        as a callable that reads it when it is first needed (``race_log.Log``: a race rebuilt
        from the store plays on without reading its older events)."""
        dice = Dice.resumed(state.rng, Log(rolls, state.rolls))
        return cls(
            state.config,
            dice,
            track=track,
            commitment=state.commitment,
            state=state,
            logs=(decisions, events, keep_boundaries),
        )

    def _rebuild(self) -> None:
        """A table race after a number entered or an entry taken back (``table.py``): this
        race again, from its last round boundary (or its start) with the decisions since
        replayed, each with the numbers entered after it. It is rebuilt in place, so whoever
        holds the race holds the rebuilt one; boundaries not yet taken stay."""
        base = self._base
        start = base.version if base is not None else 0
        entries = self._decisions.since(start)
        gone = taken_back(entries)
        leading = 0
        while leading < len(entries) and isinstance(entries[leading][1], TABLE_ENTRIES):
            leading += 1
        dice = TableDice(Log(self.dice._history.head(base.rolls), base.rolls) if base else None)
        dice.feed(
            d.result
            for n, (_, d) in enumerate(entries[:leading])
            if isinstance(d, RollEntry) and n not in gone
        )
        kept, keep = self._boundaries, self.keep_boundaries
        prev, known, rewound = self._prev_base, self._prev_known, self._rewound
        # boundaries a take-back went back across are no longer passed
        kept = [b for b in kept if base is not None and b.version <= base.version]
        if base is None:
            Race.__init__(self, self.config, dice, track=self.track, commitment=self.commitment)
        else:
            logs = (self._decisions.head(start), self._events.head(base.events), keep)
            Race.__init__(
                self, base.config, dice, track=self.track, commitment=self.commitment,
                state=base, logs=logs,
            )
        self.keep_boundaries = keep
        self._boundaries = kept + self._boundaries
        self._prev_base, self._prev_known, self._rewound = prev, known, rewound
        self._replaying = leading
        self._fed_replay(entries)

    def take_rewind(self) -> tuple[int, tuple[int, int]] | None:
        """Where a table take-back across a round boundary went back to since the last call:
        the version of the boundary before (0: the start) and the lengths of the event and
        roll logs there; None when none did. The boundaries stored after it no longer hold
        (the store drops their snapshots)."""
        rewound, self._rewound = self._rewound, None
        return rewound

    def take_boundaries(self) -> list[RaceState]:
        """The states at the round boundaries passed since the last call (``keep_boundaries``
        on), oldest first: the store keeps one per round (``race_state.py``)."""
        taken, self._boundaries = self._boundaries, []
        return taken

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, in order (``events.py``)."""
        return self._events.items()

    def events_since(self, start: int) -> list[Event]:
        """The events from number ``start`` (0-based) on, without reading older ones that a
        resumed race has not read yet."""
        return self._events.since(start)

    @property
    def decisions(self) -> list[tuple[str, Decision]]:
        """Every decision applied so far with its car, halts included, in order."""
        return self._decisions.items()

    def view(self, car: str | None = None) -> RaceView:
        """What ``car``'s driver may know now, or with None what the spectators see
        (``race_view.py``); ``view(car).to_json()`` is its JSON form."""
        if car is not None and car not in self.cars:
            raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "car")
        return view_of(self, car)

    @property
    def karma_moves(self) -> list[KarmaMove]:
        """Every karma movement so far, from the karma events (``race_ledger``)."""
        return karma_moves(self.events)

    @property
    def orders(self) -> list[PlayOrder]:
        """Every round's order of play so far, as car ids, from the round events."""
        return play_orders(self.events)

    def driver_names(self) -> dict[str, str]:
        """Car id -> driver name, for rendering events (``event_text.render``)."""
        return {car: entry.driver for car, entry in self.entries.items()}
