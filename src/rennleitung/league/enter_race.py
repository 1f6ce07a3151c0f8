"""Entering a race: the one call that both a table entry and the race engine go through.

It checks the result (``race_validation.py``), adds it to the league and books its karma
(``karma.py``); if any karma spending cannot be covered, nothing is entered.
"""

from __future__ import annotations

from rennleitung.league.karma import KarmaEntry, karma_ledger
from rennleitung.league.race_result import RaceResult
from rennleitung.league.season import League


def enter_race(league: League, result: RaceResult) -> tuple[League, tuple[KarmaEntry, ...]]:
    """The league with the race added, and the karma movements this race caused."""
    updated = league.with_race(result)
    ledger = karma_ledger(updated)
    return updated, tuple(entry for entry in ledger if entry.race == result.race)
