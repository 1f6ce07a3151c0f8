"""Qualifying sessions held here: online in each driver's browser (issue 27) or at a table on
the organiser's stopwatch (issue 29), and their grid entered into the league.

The organiser opens a session for the league race that is next, with a window (from, to). The
weather is rolled once for the session, one black-die roll per run (Dresden "Qualifizierung";
changeable counts as sun, the Open's second run takes the first run's weather). Every rule of a
lap is the engine's (``league/qualifying_session.py``); this service adds who may answer, the
window and the time, read from its clock (injectable, so tests move it instead of waiting):

- **online** the time runs from the first roll to the move over the line; the lap's dice are
  the server's, derived from the session's secret seed;
- **at a table** the organiser starts and stops the stopwatch and enters each gear die's number
  as the table rolls it.

Closing the session ranks the laps, draws the drivers without one with the black die and enters
the grid through ``LeagueStore.enter_qualifying`` like a qualifying typed in, so a league race
played here (``play/league_races.py``) starts from it. The organiser closes it; after its window
it closes itself on the next look (``close_due``).

**Decisions.** A lap not over the line when the window closes has no time: that driver is
drawn. In the Open a driver drives run 2 after his run 1. A decision sent twice (two tabs) counts
once: a lap is saved by compare-and-set.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime

from sqlalchemy import Engine

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.dice import GEAR_DICE
from rennleitung.formula_de.event_text import render_qualifying
from rennleitung.formula_de.events import JsonValue
from rennleitung.formula_de.qualifying import QualifyingAskKind, TimedLap
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.qualifying import QualifyingLap, format_lap_time
from rennleitung.league.qualifying_run import to_qualifying_lap, tyre_for
from rennleitung.league.qualifying_session import (
    TAKE_BACK,
    apply_decision,
    effective,
    replay_lap,
    session_weather,
)
from rennleitung.league.qualifying_session import standings as rank_laps
from rennleitung.league.qualifying_weather import Weather, applied_weather
from rennleitung.league.race_run import ruleset_for
from rennleitung.league.season import League
from rennleitung.play.qualifying_views import (
    GridRow,
    LapRow,
    LapView,
    MoveChoice,
    SessionView,
    StandingRow,
)
from rennleitung.play.service import system_clock, utc
from rennleitung.store.league_store import MAX_SEED, LeagueStore
from rennleitung.store.qualifying_sessions import QualifyingSessionStore, StoredLap, StoredSession

MODES = ("online", "table")
KEPT_LAPS = 512
"""Rebuilt laps kept in memory: every lap of a dozen full sessions with two runs."""


def _ms(lap: StoredLap) -> int:
    if lap.started_at is None or lap.finished_at is None:
        return 0
    return max(1, round((lap.finished_at - lap.started_at).total_seconds() * 1000))


class QualifyingSessions:
    """Sessions on one database, timed by one clock."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime] = system_clock) -> None:
        self.store = QualifyingSessionStore(engine)
        self.leagues = LeagueStore(engine)
        self._clock = clock
        self._rebuilt: OrderedDict[tuple[int, str, int, int], TimedLap] = OrderedDict()
        self._lock = threading.Lock()

    def now(self) -> datetime:
        return utc(self._clock())

    # --- opening --------------------------------------------------------------------------

    def open(self, league: str, race: int, track: str, *, opens_at: datetime,
             closes_at: datetime, mode: str = "online", runs: int = 1, seed: int | None = None,
             organiser: str | None = None) -> int:
        """A session for the league's next race; refused naming the field."""
        loaded = self.leagues.load(league)
        fmt = loaded.format
        if mode not in MODES:
            raise RennleitungError("unbekannte Art", "unknown mode", "mode")
        if track not in builtin_track_names():
            raise RennleitungError("unbekannte Strecke", "unknown track", "track")
        if race != len(loaded.races) + 1:
            raise RennleitungError(
                f"als Nächstes ist Rennen {len(loaded.races) + 1} dran",
                f"race {len(loaded.races) + 1} is next", "race")
        if loaded.qualifying_of(race) is not None:
            raise RennleitungError(
                f"die Qualifizierung zu Rennen {race} ist schon eingetragen",
                f"qualifying for race {race} has already been entered", "race")
        if not 1 <= runs <= fmt.max_qualifying_runs:
            raise RennleitungError(
                f"Läufe müssen zwischen 1 und {fmt.max_qualifying_runs} liegen",
                f"runs must be between 1 and {fmt.max_qualifying_runs}", "runs")
        opens, closes = utc(opens_at), utc(closes_at)
        if closes <= opens:
            raise RennleitungError("das Fenster endet, bevor es beginnt",
                                   "the window ends before it begins", "closes_at")
        starters = [d.name for d in loaded.roster.drivers]
        if not starters:
            raise RennleitungError("die Liga hat keine Fahrer", "the league has no drivers",
                                   "drivers")
        drawn = seed if seed is not None else secrets.randbelow(MAX_SEED)
        rolled = session_weather(builtin_track(track), drawn, race, runs)
        return self.store.create(
            league=loaded.name, race=race, track=track, mode=mode, runs=runs, starters=starters,
            weather=[w.value for w in rolled], seed=drawn, opens_at=opens, closes_at=closes,
            organiser=organiser, tyre="", now=self.now())

    def sessions_of(self, league: str) -> tuple[StoredSession, ...]:
        return self.store.sessions_of(league)

    # --- reading --------------------------------------------------------------------------

    def _league(self, session: StoredSession) -> League:
        return self.leagues.load(session.league)

    def _weather(self, session: StoredSession) -> tuple[Weather, ...]:
        return applied_weather([Weather(w) for w in session.weather])

    def _seen(self, session: StoredSession, league: League, lap: StoredLap) -> TimedLap:
        """The lap rebuilt for reading: kept by its stored version, so a page polled every two
        seconds rebuilds only the laps that moved since (``benchmarks/qualifying.py``). Never
        changed by the caller; ``decide`` rebuilds its own copy."""
        key = (session.id, lap.driver, lap.run, lap.version)
        with self._lock:
            found = self._rebuilt.get(key)
            if found is not None:
                self._rebuilt.move_to_end(key)
                return found
        rebuilt = self._replay(session, league, lap)
        with self._lock:
            self._rebuilt[key] = rebuilt
            while len(self._rebuilt) > KEPT_LAPS:
                self._rebuilt.popitem(last=False)
        return rebuilt

    def forget(self) -> None:
        """Drop the rebuilt laps kept in memory (a benchmark's cold start)."""
        with self._lock:
            self._rebuilt.clear()

    def _replay(self, session: StoredSession, league: League, lap: StoredLap) -> TimedLap:
        weather = self._weather(session)[lap.run - 1]
        tyre = Tyre(lap.tyre) if lap.tyre else tyre_for(weather)
        return replay_lap(
            session.track, ruleset_for(league), league.roster.driver(lap.driver, "driver"),
            weather, tyre, lap.decisions, seed=session.seed, race=session.race, run=lap.run,
            table=session.mode == "table")

    def _timed(self, session: StoredSession, league: League,
               laps: tuple[StoredLap, ...] | None = None) -> list[QualifyingLap]:
        """The laps with a time: over the line and, at a table, stopped."""
        done = []
        for lap in laps if laps is not None else self.store.laps(session.id):
            if lap.finished_at is None or lap.started_at is None:
                continue
            result = to_qualifying_lap(self._seen(session, league, lap), lap.driver,
                                       _ms(lap), lap.run)
            if result is not None:
                done.append(result)
        return done

    def view(self, session_id: int, holder: str | None = None) -> SessionView:
        session = self.store.session(session_id)
        league = self._league(session)
        now = self.now()
        rows = []
        stored = self.store.laps(session.id)
        for lap in stored:
            timed = self._seen(session, league, lap)
            rows.append(LapRow(lap.driver, lap.run, _state(session, lap, timed), timed.rolls,
                               timed.penalty_points, lap.holder is not None or
                               lap.started_at is not None,
                               holder is not None and lap.holder == holder))
        ranked = rank_laps(self._timed(session, league, stored), league.roster, league.format)
        grid: tuple[GridRow, ...] = ()
        result = league.qualifying_of(session.race) if session.state == "entered" else None
        if result is not None:
            grid = tuple(GridRow(s.position, s.driver, s.score, s.score is None,
                                 s.qualifying_points) for s in result.grid)
        return SessionView(
            id=session.id, league=session.league, race=session.race, track=session.track,
            mode=session.mode, runs=session.runs,
            weather=tuple((w.label_de, w.label_en) for w in self._weather(session)),
            rolled=tuple((Weather(w).label_de, Weather(w).label_en) for w in session.weather),
            opens_at=session.opens_at, closes_at=session.closes_at, now=now,
            state=session.state, note=session.note,
            in_window=session.opens_at <= now < session.closes_at,
            standings=tuple(StandingRow(s.place, s.driver, s.run, s.rolls, s.penalty_points,
                                        format_lap_time(s.lap_time_ms), s.score,
                                        s.qualifying_points) for s in ranked),
            laps=tuple(rows), grid=grid,
            open_points=league.format.pole_qualifying_points > 0,
            seed=session.seed if session.state != "open" else None)

    def _stored(self, session: StoredSession, driver: str, run: int) -> StoredLap:
        for lap in self.store.laps(session.id):
            if lap.driver == driver and lap.run == run:
                return lap
        raise RennleitungError(f"{driver} hat keinen Lauf {run} in dieser Qualifizierung",
                               f"{driver} has no run {run} in this qualifying", "driver")

    def lap_view(self, session_id: int, driver: str, run: int, holder: str | None,
                 organiser: bool = False) -> LapView:
        session = self.store.session(session_id)
        league = self._league(session)
        lap = self._stored(session, driver, run)
        timed = self._seen(session, league, lap)
        name = timed.track.name_of
        ask = timed.pending
        moves: tuple[MoveChoice, ...] = ()
        if ask is not None and ask.kind is QualifyingAskKind.MOVE:
            moves = tuple(MoveChoice(o.path, tuple(name(s) for s in o.path), name(o.end),
                                     o.tyres if o.overshoot else 0, o.eliminated is not None)
                          for o in ask.moves)
        weather = self._weather(session)[run - 1]
        state = _state(session, lap, timed)
        may = self._may_drive(session, lap, holder, organiser) and state in ("waiting", "driving")
        table = session.mode == "table"
        if table and lap.started_at is None:
            ask_kind = ""
        else:
            ask_kind = ask.kind.value if ask is not None else ""
        abort = (timed.abort.de, timed.abort.en) if timed.abort else None
        return LapView(
            session=session.id, driver=driver, run=run, mode=session.mode,
            weather=(weather.label_de, weather.label_en), tyre=timed.config.tyre.value,
            state=state, space=name(timed.space), space_index=timed.space, gear=timed.gear,
            rolls=timed.rolls,
            penalty_points=timed.penalty_points, corner_stops=timed.corner_stops,
            ask=ask_kind, gears=ask.gears if ask is not None else (),
            soft_bonus=bool(ask and ask.soft_bonus), roll=ask.roll if ask is not None else 0,
            moves=moves,
            protocol=tuple((render_qualifying(e, "de"), render_qualifying(e, "en"))
                           for e in timed.events) + tuple(
                               _taken_back(entry) for entry in effective(lap.decisions)[1]),
            can_take_back=(table and organiser and lap.finished_at is None
                           and bool(effective(lap.decisions)[0]) and session.state == "open"),
            abort=abort, started=lap.started_at is not None,
            lap_time=format_lap_time(_ms(lap)) if lap.finished_at is not None else "",
            may_drive=may, tyre_choice=not effective(lap.decisions)[0],
            faces=tuple((g, tuple(sorted(set(d.faces)))) for g, d in GEAR_DICE.items())
            if table else ())

    # --- driving --------------------------------------------------------------------------

    def _may_drive(self, session: StoredSession, lap: StoredLap, holder: str | None,
                   organiser: bool) -> bool:
        if session.mode == "table":
            return organiser
        return holder is not None and lap.holder == holder

    def _check_open(self, session: StoredSession) -> None:
        now = self.now()
        if session.state != "open":
            raise RennleitungError("die Qualifizierung ist vorbei", "the qualifying is over",
                                   "session")
        if now < session.opens_at:
            raise RennleitungError("das Zeitfenster hat noch nicht begonnen",
                                   "the window has not opened yet", "window")
        if now >= session.closes_at:
            raise RennleitungError("das Zeitfenster ist geschlossen", "the window is closed",
                                   "window")

    def hold(self, session_id: int, driver: str, holder: str) -> None:
        """Take a driver's laps online (the first account to ask holds them)."""
        session = self.store.session(session_id)
        if session.mode != "online":
            raise RennleitungError("am Tisch fährt der Organisator die Stoppuhr",
                                   "at a table the organiser runs the stopwatch", "mode")
        self._check_open(session)
        self._stored(session, driver, 1)
        self.store.hold(session.id, driver, holder)
        if self._stored(session, driver, 1).holder != holder:
            raise RennleitungError(f"die Runde von {driver} fährt schon jemand",
                                   f"someone already drives {driver}'s lap", "driver")

    def decide(self, session_id: int, driver: str, run: int, decision: Mapping[str, JsonValue],
               holder: str | None, organiser: bool = False) -> LapView:
        """Apply one decision to a lap: a gear (first one with the tyres; at a table with the
        die's number) or a move. Refused naming the rule, the lap unchanged."""
        session = self.store.session(session_id)
        self._check_open(session)
        league = self._league(session)
        lap = self._stored(session, driver, run)
        if not self._may_drive(session, lap, holder, organiser):
            raise RennleitungError("diese Runde fährt jemand anderes",
                                   "someone else drives this lap", "driver")
        if run > 1 and self._stored(session, driver, run - 1).finished_at is None:
            raise RennleitungError(f"erst Lauf {run - 1} zu Ende fahren",
                                   f"finish run {run - 1} first", "run")
        if session.mode == "table" and lap.started_at is None:
            raise RennleitungError("erst die Stoppuhr starten", "start the stopwatch first",
                                   "stopwatch")
        data = dict(decision)
        tyre = lap.tyre
        if not effective(lap.decisions)[0]:
            tyre = _tyre(data.pop("tyre", None), self._weather(session)[run - 1])
        else:
            data.pop("tyre", None)
        stored = replace(lap, tyre=tyre)
        timed = self._replay(session, league, stored)
        if timed.finished:
            raise RennleitungError("die Runde ist vorbei", "the lap is over", "lap")
        apply_decision(timed, data, session.mode == "table")
        now = self.now()
        started = lap.started_at or now
        over = timed.pending is None  # (re-read after the decision)
        finished = now if over and session.mode == "online" else lap.finished_at
        saved = replace(stored, decisions=(*lap.decisions, data), version=lap.version + 1,
                        started_at=started, finished_at=finished)
        if not self.store.save_lap(session.id, saved, lap.version):
            raise RennleitungError("die Runde wurde inzwischen weitergefahren; bitte neu laden",
                                   "the lap moved on meanwhile; please reload", "version")
        with self._lock:
            self._rebuilt[(session.id, driver, run, saved.version)] = timed
        return self.lap_view(session.id, driver, run, holder, organiser)

    def take_back(self, session_id: int, driver: str, run: int, organiser: bool) -> None:
        """At a table: take the last entry back (a mistyped number, a wrong move) while the
        stopwatch runs; the protocol keeps it as taken back (issue 29)."""
        session = self.store.session(session_id)
        if session.mode != "table" or not organiser:
            raise RennleitungError("nur der Organisator am Tisch nimmt Einträge zurück",
                                   "only the organiser at a table takes entries back",
                                   "take_back")
        self._check_open(session)
        lap = self._stored(session, driver, run)
        if lap.finished_at is not None or not effective(lap.decisions)[0]:
            raise RennleitungError("es gibt keinen Eintrag zum Zurücknehmen",
                                   "there is no entry to take back", "take_back")
        saved = replace(lap, decisions=(*lap.decisions, {TAKE_BACK: True}),
                        version=lap.version + 1)
        if not self.store.save_lap(session.id, saved, lap.version):
            raise RennleitungError("die Runde wurde inzwischen geändert; bitte neu laden",
                                   "the lap changed meanwhile; please reload", "version")

    def stopwatch(self, session_id: int, driver: str, run: int, action: str,
                  organiser: bool) -> None:
        """At a table: ``start`` the driver's stopwatch, or ``stop`` it once he crossed the
        line (or his lap ended without a time)."""
        session = self.store.session(session_id)
        if session.mode != "table" or not organiser:
            raise RennleitungError("nur der Organisator am Tisch bedient die Stoppuhr",
                                   "only the organiser at a table runs the stopwatch",
                                   "stopwatch")
        self._check_open(session)
        lap = self._stored(session, driver, run)
        now = self.now()
        if action == "start":
            if lap.started_at is not None:
                raise RennleitungError("die Stoppuhr läuft schon", "the stopwatch is running",
                                       "stopwatch")
            if run > 1 and self._stored(session, driver, run - 1).finished_at is None:
                raise RennleitungError(f"erst Lauf {run - 1} zu Ende fahren",
                                       f"finish run {run - 1} first", "run")
            saved = replace(lap, started_at=now, version=lap.version + 1)
        elif action == "stop":
            timed = self._seen(session, self._league(session), lap)
            if lap.started_at is None or lap.finished_at is not None:
                raise RennleitungError("die Stoppuhr läuft nicht", "the stopwatch is not running",
                                       "stopwatch")
            if not timed.finished:
                raise RennleitungError("der Fahrer hat die Ziellinie noch nicht überquert",
                                       "the driver has not crossed the line yet", "stopwatch")
            saved = replace(lap, finished_at=now, version=lap.version + 1)
        else:
            raise RennleitungError("unbekannte Aktion", "unknown action", "action")
        if not self.store.save_lap(session.id, saved, lap.version):
            raise RennleitungError("die Runde wurde inzwischen geändert; bitte neu laden",
                                   "the lap changed meanwhile; please reload", "version")

    # --- closing --------------------------------------------------------------------------

    def close(self, session_id: int) -> QualifyingResult:
        """Rank the laps, draw the rest and enter the grid into the league."""
        session = self.store.session(session_id)
        if session.state != "open":
            raise RennleitungError("die Qualifizierung ist schon geschlossen",
                                   "the qualifying is closed already", "session")
        league = self._league(session)
        laps = self._timed(session, league)
        try:
            result = self.leagues.enter_qualifying(
                session.league, session.race, laps, session.starters, session.seed,
                [Weather(w) for w in session.weather])
        except RennleitungError as error:
            self.store.set_state(session.id, "refused", f"{error.en} ({error.where})")
            raise
        self.store.set_state(session.id, "entered")
        return result

    def close_due(self, session_id: int) -> bool:
        """Close the session if its window is over; True if it closed now."""
        session = self.store.session(session_id)
        if session.state != "open" or self.now() < session.closes_at:
            return False
        try:
            self.close(session_id)
        except RennleitungError:
            return False
        return True


def _state(session: StoredSession, lap: StoredLap, timed: TimedLap) -> str:
    if timed.finished:
        if session.mode == "table" and lap.finished_at is None:
            return "over"
        return "done" if timed.completed else "aborted"
    if not lap.decisions and lap.started_at is None:
        return "waiting"
    return "driving"


def _taken_back(entry: Mapping[str, JsonValue]) -> tuple[str, str]:
    """A protocol line for an entry the organiser took back."""
    if "path" in entry:
        return "zurückgenommen: ein Zug", "taken back: a move"
    return (f"zurückgenommen: {entry.get('gear')}. Gang, Würfel {entry.get('roll')}",
            f"taken back: gear {entry.get('gear')}, die {entry.get('roll')}")


def _tyre(value: JsonValue, weather: Weather) -> str:
    if value in (None, ""):
        return tyre_for(weather).value
    try:
        return Tyre(str(value)).value
    except ValueError:
        raise RennleitungError(f"unbekannte Reifen {value!r} (hard, soft, rain)",
                               f"unknown tyres {value!r} (hard, soft, rain)",
                               "tyre (Dresden Reifen)") from None
