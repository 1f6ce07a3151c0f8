"""Leagues in the database: every change is checked by the league engine, then written in one
transaction, so a refused input leaves nothing behind.

The store never computes standings itself: ``load`` rebuilds the engine's ``League`` from the
rows, and the engine does the rest.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from rennleitung.errors import RennleitungError
from rennleitung.league import corrections
from rennleitung.league.blitz_records import BlitzRecord
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import LeagueKind, format_for
from rennleitung.league.grid import GridSlot, QualifyingResult, build_qualifying
from rennleitung.league.history import Correction, history_from_json
from rennleitung.league.karma import KarmaEntry, KarmaReason, karma_ledger
from rennleitung.league.league_codec import league_to_json, replay_league
from rennleitung.league.profiles import league_name, parse_profile
from rennleitung.league.qualifying import QualifyingLap
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
from rennleitung.league.race_result_codec import race_result_to_json
from rennleitung.league.roster import Driver, Roster, check_length
from rennleitung.league.season import League
from rennleitung.league.transfers import Transfer
from rennleitung.names import clean_name, skeleton
from rennleitung.store import league_history
from rennleitung.store.accounts import UserRow
from rennleitung.store.database import WRITE, open_database
from rennleitung.store.league_blitz import LeagueBlitzRow, insert_record, load_records
from rennleitung.store.league_organisers import INVITATION_LIFETIME, InvitationRow, OrganiserRow
from rennleitung.store.models import (
    DriverRow,
    GridSlotRow,
    KarmaLedgerRow,
    LeagueRow,
    NamedDropRow,
    QualifyingLapRow,
    QualifyingRow,
    RaceKarmaRow,
    RaceRow,
    ResultRow,
    TeamRow,
    TransferRow,
)

MAX_SEED = 2**31
"""Draw seeds are stored in a 32-bit integer column."""


class LeagueStore:
    """Leagues, teams, drivers, races, qualifying, drops and the karma ledger."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, url: str) -> LeagueStore:
        """A store on ``url``, schema migrated."""
        return cls(open_database(url))

    # --- writing -------------------------------------------------------------------------

    def create_league(self, name: str, kind: LeagueKind, organiser: str | None = None) -> None:
        """A new, empty season or Open; ``organiser`` (an existing web account) organises it
        from the start, in the same transaction."""
        clean = name.strip()
        if not clean:
            raise RennleitungError("Liganame fehlt", "league name is missing", "league")
        check_length(clean, "league", "Liganame", "league name")
        with self._write() as session:
            if session.scalar(select(LeagueRow.id).where(LeagueRow.name == clean)) is not None:
                raise RennleitungError(
                    f"Liga {clean!r} gibt es schon", f"league {clean!r} already exists", "league"
                )
            league = LeagueRow(name=clean, kind=kind.value)
            session.add(league)
            if organiser is not None:
                session.flush()
                session.add(OrganiserRow(league_id=league.id, user_name=organiser))

    def add_team(self, league: str, team: str) -> None:
        """A new team in the league."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            roster = _load_roster(session, row).with_team(team)
            session.add(TeamRow(league_id=row.id, name=roster.teams[-1]))

    def add_driver(self, league: str, driver: Driver) -> None:
        """A new driver in a team; books his starting karma ("Karmapool")."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_roster(session, row)
            named = replace(driver, name=_driver_name(driver.name, current.drivers))
            roster = current.with_driver(named)
            added = roster.drivers[-1]
            _insert_driver(session, row.id, added)
            ids = _driver_ids(session, row.id)
            start = KarmaEntry(added.name, None, roster.format.karma_start, KarmaReason.START,
                               roster.format.karma_start)
            _insert_ledger(session, row.id, ids, (start,))

    def enter_race(
        self, league: str, result: RaceResult, by: str = ""
    ) -> tuple[KarmaEntry, ...]:
        """Store a race result and book its karma; returns the karma booked. A row naming a
        new team enters that transfer too (``by`` goes into the history)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            updated, booked = enter_race(current, result)
            ids = _driver_ids(session, row.id)
            for transfer in updated.roster.transfers:
                if transfer not in current.roster.transfers:  # named by the race's rows
                    _insert_transfer(session, row.id, ids, transfer)
                    league_history.record(session, row.id, by, "transfer",
                                          f"driver {transfer.driver}", None,
                                          _transfer_data(transfer))
            _insert_race(session, row.id, ids, result)
            _insert_ledger(session, row.id, ids, booked)
            return booked

    def enter_blitz(self, league: str, record: BlitzRecord) -> bool:
        """A finished Blitz match into the league's records; False (nothing written) when a
        record with the same ``ref`` is there already, so a server match is entered once."""
        try:
            with self._write() as session:
                row = _league_row(session, league, lock=True)
                current = _load_league(session, row)
                if record.ref and any(r.ref == record.ref for r in current.blitz):
                    return False
                current.with_blitz(record)
                insert_record(session, row.id, record, len(current.blitz) + 1)
                return True
        except RennleitungError:
            if record.ref and any(r.ref == record.ref for r in self.load(league).blitz):
                return False  # entered by someone else in the same instant (unique ref)
            raise

    def transfer(self, league: str, transfer: Transfer, by: str = "") -> None:
        """``transfer.driver`` drives for ``transfer.team`` from race ``transfer.from_race``
        on; races already entered from then on count for the new team (kept in the history)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            updated = _load_league(session, row).with_transfer(transfer)
            _insert_transfer(session, row.id, _driver_ids(session, row.id), transfer)
            before = updated.roster.team_in_race(transfer.driver, transfer.from_race - 1)
            league_history.record(session, row.id, by, "transfer",
                                  f"driver {transfer.driver}", {"team": before},
                                  _transfer_data(transfer))

    def remove_transfer(self, league: str, driver: str, from_race: int, by: str = "") -> None:
        """Take back a transfer typed by mistake (kept in the history)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            current.without_transfer(driver, from_race)
            gone = next(t for t in current.roster.transfers
                        if t.driver == driver and t.from_race == from_race)
            session.execute(delete(TransferRow).where(
                TransferRow.driver_id == _driver_ids(session, row.id)[driver],
                TransferRow.from_race == from_race))
            league_history.record(session, row.id, by, "remove-transfer",
                                  f"driver {driver}", _transfer_data(gone), None)

    def delete_race(self, league: str, race: int, by: str = "") -> None:
        """Take back the last race entered (a typing error): its results and karma go too.

        Only the last race can go, because the karma of every later race builds on it; an
        earlier race is corrected in place with ``replace_race``.
        """
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            held = current.held_races()
            if not held or race != held[-1]:
                last = held[-1] if held else "-"
                raise RennleitungError(
                    f"nur das zuletzt eingetragene Rennen kann gelöscht werden ({last}); "
                    "ein früheres Rennen wird mit replace-race ersetzt",
                    f"only the last race entered can be deleted ({last}); an earlier race is "
                    "corrected with replace-race",
                    "race",
                )
            old = current.race(race)
            assert old is not None
            session.execute(
                delete(KarmaLedgerRow).where(
                    KarmaLedgerRow.league_id == row.id, KarmaLedgerRow.race_number == race
                )
            )
            _delete_race_rows(session, row.id, race)
            league_history.record(session, row.id, by, "delete-race", f"race {race}",
                                  race_result_to_json(old), None)

    # --- corrections (each one transaction, each kept in the league's history) -----------

    def replace_race(
        self, league: str, result: RaceResult, by: str = ""
    ) -> tuple[KarmaEntry, ...]:
        """Replace race ``result.race`` in place; the karma of it and every later race is
        booked again. Returns the karma movements of the replaced race."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            old = current.race(result.race)
            _updated, ledger = corrections.replace_race(current, result)
            assert old is not None
            _delete_race_rows(session, row.id, result.race)
            ids = _driver_ids(session, row.id)
            _insert_race(session, row.id, ids, result)
            _rebook(session, row.id, ids, ledger, result.race)
            league_history.record(session, row.id, by, "replace-race", f"race {result.race}",
                                  race_result_to_json(old), race_result_to_json(result))
            return tuple(e for e in ledger if e.race == result.race)

    def delete_qualifying(self, league: str, race: int, by: str = "") -> None:
        """Delete the qualifying of a race (laps, grid, draw); Open qualifying points go too."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            updated = corrections.remove_qualifying(current, race)
            before = _qualifying_data(session, row.id, current, race)
            _delete_qualifying_rows(session, row.id, race)
            _rebook(session, row.id, _driver_ids(session, row.id), karma_ledger(updated), race)
            league_history.record(session, row.id, by, "delete-qualifying",
                                  f"qualifying {race}", before, None)

    def replace_qualifying(
        self,
        league: str,
        race: int,
        laps: Sequence[QualifyingLap],
        starters: Sequence[str],
        seed: int,
        rolled_weather: Sequence[Weather] = (),
        race_result: RaceResult | None = None,
        by: str = "",
    ) -> QualifyingResult:
        """Replace (or add) the qualifying of a race. If the race was entered from the old
        grid and the new one differs, ``race_result`` (the corrected race) replaces it in the
        same transaction."""
        _check_seed(seed)
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            qualifying = build_qualifying(race, laps, starters, current.roster,
                                          random.Random(seed), rolled_weather)
            updated, ledger = corrections.replace_qualifying(current, qualifying, race_result)
            before = (_qualifying_data(session, row.id, current, race)
                      if current.qualifying_of(race) is not None else None)
            old_race = current.race(race)
            _delete_qualifying_rows(session, row.id, race)
            ids = _driver_ids(session, row.id)
            _insert_qualifying(session, row.id, ids, qualifying, seed)
            if race_result is not None:
                _delete_race_rows(session, row.id, race)
                _insert_race(session, row.id, ids, race_result)
            _rebook(session, row.id, ids, ledger, race)
            after = _qualifying_data(session, row.id, updated, race)
            if race_result is not None and old_race is not None:
                before = {"qualifying": before, "race": race_result_to_json(old_race)}
                after = {"qualifying": after, "race": race_result_to_json(race_result)}
            league_history.record(session, row.id, by, "replace-qualifying",
                                  f"qualifying {race}", before, after)
            return qualifying

    def rename_race(self, league: str, race: int, track: str, by: str = "") -> None:
        """Give an entered race another name (its track text); nothing else changes."""
        clean = track.strip()
        check_length(clean, "track", "Streckenname", "track name")
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            race_row = session.scalar(select(RaceRow).where(RaceRow.league_id == row.id,
                                                            RaceRow.number == race))
            if race_row is None:
                raise RennleitungError(f"Rennen {race} ist nicht eingetragen",
                                       f"race {race} has not been entered", "race")
            before = race_row.track
            race_row.track = clean
            league_history.record(session, row.id, by, "rename-race", f"race {race}",
                                  {"track": before}, {"track": clean})

    def rename_league(self, league: str, new: str, by: str = "") -> None:
        """Give a league a new name; its history stays with it."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            clean = corrections.rename_league(_load_league(session, row), new).name
            taken = session.scalar(select(LeagueRow.id).where(LeagueRow.name == clean))
            if taken is not None and taken != row.id:
                raise RennleitungError(
                    f"Liga {clean!r} gibt es schon", f"league {clean!r} already exists",
                    "league",
                )
            row.name = clean
            league_history.record(session, row.id, by, "rename-league", f"league {clean}",
                                  {"name": league}, {"name": clean})

    def rename_team(self, league: str, old: str, new: str, by: str = "") -> None:
        """Give a team a new name."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            updated = corrections.rename_team(_load_league(session, row), old, new)
            clean = next(t for t in updated.roster.teams if t not in _load_roster(
                session, row).teams)
            team = session.scalar(
                select(TeamRow).where(TeamRow.league_id == row.id, TeamRow.name == old)
            )
            assert team is not None
            team.name = clean
            league_history.record(session, row.id, by, "rename-team", f"team {clean}",
                                  {"name": old}, {"name": clean})

    def rename_driver(self, league: str, old: str, new: str, by: str = "") -> None:
        """Give a driver a new name everywhere (results, grids, lap charts, karma notes)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            others = tuple(d for d in current.roster.drivers if d.name != old)
            updated = corrections.rename_driver(current, old, _driver_name(new, others))
            clean = next(d.name for d in updated.roster.drivers
                         if d.name not in {x.name for x in current.roster.drivers})
            driver = session.scalar(
                select(DriverRow).where(DriverRow.league_id == row.id, DriverRow.name == old)
            )
            assert driver is not None
            driver.name = clean
            session.flush()
            for result in updated.races:
                race_row = session.scalar(select(RaceRow).where(
                    RaceRow.league_id == row.id, RaceRow.number == result.race))
                assert race_row is not None
                race_row.rounds = json.dumps([[r.lap, list(r.order)] for r in result.rounds])
                race_row.did_not_start = json.dumps(list(result.did_not_start))
            for qualifying in updated.qualifying:
                quali_row = session.scalar(select(QualifyingRow).where(
                    QualifyingRow.league_id == row.id,
                    QualifyingRow.race_number == qualifying.race))
                assert quali_row is not None
                quali_row.starters = json.dumps(list(qualifying.starters))
            _rebook(session, row.id, _driver_ids(session, row.id), karma_ledger(updated), 1)
            league_history.record(session, row.id, by, "rename-driver", f"driver {clean}",
                                  {"name": old}, {"name": clean})

    def remove_driver(self, league: str, driver: str, by: str = "") -> None:
        """Take a driver off the roster who has nothing entered yet (with his start karma)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            corrections.remove_driver(current, driver)
            gone = current.roster.driver(driver)
            driver_id = _driver_ids(session, row.id)[driver]
            session.execute(delete(KarmaLedgerRow).where(KarmaLedgerRow.driver_id == driver_id))
            session.execute(delete(NamedDropRow).where(NamedDropRow.driver_id == driver_id))
            session.execute(delete(TransferRow).where(TransferRow.driver_id == driver_id))
            session.execute(delete(DriverRow).where(DriverRow.id == driver_id))
            league_history.record(
                session, row.id, by, "remove-driver", f"driver {driver}",
                {"name": gone.name, "team": gone.team, "profile": league_name(gone.profile),
                 "city": gone.city},
                None,
            )

    def remove_team(self, league: str, team: str, by: str = "") -> None:
        """Take a team without drivers off the roster."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            corrections.remove_team(_load_league(session, row), team)
            session.execute(delete(TeamRow).where(TeamRow.league_id == row.id,
                                                  TeamRow.name == team))
            league_history.record(session, row.id, by, "remove-team", f"team {team}",
                                  {"name": team}, None)

    def delete_league(self, league: str) -> None:
        """Delete a whole league with everything in it (export it first to keep a copy)."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            league_id = row.id
            for qualifying in session.scalars(
                select(QualifyingRow.race_number).where(QualifyingRow.league_id == league_id)
            ).all():
                _delete_qualifying_rows(session, league_id, qualifying)
            for number in session.scalars(
                select(RaceRow.number).where(RaceRow.league_id == league_id)
            ).all():
                _delete_race_rows(session, league_id, number)
            driver_ids = select(DriverRow.id).where(DriverRow.league_id == league_id)
            session.execute(delete(NamedDropRow).where(NamedDropRow.driver_id.in_(driver_ids)))
            for table in (KarmaLedgerRow, league_history.CorrectionRow, OrganiserRow, InvitationRow,
                          LeagueBlitzRow,
                          TransferRow, DriverRow,
                          TeamRow):
                session.execute(delete(table).where(table.league_id == league_id))
            session.execute(delete(LeagueRow).where(LeagueRow.id == league_id))

    def add_organiser(self, league: str, user_name: str) -> str:
        """Let the existing web account ``user_name`` enter and correct this league's races;
        returns the account's name as it is spelt."""
        clean = user_name.strip()
        if not clean:
            raise RennleitungError("Kontoname fehlt", "account name is missing", "organiser")
        check_length(clean, "organiser", "Kontoname", "account name")
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            account = session.scalar(select(UserRow.name).where(
                func.lower(UserRow.name) == clean.lower()))
            if account is None:
                raise RennleitungError(
                    f"kein Konto {clean!r} auf dem Webserver; wer noch keins hat, bekommt einen "
                    "Einladungslink (league invite-organiser)",
                    f"no web account {clean!r}; someone without one gets an invitation link "
                    "(league invite-organiser)", "organiser")
            if account not in _organisers(session, row.id):
                session.add(OrganiserRow(league_id=row.id, user_name=account))
            return account

    def remove_organiser(self, league: str, user_name: str) -> None:
        """The account ``user_name`` no longer organises this league."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            gone = session.execute(delete(OrganiserRow).where(
                OrganiserRow.league_id == row.id,
                func.lower(OrganiserRow.user_name) == user_name.strip().lower()))
            if not getattr(gone, "rowcount", 0):
                raise RennleitungError(
                    f"{user_name.strip()[:60]!r} organisiert {league!r} nicht",
                    f"{user_name.strip()[:60]!r} does not organise {league!r}", "organiser")

    def invite_organiser(self, league: str, lifetime: float = INVITATION_LIFETIME) -> str:
        """A new one-time invitation to organise this league: its token (only its hash is
        kept)."""
        token = secrets.token_urlsafe(32)
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            session.add(InvitationRow(league_id=row.id, token_hash=_token_hash(token),
                                      expires_at=time.time() + lifetime))
        return token

    def accept_invitation(self, token: str, user_name: str) -> str:
        """The web account ``user_name`` takes up the invitation ``token`` and organises its
        league from now on; returns the league's name. An invitation works once."""
        with self._write() as session:
            invitation = session.scalar(select(InvitationRow).where(
                InvitationRow.token_hash == _token_hash(token)).with_for_update())
            if (invitation is None or invitation.used_by is not None
                    or invitation.expires_at < time.time()):
                raise RennleitungError(
                    "diese Einladung gilt nicht (mehr)",
                    "this invitation is not valid (any more)", "invitation")
            invitation.used_by = user_name
            league = session.get(LeagueRow, invitation.league_id)
            assert league is not None  # the invitation goes with its league
            if user_name not in _organisers(session, league.id):
                session.add(OrganiserRow(league_id=league.id, user_name=user_name))
            return league.name

    def organised_by(self, user_name: str) -> int:
        """How many leagues the account organises."""
        with self._sessions() as session:
            count = session.scalar(select(func.count()).select_from(OrganiserRow).where(
                OrganiserRow.user_name == user_name))
            return int(count or 0)

    def organisers(self, league: str) -> tuple[str, ...]:
        """The accounts that organise this league on the web."""
        with self._sessions() as session:
            return _organisers(session, _league_row(session, league).id)

    def history(self, league: str) -> tuple[Correction, ...]:
        """Every correction of the league, oldest first."""
        with self._sessions() as session:
            return league_history.history(session, _league_row(session, league).id)

    def enter_qualifying(
        self,
        league: str,
        race: int,
        laps: Sequence[QualifyingLap],
        starters: Sequence[str],
        seed: int,
        rolled_weather: Sequence[Weather] = (),
    ) -> QualifyingResult:
        """Rank the laps, draw the rest with the black die seeded by ``seed``, store the grid
        (and the weather of each run, if given)."""
        _check_seed(seed)
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            current = _load_league(session, row)
            qualifying = build_qualifying(race, laps, starters, current.roster,
                                          random.Random(seed), rolled_weather)
            current.with_qualifying(qualifying)  # refuses a second or a late qualifying
            _insert_qualifying(session, row.id, _driver_ids(session, row.id), qualifying, seed)
            return qualifying

    def name_drops(self, league: str, driver: str, races: Sequence[int]) -> None:
        """Replace a driver's own choice of drop results."""
        with self._write() as session:
            row = _league_row(session, league, lock=True)
            _load_league(session, row).with_named_drops(driver, tuple(races))
            _replace_drops(session, _driver_ids(session, row.id)[driver], races)

    def import_league(self, data: Mapping[str, Any], name: str | None = None) -> League:
        """A whole league from an export (``league_codec``), replayed and checked by the
        engine, then written in one transaction; ``name`` renames it."""
        league, seeds = replay_league(data, name)
        corrections = history_from_json(data.get("history", []))
        check_length(league.name, "league", "Liganame", "league name")
        with self._write() as session:
            if session.scalar(select(LeagueRow.id).where(LeagueRow.name == league.name)):
                raise RennleitungError(
                    f"Liga {league.name!r} gibt es schon", f"league {league.name!r} already exists",
                    "league",
                )
            row = LeagueRow(name=league.name, kind=league.format.kind.value)
            session.add(row)
            session.flush()
            for team in league.roster.teams:
                session.add(TeamRow(league_id=row.id, name=team))
            session.flush()
            for driver in league.roster.drivers:
                _insert_driver(session, row.id, driver)
            ids = _driver_ids(session, row.id)
            for transfer in league.roster.transfers:
                _insert_transfer(session, row.id, ids, transfer)
            for qualifying in league.qualifying:
                _insert_qualifying(session, row.id, ids, qualifying, seeds[qualifying.race])
            for result in league.races:
                _insert_race(session, row.id, ids, result)
            _insert_ledger(session, row.id, ids, karma_ledger(league))
            for driver_name, races in league.named_drops.items():
                _replace_drops(session, ids[driver_name], races)
            for seq, record in enumerate(league.blitz, start=1):
                insert_record(session, row.id, record, seq)
            league_history.restore(session, row.id, corrections)
        return league

    def export_league(self, league: str) -> dict[str, Any]:
        """The league as a JSON-ready dict that ``import_league`` reads back."""
        with self._sessions() as session:
            row = _league_row(session, league)
            loaded = _load_league(session, row)
            seeds = {
                race: seed for race, seed in session.execute(
                    select(QualifyingRow.race_number, QualifyingRow.seed)
                    .where(QualifyingRow.league_id == row.id)
                )
            }
            corrections = league_history.history(session, row.id)
        return {**league_to_json(loaded, seeds),
                "history": [c.to_json() for c in corrections]}

    # --- reading -------------------------------------------------------------------------

    def leagues(self) -> list[tuple[str, LeagueKind]]:
        """Every league with its kind, by name."""
        with self._sessions() as session:
            rows = session.execute(select(LeagueRow.name, LeagueRow.kind).order_by(LeagueRow.name))
            return [(name, LeagueKind(kind)) for name, kind in rows]

    def load(self, league: str) -> League:
        """The league with everything entered, ready for the engine's standings."""
        with self._sessions() as session:
            return _load_league(session, _league_row(session, league))

    def qualifying_seed(self, league: str, race: int) -> int | None:
        """The dice seed of a race's black-die draw, to re-run and check it."""
        with self._sessions() as session:
            row = _league_row(session, league)
            return session.scalar(
                select(QualifyingRow.seed).where(QualifyingRow.league_id == row.id,
                                                 QualifyingRow.race_number == race)
            )

    def karma_ledger(self, league: str) -> tuple[KarmaEntry, ...]:
        """The karma ledger as booked, in booking order."""
        with self._sessions() as session:
            row = _league_row(session, league)
            names = {v: k for k, v in _driver_ids(session, row.id).items()}
            rows = session.scalars(
                select(KarmaLedgerRow).where(KarmaLedgerRow.league_id == row.id)
                .order_by(KarmaLedgerRow.seq)
            )
            return tuple(
                KarmaEntry(names[r.driver_id], r.race_number, r.amount, KarmaReason(r.reason),
                           r.balance, r.note)
                for r in rows
            )

    def _write(self) -> _WriteTransaction:
        return _WriteTransaction(self._sessions)


class _WriteTransaction:
    """One transaction: commit on success, roll back on any error; a refusal by the database
    is turned into a bilingual message."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._session = sessions()

    def __enter__(self) -> Session:
        self._session.begin()
        self._session.connection(execution_options={WRITE: True})
        return self._session

    def __exit__(self, kind: object, error: object, _trace: object) -> None:
        try:
            if error is None:
                self._session.commit()
                return
            self._session.rollback()
            if isinstance(error, DBAPIError):
                raise _refused(error) from error
        except DBAPIError as refusal:
            self._session.rollback()
            raise _refused(refusal) from refusal
        finally:
            self._session.close()


def _refused(error: DBAPIError) -> RennleitungError:
    """A refusal by the database itself (a constraint, a lock held by someone entering at the
    same time): the whole change is rolled back."""
    reason = str(error.orig).splitlines()[0] if error.orig is not None else type(error).__name__
    return RennleitungError(
        f"die Datenbank hat die Änderung abgelehnt ({reason}); nichts gespeichert",
        f"the database refused the change ({reason}); nothing was stored",
        "database",
    )


def _driver_name(name: str, others: Sequence[Driver]) -> str:
    """A new driver's name in NFC without invisible characters, refused when it looks like
    another driver's of the league (``names.py``). Checked where a name comes in, not when a
    stored league is read back, so a league stored before keeps loading."""
    clean = clean_name(name, "driver")
    look = skeleton(clean)
    twin = next((d.name for d in others if d.name != clean and skeleton(d.name) == look), None)
    if twin is not None:
        raise RennleitungError(
            f"der Fahrername {clean!r} sieht aus wie {twin!r}, den es schon gibt",
            f"the driver name {clean!r} looks like {twin!r}, which is taken", "driver")
    return clean


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _organisers(session: Session, league_id: int) -> tuple[str, ...]:
    return tuple(session.scalars(
        select(OrganiserRow.user_name).where(OrganiserRow.league_id == league_id)
        .order_by(OrganiserRow.user_name)
    ))


def _check_seed(seed: int) -> None:
    if not 0 <= seed < MAX_SEED:
        raise RennleitungError(
            f"Seed muss zwischen 0 und {MAX_SEED - 1} liegen",
            f"seed must be between 0 and {MAX_SEED - 1}",
            "seed",
        )


def _delete_race_rows(session: Session, league_id: int, race: int) -> None:
    """A race's rows (results and in-race karma with it); the ledger is rebooked by caller."""
    race_id = select(RaceRow.id).where(RaceRow.league_id == league_id,
                                       RaceRow.number == race).scalar_subquery()
    result_ids = select(ResultRow.id).where(ResultRow.race_id == race_id)
    session.execute(delete(RaceKarmaRow).where(RaceKarmaRow.result_id.in_(result_ids)))
    session.execute(delete(ResultRow).where(ResultRow.race_id == race_id))
    session.execute(delete(RaceRow).where(RaceRow.league_id == league_id, RaceRow.number == race))


def _delete_qualifying_rows(session: Session, league_id: int, race: int) -> None:
    quali_id = select(QualifyingRow.id).where(
        QualifyingRow.league_id == league_id, QualifyingRow.race_number == race
    ).scalar_subquery()
    session.execute(delete(QualifyingLapRow).where(QualifyingLapRow.qualifying_id == quali_id))
    session.execute(delete(GridSlotRow).where(GridSlotRow.qualifying_id == quali_id))
    session.execute(delete(QualifyingRow).where(QualifyingRow.league_id == league_id,
                                                QualifyingRow.race_number == race))


def _rebook(
    session: Session, league_id: int, ids: dict[str, int], ledger: Sequence[KarmaEntry],
    from_race: int,
) -> None:
    """The ledger from race ``from_race`` on, booked again from the corrected league: its old
    movements go, the recomputed ones are appended in race order."""
    session.execute(delete(KarmaLedgerRow).where(
        KarmaLedgerRow.league_id == league_id, KarmaLedgerRow.race_number >= from_race
    ))
    session.flush()
    later = [e for e in ledger if e.race is not None and e.race >= from_race]
    _insert_ledger(session, league_id, ids, later)


def _qualifying_data(
    session: Session, league_id: int, league: League, race: int
) -> dict[str, Any]:
    """One qualifying in the shape of the league export (with its seed), for the history."""
    seed = session.scalar(select(QualifyingRow.seed).where(
        QualifyingRow.league_id == league_id, QualifyingRow.race_number == race))
    qualifying = league.qualifying_of(race)
    assert qualifying is not None
    exported = league_to_json(replace(league, qualifying=(qualifying,), races=()),
                              {race: seed if seed is not None else 0})
    data: dict[str, Any] = exported["qualifying"][0]
    return data


def _insert_driver(session: Session, league_id: int, driver: Driver) -> int:
    """A driver row (its team must exist); returns its id."""
    team_id = session.scalar(
        select(TeamRow.id).where(TeamRow.league_id == league_id, TeamRow.name == driver.team)
    )
    assert team_id is not None  # the roster checked the team
    row = DriverRow(league_id=league_id, team_id=team_id, name=driver.name,
                    profile=league_name(driver.profile), city=driver.city)
    session.add(row)
    session.flush()
    return row.id


def _transfer_data(transfer: Transfer) -> dict[str, Any]:
    return {"driver": transfer.driver, "team": transfer.team, "from_race": transfer.from_race}


def _insert_transfer(
    session: Session, league_id: int, ids: dict[str, int], transfer: Transfer
) -> None:
    team_id = session.scalar(
        select(TeamRow.id).where(TeamRow.league_id == league_id, TeamRow.name == transfer.team)
    )
    assert team_id is not None  # the roster checked the team
    session.add(TransferRow(league_id=league_id, driver_id=ids[transfer.driver],
                            team_id=team_id, from_race=transfer.from_race))
    session.flush()


def _insert_race(session: Session, league_id: int, ids: dict[str, int], result: RaceResult) -> None:
    """A race with its results and in-race karma as entered."""
    race_row = RaceRow(
        league_id=league_id, number=result.race, laps=result.laps, track=result.track,
        source=result.source.value,
        rounds=json.dumps([[r.lap, list(r.order)] for r in result.rounds]),
        did_not_start=json.dumps(list(result.did_not_start)),
    )
    session.add(race_row)
    session.flush()
    for entry in result.drivers:
        result_row = ResultRow(
            race_id=race_row.id, driver_id=ids[entry.driver], grid=entry.grid,
            position=entry.position, laps_completed=entry.laps_completed,
            status=entry.status.value,
            driven_by_id=ids[entry.driven_by] if entry.driven_by else None,
            laps_most_led=entry.laps_most_led,
        )
        session.add(result_row)
        session.flush()
        for seq, event in enumerate(entry.karma, start=1):
            session.add(RaceKarmaRow(result_id=result_row.id, seq=seq, kind=event.kind.value,
                                     amount=event.amount, note=event.note))


def _insert_qualifying(
    session: Session, league_id: int, ids: dict[str, int], qualifying: QualifyingResult, seed: int
) -> None:
    """A qualifying with its laps, grid slots, weather, starters and draw seed."""
    quali_row = QualifyingRow(
        league_id=league_id, race_number=qualifying.race, seed=seed,
        weather=",".join(w.value for w in qualifying.weather),
        starters=json.dumps(list(qualifying.starters)),
    )
    session.add(quali_row)
    session.flush()
    for lap in qualifying.laps:
        session.add(QualifyingLapRow(
            qualifying_id=quali_row.id, driver_id=ids[lap.driver], run=lap.run,
            rolls=lap.rolls, penalty_points=lap.penalty_points, errors=lap.errors,
            lap_time_ms=lap.lap_time_ms,
            driven_by_id=ids[lap.driven_by] if lap.driven_by else None,
        ))
    for slot in qualifying.grid:
        session.add(GridSlotRow(
            qualifying_id=quali_row.id, position=slot.position, driver_id=ids[slot.driver],
            score=slot.score, lap_time_ms=slot.lap_time_ms,
            qualifying_points=slot.qualifying_points,
            draw_rolls=",".join(str(r) for r in slot.draw_rolls),
        ))


def _insert_ledger(
    session: Session, league_id: int, ids: dict[str, int], entries: Sequence[KarmaEntry]
) -> None:
    """Karma movements appended to the league's ledger, in order."""
    seq = _next_seq(session, league_id)
    for offset, entry in enumerate(entries):
        session.add(KarmaLedgerRow(
            league_id=league_id, seq=seq + offset, driver_id=ids[entry.driver],
            race_number=entry.race, amount=entry.amount, reason=entry.reason.value,
            balance=entry.balance, note=entry.note,
        ))
    session.flush()


def _replace_drops(session: Session, driver_id: int, races: Sequence[int]) -> None:
    session.execute(delete(NamedDropRow).where(NamedDropRow.driver_id == driver_id))
    for race in races:
        session.add(NamedDropRow(driver_id=driver_id, race_number=race))


def _league_row(session: Session, name: str, lock: bool = False) -> LeagueRow:
    query = select(LeagueRow).where(LeagueRow.name == name)
    if lock:
        query = query.with_for_update()
    row = session.scalar(query)
    if row is None:
        known = ", ".join(session.scalars(select(LeagueRow.name).order_by(LeagueRow.name)))
        raise RennleitungError(
            f"unbekannte Liga {name!r} (bekannt: {known or '-'})",
            f"unknown league {name!r} (known: {known or '-'})",
            "league",
        )
    return row


def _driver_ids(session: Session, league_id: int) -> dict[str, int]:
    rows = session.execute(
        select(DriverRow.name, DriverRow.id).where(DriverRow.league_id == league_id)
    )
    return {name: driver_id for name, driver_id in rows}


def _next_seq(session: Session, league_id: int) -> int:
    last = session.scalar(
        select(func.max(KarmaLedgerRow.seq)).where(KarmaLedgerRow.league_id == league_id)
    )
    return (last or 0) + 1


def _load_roster(session: Session, row: LeagueRow) -> Roster:
    teams = session.execute(
        select(TeamRow.id, TeamRow.name).where(TeamRow.league_id == row.id).order_by(TeamRow.id)
    ).all()
    team_names = {team_id: name for team_id, name in teams}
    drivers = session.scalars(
        select(DriverRow).where(DriverRow.league_id == row.id).order_by(DriverRow.id)
    )
    driver_rows = drivers.all()
    driver_names = {d.id: d.name for d in driver_rows}
    transfers = session.scalars(
        select(TransferRow).where(TransferRow.league_id == row.id)
        .order_by(TransferRow.from_race, TransferRow.id)
    )
    return Roster(
        format_for(LeagueKind(row.kind)),
        tuple(name for _, name in teams),
        tuple(
            Driver(d.name, team_names[d.team_id], parse_profile(d.profile), d.city)
            for d in driver_rows
        ),
        tuple(Transfer(driver_names[t.driver_id], team_names[t.team_id], t.from_race)
              for t in transfers),
    )


def _load_league(session: Session, row: LeagueRow) -> League:
    roster = _load_roster(session, row)
    names = {v: k for k, v in _driver_ids(session, row.id).items()}
    return League(
        row.name,
        roster,
        _load_races(session, row.id, names),
        _load_qualifying(session, row.id, names),
        _load_drops(session, row.id, names),
        load_records(session, row.id),
    )


def _load_races(session: Session, league_id: int, names: dict[int, str]) -> tuple[RaceResult, ...]:
    races = session.scalars(
        select(RaceRow).where(RaceRow.league_id == league_id).order_by(RaceRow.number)
    ).all()
    results = session.scalars(
        select(ResultRow).join(RaceRow, ResultRow.race_id == RaceRow.id)
        .where(RaceRow.league_id == league_id).order_by(ResultRow.race_id, ResultRow.position)
    ).all()
    karma_rows = session.scalars(
        select(RaceKarmaRow).join(ResultRow, RaceKarmaRow.result_id == ResultRow.id)
        .join(RaceRow, ResultRow.race_id == RaceRow.id)
        .where(RaceRow.league_id == league_id).order_by(RaceKarmaRow.result_id, RaceKarmaRow.seq)
    ).all()
    karma: dict[int, list[InRaceKarma]] = defaultdict(list)
    for k in karma_rows:
        karma[k.result_id].append(InRaceKarma(InRaceKarmaKind(k.kind), k.amount, k.note))
    by_race: dict[int, list[DriverRaceResult]] = defaultdict(list)
    for r in results:
        by_race[r.race_id].append(
            DriverRaceResult(
                names[r.driver_id], r.grid, r.position, r.laps_completed,
                FinishStatus(r.status),
                names[r.driven_by_id] if r.driven_by_id is not None else None,
                r.laps_most_led, tuple(karma[r.id]),
            )
        )
    return tuple(
        RaceResult(race.number, tuple(by_race[race.id]), race.laps, race.track,
                   RaceSource(race.source),
                   tuple(RoundOrder(lap, tuple(order)) for lap, order in json.loads(race.rounds)),
                   tuple(json.loads(race.did_not_start)))
        for race in races
    )


def _load_qualifying(
    session: Session, league_id: int, names: dict[int, str]
) -> tuple[QualifyingResult, ...]:
    qualifyings = session.scalars(
        select(QualifyingRow).where(QualifyingRow.league_id == league_id)
        .order_by(QualifyingRow.race_number)
    ).all()
    laps = session.scalars(
        select(QualifyingLapRow).join(QualifyingRow)
        .where(QualifyingRow.league_id == league_id).order_by(QualifyingLapRow.id)
    ).all()
    slots = session.scalars(
        select(GridSlotRow).join(QualifyingRow)
        .where(QualifyingRow.league_id == league_id)
        .order_by(GridSlotRow.qualifying_id, GridSlotRow.position)
    ).all()
    laps_of: dict[int, list[QualifyingLap]] = defaultdict(list)
    for lap in laps:
        laps_of[lap.qualifying_id].append(
            QualifyingLap(
                names[lap.driver_id], lap.rolls, lap.penalty_points, lap.lap_time_ms,
                lap.errors, lap.run,
                names[lap.driven_by_id] if lap.driven_by_id is not None else None,
            )
        )
    slots_of: dict[int, list[GridSlot]] = defaultdict(list)
    for slot in slots:
        rolls = tuple(int(r) for r in slot.draw_rolls.split(",") if r)
        slots_of[slot.qualifying_id].append(
            GridSlot(slot.position, names[slot.driver_id], slot.score, slot.lap_time_ms,
                     slot.qualifying_points, rolls)
        )
    return tuple(
        QualifyingResult(q.race_number, tuple(laps_of[q.id]), tuple(slots_of[q.id]),
                         tuple(Weather(w) for w in q.weather.split(",") if w),
                         tuple(json.loads(q.starters)))
        for q in qualifyings
    )


def _load_drops(
    session: Session, league_id: int, names: dict[int, str]
) -> dict[str, tuple[int, ...]]:
    rows = session.execute(
        select(NamedDropRow.driver_id, NamedDropRow.race_number)
        .join(DriverRow, NamedDropRow.driver_id == DriverRow.id)
        .where(DriverRow.league_id == league_id).order_by(NamedDropRow.race_number)
    )
    drops: dict[str, list[int]] = defaultdict(list)
    for driver_id, race in rows:
        drops[names[driver_id]].append(race)
    return {name: tuple(races) for name, races in drops.items()}
