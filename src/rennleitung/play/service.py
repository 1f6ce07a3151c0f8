"""The race service: the one place where races people play are created, answered and stored.

Every change is one step under the race's lock in this process: bring the race in memory up
to the stored version, apply the change in the engine, let the bots answer until a person must;
then one short transaction locks the race row, checks that no other process moved the race
meanwhile (else the step is done again on the stored state), stores every decision with its
actor and time, moves the version by compare-and-set and commits. Only then are the listeners
told. A refused decision leaves both the race in memory and the store as they were; if anything
fails after the engine moved, the race in memory is dropped and rebuilt from the store on its
next use, so nothing outside the step ever sees memory ahead of the database.

Time is passed in (``now``) or read from the clock given to the service, never from inside the
logic, so deadlines can be tested without waiting.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from rennleitung.errors import RennleitungError
from rennleitung.formula_de import rules_version
from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Decision, Halt, TakeBack
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.record import config_from_data, config_to_data, record_of
from rennleitung.formula_de.rules_version import changes_since
from rennleitung.formula_de.ruleset import get_ruleset
from rennleitung.formula_de.track import Track
from rennleitung.league.karma import karma_balances
from rennleitung.play import engine as eng
from rennleitung.play.model import (
    MAX_ABANDON_SECONDS,
    MAX_BANK_SECONDS,
    MAX_DECISION_SECONDS,
    MAX_MISSES,
    AbandonAction,
    Actor,
    Applied,
    ClockEvent,
    ClockWhat,
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
    StoredDecision,
    TimedOut,
    UnknownRace,
)
from rennleitung.play.view_build import replay_view, view_of
from rennleitung.play.views import Reader, View
from rennleitung.store.league_store import LeagueStore
from rennleitung.store.play_league import LeagueLink, add_link, link_of
from rennleitung.store.race_store import (
    DecisionData,
    RaceData,
    RaceStore,
    SeatData,
    SnapshotData,
    add_decisions,
    add_race,
    add_snapshots,
    decision_texts,
    decisions_by,
    drop_after,
    drop_snapshots,
    drop_snapshots_after,
    due_abandoned,
    due_seats,
    latest_snapshot,
    load_decisions,
    load_race,
    load_seats,
    race_ids,
    race_versions,
    races_organised,
    rewind_race,
    save_race,
    save_seats,
    seat_changes,
    snapshot_logs,
    snapshot_state,
    stamp_of,
    stamps,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
Listener = Callable[[Notice], None]
Clock = Callable[[], datetime]

MAX_LIVE = 256
"""Races kept in memory; the least recently used beyond this are rebuilt when needed."""
RETRIES = 3
"""How often a step is done again when another process changed the race in between."""


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite hands back naive datetimes, stored as UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Live:
    """A race in memory: the engine's race at the version of its last stored decision, and
    the race's info as this process's last change stored it (None when rebuilt by a read), and
    the lengths of its event and roll logs at the last round boundary stored.

    ``row`` and ``seats``: the race's row and seats as this process's last transaction on it
    left them in the store (None when rebuilt by a read). The next change starts from them
    instead of reading them again; its write checks them against the stored ones, as it checks
    a read, and does the step again on the stored state when another process moved the race."""

    race: Race
    info: RaceInfo | None = None
    logged: tuple[int, int] = (0, 0)
    row: RaceData | None = None
    seats: list[SeatData] | None = None


@dataclass
class _Tx:
    """What one transaction works on and what it did."""

    row: RaceData
    seats: dict[str, SeatData]
    live: _Live | None
    now: datetime
    seen_version: int
    seen_state: str
    seen_config: str
    seen_seats: dict[str, tuple[Any, ...]]
    asked_before: frozenset[str]
    seen_stamp: tuple[Any, ...] = ()
    """The race's ``race_stamp`` as read (or as last stored): its write checks it first."""
    remembered: bool = False
    """Started from the row and seats this process's last transaction left (``_Live.row``),
    not from a read."""
    stored: list[StoredDecision] = field(default_factory=list)
    rows: list[DecisionData] = field(default_factory=list)
    decided: set[str] = field(default_factory=set)
    asked_new: list[str] = field(default_factory=list)
    changed_seats: list[SeatData] = field(default_factory=list)
    snapshots: list[eng.Snapshot] = field(default_factory=list)
    rewound_to: int | None = None
    """A table take-back went back across a round boundary: the snapshots after this version
    no longer hold and are dropped in the same write."""
    mutated: bool = False
    changed: bool = False

    @property
    def race(self) -> Race:
        if self.live is None:
            raise _state_error(self.row.id, RaceState(self.row.state), "running")
        return self.live.race


class RaceService:
    """Races people play, shared by the web server, the mail gateway and the CLI (see the
    package docstring for the methods and their guarantees)."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.store = RaceStore(engine)
        self._clock = clock
        self._live: OrderedDict[int, _Live] = OrderedDict()
        self._locks: dict[int, threading.RLock] = {}
        self._guard = threading.Lock()
        self._listeners: list[Listener] = []
        self._bots: dict[str, Bot] = {}
        self._shared: set[int] = set()
        """Races another process changed too: their changes always start from a read."""

    @classmethod
    def open(cls, url: str, clock: Clock = system_clock) -> RaceService:
        """A service on the database at ``url`` (schema migrated)."""
        return cls(RaceStore.open(url).engine, clock)

    @property
    def engine(self) -> Engine:
        return self.store.engine

    def now(self) -> datetime:
        """The service's clock, in UTC."""
        return utc(self._clock())

    # --- listeners ----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with a ``RaceChanged`` after every committed change and a
        ``QuestionFor`` for every new question to a person's seat; returns the unsubscribe.
        Listeners run after the commit, in the thread that made the change; one that raises
        is logged and the others still run."""
        with self._guard:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._guard:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    # --- creating and seating -------------------------------------------------------------

    def create_race(
        self, spec: RaceSpec, *, seed: str | None = None, now: datetime | None = None
    ) -> int:
        """A new open race; returns its id. The seed is drawn here (128 random bits) unless
        given; only its commitment is public until the race is over."""
        moment = utc(now or self._clock())
        secret = seed if seed is not None else secrets.token_hex(16)
        config = _config(spec)
        track = _spec_track(spec)
        _check_bots(spec)
        seconds = spec.decision_seconds
        if seconds is not None and not 0 < seconds <= MAX_DECISION_SECONDS:
            raise PlayError(
                f"die Zeit je Entscheidung muss zwischen 1 und {MAX_DECISION_SECONDS} Sekunden "
                "liegen",
                f"the time per decision must be between 1 and {MAX_DECISION_SECONDS} seconds",
                "decision_seconds",
            )
        _check_clock(spec)
        eng.new_race(config, secret, track)  # refuses what cannot start, naming the rule
        race = RaceData(
            id=0,
            name=spec.name,
            state=RaceState.OPEN.value,
            config=json.dumps(config_to_data(config), ensure_ascii=False),
            track_text=spec.track_text,
            decision_seconds=spec.decision_seconds,
            commitment=commit(secret),
            seed=secret,
            version=0,
            organiser=spec.organiser,
            created_at=moment,
            updated_at=moment,
            rules_version=rules_version.RULES_VERSION,
            bank_seconds=spec.bank_seconds,
            bot_after_misses=spec.bot_after_misses,
            abandon_seconds=spec.abandon_seconds,
            abandon_action=spec.abandon_action.value if spec.abandon_seconds else "",
        )
        seats = [
            SeatData(
                id=0,
                race_id=0,
                number=number,
                car=seat.car,
                driver=seat.driver,
                kind=seat.kind.value,
                bot=seat.bot,
                holder=seat.holder,
                asked_at=None,
                deadline_at=None,
                bank_left=spec.bank_seconds,
            )
            for number, seat in enumerate(spec.seats, start=1)
        ]
        with self.store.write() as connection:
            race_id = add_race(connection, race, seats)
            if spec.league is not None and spec.league_race is not None:
                add_link(connection, race_id, spec.league, spec.league_race)
        self._tell([RaceChanged(race_id, 0, RaceState.OPEN)])
        return race_id

    def join(
        self,
        race_id: int,
        holder: str,
        *,
        car: str | None = None,
        driver: str = "",
        now: datetime | None = None,
    ) -> Seat:
        """``holder`` takes a free person's seat (``car``, or the first free one) of an open
        race, or of a running one, where its bot has driven it meanwhile; ``driver`` names the
        driver (before the start: once running, the entry's name stays). A holder holds at most
        one seat per race."""

        def work(tx: _Tx) -> None:
            if tx.row.state not in (RaceState.OPEN.value, RaceState.RUNNING.value):
                raise _state_error(race_id, RaceState(tx.row.state), "open, running")
            if any(s.holder == holder for s in tx.seats.values()):
                raise PlayError(
                    "du hast in diesem Rennen schon einen Platz",
                    "you already hold a seat in this race",
                    "holder",
                )
            free = [
                s for s in tx.seats.values() if s.kind == SeatKind.PERSON.value and s.holder is None
            ]
            if car is not None:
                free = [s for s in free if s.car == car]
            if not free:
                where = f"car {car}" if car else "seats"
                raise PlayError("kein freier Platz", "no free seat", where)
            free[0].holder = holder
            free[0].away_since, free[0].misses = None, 0
            if driver and tx.row.state == RaceState.OPEN.value:
                free[0].driver = driver
            tx.changed = True

        self._transact(race_id, now, work)
        return self.info(race_id).seat(car or self._seat_of(race_id, holder))

    def assign(
        self,
        race_id: int,
        car: str,
        *,
        kind: SeatKind,
        bot: str | None = None,
        holder: str | None = None,
        driver: str | None = None,
        now: datetime | None = None,
    ) -> Applied:
        """The organiser seats a person (``holder``, None: free) or a bot in ``car``, before the
        start or during the race (a bot takes over from a person who left, or the reverse). A
        bot seat that is asked answers at once."""
        if bot is not None:
            _bot_name(bot, "bot")

        def work(tx: _Tx) -> None:
            if RaceState(tx.row.state) not in (RaceState.OPEN, RaceState.RUNNING):
                raise _state_error(race_id, RaceState(tx.row.state), "open, running")
            seat = _seat(tx, car)
            seat.kind = kind.value
            seat.holder = holder if kind is SeatKind.PERSON else None
            seat.away_since, seat.misses = None, 0  # whoever sits there now starts afresh
            if bot is not None:
                seat.bot = bot
            if driver is not None:
                if tx.row.state != RaceState.OPEN.value and driver != seat.driver:
                    raise PlayError(
                        "der Fahrername steht nach dem Start fest",
                        "the driver's name is fixed once the race has started",
                        "driver",
                    )
                seat.driver = driver
            tx.changed = True
            if kind is SeatKind.BOT:
                seat.asked_at = seat.deadline_at = None

        return self._transact(race_id, now, work)

    def start(self, race_id: int, *, now: datetime | None = None) -> Applied:
        """Open → running: free person's seats get their bot, the entries take the drivers'
        names, and the bots answer until a person must. A league race takes each driver's
        karma balance as the league has it now, at the start, not when the race was made
        (a race entered or corrected meanwhile moved it)."""
        karma = self._league_karma(race_id)

        def work(tx: _Tx) -> None:
            _require(tx, RaceState.OPEN)
            config = config_from_data(json.loads(tx.row.config))
            for seat in tx.seats.values():  # at the table the organiser enters for the empty
                if seat.kind == SeatKind.PERSON.value and seat.holder is None and not config.table:
                    seat.kind = SeatKind.BOT.value
            names = {s.car: s.driver for s in tx.seats.values()}
            entries = tuple(
                Entry(e.id, names.get(e.id) or e.name, e.team, e.profile,
                      karma.get(e.id, e.karma))
                for e in config.entries
            )
            config = replace(config, entries=entries)
            tx.row.config = json.dumps(config_to_data(config), ensure_ascii=False)
            tx.row.state = RaceState.RUNNING.value
            tx.row.rules_version = rules_version.RULES_VERSION  # the rules it is played under
            tx.live = _Live(eng.new_race(config, tx.row.seed, _row_track(tx.row)))
            tx.changed = True

        return self._transact(race_id, now, work)

    # --- deciding -------------------------------------------------------------------------

    def apply(
        self,
        race_id: int,
        car: str,
        decision: Decision | Mapping[str, Any],
        expected_version: int | None,
        actor: Actor = Actor.PERSON,
        *,
        holder: str | None = None,
        now: datetime | None = None,
    ) -> Applied:
        """Apply ``car``'s decision (a decision or its JSON form) made against
        ``expected_version`` (None: the current one), store it, let the bots answer, commit.
        ``actor`` is ``person`` (the seat must be a person's; with ``holder`` it must be his,
        checked first: ``NotYourSeat``) or ``organiser``. A stale version raises
        ``StaleVersion``, an illegal decision ``DecisionError`` naming the rule; either way
        nothing changes."""
        if actor not in (Actor.PERSON, Actor.ORGANISER):
            raise PlayError(
                f"nur Person oder Rennleitung entscheiden hier, nicht {actor.value}",
                f"only a person or the organiser decides here, not {actor.value}",
                "actor",
            )

        def work(tx: _Tx) -> None:
            if actor is Actor.PERSON and holder is not None:
                held = tx.seats.get(car)
                if held is None or held.holder != holder:
                    raise NotYourSeat(  # the web says it in its own words; this is the mail's
                        f"{car} ist nicht Ihr Auto", f"{car} is not your car", f"car {car}"
                    )
            _require(tx, RaceState.RUNNING)
            seat = _seat(tx, car)
            if actor is Actor.PERSON and seat.kind != SeatKind.PERSON.value:
                raise PlayError(f"{car} fährt ein Bot", f"{car} is driven by a bot", f"car {car}")
            if actor is Actor.PERSON and seat.away_since is not None:
                raise PlayError(
                    f"der Bot fährt {car}, bis du zurück bist: erst „Ich bin zurück“",
                    f"the bot drives {car} until you are back: say “I am back” first",
                    f"car {car}",
                )
            race = tx.race
            if expected_version is not None and not eng.current_for(race, car, expected_version):
                raise eng.stale(expected_version, eng.version(race))
            chosen = (
                eng.decision_from_json(race, decision)
                if isinstance(decision, Mapping)
                else decision
            )
            if eng.is_table_entry(chosen) and actor is not Actor.ORGANISER:
                raise PlayError(
                    "die Würfel am Tisch gibt die Rennleitung ein",
                    "the organiser enters the table's dice",
                    "table",
                )
            self._record(tx, eng.entry_car(race, car, chosen), chosen, actor, holder)

        return self._transact(race_id, now, work)

    def take_back(
        self, race_id: int, expected_version: int | None, *, now: datetime | None = None
    ) -> Applied:
        """At the table (issue 29): the organiser takes back the last entry not yet taken back
        in the round under way (a mistyped roll, a wrong tap); the race asks its question
        again. Stored as a decision, so the log keeps both."""

        def work(tx: _Tx) -> None:
            _require(tx, RaceState.RUNNING)
            race = tx.race
            if expected_version is not None and expected_version != eng.version(race):
                raise eng.stale(expected_version, eng.version(race))
            taken = TakeBack()
            self._record(tx, eng.entry_car(race, "", taken), taken, Actor.ORGANISER, None)

        return self._transact(race_id, now, work)

    def halt(
        self,
        race_id: int,
        car: str,
        *,
        expected_version: int | None = None,
        now: datetime | None = None,
    ) -> Applied:
        """The organiser stops ``car`` for the rest of the race where it stands (Dresden
        "FD Blitz"); stored as a decision of the organiser."""
        def work(tx: _Tx) -> None:
            _require(tx, RaceState.RUNNING)
            _seat(tx, car)
            race = tx.race
            if expected_version is not None and expected_version != eng.version(race):
                raise eng.stale(expected_version, eng.version(race))
            self._record(tx, car, Halt(), Actor.ORGANISER, None)

        return self._transact(race_id, now, work)

    def close(self, race_id: int, *, now: datetime | None = None) -> Applied:
        """The organiser ends the race (finished or not): nothing more is applied, deadlines
        end, the seed is revealed."""

        def work(tx: _Tx) -> None:
            if tx.row.state == RaceState.CLOSED.value:
                raise _state_error(race_id, RaceState.CLOSED, "open, running, finished")
            tx.row.state = RaceState.CLOSED.value
            tx.changed = True

        return self._transact(race_id, now, work, needs_race=False)  # closing always works

    def run_due_deadlines(self, now: datetime | None = None) -> list[TimedOut]:
        """Let the bot decide for every person whose time ran out by ``now``; each such
        decision is stored with actor ``timeout-bot``. The web and mail processes call this
        periodically; two processes doing so at once decide each question once."""
        moment = utc(now or self._clock())
        with self.store.read() as connection:
            due = due_seats(connection, moment, [RaceState.RUNNING.value])
        done: list[TimedOut] = []
        for race_id, car in due:

            def work(tx: _Tx, car: str = car) -> None:
                if tx.row.state != RaceState.RUNNING.value:
                    return
                seat = tx.seats[car]
                if seat.deadline_at is None or utc(seat.deadline_at) > tx.now:
                    return  # answered meanwhile, perhaps by another process
                ask = eng.question_of(tx.race, car)
                if ask is None:
                    return
                chosen = self._bot(seat.bot).decide(tx.race, ask)
                self._record(tx, car, chosen, Actor.TIMEOUT_BOT, None)
                _missed(tx, seat)

            applied = self._transact(race_id, moment, work)
            if any(d.actor is Actor.TIMEOUT_BOT for d in applied.stored):
                done.append(TimedOut(race_id, car, applied))
        return done

    def back(self, race_id: int, holder: str, *, now: datetime | None = None) -> Applied:
        """The driver ``holder`` takes his seat back from the bot that drove it while he was
        away (after missed decisions, or a quiet race given to the bots): his next question
        is his again, with the full time per decision. Nothing changes for a seat that is
        not away."""
        def work(tx: _Tx) -> None:
            _require(tx, RaceState.RUNNING)
            seat = next((s for s in tx.seats.values() if s.holder == holder), None)
            if seat is None:
                raise NotYourSeat("du hast hier keinen Platz", "you hold no seat here", "car")
            if seat.away_since is None:
                return
            seat.away_since, seat.misses = None, 0
            _log_clock(tx, ClockEvent(tx.now, ClockWhat.BACK, tx.row.version, seat.car))

        return self._transact(race_id, now, work)

    def run_due_abandons(self, now: datetime | None = None) -> list[int]:
        """Abandon every running race in which nobody decided for its organiser's period
        (``RaceSpec.abandon_seconds``): close it, or give every person's seat to its bot, who
        then drive on (``AbandonAction``); returns the races abandoned. Run where the
        deadlines are run; two processes doing so at once abandon a race once."""
        moment = utc(now or self._clock())
        with self.store.read() as connection:
            due = due_abandoned(connection, moment, RaceState.RUNNING.value)
        done: list[int] = []
        for race_id in due:
            abandoned = [False]

            def work(tx: _Tx, abandoned: list[bool] = abandoned) -> None:
                row = tx.row
                abandoned[0] = False
                if (row.state != RaceState.RUNNING.value or row.abandon_at is None
                        or utc(row.abandon_at) > tx.now):
                    return  # someone decided meanwhile, perhaps in another process
                abandoned[0] = True
                quiet = row.abandon_seconds or 0
                if row.abandon_action == AbandonAction.BOTS.value:
                    for seat in tx.seats.values():
                        if not _bot_drives(seat):
                            seat.away_since = tx.now
                    what = ClockWhat.BOTS
                else:
                    row.state = RaceState.CLOSED.value
                    what = ClockWhat.CLOSED
                row.abandon_at = None
                _log_clock(tx, ClockEvent(tx.now, what, row.version, seconds=quiet))
                tx.changed = True

            self._transact(race_id, moment, work)
            if abandoned[0]:
                done.append(race_id)
        return done

    def run_due(self, now: datetime | None = None) -> list[TimedOut]:
        """What a server's loop runs each tick: the deadlines due, then the quiet races to
        abandon (``run_due_deadlines``, ``run_due_abandons``); returns what timed out."""
        moment = utc(now or self._clock())
        timed_out = self.run_due_deadlines(moment)
        self.run_due_abandons(moment)
        return timed_out

    # --- reading --------------------------------------------------------------------------

    def info(self, race_id: int) -> RaceInfo:
        """The race as anyone may see it (the seed only once it is over)."""
        with self.store.read() as connection:
            row = _row(connection, race_id)
            return _info(row, load_seats(connection, race_id))

    def races(
        self,
        *,
        states: tuple[RaceState, ...] | None = None,
        holder: str | None = None,
        limit: int | None = None,
        unorganised: bool = False,
    ) -> list[RaceInfo]:
        """Races, newest first; only those in ``states``; only those where ``holder`` sits;
        only those nobody organises (the demo's); at most ``limit``."""
        with self.store.read() as connection:
            chosen = None if states is None else [s.value for s in states]
            ids = race_ids(connection, chosen, holder, limit=limit, unorganised=unorganised)
            return [_info(_row(connection, i), load_seats(connection, i)) for i in ids]

    def organised(
        self, organiser: str, since: datetime, states: tuple[RaceState, ...] | None = None
    ) -> int:
        """How many races ``organiser`` created since ``since`` (only those in ``states``)."""
        with self.store.read() as connection:
            chosen = None if states is None else [s.value for s in states]
            return races_organised(connection, organiser, utc(since), chosen)

    def decisions(self, race_id: int) -> tuple[StoredDecision, ...]:
        """Every stored decision of the race in order, with actor and time."""
        with self.store.read() as connection:
            _row(connection, race_id)
            return tuple(_stored(r) for r in load_decisions(connection, race_id))

    def _league_karma(self, race_id: int) -> dict[str, int]:
        """The karma balances of a league race's drivers as booked now ({} for other races,
        or when the league is gone: then the balances of the race's creation stay)."""
        link = self.league_of(race_id)
        if link is None:
            return {}
        try:
            return karma_balances(LeagueStore(self.store.engine).karma_ledger(link.league))
        except RennleitungError:
            return {}

    def league_of(self, race_id: int) -> LeagueLink | None:
        """The league and race number the race is played for, if any."""
        with self.store.read() as connection:
            return link_of(connection, race_id)

    def versions(self, race_ids: list[int]) -> dict[int, int]:
        """The stored versions of several races at once (unknown ids left out)."""
        with self.store.read() as connection:
            return race_versions(connection, race_ids)

    def version(self, race_id: int) -> int:
        """The stored version: a page or a mail loop compares it with what it showed."""
        with self.store.read() as connection:
            return _row(connection, race_id).version

    def race(self, race_id: int) -> Race:
        """The race in memory, brought up to the stored version (rebuilt after a restart).
        For reading and rendering only: changes go through the service."""
        self._ensure_current(race_id)
        with self._lock(race_id), self.store.read() as connection:
            row = _row(connection, race_id)
            live = self._sync(connection, row)
            if live is None:
                raise _state_error(race_id, RaceState(row.state), "running, finished, closed")
            return live.race

    def look(self, race_id: int, reader: Callable[[RaceInfo, Race | None], T]) -> T:
        """``reader(info, race)`` on one read of the store: the race as anyone may see it and
        the race in memory at that version (None while open). It runs under the race's lock,
        so no change is applied halfway through what it reads; it must not change the race."""
        self._ensure_current(race_id)
        with self._lock(race_id), self.store.read() as connection:
            row = _row(connection, race_id)
            info = _info(row, load_seats(connection, race_id))
            live = self._sync(connection, row)
            return reader(info, None if live is None else live.race)

    def look_at(self, race_id: int, version: int, reader: Callable[[Race], T]) -> T | None:
        """``reader(race)`` on the race in memory if it stands at ``version``, without reading
        the store; None when it does not (another process moved it, or it was dropped). A reply
        right after a change reads what that change left this way, at no database cost."""
        with self._lock(race_id):
            with self._guard:
                live = self._live.get(race_id)
            if live is None or eng.version(live.race) != version:
                return None
            return reader(live.race)

    def view(self, race_id: int, reader: Reader | Callable[[RaceInfo], Reader]) -> View:
        """What ``reader`` may know of the race now (``play/views.py``), on one read of the
        store; ``reader`` may be chosen from the race's info (``Reader.of``). This is what the
        faces read: never the race itself."""
        self._ensure_current(race_id)
        with self._lock(race_id), self.store.read() as connection:
            row = _row(connection, race_id)
            info = _info(row, load_seats(connection, race_id))
            live = self._sync(connection, row)
            chosen = reader(info) if callable(reader) else reader
            seen = view_of(None if live is None else live.race, info, chosen,
                           asking=info.state is RaceState.RUNNING)
            if info.decision_seconds is None or not seen.started:
                return seen  # no clock, no timeouts: no extra read
            timed = decisions_by(connection, race_id, Actor.TIMEOUT_BOT.value)
            return replace(seen, timed_out=tuple(timed)) if timed else seen

    def view_for(self, race_id: int, holder: str | None) -> View:
        """The view of the person ``holder`` (None: a visitor): his seat's, the organiser's
        or a spectator's (``Reader.of``)."""
        return self.view(race_id, lambda info: Reader.of(info, holder))

    def view_at(self, race_id: int, version: int, reader: Reader, *, board: bool = True
                ) -> View | None:
        """``reader``'s view of the race in memory if it stands at ``version`` as this
        process's last change left it, without reading the store; None when it does not
        (another process moved it, or it was dropped). A reply right after a change reads what
        that change left this way, at no database cost; ``board`` False leaves the board out
        (``view_build.view_of``)."""
        with self._lock(race_id):
            with self._guard:
                live = self._live.get(race_id)
            if live is None or live.info is None or eng.version(live.race) != version:
                return None
            if live.info.version != version:
                return None
            info = live.info
            return view_of(live.race, info, reader, asking=info.state is RaceState.RUNNING,
                           board=board)

    def replay_view(self, race_id: int, step: int) -> View:
        """A spectator's view of a race that is over, after ``step`` decisions, rebuilt from
        its record (refused while the race runs: its record holds the seed)."""
        info = self.info(race_id)
        if info.state not in (RaceState.FINISHED, RaceState.CLOSED):
            raise _state_error(race_id, info.state, "finished, closed")
        return replay_view(self.record(race_id), step, info)

    def questions(self, race_id: int) -> dict[str, dict[str, Any]]:
        """The open questions of a running race as JSON, by car."""
        race = self.race(race_id)
        if self.info(race_id).state is not RaceState.RUNNING:
            return {}
        return {ask.car: eng.question_to_json(race, ask) for ask in eng.questions(race)}

    def record(self, race_id: int) -> dict[str, Any]:
        """The race record (``rennleitung-race/1``); the seed is in it once the race is over."""
        race = self.race(race_id)
        starts: dict[int, dict[str, Any]] = {}
        with self.store.read() as connection:
            seed = _row(connection, race_id).seed
            for first, _version in race.rules[1:]:  # stretches under newer rules: their start
                text = snapshot_state(connection, race_id, first - 1)
                if text is not None:
                    starts[first] = json.loads(text)
        return record_of(race, seed, starts)

    def forget(self, race_id: int | None = None) -> None:
        """Drop a race (or all) from memory; the next use rebuilds it from the store."""
        with self._guard:
            if race_id is None:
                self._live.clear()
            else:
                self._live.pop(race_id, None)

    # --- the transaction ------------------------------------------------------------------

    def _transact(
        self,
        race_id: int,
        now: datetime | None,
        work: Callable[[_Tx], None],
        needs_race: bool = True,
    ) -> Applied:
        """Read, work in memory, then write in a short transaction that first checks nothing
        moved meanwhile. The engine's work (the bots' moves above all) happens outside the
        write transaction, so on SQLite, where one writer at a time holds the whole file, the
        next race's writer waits for a few statements, not for the bots. Within this process
        the race's lock keeps its changes in line; a change by another process in between is
        found by the check and the whole step is done again on the stored state."""
        moment = utc(now or self._clock())
        self._ensure_current(race_id)
        with self._lock(race_id):
            for attempt in range(1 + RETRIES):
                tx: _Tx | None = None
                try:
                    tx = self._begin(race_id, moment, needs_race, remembered=attempt == 0)
                    try:
                        work(tx)
                    except RennleitungError:
                        if not tx.remembered:
                            raise
                        # perhaps refused only because another process moved the race: the
                        # same step once more on the stored state decides
                        if tx.mutated:
                            self.forget(race_id)
                        tx = self._begin(race_id, moment, needs_race, remembered=False)
                        work(tx)
                    applied = self._settle(tx)
                    if not tx.changed or self._write(tx):
                        break
                    self.forget(race_id)  # another process moved the race: again, on its state
                    with self._guard:
                        self._shared.add(race_id)
                    if attempt == RETRIES:
                        raise eng.stale(tx.seen_version, self.version(race_id))
                except BaseException:
                    if tx is not None and tx.mutated:
                        self.forget(race_id)
                    raise
            assert tx is not None
            if tx.live is not None:
                tx.live.info = _info(tx.row, list(tx.seats.values()))
                tx.live.row, tx.live.seats = tx.row, list(tx.seats.values())
                self._keep(race_id, tx.live)
        if tx.changed or tx.stored:
            self._tell(self._notices(tx, applied))
        return applied

    def _begin(self, race_id: int, moment: datetime, needs_race: bool, remembered: bool) -> _Tx:
        """What a step works on: the race row and seats as this process's last transaction on
        the race left them (``remembered``, when it has them and no other process changed the
        race before), else as read from the store, with the race in memory brought up to the
        stored version. Either way ``_write`` checks them against the store before it writes."""
        found = self._remembered(race_id) if remembered and needs_race else None
        live: _Live | None
        if found is not None:
            row, seat_list, live = found
        else:
            with self.store.read() as connection:
                row = _row(connection, race_id)
                live = self._sync(connection, row, strict=needs_race)
                seat_list = load_seats(connection, race_id)
        seats = {s.car: s for s in seat_list}
        return _Tx(
            row=row,
            seats=seats,
            live=live,
            now=moment,
            seen_version=row.version,
            seen_state=row.state,
            seen_config=row.config,
            seen_seats={car: _seat_key(s) for car, s in seats.items()},
            asked_before=(
                eng.asked_cars(live.race)
                if live is not None and row.state == RaceState.RUNNING.value
                else frozenset()
            ),
            seen_stamp=stamp_of(row),
            remembered=found is not None,
        )

    def _remembered(self, race_id: int) -> tuple[RaceData, list[SeatData], _Live] | None:
        """Copies of the row and seats this process's last transaction on the race stored, with
        the race in memory at that version; None when there are none to trust (rebuilt by a
        read, or the race is also changed by another process). Called under the race's lock."""
        with self._guard:
            live = self._live.get(race_id)
            if race_id in self._shared:
                return None
        if live is None or live.row is None or live.seats is None:
            return None
        if eng.version(live.race) != live.row.version:
            return None
        return replace(live.row), [replace(s) for s in live.seats], live

    def _write(self, tx: _Tx) -> bool:
        """Store what ``tx`` changed, if the race and its seats are still as ``tx`` read them
        (the race row locked first); False, and nothing stored, when they are not."""
        with self.store.write() as connection:
            found = stamps(connection, tx.row.id)
            if found is None:
                raise UnknownRace(f"kein Rennen {tx.row.id}", f"no race {tx.row.id}", "race")
            current, seats = found
            if current != tx.seen_stamp:
                return False
            if {car: _utc_times(s) for car, s in seats.items()} != tx.seen_seats:
                return False
            add_decisions(connection, tx.rows)
            if tx.rewound_to is not None:
                drop_snapshots_after(connection, tx.row.id, tx.rewound_to)
            add_snapshots(connection, [_snapshot_row(tx.row.id, s) for s in tx.snapshots])
            save_seats(connection, tx.changed_seats)
            if not save_race(connection, tx.row, tx.seen_version):  # cannot pass the lock above
                raise eng.stale(tx.seen_version, current[0])  # rolls everything back
        return True

    def _record(
        self, tx: _Tx, car: str, decision: Decision, actor: Actor, holder: str | None
    ) -> None:
        """Apply one decision in the engine and add its row to the transaction."""
        race = tx.race
        eng.apply(race, car, decision)
        tx.mutated = True
        seq = eng.version(race)
        data = eng.decision_to_json(race, decision)
        tx.rows.append(
            DecisionData(
                race_id=tx.row.id,
                seq=seq,
                car=car,
                actor=actor.value,
                holder=holder,
                decision=json.dumps(data, ensure_ascii=False),
                made_at=tx.now,
            )
        )
        tx.stored.append(StoredDecision(seq, car, actor, data, tx.now, holder))
        tx.decided.add(car)
        if actor is Actor.PERSON:
            _answered(tx, tx.seats[car])

    def _settle(self, tx: _Tx) -> Applied:
        """Bots answer, the state follows the race, deadlines are set, the version moves."""
        running = tx.row.state == RaceState.RUNNING.value
        if running:
            race = tx.race
            while not race.finished:
                ask = next(
                    (
                        q
                        for q in eng.questions(race)
                        if _bot_drives(tx.seats[q.car], eng.at_table(race))
                        and not eng.is_roll(q)
                    ),
                    None,
                )
                if ask is None:
                    break
                chosen = self._bot(tx.seats[ask.car].bot).decide(race, ask)
                self._record(tx, ask.car, chosen, Actor.BOT, None)
            if race.finished:
                tx.row.state = RaceState.FINISHED.value
        asked = (
            eng.asked_cars(tx.race)
            if tx.row.state == RaceState.RUNNING.value
            else frozenset[str]()
        )
        seconds = tx.row.decision_seconds
        for seat in tx.seats.values():
            person = not _bot_drives(seat)
            if seat.car in asked and person:
                fresh = (
                    seat.car not in tx.asked_before
                    or seat.car in tx.decided
                    or seat.asked_at is None
                )
                if fresh:
                    seat.asked_at = tx.now
                    seat.deadline_at = (
                        tx.now + timedelta(seconds=seconds + (seat.bank_left or 0))
                        if seconds is not None else None
                    )
                    tx.asked_new.append(seat.car)
            elif seat.asked_at is not None or seat.deadline_at is not None:
                seat.asked_at = seat.deadline_at = None
        version = eng.version(tx.race) if tx.live is not None else tx.row.version
        if tx.live is not None:
            rewound = tx.live.race.take_rewind()
            if rewound is not None:  # a table take-back across a round boundary
                tx.rewound_to, tx.live.logged = rewound
            tx.snapshots, tx.live.logged = eng.snapshots(tx.live.race, tx.live.logged)
        state = tx.row.state
        _abandon_time(tx, version)
        changed_seats = [
            seat for car, seat in tx.seats.items() if _seat_key(seat) != tx.seen_seats[car]
        ]
        if (
            version != tx.seen_version
            or state != tx.seen_state
            or tx.row.config != tx.seen_config
            or changed_seats
            or tx.changed
        ):
            tx.changed = True
            tx.changed_seats = changed_seats
            tx.row.version = version
            tx.row.updated_at = tx.now
        return Applied(
            race_id=tx.row.id,
            version=version,
            state=RaceState(state),
            stored=tuple(tx.stored),
            asked=tuple(sorted(asked)),
        )

    def _notices(self, tx: _Tx, applied: Applied) -> list[Notice]:
        notices: list[Notice] = [RaceChanged(applied.race_id, applied.version, applied.state)]
        for car in tx.asked_new:
            seat = tx.seats[car]
            deadline = utc(seat.deadline_at) if seat.deadline_at is not None else None
            notices.append(
                QuestionFor(applied.race_id, car, applied.version, seat.holder, deadline)
            )
        return notices

    def _tell(self, notices: list[Notice]) -> None:
        with self._guard:
            listeners = list(self._listeners)
        for notice in notices:
            for listener in listeners:
                try:
                    listener(notice)
                except Exception:
                    log.exception("race listener failed on %s", type(notice).__name__)

    # --- races in memory ------------------------------------------------------------------

    def _sync(self, connection: Connection, row: RaceData, strict: bool = True) -> _Live | None:
        """The race in memory at the stored version: kept, caught up with decisions stored by
        another process, or rebuilt from its latest snapshot; without ``strict`` a race that
        does not rebuild is None instead of an error (closing a race needs no race)."""
        if not strict:
            try:
                return self._sync(connection, row)
            except RennleitungError:
                return None
        if row.state == RaceState.OPEN.value:
            return None
        with self._guard:
            live = self._live.get(row.id)
        if live is not None:
            have = eng.version(live.race)
            if have == row.version:
                return live
            if have > row.version:
                live = None
        try:
            if live is None:
                live = _rebuilt(connection, row)
            race = live.race
            for stored in load_decisions(connection, row.id, after=eng.version(race)):
                decision = eng.decision_from_json(
                    race, json.loads(stored.decision), f"decisions[{stored.seq}]"
                )
                eng.apply(race, stored.car, decision)
            rewound = race.take_rewind()  # a table take-back across a boundary, stored so
            if rewound is not None:
                live.logged = rewound[1]
            live.logged = eng.passed(race, live.logged)  # stored by whoever made them
        except RennleitungError as error:
            self.forget(row.id)
            raise _unreplayable(row, error) from None
        except Exception:
            self.forget(row.id)
            raise
        self._keep(row.id, live)
        return live

    def _ensure_current(self, race_id: int) -> None:
        """A running race stored under older rules goes on under this program's rules from its
        latest snapshot (``docs/formula_de/records.md``, "A rule fix in a running race"): the
        decisions after the snapshot are replayed under the new rules; the first that no longer
        applies and all after it are dropped, so that question is asked again; a notice names
        the change. Done once, in one transaction, by the first process to rebuild the race."""
        with self._guard:
            if race_id in self._live:
                return  # built by this process, under its rules
        with self.store.read() as connection:
            row = load_race(connection, race_id)
        now = rules_version.RULES_VERSION
        if row is None or row.state != RaceState.RUNNING.value or row.rules_version == now:
            return
        with self._lock(race_id):
            moment = self.now()
            with self.store.write() as connection:
                current = _row(connection, race_id, lock=True)
                if current.state != RaceState.RUNNING.value or current.rules_version == now:
                    return  # another process was first
                live, round_ = _rebuilt_from_snapshot(connection, current)
                race = live.race
                after = eng.version(race)
                for stored in load_decisions(connection, race_id, after=after):
                    try:
                        decision = eng.decision_from_json(
                            race, json.loads(stored.decision), f"decisions[{stored.seq}]"
                        )
                        eng.apply(race, stored.car, decision)
                    except RennleitungError:
                        break
                version = eng.version(race)
                dropped = drop_after(connection, race_id, version)
                passed, live.logged = eng.snapshots(race, live.logged)  # under the new rules
                add_snapshots(connection, [_snapshot_row(race_id, p) for p in passed])
                notice = RulesNotice(
                    at=moment,
                    rules_from=current.rules_version,
                    rules_to=now,
                    round=round_,
                    version=version,
                    dropped=tuple(_stored(d) for d in dropped),
                    changes=tuple(
                        (c.version, c.rule, c.de, c.en)
                        for c in changes_since(current.rules_version)
                        if c.version <= now
                    ),
                )
                notices = [*json.loads(current.notices), notice.to_json()]
                text = json.dumps(notices, ensure_ascii=False)
                if not rewind_race(
                    connection, race_id, current.version, version, now, text, moment
                ):
                    raise eng.stale(current.version, version)  # cannot pass the lock above
            self._keep(race_id, live)
            log.info("race %s goes on under rules version %s at version %s", race_id, now, version)

        def settle(tx: _Tx) -> None:
            tx.changed = True  # bots answer, the question asked again gets its deadline

        self._transact(race_id, moment, settle)

    def _keep(self, race_id: int, live: _Live) -> None:
        with self._guard:
            self._live[race_id] = live
            self._live.move_to_end(race_id)
            while len(self._live) > MAX_LIVE:
                self._live.popitem(last=False)

    @contextmanager
    def _lock(self, race_id: int) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(race_id, threading.RLock())
        with lock:
            yield

    def _bot(self, name: str) -> Bot:
        if name not in self._bots:
            self._bots[name] = make_bot(name)
        return self._bots[name]

    def _seat_of(self, race_id: int, holder: str) -> str:
        return next(s.car for s in self.info(race_id).seats if s.holder == holder)


# --- helpers ------------------------------------------------------------------------------


def _rebuilt_from_snapshot(connection: Connection, row: RaceData) -> tuple[_Live, int]:
    """The race at its latest snapshot (or at the start, when it has none or its snapshot no
    longer reads), and the rounds of play done there (-1: from the start)."""
    try:
        live = _rebuilt(connection, row, upto=row.version)
    except RennleitungError:
        live = None
    if live is None or (eng.version(live.race) == 0 and not live.race.round):
        drop_snapshots(connection, row.id)  # none, or none that reads: made anew from the start
        config = config_from_data(json.loads(row.config))
        return _Live(eng.new_race(config, row.seed, _row_track(row))), -1
    latest = latest_snapshot(connection, row.id, row.version)
    return live, latest[0] if latest is not None else -1


def _rebuilt(connection: Connection, row: RaceData, upto: int | None = None) -> _Live:
    """The race from its latest snapshot (its older logs read only when someone reads them),
    or from the start for a race stored before snapshots were kept."""
    config = config_from_data(json.loads(row.config))
    track = _row_track(row)
    latest = latest_snapshot(connection, row.id, row.version if upto is None else upto)
    if latest is None:
        return _Live(eng.new_race(config, row.seed, track))
    round_, version, _rules, state = latest
    engine = connection.engine
    race_id = row.id

    def earlier() -> list[tuple[str, str]]:
        with engine.connect() as reading:
            return decision_texts(reading, race_id, version)

    logs = snapshot_logs(connection, row.id, round_)
    race, logged = eng.resumed_race(state, track, config, earlier, logs)
    return _Live(race, logged=logged)


def _snapshot_row(race_id: int, snapshot: eng.Snapshot) -> SnapshotData:
    return SnapshotData(
        race_id=race_id,
        round=snapshot.round,
        version=snapshot.version,
        rules_version=snapshot.rules_version,
        state=snapshot.state,
        events=snapshot.events,
        rolls=snapshot.rolls,
    )


def _row(connection: Connection, race_id: int, lock: bool = False) -> RaceData:
    row = load_race(connection, race_id, lock)
    if row is None:
        raise UnknownRace(f"kein Rennen {race_id}", f"no race {race_id}", "race")
    return row


def _seat(tx: _Tx, car: str) -> SeatData:
    seat = tx.seats.get(car)
    if seat is None:
        known = ", ".join(tx.seats)
        raise PlayError(
            f"unbekanntes Auto {car!r} (im Rennen: {known})",
            f"unknown car {car!r} (in the race: {known})",
            "car",
        )
    return seat


def _bot_drives(seat: SeatData, table: bool = False) -> bool:
    """A bot's seat, a person's seat nobody holds (freed during the race), or one whose
    driver is away (``Seat.away``): its bot drives until someone takes it or its driver is
    back, so the race never waits for nobody. At the table (issue 29) the organiser answers
    for a seat nobody holds; a bot never reads a die, the table does."""
    return seat.kind == SeatKind.BOT.value or (
        (seat.holder is None or seat.away_since is not None) and not table
    )


def _answered(tx: _Tx, seat: SeatData) -> None:
    """A person answered: the time he took beyond the time per decision comes off his bank
    (whole seconds, rounded up), and his run of missed decisions ends."""
    seconds = tx.row.decision_seconds
    if seconds is not None and seat.asked_at is not None and seat.bank_left:
        over = (tx.now - utc(seat.asked_at)).total_seconds() - seconds
        if over > 0:
            seat.bank_left = max(0, seat.bank_left - math.ceil(over))
    seat.misses = 0


def _missed(tx: _Tx, seat: SeatData) -> None:
    """The time per decision and the whole bank ran out and the bot decided: the bank is
    spent, the miss counted; the organiser's number of misses in a row hands the seat to the
    bot until its driver is back (logged)."""
    if seat.bank_left:
        seat.bank_left = 0
    seat.misses += 1
    most = tx.row.bot_after_misses
    if most and seat.misses >= most and seat.away_since is None:
        seat.away_since = tx.now
        _log_clock(tx, ClockEvent(tx.now, ClockWhat.AWAY, eng.version(tx.race), seat.car,
                                  misses=seat.misses))


def _abandon_time(tx: _Tx, version: int) -> None:
    """A running race with an abandon period is abandoned that long after its last decision
    (or its start); any other race has no such time."""
    row = tx.row
    if row.state != RaceState.RUNNING.value or not row.abandon_seconds:
        row.abandon_at = None
    elif row.abandon_at is None or version != tx.seen_version:
        row.abandon_at = tx.now + timedelta(seconds=row.abandon_seconds)


def _log_clock(tx: _Tx, event: ClockEvent) -> None:
    tx.row.clock_log = json.dumps([*json.loads(tx.row.clock_log), event.to_json()],
                                  ensure_ascii=False)
    tx.changed = True


_CLOCK_LIMITS = (
    ("bank_seconds", 1, MAX_BANK_SECONDS, "die Zeitreserve", "the time bank"),
    ("bot_after_misses", 0, MAX_MISSES, "die Zahl verpasster Entscheidungen",
     "the number of missed decisions"),
    ("abandon_seconds", 60, MAX_ABANDON_SECONDS, "die Wartezeit bis zum Aufgeben",
     "the time before a quiet race is abandoned"),
)
"""The clock's settings, each with its least and largest value and its name in German and
English."""


def _check_clock(spec: RaceSpec) -> None:
    """Refuse a clock setting out of range, naming the field; a time bank and missed
    decisions need a time per decision (without one nobody runs out of time)."""
    for name, least, most, de, en in _CLOCK_LIMITS:
        value = getattr(spec, name)
        if value is not None and not least <= value <= most:
            raise PlayError(f"{de} muss zwischen {least} und {most} liegen",
                            f"{en} must be between {least} and {most}", name)
    if spec.decision_seconds is None:
        for name in ("bank_seconds", "bot_after_misses"):
            if getattr(spec, name):
                raise PlayError(
                    "dafür braucht das Rennen eine Zeit je Entscheidung",
                    "this needs the race to have a time per decision", name)


def _require(tx: _Tx, state: RaceState) -> None:
    if tx.row.state != state.value:
        raise _state_error(tx.row.id, RaceState(tx.row.state), state.value)


_STATE_DE = {
    RaceState.OPEN: "offen",
    RaceState.RUNNING: "läuft",
    RaceState.FINISHED: "beendet",
    RaceState.CLOSED: "geschlossen",
}


def _state_error(race_id: int, state: RaceState, wanted: str) -> PlayError:
    return PlayError(
        f"Rennen {race_id} ist {_STATE_DE[state]}; dafür muss es {wanted} sein",
        f"race {race_id} is {state.value}; this needs it {wanted}",
        "race",
    )


def _unreplayable(row: RaceData, error: RennleitungError) -> PlayError:
    """A stored race that no longer replays: under older rules, name the fixes since."""
    changes = changes_since(row.rules_version)
    if not changes:
        return PlayError(error.de, error.en, f"race {row.id}: {error.where}")
    rules = ", ".join(c.rule for c in changes)
    return PlayError(
        f"Rennen {row.id} wurde nach Regelstand {row.rules_version} gespielt und lässt sich "
        f"nach Stand {rules_version.RULES_VERSION} nicht nachspielen ({error.de}); geändert: "
        f"{rules}",
        f"race {row.id} was played under rules version {row.rules_version} and does not "
        f"replay under version {rules_version.RULES_VERSION} ({error.en}); changed since: "
        f"{rules}",
        f"race {row.id}: {error.where}",
    )


def _config(spec: RaceSpec) -> RaceConfig:
    get_ruleset(spec.ruleset)  # names the known presets when unknown
    cars = [s.car for s in spec.seats]
    if len(set(cars)) != len(cars) or not all(c.strip() for c in cars):
        raise PlayError(
            "jedes Auto braucht eine eigene, nicht leere Kennung",
            "every car needs its own, non-empty id",
            "seats",
        )
    if (spec.league is None) != (spec.league_race is None):
        raise PlayError(
            "ein Ligarennen braucht Liga und Rennnummer",
            "a league race needs both the league and the race number",
            "league",
        )
    if spec.table and spec.decision_seconds is not None:
        raise PlayError(
            "am Tisch läuft keine Uhr je Entscheidung",
            "a race at the table has no time per decision",
            "decision_seconds",
        )
    if spec.config is not None:
        if tuple(e.id for e in spec.config.entries) != tuple(cars):
            raise PlayError(
                "die Plätze müssen den Startern der Konfiguration folgen",
                "the seats must follow the configuration's entries",
                "seats",
            )
        return replace(spec.config, table=spec.table or spec.config.table)
    entries = tuple(Entry(s.car, s.driver, s.team, s.profile) for s in spec.seats)
    return RaceConfig(
        track=spec.track,
        ruleset=spec.ruleset,
        entries=entries,
        laps=spec.laps,
        max_rounds=spec.max_rounds,
        table=spec.table,
    )


def _check_bots(spec: RaceSpec) -> None:
    for n, seat in enumerate(spec.seats):
        _bot_name(seat.bot, f"seats[{n}].bot")


def _bot_name(name: str, where: str) -> None:
    try:
        make_bot(name)
    except RennleitungError as error:
        raise PlayError(error.de, error.en, where) from None


def _spec_track(spec: RaceSpec) -> Track | None:
    return None if spec.track_text is None else eng.uploaded_track(spec.track, spec.track_text)


def _row_track(row: RaceData) -> Track | None:
    if row.track_text is None:
        return None
    name = str(json.loads(row.config)["track"])
    return eng.uploaded_track(name, row.track_text, stored=True)


def _seat_key(seat: SeatData) -> tuple[Any, ...]:
    """A seat's changeable fields, its times in UTC: the same for a seat as read back from the
    store (SQLite gives naive times) and as this process last stored it."""
    return _utc_times(seat_changes(seat))


def _utc_times(values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(utc(value) if isinstance(value, datetime) else value for value in values)


def _seat_value(row: SeatData) -> Seat:
    return Seat(
        car=row.car,
        number=row.number,
        driver=row.driver,
        kind=SeatKind(row.kind),
        bot=row.bot,
        holder=row.holder,
        asked_at=utc(row.asked_at) if row.asked_at is not None else None,
        deadline_at=utc(row.deadline_at) if row.deadline_at is not None else None,
        bank_left=row.bank_left,
        misses=row.misses,
        away_since=utc(row.away_since) if row.away_since is not None else None,
    )


@lru_cache(maxsize=1024)
def _config_facts(config_text: str) -> tuple[str, str, int]:
    """Track, ruleset and laps of a stored configuration (read once per text: every answer
    makes the race's info anew)."""
    config = json.loads(config_text)
    return str(config["track"]), str(config["ruleset"]), int(config.get("laps", 0))


def _info(row: RaceData, seats: list[SeatData]) -> RaceInfo:
    track, ruleset, laps = _config_facts(row.config)
    state = RaceState(row.state)
    over = state in (RaceState.FINISHED, RaceState.CLOSED)
    return RaceInfo(
        id=row.id,
        name=row.name,
        state=state,
        version=row.version,
        track=track,
        ruleset=ruleset,
        laps=laps,
        commitment=row.commitment,
        seats=tuple(_seat_value(s) for s in seats),
        decision_seconds=row.decision_seconds,
        organiser=row.organiser,
        created_at=utc(row.created_at),
        updated_at=utc(row.updated_at),
        seed=row.seed if over else None,
        custom_track=row.track_text is not None,
        rules_version=row.rules_version,
        notices=(
            ()
            if row.notices == "[]"
            else tuple(RulesNotice.from_json(n) for n in json.loads(row.notices))
        ),
        bank_seconds=row.bank_seconds,
        bot_after_misses=row.bot_after_misses,
        abandon_seconds=row.abandon_seconds,
        abandon_action=AbandonAction(row.abandon_action or AbandonAction.CLOSE.value),
        abandon_at=utc(row.abandon_at) if row.abandon_at is not None else None,
        clock_log=_clock_log(row.clock_log),
    )


@lru_cache(maxsize=1024)
def _clock_log(text: str) -> tuple[ClockEvent, ...]:
    """A race's clock log as read (once per text: every answer makes the race's info anew)."""
    return () if text == "[]" else tuple(ClockEvent.from_json(e) for e in json.loads(text))


def _stored(row: DecisionData) -> StoredDecision:
    return StoredDecision(
        seq=row.seq,
        car=row.car,
        actor=Actor(row.actor),
        decision=json.loads(row.decision),
        made_at=utc(row.made_at),
        holder=row.holder,
    )
