"""Races played here for a league: made from the league, entered into it when they finish.

A league race played on the server starts as ``league run-race`` starts one
(``league.race_run.race_config``: the league's drivers as the entries, their karma balance, the
qualifying's grid and weather, the league's ruleset), except that each driver's seat may be a
person's instead of a bot's. When the race is over its result is read exactly as that command
reads it (``league.race_run.race_result``) and entered through the same ``LeagueStore`` call, so
the standings, the karma bookings and the checks are the same whichever way the race was run.

Entering happens after the race's last transaction: ``enter_finished`` looks for linked races
that are over and not yet entered (``store/play_league.py``), so a race finished by any process
(the web, the mail gateway, a deadline run) is entered by the next server tick, and again after
a crash until it is marked.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from rennleitung.errors import RennleitungError
from rennleitung.league.race_run import race_config, race_result
from rennleitung.play.model import RaceSpec, RaceState, SeatKind, SeatSpec
from rennleitung.play.service import RaceService, utc
from rennleitung.store.league_store import LeagueStore
from rennleitung.store.play_league import mark_entered, mark_refused, to_enter

log = logging.getLogger(__name__)

OVER = (RaceState.FINISHED.value, RaceState.CLOSED.value)


def league_race_spec(
    leagues: LeagueStore,
    league: str,
    number: int,
    track: str,
    *,
    people: Collection[str] = (),
    bot: str = "strong",
    laps: int = 0,
    decision_seconds: int | None = None,
    organiser: str | None = None,
    table: bool = False,
) -> RaceSpec:
    """Race ``number`` of ``league`` on ``track``: one seat per driver the league starts, in
    the configuration's order; the drivers named in ``people`` get a free person's seat, the
    others ``bot``; at the ``table`` (issue 29) every seat is a person's, the organiser enters
    for whoever holds none, and the dice are the table's. Refused (naming the field) when the
    race is entered already or a name in ``people`` does not start."""
    loaded = leagues.load(league)
    config = race_config(loaded, number, track, laps=laps)
    starters = {e.id for e in config.entries}
    unknown = [name for name in people if name not in starters]
    if unknown:
        raise RennleitungError(
            f"kein Starter dieses Rennens: {', '.join(unknown)}",
            f"not a starter of this race: {', '.join(unknown)}",
            "people",
        )
    seats = tuple(
        SeatSpec(
            car=entry.id,
            driver=entry.name,
            kind=SeatKind.PERSON if entry.id in people or table else SeatKind.BOT,
            bot=bot,
            team=entry.team,
            profile=entry.profile,
        )
        for entry in config.entries
    )
    return RaceSpec(
        track=track,
        ruleset=config.ruleset,
        seats=seats,
        laps=laps,
        decision_seconds=decision_seconds,
        name=f"{loaded.name}: {number}",
        organiser=organiser,
        max_rounds=config.max_rounds,
        league=loaded.name,
        league_race=number,
        config=config,
        table=table,
    )


@dataclass(frozen=True, slots=True)
class Entered:
    """What ``enter_finished`` did with one race: entered, or the league's refusal."""

    race_id: int
    league: str
    number: int
    refusal: str = ""


def enter_finished(
    races: RaceService, leagues: LeagueStore, now: datetime | None = None
) -> list[Entered]:
    """Enter the result of every league race that is over and not yet entered. A race closed
    before the flag has no result and is left alone; one the league refuses (the number was
    entered meanwhile from a table) is marked with the reason and not tried again."""
    moment = utc(now) if now is not None else races.now()
    with races.store.read() as connection:
        links = to_enter(connection, OVER)
    done: list[Entered] = []
    for link in links:
        race = races.race(link.race_id)
        if not race.finished:
            continue
        try:
            result = race_result(race, link.number, race.track.title or race.config.track)
            leagues.enter_race(link.league, result)
        except RennleitungError as error:
            log.warning("race %s not entered in its league: %s", link.race_id, error.en)
            with races.store.write() as connection:
                mark_refused(connection, link.race_id, f"{error.en} ({error.where})")
            done.append(Entered(link.race_id, link.league, link.number, error.en))
            continue
        with races.store.write() as connection:
            mark_entered(connection, link.race_id, moment)
        done.append(Entered(link.race_id, link.league, link.number))
    return done
