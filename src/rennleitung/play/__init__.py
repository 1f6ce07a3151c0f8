"""Races people play: one service that the web server, the mail gateway and the CLI share.

``RaceService`` (``play/service.py``) is the public face; its method names are stable:

- ``RaceService.open(url, clock)`` / ``RaceService(engine, clock)``: on a migrated database;
  ``clock`` gives the time when a method is not handed ``now``.
- ``create_race(spec, seed=None, now=None) -> int``: an ``open`` race from a ``RaceSpec``
  (track name or track file content, ruleset preset, laps, seats); the seed is drawn and kept
  secret, its commitment is public.
- ``join(race_id, holder, car=None, driver="")``: a person's account takes a free seat.
- ``assign(race_id, car, kind=, bot=, holder=, driver=)``: the organiser seats a person or a bot.
- ``start(race_id)``: ``open`` → ``running``; free seats get their bot; bots answer.
- ``apply(race_id, car, decision, expected_version, actor=Actor.PERSON, holder=None, now=None)``:
  the one way a person's answer (a ``Decision`` or its JSON form) enters a race; stored in the
  same transaction that acknowledges it, then the bots answer until a person must.
  ``StaleVersion`` (a ``DecisionError``) when ``expected_version`` is not the race's version;
  ``NotYourSeat`` when ``holder`` does not hold the car's seat; ``UnknownRace`` (every method)
  for a race number that does not exist.
- ``halt(race_id, car)`` (FD Blitz) and ``close(race_id)``: the organiser's.
- ``run_due_deadlines(now)``: the seat's bot decides for every person whose time ran out
  (actor ``timeout-bot``); web and mail processes call it periodically. ``run_due_abandons(now)``
  closes or hands to the bots a race nobody decided in for its organiser's period; ``run_due``
  runs both. ``back(race_id, holder)``: a driver takes back the seat the bot drove while he was
  away (``docs/play.md``, "The clock").
- ``subscribe(listener)``: ``RaceChanged`` and ``QuestionFor`` notices after each commit.
- Views for the faces (``play/views.py``): ``view(race_id, reader)``, ``view_for(race_id,
  holder)``, ``view_at(race_id, version, reader)`` (no read), ``replay_view(race_id, step)``:
  what one reader (a seat, the organiser, a spectator) may know, as data with a JSON form. Web
  and mail read only these.
- Reading: ``info``, ``races``, ``decisions``, ``version``, ``race`` (the engine's race in
  memory, rebuilt from the store when needed), ``look`` (a reader on one consistent read),
  ``look_at`` (a reader on the race in memory at a version, no read), ``questions``,
  ``record``; ``forget`` drops races from memory.

States: ``open`` → ``running`` → ``finished`` (the flag) → ``closed`` (the organiser; possible
from any state). ``docs/play.md`` has the guarantees. ``play/engine.py`` is the only module that
touches the race engine's API.
"""

from rennleitung.play.engine import StaleVersion
from rennleitung.play.model import (
    Actor,
    Applied,
    Notice,
    NotYourSeat,
    PlayError,
    QuestionFor,
    RaceChanged,
    RaceInfo,
    RaceSpec,
    RaceState,
    RulesNotice,
    Seat,
    SeatKind,
    SeatSpec,
    StoredDecision,
    TimedOut,
    UnknownRace,
)
from rennleitung.play.service import RaceService

__all__ = [
    "Actor",
    "Applied",
    "NotYourSeat",
    "Notice",
    "PlayError",
    "QuestionFor",
    "RaceChanged",
    "RaceInfo",
    "RaceService",
    "RaceSpec",
    "RaceState",
    "RulesNotice",
    "Seat",
    "SeatKind",
    "SeatSpec",
    "StaleVersion",
    "StoredDecision",
    "TimedOut",
    "UnknownRace",
]
