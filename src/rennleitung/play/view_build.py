"""A ``View`` (``play/views.py``) made from the race in memory for one reader.

The one place besides ``play/engine.py`` that reads the engine's race, and only to copy out
what the reader may know: the public board and events, and for a seat its own questions and its
answers that wait for the others. Which setups a reader may see and which waiting answer is his
are the engine's decisions (``formula_de/race_view``: ``revealed_setups``, ``own_answers``, the
same that ``Race.view`` uses), so the two views cannot drift apart on a secret.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from rennleitung.formula_de.car import Weather
from rennleitung.formula_de.position import CarState, Position
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import decision_to_data
from rennleitung.formula_de.race_questions import MoveQuestion, Question, TurnQuestion
from rennleitung.formula_de.race_view import own_answers, revealed_setups
from rennleitung.formula_de.record import record_from_data
from rennleitung.formula_de.replay import replay
from rennleitung.formula_de.track import SpaceKind
from rennleitung.play import engine as eng
from rennleitung.play.advice import GearHint, MoveHint, TestOdds, gear_hints, move_hints
from rennleitung.play.model import RaceInfo, RaceState, Seat, SeatKind
from rennleitung.play.views import CarLine, OrderLine, QuestionView, Reader, ReaderKind, View


def view_of(race: Race | None, info: RaceInfo, reader: Reader, *, asking: bool = True,
            board: bool = True) -> View:
    """What ``reader`` may know of ``race`` (None: the race is still open) as ``info`` tells
    it. ``asking`` False: the race asks nothing (it is not running). ``board`` False: the
    reader's questions and waiting answers and who is asked only, without cars, order, events
    and position (what ``question.json`` needs, at a fraction of the cost)."""
    if race is None:
        return View(reader=reader, info=info, version=info.version, started=False)
    mine = reader.car
    desk = eng.at_table(race) and reader.kind is ReaderKind.ORGANISER
    # at the table the organiser enters for everyone: every question, every car's sheet
    open_questions = eng.questions(race) if asking else ()
    own = tuple(
        QuestionView(ask, eng.opened_at(race), _options(race, ask.car), _hints(race, ask))
        for ask in open_questions
        if (mine is not None and ask.car == mine) or desk
    )
    waiting = own_answers(race, mine)
    answered: tuple[dict[str, Any], ...] = () if waiting is None else (waiting,)
    asked = tuple(q.car for q in open_questions)
    if not board:
        return View(reader=reader, info=info, version=race.version, started=True,
                    round=race.round, laps=race.laps, track=race.track, ruleset=race.ruleset,
                    questions=own, answered=answered, asked=asked, finished=race.finished,
                    names=race.driver_names(), table=eng.at_table(race))
    revealed = frozenset(race.cars) if desk else revealed_setups(race)
    cars = []
    for car in race.grid_order:
        state = race.cars[car]
        book = race.info[car]
        entry = race.entries[car]
        seen = car in revealed or car == mine
        cars.append(CarLine(
            car=car,
            driver=entry.driver,
            team=entry.team_id,
            profile=state.profile.value,
            grid=book.grid,
            space=state.space,
            space_name=race.track.name_of(state.space),
            gear=state.gear,
            status=state.status,
            halted=car in race.halted,
            laps=race.laps_done(car),
            tyre=state.tyre if seen else None,
            tyre_laps=state.tyre_laps,
            box=state.box,
            karma=book.karma,
            wear=state.wear if seen else None,
            pit_plan=book.pit_plan,
            progress=race.progress_of(car),
            corner_stops=state.corner_stops,
            stops_needed=_stops_needed(race, state.space),
        ))
    gears = {c: race.cars[c].gear for c in race.cars}
    order = tuple(
        OrderLine(
            position=p.position, car=p.car, driver=p.driver, laps=p.laps, status=p.status,
            gear=gears.get(p.car, 0), points=p.points, karma=p.karma, grid=p.grid, rule=p.rule,
            reason_de=p.reason_de, reason_en=p.reason_en,
        )
        for p in race.classification()
    )
    return View(
        reader=reader,
        info=info,
        version=race.version,
        started=True,
        round=race.round,
        laps=race.laps,
        track=race.track,
        ruleset=race.ruleset,
        weather=race.weather.current,
        weather_settled=race.weather.settled,
        dangerous=frozenset(race.dangerous),
        entries=tuple((e.id, e.driver) for e in race.config.entries),
        cars=tuple(cars),
        order=order,
        events=tuple(race.events),
        questions=own,
        answered=answered,
        asked=asked,
        position=_position(race, mine or (asked[0] if desk and asked else None), revealed),
        finished=race.finished,
        names=race.driver_names(),
        table=eng.at_table(race),
    )


def _stops_needed(race: Race, space: int) -> int:
    corner = race.track.corner_of(space)
    return corner.stops if corner is not None else 0


def _hints(race: Race, ask: Question) -> tuple[GearHint | MoveHint, ...]:
    """What each gear or move option of the reader's own question costs and leaves
    (``play/advice.py``), from the engine's costs and his car as it stands."""
    if not isinstance(ask, TurnQuestion | MoveQuestion):  # a grid draw asks before any car
        return ()
    state = race.cars[ask.car]
    to_go = race.laps - race.laps_done(ask.car)
    if isinstance(ask, TurnQuestion):
        return gear_hints(race.ruleset, state.gear, state.wear, ask.gears, to_go)
    rules = race.ruleset
    rain = race.weather.current is Weather.RAIN
    in_pit = race.track.spaces[state.space].kind is not SpaceKind.TRACK
    status_at = {c.space: c.status for c in race.cars.values() if c.status.on_track}
    aggravating = rules.collision_aggravated_by

    def collision(space: int) -> int:
        worse = state.status in aggravating or status_at.get(space) in aggravating
        return rules.collision_limit(rain, worse)

    odds = TestOdds(
        modifier=state.profile.effects_at(in_pit_lane=in_pit).check_modifier,
        road_holding=rules.road_holding_limit(rain),
        wall=rules.collision_limit(rain, False),
        collision=collision,
    )
    return move_hints(race.track, rules, ask.moves, state.wear, odds, to_go)


def _options(race: Race, car: str) -> tuple[dict[str, Any], ...]:
    return tuple(decision_to_data(race.track, d) for d in race.legal_decisions(car))


def _position(race: Race, mine: str | None, revealed: frozenset[str]) -> Position:
    """The board as a position with the reader's car to move; another car's setup (wear and
    tyres) is the standard one until the setups are revealed."""
    position = race.to_position(mine or "")
    hidden = {c.id for c in position.cars if c.id not in revealed and c.id != mine}
    if not hidden:
        return position
    standard = CarState(id="", space=0)
    cars = tuple(
        replace(c, wear=standard.wear, tyre=standard.tyre) if c.id in hidden else c
        for c in position.cars
    )
    return replace(position, cars=cars)


def replay_view(data: dict[str, Any], step: int, info: RaceInfo) -> View:
    """A spectator's view of a finished race after ``step`` of its decisions, rebuilt from
    its record's data (public once the race is over)."""
    record = record_from_data(data)
    race = replay(replace(record, decisions=record.decisions[:step]))
    return view_of(race, replace(info, version=race.version), Reader.spectator(), asking=False)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def local_view(race: Race, reader: Reader | None = None) -> View:
    """The view of a race that is no stored one (a local bot race, a test's race): its info
    made from the race itself, every seat a bot's, no seed (a spectator's by default)."""
    seats = tuple(
        Seat(car=e.id, number=n, driver=e.driver, kind=SeatKind.BOT, bot="", holder=None,
             asked_at=None, deadline_at=None)
        for n, e in enumerate(race.config.entries, start=1)
    )
    info = RaceInfo(
        id=0, name="", state=RaceState.FINISHED if race.finished else RaceState.RUNNING,
        version=race.version, track=race.config.track, ruleset=race.ruleset.name,
        laps=race.laps, commitment=race.commitment, seats=seats, decision_seconds=None,
        organiser=None, created_at=_EPOCH, updated_at=_EPOCH,
    )
    return view_of(race, info, reader or Reader.spectator(), asking=not race.finished)
