"""FD Blitz matches played here (issue 27; Dresden "FD Blitz"), on top of ``RaceService``.

A match is two players on a board of their choice, best of three heats (``league/blitz_match.py``
decides the starts and the winner: heat 1 the first named player on pole, heat 2 the other,
heat 3 side by side at pole height with the black die choosing who begins). Each heat is a race
of the play service with the ``fd-blitz`` ruleset (6 tyres, 1 fuel, 1 body, 1 engine) and no
time per decision, so no bot ever decides for a player.

**The clock** (``league/chess_clock.py``, kept here on the service's clock): it runs for the
player whose car is asked, his wear crossing included, and stops (the other's starts) as soon as
the other car is asked. When it runs out his car is halted where it stands ("Das Auto bleibt
dort stehen, wo es gerade steht", ``RaceService.halt``) and the other drives on alone until his
own time is up. The heat ends when a car crosses the line (it wins, the other is halted) or when
neither car can move; then the farther car wins (``league/blitz_run.run_distances``), equally
far is a drawn heat, driven again. **Decisions:** the tyres asked of both players at once
before the start are not on the clock (nobody can be halted before the start); the clock starts
at the first question of round 1. An answer that arrives after its player's flag fell is
refused and his car halted: the flag fell first.

The match state is the command line's match file (``blitz_codec.session_to_json``), so a match
played here reads like one refereed with ``rennleitung blitz``. Answers to a heat come through
``apply`` (the web's race page routes them here); ``run_due`` settles the flags that fell, and
the web's ticker calls it.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track_names
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Decision
from rennleitung.league.blitz_codec import BlitzSession, session_from_json, session_to_json
from rennleitung.league.blitz_match import BlitzMatch, RunStart
from rennleitung.league.blitz_run import (
    BLITZ_RULESET,
    blitz_config,
    first_over_line,
    run_distances,
    start_base,
)
from rennleitung.league.chess_clock import ChessClock
from rennleitung.play import engine as eng
from rennleitung.play.model import (
    Actor,
    Applied,
    PlayError,
    RaceInfo,
    RaceSpec,
    RaceState,
    SeatSpec,
)
from rennleitung.play.service import RaceService, utc
from rennleitung.store.blitz_store import BlitzStore, StoredMatch
from rennleitung.store.league_store import LeagueStore

CARS = ("car1", "car2")
"""The heat's car of the first and the second named player."""
MAX_MINUTES = 120
MAX_LAPS = 10
HEATS_REMEMBERED = 4096
"""Races whose heat-or-not is remembered (least recently asked dropped first)."""


@dataclass(frozen=True, slots=True)
class ClockFace:
    """One player's clock as a reader sees it at ``BlitzView.at``."""

    player: str
    holder: str | None
    car: str
    seconds_left: float
    running: bool
    flagged: bool
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "car": self.car, "seconds_left": self.seconds_left,
                "running": self.running, "flagged": self.flagged, "wins": self.wins}


@dataclass(frozen=True, slots=True)
class HeatLine:
    """A heat driven: how it started and who won it (None: drawn, driven again)."""

    number: int
    start: str
    winner: str | None
    finished_first: str | None
    distances: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"heat": self.number, "start": self.start, "winner": self.winner,
                "finished_first": self.finished_first, "distances": dict(self.distances)}


@dataclass(frozen=True, slots=True)
class BlitzView:
    """A match as anyone may see it (the seed only once it is decided)."""

    id: int
    name: str
    mode: str
    track: str
    laps: int
    league: str | None
    organiser: str | None
    limit_s: float
    clocks: tuple[ClockFace, ClockFace]
    heats: tuple[HeatLine, ...]
    race: int | None
    """The race of the heat being driven."""
    next_heat: int
    winner: str | None
    at: datetime
    version: int
    races: tuple[int, ...]

    @property
    def full(self) -> bool:
        return all(c.holder is not None for c in self.clocks)

    def player_of(self, holder: str | None) -> int | None:
        """0 or 1 when ``holder`` plays in the match."""
        return next((i for i, c in enumerate(self.clocks) if holder and c.holder == holder),
                    None)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "mode": self.mode, "track": self.track,
                "laps": self.laps, "league": self.league, "limit_s": self.limit_s,
                "clocks": [c.to_json() for c in self.clocks],
                "heats": [h.to_json() for h in self.heats], "race": self.race,
                "next_heat": self.next_heat, "winner": self.winner, "at": self.at.isoformat(),
                "version": self.version, "races": list(self.races)}


class BlitzService:
    """FD Blitz matches: create, join, start a heat, answer on the clock, settle the flags."""

    def __init__(self, races: RaceService) -> None:
        self.races = races
        self.store = BlitzStore(races.engine)
        self._lock = threading.RLock()
        self._guard = threading.Lock()
        self._heat_of: OrderedDict[int, int | None] = OrderedDict()

    # --- making a match -------------------------------------------------------------------

    def create(self, players: tuple[str, str], *, track: str, minutes: float, laps: int = 0,
               holders: tuple[str | None, str | None] = (None, None),
               organiser: str | None = None, track_text: str | None = None,
               league: str | None = None, name: str = "", mode: str = "online",
               seed: int | None = None, secret: str | None = None,
               now: datetime | None = None) -> int:
        """A new match; ``holders`` are the accounts playing (None: a free place to join).
        ``secret`` (128 random bits unless given) makes each heat's race seed and rolls the
        black die for who begins heat 3 online; ``seed`` is the match file's (as ``blitz new
        --seed``) and rolls that die for a match at the table."""
        names = (players[0].strip(), players[1].strip())
        match = BlitzMatch(names)  # two different names, refused naming "blitz, players"
        if not 0 < minutes <= MAX_MINUTES:
            raise PlayError(f"Bedenkzeit je Lauf: mehr als 0 bis {MAX_MINUTES} Minuten",
                            f"time per heat: above 0 up to {MAX_MINUTES} minutes", "minutes")
        if not 0 <= laps <= MAX_LAPS:
            raise PlayError(f"Runden: 0 (Regelwerk) bis {MAX_LAPS}",
                            f"laps: 0 (the ruleset's) to {MAX_LAPS}", "laps")
        if track_text is None and track not in builtin_track_names():
            raise PlayError(f"unbekannte Strecke {track!r}", f"unknown track {track!r}",
                            "track")
        if league is not None and league not in {n for n, _ in
                                                 LeagueStore(self.races.engine).leagues()}:
            raise PlayError(f"keine Liga {league!r}", f"no league {league!r}", "league")
        if mode not in ("online", "table"):
            raise PlayError("Art: online oder table", "mode: online or table", "mode")
        if holders[0] is not None and holders[0] == holders[1]:
            raise PlayError("ein Konto spielt nur einen der beiden Plätze",
                            "one account plays only one of the two places", "holder")
        session = BlitzSession(match, minutes * 60,
                               seed if seed is not None else secrets.randbelow(2**31))
        moment = utc(now or self.races.now())
        data = session_to_json(session)
        data["secret"] = secret if secret is not None else secrets.token_hex(16)
        return self.store.create(
            name=name or f"{names[0]} – {names[1]}", organiser=organiser, league=league,
            mode=mode, track=track, track_text=track_text, laps=laps,
            players=((names[0], holders[0]), (names[1], holders[1])),
            session=data, now=moment)

    def join(self, match_id: int, holder: str, place: int | None = None,
             now: datetime | None = None) -> int:
        """``holder`` takes a free place (0, 1, or the first free); returns it."""
        with self._lock:
            stored = self.store.match(match_id)
            if any(h == holder for _, h in stored.players):
                raise PlayError("du spielst in diesem Match schon", "you already play in this "
                                "match", "holder")
            free = [i for i, (_, h) in enumerate(stored.players) if h is None]
            if place is not None:
                free = [i for i in free if i == place]
            if not free:
                raise PlayError("kein freier Platz", "no free place", "place")
            chosen = free[0]
            pair = list(stored.players)
            pair[chosen] = (pair[chosen][0], holder)
            updated = replace(stored, players=(pair[0], pair[1]))
            self._save(stored, updated, now)
            return chosen

    # --- heats ------------------------------------------------------------------------------

    def start_heat(self, match_id: int, by: str | None, now: datetime | None = None) -> int:
        """The next heat: its race is made and started, the first mover's clock runs once the
        race asks him in round 1. ``by`` (an account) must be the organiser or a player."""
        moment = utc(now or self.races.now())
        with self._lock:
            stored = self.store.match(match_id)
            self._may_act(stored, by)
            session = session_from_json(stored.session)
            if stored.mode != "online":
                raise PlayError("ein Match am Tisch fährt hier keine Läufe",
                                "a table match drives no heats here", "mode")
            if session.current is not None:
                raise PlayError("ein Lauf läuft noch", "a heat is still being driven", "heat")
            if any(h is None for _, h in stored.players):
                raise PlayError("beide Plätze müssen besetzt sein",
                                "both places must be taken", "players")
            # heat 3's black die from the secret, so nobody can foretell who begins
            secret = stored.session.get("secret") or session.seed
            dice = random.Random(f"{secret}:{len(session.match.runs)}")
            start = session.match.next_start(dice)  # refuses a decided match
            cars = _car_start(start, session.match.players)
            config = blitz_config(cars, CARS, stored.track, stored.laps)
            seats = tuple(SeatSpec(car, name, holder=holder)
                          for car, (name, holder) in zip(CARS, stored.players, strict=True))
            spec = RaceSpec(track=stored.track, ruleset=BLITZ_RULESET, seats=seats,
                            laps=stored.laps, track_text=stored.track_text,
                            name=f"{stored.name} · FD Blitz {start.run}",
                            organiser=stored.organiser, config=config)
            heat_seed = hashlib.sha256(
                f"{stored.session.get('secret', '')}:{len(session.match.runs)}".encode()
            ).hexdigest()[:32]
            race_id = self.races.create_race(spec, seed=heat_seed, now=moment)
            self.races.start(race_id, now=moment)
            base = self.races.look(race_id, lambda _i, r: start_base(_race(r), CARS))
            data = session_to_json(BlitzSession(session.match, session.limit_s, session.seed,
                                                start, None))
            data.update(race=race_id, base=base, secret=stored.session.get("secret", ""))
            updated = replace(stored, session=data)
            if not self.store.save(updated, stored.version, moment, (race_id, start.run)):
                self.races.close(race_id, now=moment)  # another heat won: this one goes
                raise PlayError("das Match hat sich eben geändert; bitte neu laden",
                                "the match just changed; please reload", "version")
            with self._guard:
                self._heat_of[race_id] = match_id
            self._follow(match_id, moment)
            return race_id

    def apply(self, race_id: int, car: str, decision: Decision | Mapping[str, Any],
              expected_version: int | None, *, holder: str | None = None,
              now: datetime | None = None) -> Applied:
        """A player's answer in a heat, on his clock: refused once his flag has fallen (his
        car is halted instead); after it, the clock follows the question to the next car."""
        moment = utc(now or self.races.now())
        match_id = self.match_of_race(race_id)
        if match_id is None:
            return self.races.apply(race_id, car, decision, expected_version, Actor.PERSON,
                                    holder=holder, now=moment)
        with self._lock:
            self._follow(match_id, moment)
            stored = self.store.match(match_id)
            clock = session_from_json(stored.session).clock
            if clock is not None and car in CARS and clock.time_up(_player(stored, car),
                                                                   moment.timestamp()):
                raise PlayError(
                    f"die Bedenkzeit von {_player(stored, car)} ist abgelaufen: das Auto bleibt "
                    "stehen, wo es steht",
                    f"{_player(stored, car)}'s time is up: the car stays where it stands",
                    "Dresden FD Blitz")
            applied = self.races.apply(race_id, car, decision, expected_version, Actor.PERSON,
                                       holder=holder, now=moment)
            self._follow(match_id, moment)
            return applied

    def run_due(self, now: datetime | None = None) -> list[int]:
        """Settle every running heat's clock at ``now``: halt a car whose flag fell, end a heat
        nobody can drive on. Returns the matches that changed."""
        moment = utc(now or self.races.now())
        changed = []
        for match_id in self.store.running():
            with self._lock:
                if self._follow(match_id, moment):
                    changed.append(match_id)
        return changed

    def enter_heat(self, match_id: int, winner: str, by: str | None,
                   now: datetime | None = None) -> BlitzView:
        """A heat played at the table (issue 29): its winner entered, its start as the rules
        give it (the third heat's die rolled here, from the match seed, as ``blitz start``)."""
        moment = utc(now or self.races.now())
        with self._lock:
            stored = self.store.match(match_id)
            self._may_act(stored, by)
            if stored.mode != "table":
                raise PlayError("die Läufe dieses Matches werden hier gefahren",
                                "this match's heats are driven here", "mode")
            session = session_from_json(stored.session)
            if winner not in session.match.players:
                raise PlayError(f"{winner!r} spielt nicht mit", f"{winner!r} is not playing",
                                "winner")
            dice = random.Random(f"{session.seed}:{len(session.match.runs)}")
            start = session.match.next_start(dice)  # refuses a decided match
            match = session.match.with_run(start, dict.fromkeys(session.match.players, 0),
                                           winner)
            data = session_to_json(BlitzSession(match, session.limit_s, session.seed))
            data["secret"] = stored.session.get("secret", "")
            self._save(stored, replace(stored, session=data), moment)
            return self.view(match_id, moment)

    # --- reading ----------------------------------------------------------------------------

    def view(self, match_id: int, now: datetime | None = None) -> BlitzView:
        """The match now: both clocks as they stand, the heats, the score."""
        moment = utc(now or self.races.now())
        stored = self.store.match(match_id)
        return _view(stored, moment)

    def match_of_race(self, race_id: int) -> int | None:
        """The match whose heat ``race_id`` is. Remembered: a race is a heat from before its
        first answer (``start_heat`` lists it before anyone has its number), so an answer to
        any other race costs no read here after the first."""
        with self._guard:
            if race_id in self._heat_of:
                self._heat_of.move_to_end(race_id)
                return self._heat_of[race_id]
        found = self.store.match_of_race(race_id)
        with self._guard:
            self._heat_of[race_id] = found
            while len(self._heat_of) > HEATS_REMEMBERED:
                self._heat_of.popitem(last=False)
        return found

    def matches(self) -> tuple[BlitzView, ...]:
        moment = self.races.now()
        return tuple(_view(m, moment) for m in self.store.matches())

    def session(self, match_id: int) -> dict[str, Any]:
        """The match as the command line's match file (``rennleitung blitz status`` reads it)."""
        data = dict(self.store.match(match_id).session)
        for kept_here in ("race", "base", "secret", "last_clock", "closed"):
            data.pop(kept_here, None)
        return data

    # --- the clock ---------------------------------------------------------------------------

    def _follow(self, match_id: int, moment: datetime) -> bool:
        """Bring the heat's clock to ``moment`` and the race after it; True if anything
        changed. Repeated until the heat stands still (a halt may end the heat)."""
        changed = False
        for _ in range(8):
            stored = self.store.match(match_id)
            step = self._step(stored, moment)
            if step is None:
                return changed
            if not self.store.save(step, stored.version, moment):
                continue  # another process settled it: look again
            changed = True
        return changed

    def _step(self, stored: StoredMatch, moment: datetime) -> StoredMatch | None:
        """One step of settling; None when nothing is to do."""
        session = session_from_json(stored.session)
        race_id = stored.session.get("race")
        if session.current is None or race_id is None:
            return None
        now_s = moment.timestamp()
        info, seen = self.races.look(int(race_id), lambda i, r: (i, _Seen.of(r)))
        players = session.match.players
        clock = session.clock.at(max(now_s, session.clock.since_s)) if session.clock else None
        over = info.state in (RaceState.FINISHED, RaceState.CLOSED) or seen.finished
        if not over and clock is not None:
            for index, car in enumerate(CARS):
                if clock.flagged[index] and seen.moving(car):
                    self.races.halt(int(race_id), car, now=moment)  # his car stays
                    return self._with(stored, session, clock)
        if not over and seen.over_line and any(seen.moving(c) for c in CARS):
            car = next(c for c in CARS if seen.moving(c))
            self.races.halt(int(race_id), car, now=moment)  # the heat is decided
            return self._with(stored, session, clock)
        if over:
            return self._heat_over(stored, session, int(race_id), info)
        if seen.round < 1 or len(seen.asked) != 1:
            return None if clock == session.clock else self._with(stored, session, clock)
        asked = players[CARS.index(next(iter(seen.asked)))]
        if clock is None:
            return self._with(stored, session,
                              ChessClock(players, session.limit_s).start(asked, now_s))
        runner = clock.on_move(now_s)
        if runner is not None and runner != asked:
            clock = clock.press(runner, now_s)  # he answered: the other's clock runs
        return None if clock == session.clock else self._with(stored, session, clock)

    def _heat_over(self, stored: StoredMatch, session: BlitzSession, race_id: int,
                   info: RaceInfo) -> StoredMatch:
        base = float(stored.session.get("base", 0.0))
        first, distances = self.races.look(
            race_id, lambda _i, r: (first_over_line(_race(r), CARS),
                                    run_distances(_race(r), CARS, base)))
        players = session.match.players
        assert session.current is not None
        by_player = {players[CARS.index(c)]: d for c, d in distances.items()}
        winner = None if first is None else players[CARS.index(first)]
        match = session.match.with_run(session.current, by_player, winner)
        data = session_to_json(BlitzSession(match, session.limit_s, session.seed))
        if session.clock is not None:
            data["last_clock"] = session_to_json(replace(session, current=None))["clock"]
        data["closed"] = info.state is RaceState.CLOSED
        data["secret"] = stored.session.get("secret", "")
        return replace(stored, session=data)

    def _with(self, stored: StoredMatch, session: BlitzSession,
              clock: ChessClock | None) -> StoredMatch:
        data = session_to_json(replace(session, clock=clock))
        data.update(race=stored.session.get("race"), base=stored.session.get("base", 0.0),
                    secret=stored.session.get("secret", ""))
        return replace(stored, session=data)

    def _may_act(self, stored: StoredMatch, by: str | None) -> None:
        if by is None or by == stored.organiser or any(h == by for _, h in stored.players):
            return
        raise PlayError("nur die Spieler oder die Rennleitung", "only the players or the "
                        "organiser", "match")

    def _save(self, stored: StoredMatch, updated: StoredMatch, now: datetime | None) -> None:
        if not self.store.save(updated, stored.version, utc(now or self.races.now())):
            raise PlayError("das Match hat sich eben geändert; bitte neu laden",
                            "the match just changed; please reload", "version")


@dataclass(frozen=True, slots=True)
class _Seen:
    """What settling needs of the heat's race."""

    round: int
    asked: frozenset[str]
    racing: frozenset[str]
    over_line: bool
    finished: bool

    @classmethod
    def of(cls, race: Race | None) -> _Seen:
        if race is None:
            return cls(0, frozenset(), frozenset(), False, False)
        racing = frozenset(c for c in CARS if c not in race.halted
                           and race.cars[c].status is CarStatus.RUNNING)
        over = any(race.cars[c].status is CarStatus.FINISHED for c in CARS)
        return cls(race.round, eng.asked_cars(race), racing, over, race.finished)

    def moving(self, car: str) -> bool:
        """Whether ``car`` may still move (not halted, finished or retired)."""
        return car in self.racing


def _race(race: Race | None) -> Race:
    if race is None:
        raise RennleitungError("der Lauf ist nicht gestartet", "the heat has not started",
                               "heat")
    return race


def _player(stored: StoredMatch, car: str) -> str:
    return stored.players[CARS.index(car)][0]


def _car_start(start: RunStart, players: tuple[str, str]) -> RunStart:
    """The start in car ids (``CARS``) instead of player names."""
    def car(name: str | None) -> str | None:
        return None if name is None else CARS[players.index(name)]

    first = car(start.first_to_move)
    assert first is not None
    return RunStart(start.run, car(start.pole), car(start.second), first)


def _view(stored: StoredMatch, moment: datetime) -> BlitzView:
    session = session_from_json(stored.session)
    match = session.match
    now_s = moment.timestamp()
    clock = session.clock
    last = stored.session.get("last_clock")
    if clock is None and last is not None and session.current is None:
        clock = session_from_json({**stored.session, "clock": last}).clock
    faces = []
    for index, (name, holder) in enumerate(stored.players):
        if clock is None:
            left, running, flagged = session.limit_s, False, False
        else:
            at = clock.at(max(now_s, clock.since_s)) if session.current else clock
            left = at.remaining(name, max(now_s, at.since_s)) if session.current else \
                at.limit_s - at.used_s[index]
            running = session.current is not None and at.running == index
            flagged = at.flagged[index]
        faces.append(ClockFace(name, holder, CARS[index], round(left, 1), running, flagged,
                               match.wins(name)))
    heats = tuple(
        HeatLine(number, _start_text(r.start), r.winner, r.finished_first, r.distances)
        for number, r in enumerate(match.runs, start=1))
    race = stored.session.get("race") if session.current is not None else None
    return BlitzView(stored.id, stored.name, stored.mode, stored.track, stored.laps,
                     stored.league, stored.organiser, session.limit_s, (faces[0], faces[1]),
                     heats, None if race is None else int(race), match.next_run_number(),
                     match.winner, moment, stored.version, stored.heats)


def _start_text(start: RunStart) -> str:
    if start.side_by_side:
        return f"side by side, {start.first_to_move} first"
    return f"{start.pole} on pole"
