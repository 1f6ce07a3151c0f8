"""Step 5a: driver contracts. Salary bids for the running or the next year; the highest bid wins,
ties by lot (reconstructed). A bid is an order that costs money, so one round's salary must be on
the account when contracts are made (rules.md, section 1). The Blankovertrag follows April 2000
§16: only in a team's entry turn, at most one, for the running year (the next one when entering
in a year's last round); if the named driver goes elsewhere the team gets another free driver of
the same rating. In the round of the setting ``direct_contract_round`` (the 1996 start sheet's
"Direktvertrag") every bid is treated so.

Rules version 4 (``max_drivers``, reconstructed, rules.md §2): a team holds at most that many
drivers for one year. Contracts are made driver by driver in alphabetical order, as before; a
team that already holds the limit for that year is passed over and the next highest bid wins,
so a team may bid for more drivers than it may keep, to be sure of getting some.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import Driver
from rennleitung.turbo2000.sheet import ContractBid
from rennleitung.turbo2000.turn import Turn


@dataclass(frozen=True)
class Bid:
    """A valid salary bid with the year it is for (a blank contract may move it, §16)."""

    team: str
    bid: ContractBid
    next_year: bool


def _is_free(driver: Driver, next_year: bool) -> bool:
    return (driver.next_team if next_year else driver.team) is None


def _sign(turn: Turn, driver: Driver, team: str, salary: int, next_year: bool) -> None:
    if next_year:
        driver.next_team, driver.next_salary = team, salary
    else:
        driver.team, driver.salary = team, salary
    year = "Folgejahr" if next_year else "laufendes Jahr"
    turn.say(f"Vertrag {driver.name} -> {team}, {amount(salary)} je Runde ({year})")
    year_en = "next year" if next_year else "this year"
    turn.publish("Verträge",
                 f"{driver.notation()} fährt für {team} ({year}, {amount(salary)} je Runde)",
                 f"{driver.notation()} drives for {team} ({year_en}, {amount(salary)} a round)")
    turn.tell(team, f"Vertrag / contract: {driver.notation()} für {amount(salary)} ({year})",
              f"contract: {driver.notation()} for {amount(salary)} ({year_en})")


def _held(turn: Turn, team: str, next_year: bool) -> int:
    """Drivers under contract with ``team`` for the running or the next year."""
    return sum(1 for driver in turn.state.drivers.values()
               if (driver.next_team if next_year else driver.team) == team)


def _full(turn: Turn, team: str, next_year: bool) -> bool:
    """The team holds the most drivers a team may for that year (rules version 4)."""
    limit = turn.config.max_drivers
    return bool(limit) and _held(turn, team, next_year) >= limit


def _refuse_full(turn: Turn, bid: Bid, driver: str) -> None:
    limit = turn.config.max_drivers
    turn.reject(bid.team, Problem(
        bid.bid.line, driver,
        f"Rennstall hat schon {limit} Fahrer für dieses Jahr (höchstens {limit}, Regelversion 4)",
        f"the team already has {limit} drivers for that year (at most {limit}, rules version 4)"))


def _valid_bids(turn: Turn) -> list[Bid]:
    state, config = turn.state, turn.config
    last_round = config.round_in_year(state.round) == config.rounds_per_year
    direct = state.round == config.direct_contract_round
    bids: list[Bid] = []
    for team, sheet in sorted(turn.sheets.items()):
        for bid in sheet.contracts:
            driver = state.drivers.get(bid.driver)
            next_year = bid.next_year or (bid.blank and last_round)
            if driver is None:
                turn.reject(team, Problem(bid.line, bid.driver, "Fahrer unbekannt",
                                          "unknown driver"))
            elif bid.blank and state.teams[team].entry_round != state.round:
                turn.reject(team, Problem(bid.line, "Blankovertrag",
                                          "Blankovertrag nur im Einstiegszug (§16)",
                                          "blank contract only in the entry turn (§16)"))
            elif not _is_free(driver, next_year) and not bid.blank and not direct:
                turn.reject(team, Problem(bid.line, bid.driver,
                                          "Fahrer hat für dieses Jahr schon einen Vertrag",
                                          "driver already has a contract for that year"))
            elif not turn.can_pay(team, bid.salary):
                money = amount(state.teams[team].money)
                turn.reject(team, Problem(
                    bid.line, "Gehalt",
                    f"Gehalt {amount(bid.salary)} je Runde über dem Kontostand {money}",
                    f"salary {amount(bid.salary)} per round above the balance {money}"))
            else:
                bids.append(Bid(team, bid, next_year))
    return bids


def run_contracts(turn: Turn) -> None:
    """Highest bid per driver and year wins; blank contracts that lost get another driver."""
    turn.begin("5 Verträge")
    state = turn.state
    bids = _valid_bids(turn)
    groups: dict[tuple[str, bool], list[Bid]] = {}
    for bid in bids:
        groups.setdefault((bid.bid.driver, bid.next_year), []).append(bid)
    direct = state.round == turn.config.direct_contract_round  # every bid is a direct one
    losers_blank: list[Bid] = []
    for (name, next_year), group in sorted(groups.items()):
        driver = state.drivers[name]
        if not _is_free(driver, next_year):
            losers_blank.extend(b for b in group if b.bid.blank or direct)
            continue
        ranked = sorted(((-b.bid.salary, turn.lot(f"Vertrag {name} {b.team}"), b) for b in group),
                        key=lambda item: (item[0], item[1]))
        full = [item for item in ranked if _full(turn, item[2].team, next_year)]
        for _, _, passed in full:
            _refuse_full(turn, passed, name)
        ranked = [item for item in ranked if item not in full]
        if not ranked:
            continue
        winner = ranked[0][2]
        if len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
            turn.say(f"Gleichstand um {name}: Los für {winner.team}")
        _sign(turn, driver, winner.team, winner.bid.salary, next_year)
        for _, _, loser in ranked[1:]:
            turn.reject(loser.team, Problem(loser.bid.line, name, "überboten", "outbid"))
            if loser.bid.blank or direct:
                losers_blank.append(loser)
    for bid in losers_blank:
        _assign_blank(turn, bid)


def _assign_blank(turn: Turn, bid: Bid) -> None:
    """April 2000 §16: another free driver of the same rating, at the stated salary (by lot)."""
    state = turn.state
    named = state.drivers[bid.bid.driver]
    if _full(turn, bid.team, bid.next_year):
        _refuse_full(turn, bid, "Blankovertrag")
        return
    candidates = sorted(d.name for d in state.drivers.values()
                        if _is_free(d, bid.next_year) and d.whole_rating == named.whole_rating)
    if not candidates:
        turn.reject(bid.team, Problem(bid.bid.line, "Blankovertrag",
                                      "kein freier Fahrer gleicher Kennzahl",
                                      "no free driver of the same rating"))
        return
    choice = candidates[int(turn.lot(f"Blankovertrag {bid.team}") * len(candidates))]
    turn.say(f"Blankovertrag {bid.team}: {choice} statt {named.name} (Los)")
    _sign(turn, state.drivers[choice], bid.team, bid.bid.salary, bid.next_year)
