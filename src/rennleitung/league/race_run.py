"""A league race run here: from the league to the race engine and back to a ``RaceResult``.

``race_config`` hands the league's drivers to ``formula_de.race_setup.RaceConfig`` as
``docs/league/race-result.md`` lays out (driver name as car id, team, profile, karma balance
before the race, the qualifying grid, the qualifying weather). ``race_result`` reads a finished
``Race`` back into the one input type of the league: classification, grid, laps, status, the
running order after every round of play (from the race's round events), laps most led, and the
in-race karma movements from the race's karma events, in the order they happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile as EngineProfile
from rennleitung.formula_de.car import Weather as EngineWeather
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import RACING, Race
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.league.karma import karma_balances, karma_ledger
from rennleitung.league.lap_leaders import laps_most_led_from_rounds
from rennleitung.league.profiles import engine_name
from rennleitung.league.qualifying_weather import Weather
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
    RaceSource,
    RoundOrder,
)
from rennleitung.league.season import League

KARMA_REASONS: dict[KarmaReason, InRaceKarmaKind | None] = {
    KarmaReason.NATURAL_TWENTY: InRaceKarmaKind.TWENTY_ROLLED,
    KarmaReason.PLUS_ONE: InRaceKarmaKind.PLUS_ONE,
    KarmaReason.REROLL: InRaceKarmaKind.REROLL,
    KarmaReason.HEAD_TO_HEAD: InRaceKarmaKind.HEAD_TO_HEAD,
    KarmaReason.END_OF_RACE: None,  # the league books end-of-race karma itself (race-result.md)
}
"""The race's karma movements (``Race.karma_moves``, by reason) as league karma movements."""


def ruleset_for(league: League) -> str:
    """The race engine's ruleset preset for this league."""
    return league.format.ruleset.name


def engine_weather(weather: Weather | None) -> EngineWeather:
    """The qualifying weather as the race engine spells it; none recorded counts as sun."""
    return EngineWeather.RAIN if weather is Weather.RAIN else EngineWeather.SUN


def race_config(
    league: League,
    race: int,
    track: str,
    starters: Sequence[str] = (),
    laps: int = 0,
    max_rounds: int = 400,
) -> RaceConfig:
    """The race engine's configuration for race ``race`` of ``league``.

    With a qualifying entered for the race its grid is the whole field, in order, so the engine
    has nothing left to draw; without one, ``starters`` (default: every driver of the roster)
    start and the engine draws the grid with the black die (Dresden "Qualifizierung").
    """
    if not 1 <= race <= league.format.races:
        raise RennleitungError(
            f"Rennnummer {race} liegt nicht zwischen 1 und {league.format.races}",
            f"race number {race} is not between 1 and {league.format.races}",
            "race",
        )
    if league.race(race) is not None:
        raise RennleitungError(
            f"Rennen {race} ist schon eingetragen",
            f"race {race} has already been entered",
            "race",
        )
    if race != len(league.races) + 1:
        following = len(league.races) + 1
        raise RennleitungError(
            f"als Nächstes ist Rennen {following} dran; Rennen werden der Reihe nach "
            "eingetragen, weil das Karma weiterläuft",
            f"race {following} is next; races are entered in order because karma carries over",
            "race",
        )
    qualifying = league.qualifying_of(race)
    grid: tuple[str, ...] = ()
    weather = EngineWeather.SUN
    if qualifying is not None:
        grid = qualifying.grid_order()
        weather = engine_weather(qualifying.race_start_weather_if_changeable())
        if starters and set(starters) != set(grid):
            raise RennleitungError(
                f"die Starter müssen die der Qualifizierung sein: {', '.join(grid)}",
                f"the starters must be those of the qualifying: {', '.join(grid)}",
                "--starters",
            )
        names: Sequence[str] = grid
    else:
        names = list(starters) or [d.name for d in league.roster.drivers]
    if len(set(names)) != len(names):
        raise RennleitungError(
            "ein Fahrer steht zweimal in der Starterliste",
            "a driver appears twice in the list of starters",
            "--starters",
        )
    balances = karma_balances(karma_ledger(league))
    entries = []
    for name in names:
        driver = league.roster.driver(name, "--starters")
        entries.append(
            Entry(
                id=driver.name,
                name=driver.name,
                team=league.roster.team_in_race(driver.name, race),
                profile=EngineProfile(engine_name(driver.profile)),
                karma=balances.get(driver.name, league.format.karma_start),
            )
        )
    return RaceConfig(
        track=track,
        ruleset=ruleset_for(league),
        entries=tuple(entries),
        laps=laps,
        qualifying=grid,
        qualifying_weather=weather,
        max_rounds=max_rounds,
    )


def race_result(race: Race, number: int, track_title: str = "") -> RaceResult:
    """The league's ``RaceResult`` of a finished race (``source`` ENGINE; TABLE for a race
    refereed here but rolled at a real table, issue 29: its dice are the table's)."""
    if not race.finished:
        raise RennleitungError(
            "das Rennen ist noch nicht zu Ende", "the race is not over yet", "race"
        )
    rounds = round_orders(race)
    most_led = laps_most_led_from_rounds(rounds)
    karma = in_race_karma(race)
    drivers = []
    for placing in race.classification():
        name = race.driver(placing.car)
        finished = placing.status == "finished"
        # A car out on the very move that crossed the line for the last time (the move's tests
        # come before the flag, Masters 6-3) did not finish: its last lap is not complete.
        laps = placing.laps if finished else min(placing.laps, race.laps - 1)
        drivers.append(
            DriverRaceResult(
                driver=name,
                grid=placing.grid,
                position=placing.position,
                laps_completed=laps,
                status=FinishStatus.FINISHED if finished else FinishStatus.RETIRED,
                laps_most_led=most_led.get(name, 0),
                karma=karma.get(placing.car, ()),
            )
        )
    return RaceResult(
        race=number,
        drivers=tuple(drivers),
        laps=race.laps,
        track=track_title or race.track.title or race.config.track,
        source=RaceSource.TABLE if race.config.table else RaceSource.ENGINE,
        rounds=rounds,
    )


def round_orders(race: Race) -> tuple[RoundOrder, ...]:
    """The running order after every round of play, leader first, cars still racing only.

    The order of play announced at the start of round n+1 is the running order at the end of
    round n (Dresden "Fahrregeln": a round starts with the leader); the leader's lap is counted
    from the lap events before it. A race stopped at its safety limit adds its last round from
    the final positions.
    """
    orders = {play.seq: play for play in race.orders}
    laps_done: dict[str, int] = {car: 0 for car in race.entries}
    rounds: list[RoundOrder] = []
    for event in race.events:
        if event.kind is EventKind.LAP:
            lap = event.get("lap")
            if isinstance(lap, int):
                laps_done[event.car] = max(laps_done[event.car], lap)
        elif event.kind is EventKind.ROUND and event.round > 1:
            play = orders.get(event.seq)
            if play is not None and play.cars:
                order = tuple(race.driver(c) for c in play.cars)
                rounds.append(_round(race, order, laps_done[play.cars[0]]))
    if race.stopped:
        racing = [c for c, s in race.cars.items() if s.status in RACING]
        racing.sort(key=race.progress_of, reverse=True)
        if racing:
            order = tuple(race.driver(c) for c in racing)
            rounds.append(_round(race, order, race.laps_done(racing[0])))
    return tuple(rounds)


def _round(race: Race, order: tuple[str, ...], leader_laps: int) -> RoundOrder:
    """A round with the leader's lap (1-based: the lap he is on, at most the last)."""
    return RoundOrder(lap=min(leader_laps + 1, race.laps), order=order)


def in_race_karma(race: Race) -> dict[str, tuple[InRaceKarma, ...]]:
    """Each car's karma movements during the race, in order (Dresden "Karmapool")."""
    found: dict[str, list[InRaceKarma]] = {}
    for move in race.karma_moves:
        kind = KARMA_REASONS[move.reason]
        if kind is None:
            continue
        amount = -move.change if kind is InRaceKarmaKind.HEAD_TO_HEAD else 0
        found.setdefault(move.car, []).append(InRaceKarma(kind, amount))
    return {car: tuple(items) for car, items in found.items()}
