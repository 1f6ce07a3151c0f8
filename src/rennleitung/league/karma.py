"""The karma ledger ("Karmapool"): every movement of every driver's karma, with its reason.

Income: the starting 30; +1 per natural 20 on a body, engine or road-holding check (at once);
at the end of a race +1 per championship point (Open: per 100 race points), +3 per place gained
from grid to finish, +3 per lap in which the car led the most rounds of play (decisions file).
Spending: 40 to re-roll, 20 to add one, and head-to-head bids ("Kopf an Kopf").

Decisions where Dresden is silent: places are gained only by cars that finished; qualifying
points earn no karma (the income is paid "at the end of the race" for race points); the
karma of a car driven by a team-mate belongs to the car's own driver. A spending that the
balance at that moment cannot cover is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.karma_income import end_of_race_karma
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.league.points import race_points
from rennleitung.league.race_result import FinishStatus, InRaceKarma, InRaceKarmaKind
from rennleitung.league.season import League


class KarmaReason(Enum):
    """Why karma moved."""

    START = "start"
    TWENTY_ROLLED = "twenty"
    CHAMPIONSHIP_POINTS = "points"
    PLACES_GAINED = "places-gained"
    LAPS_MOST_LED = "laps-most-led"
    REROLL = "reroll"
    PLUS_ONE = "plus-one"
    HEAD_TO_HEAD = "head-to-head"


def in_race_karma(rules: Ruleset) -> dict[InRaceKarmaKind, tuple[KarmaReason, int | None]]:
    """Karma per in-race event under ``rules`` (Dresden Karmapool); None = the event's own
    amount (a head-to-head bid), spent."""
    return {
        InRaceKarmaKind.TWENTY_ROLLED: (KarmaReason.TWENTY_ROLLED, rules.karma_per_natural_twenty),
        InRaceKarmaKind.REROLL: (KarmaReason.REROLL, -rules.karma_reroll_cost),
        InRaceKarmaKind.PLUS_ONE: (KarmaReason.PLUS_ONE, -rules.karma_plus_one_cost),
        InRaceKarmaKind.HEAD_TO_HEAD: (KarmaReason.HEAD_TO_HEAD, None),
    }


@dataclass(frozen=True)
class KarmaEntry:
    """One movement: whose, in which race (None = start), how much, why, and the new balance."""

    driver: str
    race: int | None
    amount: int
    reason: KarmaReason
    balance: int
    note: str = ""
    figures: tuple[int, ...] = field(default=(), compare=False)
    """The numbers behind an end-of-race movement (points; grid and place; laps), so the
    reason can be worded in any language; ``note`` keeps the English wording for the store."""
    driven_by: str | None = field(default=None, compare=False)
    """The team-mate at the wheel when an in-race movement happened in a stand-in's car."""


def karma_ledger(league: League) -> tuple[KarmaEntry, ...]:
    """All movements in order: starts, then race by race (in-race first, end of race last)."""
    fmt = league.format
    rules = fmt.ruleset  # the one home of the karma figures (issue 12)
    in_race = in_race_karma(rules)
    balances = {d.name: fmt.karma_start for d in league.roster.drivers}
    entries = [
        KarmaEntry(d.name, None, fmt.karma_start, KarmaReason.START, fmt.karma_start)
        for d in league.roster.drivers
    ]

    def book(driver: str, race: int, amount: int, reason: KarmaReason, note: str,
             figures: tuple[int, ...] = (), driven_by: str | None = None) -> None:
        if amount == 0:
            return
        balance = balances[driver] + amount
        if balance < 0:
            raise RennleitungError(
                f"{driver} hat nur {balances[driver]} Karmapunkte, {reason.value} kostet "
                f"{-amount}",
                f"{driver} has only {balances[driver]} karma points, {reason.value} costs "
                f"{-amount}",
                f"race {race}, {driver}, karma",
            )
        balances[driver] = balance
        entries.append(KarmaEntry(driver, race, amount, reason, balance, note, figures,
                                  driven_by))

    for result in league.races:
        for entry in result.drivers:
            driven = f"driven by {entry.driven_by}" if entry.driven_by else ""
            for event in entry.karma:
                reason, amount = _in_race(event, in_race)
                book(entry.driver, result.race, amount, reason, event.note or driven,
                     driven_by=None if event.note else entry.driven_by)
            points = race_points(fmt, entry.position, entry.laps_completed)
            income = end_of_race_karma(rules, points, entry.grid, entry.position,
                                       entry.status is FinishStatus.FINISHED,
                                       entry.laps_most_led)
            book(entry.driver, result.race, income.points,
                 KarmaReason.CHAMPIONSHIP_POINTS, f"{points} points", (points,))
            book(entry.driver, result.race, income.places,
                 KarmaReason.PLACES_GAINED, f"grid {entry.grid} -> {entry.position}",
                 (entry.grid, entry.position))
            book(entry.driver, result.race, income.laps_led,
                 KarmaReason.LAPS_MOST_LED, f"{entry.laps_most_led} laps",
                 (entry.laps_most_led,))
    return tuple(entries)


def karma_balances(ledger: tuple[KarmaEntry, ...]) -> dict[str, int]:
    """Each driver's karma after the last movement."""
    balances: dict[str, int] = {}
    for entry in ledger:
        balances[entry.driver] = entry.balance
    return balances


def _in_race(
    event: InRaceKarma, table: dict[InRaceKarmaKind, tuple[KarmaReason, int | None]]
) -> tuple[KarmaReason, int]:
    reason, amount = table[event.kind]
    return reason, (-event.amount if amount is None else amount)
