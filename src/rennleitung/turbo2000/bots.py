"""Bot teams that write order sheets as a player would (plain text, through the same parser).

A bot is a ``Strategy`` (data) and one function that reads the public state and its own team
and writes a sheet: hire drivers, buy or build parts, enter races, train, trade, eliminate,
vote. The strategies differ in one idea each, so ``benchmarks/turbo_balance.py`` can check that
no single fixed idea wins almost every game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rennleitung.turbo2000.config import KINDS, GameConfig
from rennleitung.turbo2000.model import Announcement, Driver, GameState, Part, Team
from rennleitung.turbo2000.performance import available_lp, cap_lp, risk
from rennleitung.turbo2000.standings import wm_table


@dataclass(frozen=True)
class Strategy:
    """One fixed way to play."""

    name: str
    push: tuple[int, int]
    """d and e of every race entry."""
    races: bool
    factories: str
    """Kinds the bot builds factories for, in order ("" = never builds)."""
    drivers: int
    training: bool
    qualifying_share: float | None
    """Share of the LP put into qualifying; the rest is split over the sections. None: as much
    as the qualifying pace lets every section count (``even_qualifying``)."""
    sells: bool
    """Offers its own parts to all (Biete) and answers other teams' offers (Kaufe)."""
    formel2: bool = False
    """Sends all its cars to Formel II when one is announced (§4.1 allows no other entry)."""
    price_share: int = 95
    """Percent of the Turbo price it asks for its own parts of the Turbo rating."""
    batch: int = 1
    """How many times the usual number of pieces it builds each round."""
    full_throttle: bool = False
    """Pushes d and e to the largest value the settings allow (``max_push``)."""
    push_where_it_counts: bool = False
    """Splits the same risk (d − 1) + (e − 1) over d and e as the car's numbers pay most
    (April 2000 §2 drops the highest of W, M+d, R, F+e), instead of the fixed d and e."""


STRATEGIES: dict[str, Strategy] = {
    "ausgewogen": Strategy("ausgewogen", (1, 2), True, "R", 3, True, None, True,
                           push_where_it_counts=True),
    "vorsichtig": Strategy("vorsichtig", (1, 1), True, "", 3, True, None, True, formel2=True),
    "draufgaenger": Strategy("draufgaenger", (3, 3), True, "", 3, False, None, True,
                             push_where_it_counts=True),
    "fabrikant": Strategy("fabrikant", (1, 1), False, "RMW", 0, False, None, True),
    "rennfahrer": Strategy("rennfahrer", (2, 2), True, "", 3, False, None, False,
                           push_where_it_counts=True),
    "vollgas": Strategy("vollgas", (1, 1), True, "", 3, False, None, False, full_throttle=True),
    "reifenlieferant": Strategy("reifenlieferant", (1, 2), True, "R", 3, True, None, True,
                                price_share=90, batch=2, push_where_it_counts=True),
    "profi": Strategy("profi", (1, 2), True, "", 4, True, None, False,
                      push_where_it_counts=True),
    "stratege": Strategy("stratege", (1, 1), True, "", 4, True, None, False),
    "kaempfer": Strategy("kaempfer", (2, 2), True, "", 3, True, None, False,
                         push_where_it_counts=True),
}
"""Balanced, never pushing, always pushing, only building, only racing, pushing d and e to the
maximum, and a tyre supplier that builds many tyres and sells them cheap to every team. Every
bot that pushes puts its push where the LP formula pays (a person finds that in the first round)
and splits its LP so that the qualifying pace lets every section count. The eighth, *profi*,
and the ninth, *stratege*, are what the strategy search of rules version 2 found (rules.md §11):
risk 1 or no push, four drivers, training, no factory, no trade. The tenth, *kaempfer*, is
the racer's push (risk 2 where it counts) with training, what the search of rules version 4
found in 6 teams once a team keeps at most three drivers (rules.md §11)."""

RESERVE = 400_000
"""Money a bot keeps back for salaries and fees (a bot's habit, not a rule)."""
WORN = 1
"""A bot replaces a part worn more than this below the Turbo rating."""


@dataclass
class _Plan:
    """What the bot has decided so far this round."""

    lines: list[str]
    money: int
    pieces: dict[str, list[Part]]

    def take(self, kind: str, part: Part | None = None) -> Part | None:
        """Use a piece of the plan's stock: the named one, or the best of its kind."""
        pool = self.pieces[kind]
        if part is not None:
            if part in pool:
                pool.remove(part)
                return part
            return None
        return pool.pop(0) if pool else None


def _pieces(team: Team) -> dict[str, list[Part]]:
    pieces: dict[str, list[Part]] = {kind: [] for kind in KINDS}
    for part, count in team.stock.items():
        pieces[part.kind].extend([part] * count)
    for kind in KINDS:
        pieces[kind].sort(key=lambda p: (-p.rating, p.maker))
    return pieces


def _contracts(state: GameState, team: Team, strategy: Strategy, config: GameConfig,
               rng: random.Random, plan: _Plan) -> list[Driver]:
    """Hire up to the wanted number of drivers; renew in the year's last round."""
    mine = sorted((d for d in state.drivers.values() if d.team == team.name),
                  key=lambda d: (-d.rating, d.name))
    free = [d for d in state.drivers.values() if d.team is None]
    rng.shuffle(free)
    free.sort(key=lambda d: -d.rating)  # the best first; equal ratings in a random order
    wanted = min(strategy.drivers, config.max_drivers or strategy.drivers)
    for driver in free[:max(0, wanted - len(mine))]:
        salary = config.minimum_salary + rng.randint(0, 10) * 1000
        plan.lines.append(f"Vertrag: {driver.name} {salary}")
        mine.append(driver)
    if config.round_in_year(state.round) == config.rounds_per_year:
        for driver in mine:
            if driver.next_team is None and driver.team == team.name:
                raise_by = rng.randint(0, 5) * 1000
                plan.lines.append(f"Vertrag: {driver.name} {driver.salary + raise_by} Folgejahr")
    return mine


def _buy_turbo(state: GameState, config: GameConfig, plan: _Plan, kind: str) -> Part | None:
    price = config.turbo_price[kind]
    if plan.money - price < RESERVE:
        return None
    part = Part(config.reserved_maker, kind, state.new_factory_rating[kind])
    plan.money -= price
    plan.lines.append(f"an {config.reserved_maker}: Kaufe {part.notation()} zu {price}")
    return part


def _fresh_part(state: GameState, config: GameConfig, plan: _Plan, kind: str) -> Part | None:
    """The best part in stock, or a new Turbo part when the stock is worn below it."""
    pool = plan.pieces[kind]
    turbo_rating = state.new_factory_rating[kind]
    if pool and pool[0].rating >= turbo_rating - WORN:
        return plan.take(kind)
    return _buy_turbo(state, config, plan, kind) or plan.take(kind)


def _eligible(state: GameState, team: Team, announcement: Announcement, parts: dict[str, Part],
              driver: Driver, d: int, e: int, config: GameConfig) -> bool:
    template = config.race(announcement.code)
    if template.series == "formel_n":
        lp = cap_lp(parts["W"].rating, parts["M"].rating, parts["R"].rating,
                    driver.whole_rating, d, e, config)
        return lp <= template.lp_cap
    if template.series == "junior":
        return state.wm_points.get(team.name, 0) == 0
    if template.series == "formel2":
        return state.last_formel2_winner != team.name
    if template.series == "rallye":
        return announcement.stage == 1
    return True


QUALIFYING_SHARE = 0.35
"""The bots' share of LP in Q when the settings set no qualifying pace (rules version 1)."""


def even_qualifying(lp: int, sections: int, config: GameConfig) -> int:
    """The least Q that lets every section score all it was given, when the LP are split
    evenly over the sections (``qualifying_pace_percent``): Q + n·A = LP with A at most
    pace·Q. Without a pace limit (or sections) the bots' old habit, a fixed share."""
    pace = config.qualifying_pace_percent
    if pace <= 0 or sections == 0:
        return int(lp * QUALIFYING_SHARE)
    q = -(-lp * 100 // (100 + sections * pace))
    while q > 0 and (lp - (q - 1)) // sections <= (q - 1) * pace // 100:
        q -= 1
    while (lp - q) // sections > q * pace // 100:
        q += 1
    return q


def best_split(parts: dict[str, Part], driver: Driver, d: int, e: int, config: GameConfig
               ) -> tuple[int, int]:
    """The d and e of the same risk with the most LP for these parts and this driver (equal
    LP: the given split first, then more d)."""
    total = d + e
    splits = [(d, e)] + [(x, total - x) for x in range(config.max_push, 0, -1)
                         if 1 <= total - x <= config.max_push]
    return max(splits, key=lambda split: available_lp(
        parts["W"].rating, parts["M"].rating, parts["R"].rating, driver.whole_rating, split[0],
        split[1], config))


def _entry_line(announcement: Announcement, driver: Driver, parts: dict[str, Part], d: int,
                e: int, qualifying: int | None, strategy: Strategy, config: GameConfig
                ) -> str | None:
    template = config.race(announcement.code)
    lp = available_lp(parts["W"].rating, parts["M"].rating, parts["R"].rating,
                      driver.whole_rating, d, e, config)
    if qualifying is not None:
        q = qualifying
    elif strategy.qualifying_share is None:
        q = even_qualifying(lp, template.sections, config)
    else:
        q = int(lp * strategy.qualifying_share)
    rest = lp - q
    if rest < 0:
        return None
    sections = [rest // template.sections] * template.sections if template.sections else []
    names = " ".join(parts[kind].notation() for kind in KINDS)
    a = f" A={'/'.join(map(str, sections))}" if sections else ""
    return f"Rennen {announcement.code}: {driver.name} {names} d={d} e={e} Q={q}{a}"


def _rally_continuation(state: GameState, team: Team, drivers: list[Driver], config: GameConfig,
                        plan: _Plan, strategy: Strategy) -> set[str]:
    """Continue the Rallye where the four conditions of §4.6 can be met."""
    stage = next((a for a in state.announcements if config.race(a.code).series == "rallye"
                  and a.stage > 1), None)
    used: set[str] = set()
    if stage is None:
        return used
    for driver in drivers:
        record = state.rally.get(driver.name)
        if record is None or record.team != team.name or \
                record.place > record.placed_count - config.rally_excluded_last:
            continue
        tyres = next((p for p in plan.pieces["R"] if p.rating == record.tyre_rating), None)
        if tyres is None or record.car not in plan.pieces["W"] or \
                record.engine not in plan.pieces["M"]:
            continue
        parts = {"W": record.car, "M": record.engine, "R": tyres}
        for d, e in ((1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (3, 3)):
            line = _entry_line(stage, driver, parts, d, e, record.track_points, strategy, config)
            if line:
                for kind, part in parts.items():
                    plan.take(kind, part)
                plan.lines.append(line)
                used.add(driver.name)
                break
    return used


def _races(state: GameState, team: Team, strategy: Strategy, drivers: list[Driver],
           config: GameConfig, rng: random.Random, plan: _Plan) -> set[str]:
    """Two cars in Formel I, the others spread over the other races (or all in Formel II)."""
    if not strategy.races:
        return set()
    racing = _rally_continuation(state, team, drivers, config, plan, strategy)
    fit = [d for d in drivers if d.out_in_round != state.round and d.name not in racing]
    formel2 = [a for a in state.announcements if config.race(a.code).series == "formel2"]
    if strategy.formel2 and formel2 and state.last_formel2_winner != team.name and not racing:
        slots = formel2 * len(fit)
    else:
        order = [a for a in state.announcements if config.race(a.code).series != "formel2"]
        others = [a for a in order if config.race(a.code).series != "formel1"]
        rng.shuffle(others)
        slots = [a for a in order if config.race(a.code).series == "formel1"] * 2 + others
    d, e = (config.max_push, config.max_push) if strategy.full_throttle else strategy.push
    for driver in fit:
        parts: dict[str, Part] = {}
        for kind in KINDS:
            part = _fresh_part(state, config, plan, kind)
            if part is None:
                break
            parts[kind] = part
        entered = False
        for announcement in slots if len(parts) == len(KINDS) else []:
            template = config.race(announcement.code)
            push_d, push_e = best_split(parts, driver, d, e, config) \
                if strategy.push_where_it_counts else (d, e)
            while risk(push_d, push_e) < template.min_risk and push_d < config.max_push:
                push_d += 1
            if template.series == "formel_n":  # push less to fit under the cap (§4.2)
                while push_d > 1 and not _eligible(state, team, announcement, parts, driver,
                                                   push_d, push_e, config):
                    push_d -= 1
                while push_e > 1 and not _eligible(state, team, announcement, parts, driver,
                                                   push_d, push_e, config):
                    push_e -= 1
            if not _eligible(state, team, announcement, parts, driver, push_d, push_e, config):
                continue
            line = _entry_line(announcement, driver, parts, push_d, push_e, None, strategy,
                               config)
            if line:
                plan.lines.append(line)
                racing.add(driver.name)
                slots.remove(announcement)
                entered = True
                break
        if not entered:
            for part in parts.values():
                plan.pieces[part.kind].insert(0, part)
        if len(parts) < len(KINDS):
            break
    return racing


def _factories(state: GameState, team: Team, strategy: Strategy, config: GameConfig,
               rng: random.Random, plan: _Plan) -> None:
    for kind in strategy.factories:
        factory = state.factory(team.name, kind)
        if factory is None:
            if plan.money - config.factory_cost[kind] >= RESERVE * 2:
                plan.lines.append(f"Errichtung: {kind}")
                plan.money -= config.factory_cost[kind]
            return  # one new factory at a time
        if factory.rating < state.new_factory_rating[kind] and \
                plan.money - config.modernisation_cost >= RESERVE:
            plan.lines.append(f"Entwicklung {kind}: Modernisierung")
            plan.money -= config.modernisation_cost
        elif plan.money > RESERVE * 6:
            steps = rng.randint(1, 3)
            plan.lines.append(f"Entwicklung {kind}: {steps}")
            plan.money -= steps * config.development_step_cost
        count = {"W": 1, "M": 2, "R": 6}[kind] * strategy.batch
        unit = config.build_costs[kind][0]
        if plan.money - count * unit >= RESERVE:
            plan.lines.append(f"Bau {kind}: {count}")
            plan.money -= count * unit


def _trades(state: GameState, team: Team, strategy: Strategy, config: GameConfig,
            plan: _Plan) -> None:
    if not strategy.sells:
        return
    keep = 1 if strategy.races else 0
    for part, count in sorted(team.stock.items()):
        if part.maker == team.name and count > keep:
            turbo = config.turbo_price[part.kind]
            better = part.rating > state.new_factory_rating[part.kind]
            price = turbo if better else turbo * strategy.price_share // 100
            plan.lines.append(f"an alle: Biete {count - keep} {part.notation()} zu {price}")
    for offer in state.offers:
        if offer.factory or offer.verb != "Biete" or offer.team == team.name or \
                offer.to not in (None, team.name) or offer.maker is None:
            continue
        good = offer.rating >= state.new_factory_rating[offer.kind]
        if good and offer.price <= config.turbo_price[offer.kind] and \
                plan.money - offer.price >= RESERVE:
            plan.lines.append(f"an {offer.team}: Kaufe 1 {offer.maker}-{offer.kind}"
                              f"{offer.rating} zu {offer.price}")
            plan.money -= offer.price


def _training(state: GameState, drivers: list[Driver], racing: set[str], strategy: Strategy,
              rng: random.Random, plan: _Plan) -> None:
    if not strategy.training or plan.money < RESERVE * 4:
        return
    idle = [d for d in drivers if d.name not in racing and d.team is not None]
    if idle:
        bid = rng.randint(2, 8) * 10_000
        plan.lines.append(f"Training: {idle[0].name} {bid}")
        plan.money -= bid


def _eliminations(state: GameState, team: Team, strategy: Strategy, config: GameConfig,
                  plan: _Plan) -> None:
    """Worn parts and more than four spares of a kind go (April 2000 §6 notation); a team that
    sells keeps what it made itself for sale."""
    for kind in KINDS:
        worn_below = state.new_factory_rating[kind] - WORN - 1
        worn = sum(1 for part in plan.pieces[kind] if part.rating <= worn_below)
        if worn:
            plan.lines.append(f"Elimination: {worn} {kind}{worn_below}-")
        for_sale = sum(1 for part in plan.pieces[kind] if strategy.sells
                       and part.maker == team.name and part.rating > worn_below)
        spare = len(plan.pieces[kind]) - worn - for_sale - 4
        if spare > 0 and not for_sale:
            plan.lines.append(f"Elimination: {spare} {kind}1+")
        elif spare > 0:
            plan.lines.append(f"Elimination: {spare} {config.reserved_maker}-{kind}1+")


def bot_sheet(state: GameState, team_name: str, strategy: Strategy, config: GameConfig,
              rng: random.Random) -> str:
    """The sheet a bot sends for ``state.round``."""
    team = state.teams[team_name]
    plan = _Plan([f"Rennstall: {team.name}", f"Passwort: {team.password}",
                  f"Runde: {state.round}"], team.money, _pieces(team))
    drivers = _contracts(state, team, strategy, config, rng, plan)
    _factories(state, team, strategy, config, rng, plan)
    _trades(state, team, strategy, config, plan)
    racing = _races(state, team, strategy, drivers, config, rng, plan)
    _training(state, drivers, racing, strategy, rng, plan)
    _eliminations(state, team, strategy, config, plan)
    if state.vote_open:
        table = wm_table(state)
        place = next(p for p, name, _ in table if name == team.name)
        plan.lines.append(f"Abstimmung: {'ja' if place <= len(table) // 2 else 'nein'}")
    return "\n".join(plan.lines) + "\n"
