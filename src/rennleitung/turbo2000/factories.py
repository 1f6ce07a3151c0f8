"""Step 3: factories (April 2000 §7–§11): elimination, modernisation, development, construction,
then building components.

Development is reconstructed: each step rolls a d10 to pick one of the ten digits and raises it
by 1 (at most 9); the factory's rating rises by 1 for every few digits raised (setting
``development_rule``; the first reconstruction raised it with the smallest digit). A new
factory starts with digits 0000000000 (§7) at the rating published in the last evaluation.
"""

from __future__ import annotations

import statistics

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.config import KINDS, GameConfig
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import Factory, GameState, Part
from rennleitung.turbo2000.sheet import KindOrder
from rennleitung.turbo2000.turn import Turn


def build_cost(kind: str, rating: int, best: int, config: GameConfig) -> int:
    """April 2000 §10: cost of one piece by the difference to the best factory of the kind."""
    table = config.build_costs[kind]
    return table[min(max(best - rating, 0), len(table) - 1)]


def pieces_ordered(amount: int, unit_cost: int, config: GameConfig) -> int:
    """April 2000 §11: below the threshold the amount is a count, otherwise money."""
    return amount if amount < config.count_threshold else amount // unit_cost


def new_factory_ratings(state: GameState, config: GameConfig) -> dict[str, int]:
    """The rating a factory built next round would get (published each evaluation, §7).

    Reconstructed: the (lower) median of the existing factories of the kind minus an offset,
    never below the minimum of the kind (engines start lower, ``new_factory_kind_offset``).
    """
    ratings: dict[str, int] = {}
    for kind in KINDS:
        existing = [f.rating for f in state.factories if f.kind == kind]
        base = statistics.median_low(existing) - config.new_factory_offset if existing else 0
        minimum = config.new_factory_min_rating + config.new_factory_kind_offset.get(kind, 0) \
            + config.new_factory_min_per_year * (config.year_of(state.round) - 1)
        ratings[kind] = max(minimum, base)
    return ratings


def _level(factory: Factory, config: GameConfig) -> int:
    """What the rating follows: the smallest digit, or the digit sum in steps (setting)."""
    if config.development_rule == "min_digit":
        return min(factory.digits)
    return sum(factory.digits) // config.development_steps_per_rating


def develop_once(factory: Factory, digit_roll: int, config: GameConfig) -> bool:
    """Raise the rolled digit; True when the factory's rating rose with it."""
    index = (digit_roll - 1) % len(factory.digits)  # a d10 picks one of the ten digits
    before = _level(factory, config)
    if factory.digits[index] < config.development_digit_max:
        factory.digits[index] += 1
    if _level(factory, config) > before:
        factory.rating += 1
        return True
    return False


def _refuse(turn: Turn, team: str, order: KindOrder, de: str, en: str) -> None:
    turn.reject(team, Problem(order.line, f"Entwicklung {order.kind}", de, en))


def _nothing_bought(turn: Turn, team: str, order: KindOrder, field: str, unit: int,
                    noun: tuple[str, str]) -> None:
    """April 2000 §11: an amount from the threshold on is money; one below the price of a
    single piece or step buys nothing, and the team is told so (it was silent: ``Bau M: 1000``
    built 0 pieces, ``Entwicklung M: 150.000`` bought 0 steps)."""
    limit = turn.config.count_threshold
    turn.reject(team, Problem(
        order.line, field,
        f"{amount(order.amount)} ist ab {amount(limit)} ein Geldbetrag und reicht für kein "
        f"{noun[0]} ({amount(unit)} je {noun[0]}); nichts gekauft (§11)",
        f"{amount(order.amount)} is money from {amount(limit)} on and pays for no {noun[1]} "
        f"({amount(unit)} per {noun[1]}); nothing bought (§11)"))


def _eliminate(turn: Turn, team: str, order: KindOrder) -> None:
    factory = turn.state.factory(team, order.kind)
    if factory is None:
        _refuse(turn, team, order, "keine Fabrik dieses Typs", "no factory of this kind")
        return
    refund = sum(factory.digits) * turn.config.elimination_refund_per_digit
    turn.state.factories.remove(factory)
    turn.pay(team, refund, f"Elimination {order.kind}-Fabrik (§9)",
             f"elimination {order.kind} factory (§9)")
    turn.say(f"{team}: {order.kind}-Fabrik eliminiert, Ziffern {factory.digits}, +{amount(refund)}")
    turn.publish("Fabrikbau", f"{team} schließt seine {order.kind}-Fabrik / closes its factory")


def _modernise(turn: Turn, team: str, order: KindOrder) -> None:
    factory = turn.state.factory(team, order.kind)
    target = turn.state.new_factory_rating[order.kind]
    cost = turn.config.modernisation_cost
    if factory is None:
        _refuse(turn, team, order, "keine Fabrik dieses Typs", "no factory of this kind")
    elif factory.rating >= target:
        _refuse(turn, team, order, f"Kennzahl {factory.rating} nicht unter dem Neuwert {target} "
                "(§8)", f"rating {factory.rating} is not below the new-factory value {target} (§8)")
    elif not turn.can_pay(team, cost):
        _refuse(turn, team, order, f"Geld reicht nicht ({amount(cost)})",
                f"not enough money ({amount(cost)})")
    else:
        turn.pay(team, -cost, f"Modernisierung {order.kind}-Fabrik (§8)",
                 f"modernisation {order.kind} factory (§8)")
        turn.say(f"{team}: {order.kind}-Fabrik modernisiert {factory.rating} -> {target}")
        factory.rating = target


def _develop(turn: Turn, team: str, order: KindOrder) -> None:
    factory = turn.state.factory(team, order.kind)
    config = turn.config
    if factory is None:
        _refuse(turn, team, order, "keine Fabrik dieses Typs", "no factory of this kind")
        return
    steps = pieces_ordered(order.amount, config.development_step_cost, config)
    if not steps:
        _nothing_bought(turn, team, order, f"Entwicklung {order.kind}",
                        config.development_step_cost, ("Schritt", "step"))
        return
    for done in range(steps):
        if not turn.can_pay(team, config.development_step_cost):
            _refuse(turn, team, order, f"Geld reicht nur für {done} Schritte",
                    f"money only enough for {done} steps")
            break
        turn.pay(team, -config.development_step_cost, f"Entwicklung {order.kind}",
                 f"development {order.kind}")
        roll = turn.roll(config.development_die, f"Entwicklung {team} {order.kind}")
        if develop_once(factory, roll, config):
            turn.say(f"{team}: {order.kind}-Fabrik steigt auf Kennzahl {factory.rating}")
    turn.say(f"{team}: {order.kind}-Fabrik Ziffern {''.join(map(str, factory.digits))}")


def _construct(turn: Turn, team: str, order: KindOrder) -> None:
    cost = turn.config.factory_cost[order.kind]
    rating = turn.state.new_factory_rating[order.kind]
    if turn.state.factory(team, order.kind):
        turn.reject(team, Problem(order.line, "Errichtung", "Fabrik dieses Typs besteht schon",
                                  "team already has a factory of this kind"))
    elif not turn.can_pay(team, cost):
        turn.reject(team, Problem(order.line, "Errichtung", f"Geld reicht nicht ({amount(cost)})",
                                  f"not enough money ({amount(cost)})"))
    else:
        turn.pay(team, -cost, f"Errichtung {order.kind}-Fabrik (§7)",
                 f"building {order.kind} factory (§7)")
        turn.state.factories.append(Factory(team, order.kind, rating))
        turn.say(f"{team}: neue {order.kind}-Fabrik, Kennzahl {rating}")
        turn.publish("Fabrikbau", f"{team} errichtet eine {order.kind}-Fabrik (Kennzahl {rating})",
                     f"{team} builds a {order.kind} factory (rating {rating})")


def _build(turn: Turn, team: str, order: KindOrder) -> None:
    state, config = turn.state, turn.config
    factory = state.factory(team, order.kind)
    if factory is None:
        turn.reject(team, Problem(order.line, f"Bau {order.kind}", "keine Fabrik dieses Typs",
                                  "no factory of this kind"))
        return
    best = max(f.rating for f in state.factories if f.kind == order.kind)
    unit = build_cost(order.kind, factory.rating, best, config)
    wanted = pieces_ordered(order.amount, unit, config)
    if not wanted:
        _nothing_bought(turn, team, order, f"Bau {order.kind}", unit, ("Stück", "piece"))
        return
    affordable = max(0, state.teams[team].money) // unit
    count = min(wanted, affordable)
    if count < wanted:
        turn.reject(team, Problem(order.line, f"Bau {order.kind}",
                                  f"Geld reicht nur für {count} von {wanted} Stück",
                                  f"money only enough for {count} of {wanted} pieces"))
    if count:
        part = Part(team, order.kind, factory.rating)
        turn.pay(team, -count * unit, f"Bau {count} {part.notation()} à {amount(unit)} (§10)",
                 f"making {count} {part.notation()} at {amount(unit)} (§10)")
        state.teams[team].add(part, count)
        turn.say(f"{team}: baut {count} {part.notation()} à {amount(unit)} (bester {best})")


def run_factories(turn: Turn) -> None:
    """All factory changes of all teams first, then building (whose cost depends on the best)."""
    turn.begin("3 Fabriken")
    actions = {"Elimination": _eliminate, "Modernisierung": _modernise, "Entwicklung": _develop}
    for phase in ("Elimination", "Modernisierung", "Entwicklung"):
        for team, sheet in sorted(turn.sheets.items()):
            for order in sheet.developments:
                if order.action == phase:
                    actions[phase](turn, team, order)
    for team, sheet in sorted(turn.sheets.items()):
        for order in sheet.constructions:
            _construct(turn, team, order)
    for team, sheet in sorted(turn.sheets.items()):
        for order in sheet.builds:
            _build(turn, team, order)
