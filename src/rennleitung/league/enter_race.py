"""Entering a race: the one call that both a table entry and the race engine go through.

It checks the result (``race_validation.py``), adds it to the league and books its karma
(``karma.py``); if any karma spending cannot be covered, nothing is entered. A row that names
another team than the driver's enters a transfer from this race on first (``transfers.py``).
"""

from __future__ import annotations

from rennleitung.errors import RennleitungError
from rennleitung.league.karma import KarmaEntry, karma_ledger
from rennleitung.league.race_result import RaceResult
from rennleitung.league.season import League
from rennleitung.league.transfers import Transfer


def enter_race(league: League, result: RaceResult) -> tuple[League, tuple[KarmaEntry, ...]]:
    """The league with the race added, and the karma movements this race caused."""
    updated = league
    if result.race == len(league.races) + 1 and league.race(result.race) is None:
        for transfer in transfers_named_in(league, result):
            try:
                updated = updated.with_transfer(transfer)
            except RennleitungError as error:
                raise RennleitungError(error.de, error.en,
                                       f"race {result.race}, {transfer.driver}, team") from None
    updated = updated.with_race(result)
    ledger = karma_ledger(updated)
    return updated, tuple(entry for entry in ledger if entry.race == result.race)


def transfers_named_in(league: League, result: RaceResult) -> tuple[Transfer, ...]:
    """The transfers a race's rows imply: a row naming a team other than the driver's team in
    this race (unknown drivers are left to the race's own checks)."""
    known = {d.name for d in league.roster.drivers}
    return tuple(
        Transfer(entry.driver, entry.team, result.race)
        for entry in result.drivers
        if entry.team is not None and entry.driver in known
        and entry.team != league.roster.team_in_race(entry.driver, result.race)
    )
