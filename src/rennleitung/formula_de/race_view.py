"""What one driver may know of a race, and what the spectators see: ``Race.view(car)``.

The server is the authority and each player sees only his own view (architecture: "Each player
sees only their own view"). A view holds the public board (cars, spaces, gears, wear, laps,
dangerous spaces, weather), the public events, and for the viewer alone his open questions, his
answers not yet taken (a setup or a bid while others still decide). Other drivers' secrets
appear only once the rules reveal them: setups when all are in (Dresden "Rennen"), bids when the
level cars' bids are revealed together (Dresden "Kopf an Kopf"). A pit announcement is no
secret: it is spoken aloud at the table (Dresden "Boxenstopp": the stop is "angesagt"), so
every view shows every car's announced plan and the announcement event in full. The seed never
appears (only its commitment). ``view(None)`` is the spectators' view: public only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from rennleitung.formula_de.car import WeatherState
from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.events import Event, EventKind
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race_decisions import (
    Decision,
    PitPlan,
    decision_to_data,
    plan_to_data,
)
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.formula_de.track import Track


class _Bookkeeping(Protocol):
    """What a view reads of a car's bookkeeping (``race.CarInfo``)."""

    @property
    def grid(self) -> int: ...
    @property
    def karma(self) -> int: ...
    @property
    def pit_plan(self) -> PitPlan | None: ...


class ViewedRace(Protocol):
    """What a view reads of a race: ``formula_de.race.Race`` is one. Named here, not imported,
    so that the ``race`` package (which offers ``Race.view``) and this module form no import
    circle."""

    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def grid_order(self) -> Sequence[str]: ...
    @property
    def cars(self) -> Mapping[str, CarState]: ...
    @property
    def info(self) -> Mapping[str, _Bookkeeping]: ...
    @property
    def entries(self) -> Mapping[str, Entry]: ...
    @property
    def track(self) -> Track: ...
    @property
    def halted(self) -> Collection[str]: ...
    @property
    def version(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def laps(self) -> int: ...
    @property
    def config(self) -> RaceConfig: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def commitment(self) -> str: ...
    @property
    def weather(self) -> WeatherState: ...
    @property
    def dangerous(self) -> Collection[int]: ...
    @property
    def finished(self) -> bool: ...
    def driver(self, car: str) -> str: ...
    def driver_names(self) -> dict[str, str]: ...
    def laps_done(self, car: str) -> int: ...
    def questions(self) -> list[Question]: ...
    def open_answers(self) -> dict[str, Decision]: ...

SECRET_EVENT_DATA: dict[EventKind, frozenset[str]] = {}
"""Event data only the event's own car may read: none. Secrets are kept out of the events
themselves (a setup or bid becomes an event only when revealed); a pit announcement, once
thought the team's, is spoken aloud (Dresden "Boxenstopp") and so public."""


@dataclass(frozen=True, slots=True)
class CarView:
    """One car as the viewer may see it; ``wear`` is None until the setups are revealed,
    ``pit_plan`` is the announced plan of any car (public, Dresden "Boxenstopp")."""

    car: str
    driver: str
    team: str
    profile: str
    grid: int
    space: str
    gear: int
    status: str
    laps: int
    tyre: str
    tyre_laps: int
    box: int
    karma: int
    wear: dict[str, int] | None
    pit_plan: PitPlan | None
    halted: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "car": self.car,
            "driver": self.driver,
            "team": self.team,
            "profile": self.profile,
            "grid": self.grid,
            "space": self.space,
            "gear": self.gear,
            "status": self.status,
            "laps": self.laps,
            "tyre": self.tyre,
            "tyre_laps": self.tyre_laps,
            "box": self.box,
            "karma": self.karma,
            "wear": self.wear,
            "pit_plan": plan_to_data(self.pit_plan) if self.pit_plan else None,
            "halted": self.halted,
        }


@dataclass(frozen=True)
class RaceView:
    """A race as ``viewer`` may know it (None: a spectator). ``answered`` holds the viewer's
    answers to simultaneous questions that wait for the other drivers."""

    viewer: str | None
    version: int
    round: int
    laps: int
    track: str
    ruleset: str
    commitment: str
    weather: str
    weather_settled: bool
    dangerous: tuple[str, ...]
    cars: tuple[CarView, ...]
    events: tuple[dict[str, Any], ...]
    questions: tuple[dict[str, Any], ...]
    answered: tuple[dict[str, Any], ...]
    waiting_for: tuple[str, ...]
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "version": self.version,
            "round": self.round,
            "laps": self.laps,
            "track": self.track,
            "ruleset": self.ruleset,
            "commitment": self.commitment,
            "weather": {"current": self.weather, "settled": self.weather_settled},
            "dangerous": list(self.dangerous),
            "cars": [c.to_json() for c in self.cars],
            "events": list(self.events),
            "questions": list(self.questions),
            "answered": list(self.answered),
            "waiting_for": list(self.waiting_for),
            "finished": self.finished,
        }


def event_for(event: Event, viewer: str | None, names: Mapping[str, str]) -> dict[str, Any]:
    """An event's JSON form for ``viewer``: another car's secret data left out. ``de`` and
    ``en`` are its sentences, rendered from the data (``event_text``; views had them before
    events became data, so they stay), left out with the secret."""
    data = event.to_data()
    secret = SECRET_EVENT_DATA.get(event.kind)
    if secret and event.car != viewer:
        data["data"] = {k: v for k, v in data["data"].items() if k not in secret}
        return data
    data["de"] = render(event, "de", names)
    data["en"] = render(event, "en", names)
    return data


_REVEALED: WeakKeyDictionary[object, tuple[int, frozenset[str]]] = WeakKeyDictionary()
"""Per race in memory: how many events were read and the cars whose setup they revealed, so
a view reads only the events since the last one (events are only ever appended)."""


def revealed_setups(race: ViewedRace) -> frozenset[str]:
    """The cars whose setup (wear and tyres) a ``setup`` event has shown: all together once
    all are in (Dresden "Rennen"). The one place every view (this module's and the play
    service's, ``play/view_build.py``) learns which setups a reader may see."""
    read, cars = _REVEALED.get(race, (0, frozenset()))
    events = race.events
    if read > len(events):  # not the race this entry was made for
        read, cars = 0, frozenset()
    if read < len(events):
        cars = cars | {e.car for e in events[read:] if e.kind is EventKind.SETUP}
        _REVEALED[race] = (len(events), cars)
    return cars


def own_answers(race: ViewedRace, viewer: str | None) -> dict[str, Any] | None:
    """``viewer``'s answer that waits for the other drivers (a setup, a head-to-head bid) as
    data, or None; the others' answers are never shown (Dresden "Kopf an Kopf")."""
    if viewer is None:
        return None
    waiting = race.open_answers().get(viewer)
    return None if waiting is None else {"car": viewer, **decision_to_data(race.track, waiting)}


def view_of(race: ViewedRace, viewer: str | None) -> RaceView:
    """The view of ``viewer`` (a car id) or of the spectators (None)."""
    revealed = revealed_setups(race)
    names = race.driver_names()
    cars = []
    for car in race.grid_order:
        state = race.cars[car]
        info = race.info[car]
        entry = race.entries[car]
        cars.append(
            CarView(
                car=car,
                driver=race.driver(car),
                team=entry.team_id,
                profile=state.profile.value,
                grid=info.grid,
                space=race.track.name_of(state.space),
                gear=state.gear,
                status=state.status.value,
                laps=race.laps_done(car),
                tyre=state.tyre.value if car in revealed else "",
                tyre_laps=state.tyre_laps,
                box=state.box,
                karma=info.karma,
                wear=state.wear.as_dict() if car in revealed else None,
                pit_plan=info.pit_plan,
                halted=car in race.halted,
            )
        )
    open_questions = race.questions()
    own = own_answers(race, viewer)
    return RaceView(
        viewer=viewer,
        version=race.version,
        round=race.round,
        laps=race.laps,
        track=race.config.track,
        ruleset=race.ruleset.name,
        commitment=race.commitment,
        weather=race.weather.current.value,
        weather_settled=race.weather.settled,
        dangerous=tuple(sorted(race.track.name_of(s) for s in race.dangerous)),
        cars=tuple(cars),
        events=tuple(event_for(e, viewer, names) for e in race.events),
        questions=tuple(q.to_json() for q in open_questions if q.car == viewer),
        answered=() if own is None else (own,),
        waiting_for=tuple(q.car for q in open_questions),
        finished=race.finished,
    )
