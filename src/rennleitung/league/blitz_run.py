"""One FD Blitz run driven on the board, with the server-kept chess clock ("FD Blitz").

Two cars with the Blitz setup (ruleset ``fd-blitz``: 6 tyres, 1 fuel, 1 body, 1 engine) race
on the board of the players' choice. Runs 1 and 2: the ``RunStart`` names pole and second; run
3 starts side by side at the height of pole (``RaceConfig.side_by_side``) and the player the
dice chose moves first. Each player's clock runs while he is asked: time is simulated, never
read: every turn in which the driver is asked something takes ``move_seconds`` of his clock
(bots decide at once; the figure stands for the time a person needs to shift, roll and move).
When a player's time runs out during a turn, that turn is not made: "Überschreitet einer der
Spieler diese Zeitmarke, so muß er sofort seinen Zug beenden. Das Auto bleibt dort stehen, wo
es gerade steht." The race engine halts his car (``Race.halt``, kept in the race record); it
then stands still (an obstacle like any car) and the other drives on until his own time is up.
The run ends when a car crosses the line after the last lap (it wins; the other car is halted
so that the race, and its record, end there) or when neither car can move any more (both clocks
out, or both cars retired); then the farther car wins.

**Decisions:** the farther car is the one further along the race (``Race.progress_of``: laps
from the line crossings and the height of its space, in the pit lane too); distances are
given to ``BlitzMatch.with_run`` in tenths of a row measured from the rearmost starting space,
so equal distances mean level cars (a drawn run, driven again). A retired car counts where it
retired. A Blitz match keeps no karma ledger, so both cars start with 0 karma and nobody bids
head to head. A turn the dice play alone (pit work, rolling out without a choice) asks nobody
and takes no time: the server does it at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import Bot
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import AskKind
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.track import Track
from rennleitung.league.blitz_match import RunStart
from rennleitung.league.chess_clock import ChessClock

BLITZ_RULESET = "fd-blitz"
MOVE_SECONDS = 10.0
"""Default simulated time of one turn."""
MAX_ROUNDS = 400


@dataclass(frozen=True)
class BlitzRunResult:
    """How a run ended: who crossed the line first (if anyone), each car's distance in tenths
    of a row from the rearmost starting space, the clock at the end, the simulated end time,
    and which cars stood still for lack of time."""

    race: Race
    finished_first: str | None
    distances: Mapping[str, int]
    clock: ChessClock
    now: float
    out_of_time: tuple[str, ...]


class _Timekeeper:
    """The chess clock during a run: each turn costs ``move_seconds`` of the driver's time."""

    def __init__(self, clock: ChessClock, now: float, move_seconds: float) -> None:
        self.clock = clock
        self.now = now
        self.move_seconds = move_seconds

    def may_move(self, player: str) -> bool:
        clock = self.clock.at(self.now)
        if clock.time_up(player, self.now):
            return False
        if clock.on_move(self.now) != player:
            other = next(p for p in clock.players if p != player)
            clock = clock.press(other, self.now)  # the other hands over at once
        left = clock.remaining(player, self.now)
        if left <= self.move_seconds:
            self.now += left  # his flag falls during this turn: the turn is not made
            self.clock = clock.at(self.now)
            return False
        self.now += self.move_seconds
        self.clock = clock.press(player, self.now)
        return True


def blitz_config(
    start: RunStart, players: tuple[str, str], track: str, laps: int = 0
) -> RaceConfig:
    """The race configuration of one run: grid order from the ``RunStart``."""
    if start.pole is not None and start.second is not None:
        grid: tuple[str, str] = (start.pole, start.second)
    else:
        other = next(p for p in players if p != start.first_to_move)
        grid = (start.first_to_move, other)
    return RaceConfig(
        track=track,
        ruleset=BLITZ_RULESET,
        entries=tuple(Entry(id=p, name=p, karma=0) for p in players),
        laps=laps,
        qualifying=grid,
        max_rounds=MAX_ROUNDS,
        side_by_side=start.side_by_side,
    )


def run_blitz(
    start: RunStart,
    players: tuple[str, str],
    track: str,
    seed: int | str,
    drivers: Mapping[str, Bot],
    clock: ChessClock,
    now: float,
    move_seconds: float = MOVE_SECONDS,
    laps: int = 0,
    track_data: Track | None = None,
) -> BlitzRunResult:
    """Drive one run with ``drivers`` against ``clock`` (already started) from ``now``;
    ``track_data`` is the board when it comes from a track file (Blitz: any board)."""
    if move_seconds <= 0:
        raise RennleitungError(
            "Sekunden je Zug müssen größer als 0 sein", "seconds per move must be above 0",
            "--move-seconds",
        )
    keeper = _Timekeeper(clock, now, move_seconds)
    config = blitz_config(start, players, track, laps)
    race = Race(config, Dice.from_seed(seed), track=track_data, commitment=commit(seed))
    base = start_base(race, players)
    out: list[str] = []
    charged = 0
    while (ask := race.pending) is not None:
        if any(race.cars[p].status is CarStatus.FINISHED for p in players):
            race.halt(ask.car)  # the run is decided: the race ends here
            continue
        first = ask.car == race.turn_car and race.turns != charged
        if first and ask.kind in _TIMED and race.ruleset.chess_clock:  # Dresden FD Blitz
            charged = race.turns
            if not keeper.may_move(ask.car):
                out.append(ask.car)
                race.halt(ask.car)
                continue
        race.apply(drivers[ask.car].decide(race, ask))
    final = keeper.clock.at(keeper.now)
    return BlitzRunResult(race, first_over_line(race, players),
                          run_distances(race, players, base), final, keeper.now,
                          tuple(p for p in players if p in out))


def start_base(race: Race, cars: tuple[str, str]) -> float:
    """Where the rearmost car starts: the zero of a run's distances."""
    return min(_distance(race, p) for p in cars)


def run_distances(race: Race, cars: tuple[str, str], base: float) -> dict[str, int]:
    """How far each car got, in tenths of a row from ``base`` (``start_base``)."""
    return {p: round((_distance(race, p) - base) * 10) for p in cars}


def first_over_line(race: Race, cars: tuple[str, str]) -> str | None:
    """The car that crossed the line first after the last lap, if any: it wins the run."""
    finished = [p for p in race.finish_order if p in cars]
    return finished[0] if finished else None


_TIMED = frozenset({AskKind.TURN, AskKind.MOVE, AskKind.PIT})
"""The questions that open a driver's turn; its clock is settled at the first of them."""


def _distance(race: Race, car: str) -> float:
    """How far a car got: where it retired, else its place along the race."""
    info = race.info[car]
    if info.retirement is not None and race.cars[car].status is not CarStatus.FINISHED:
        return info.final_progress
    return race.progress_of(car)
