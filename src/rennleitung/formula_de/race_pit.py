"""Pit stops: what a plan may ask for, what it costs and what it does to the car.

Dresden "Boxenstopp": announced work (fuel 4 points each, tyres 6, repairs 10/14) runs in
parallel, so the dearest job counts, plus 5 when nothing was announced before the roll into
the box; the points are worked off with 4th-gear rolls. ``masters-2002`` (19-3, 19-4): a quick
stop changes tyres and rolls the black die (1–10: out at once with half the roll), a long stop
also repairs from the box reserve and leaves next round in 4th or lower. Refuelling never goes
above the fuel the car started with; repairs never above an area's starting value (rule
decision "22 points").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement

from rennleitung.formula_de.car import Tyre, Wear, WearArea
from rennleitung.formula_de.position import CarState
from rennleitung.formula_de.race_decisions import DecisionError, PitPlan
from rennleitung.formula_de.ruleset import PitSystem, Ruleset

REPAIRABLE = (WearArea.BRAKES, WearArea.BODY, WearArea.ENGINE, WearArea.ROAD_HOLDING)
"""Areas a repair may restore; tyres come back with new tyres, fuel with refuelling."""

MASTERS_REPAIRABLE = (*REPAIRABLE, WearArea.FUEL)
"""Masters 19-4-1 repairs any point other than tyres (Gas included, there is no refuelling)."""


def max_repairs(ruleset: Ruleset, wear: Wear) -> int:
    limit = len(ruleset.pit_repair_points) if ruleset.pit_system is PitSystem.POINTS else 99
    return min(limit, wear.box)


def check_plan(ruleset: Ruleset, car: CarState, start: Wear, plan: PitPlan) -> None:
    """Refuse a plan the rules or the car do not allow; the message names the rule."""
    rule = "Dresden Boxenstopp" if ruleset.pit_system is PitSystem.POINTS else "Masters 19"
    masters = ruleset.pit_system is PitSystem.QUICK_LONG
    if masters and plan.tyre is None:
        raise DecisionError(
            "die Reifenart muss angesagt werden",
            "the tyre type must be announced",
            "Masters 19-5-7",
        )
    if masters and plan.fuel:
        raise DecisionError("kein Tanken in Masters", "no refuelling in Masters", rule)
    if not masters and plan.long:
        raise DecisionError("keine langen Stopps", "no long stops", rule)
    if masters and plan.repairs and not plan.long:
        raise DecisionError(
            "Reparaturen nur beim langen Stopp", "repairs only in a long stop", "Masters 19-4-1"
        )
    room = start[WearArea.FUEL] - car.wear[WearArea.FUEL]
    if not 0 <= plan.fuel <= max(room, 0):
        raise DecisionError(
            f"höchstens {max(room, 0)} VP Verbrauch tanken, nicht {plan.fuel}",
            f"at most {max(room, 0)} fuel points can be refuelled, not {plan.fuel}",
            rule,
        )
    allowed = MASTERS_REPAIRABLE if masters else REPAIRABLE
    if len(plan.repairs) > max_repairs(ruleset, car.wear):
        raise DecisionError(
            f"höchstens {max_repairs(ruleset, car.wear)} VP Reparatur",
            f"at most {max_repairs(ruleset, car.wear)} points of repair",
            rule,
        )
    for area, count in Counter(plan.repairs).items():
        if area not in allowed or car.wear[area] + count > start[area]:
            raise DecisionError(
                f"{area.label_de} kann nicht um {count} repariert werden",
                f"{area.label_en} cannot be repaired by {count}",
                rule,
            )


def plan_points(ruleset: Ruleset, plan: PitPlan, announced: bool) -> int:
    """The points a Dresden stop costs (the dearest job, plus the penalty)."""
    return ruleset.pit_stop_points(
        fuel=plan.fuel,
        tyres=plan.tyre is not None,
        repairs=len(plan.repairs),
        announced=announced,
    )


def clamp_plan(ruleset: Ruleset, car: CarState, start: Wear, plan: PitPlan) -> PitPlan:
    """What of an earlier announcement can still be done on arrival (never more)."""
    fuel = max(0, min(plan.fuel, start[WearArea.FUEL] - car.wear[WearArea.FUEL]))
    repairs: list[WearArea] = []
    for area in plan.repairs:
        if len(repairs) < max_repairs(ruleset, car.wear) and (
            car.wear[area] + repairs.count(area) < start[area]
        ):
            repairs.append(area)
    return replace(plan, fuel=fuel, repairs=tuple(repairs))


def do_work(car: CarState, start: Wear, plan: PitPlan) -> CarState:
    """The car after the crew's work: fuel, new tyres at their starting value, repairs."""
    wear = car.wear
    if plan.fuel:
        wear = wear.with_area(WearArea.FUEL, wear[WearArea.FUEL] + plan.fuel)
    tyre, tyre_laps = car.tyre, car.tyre_laps
    if plan.tyre is not None:
        wear = wear.with_area(WearArea.TYRES, start[WearArea.TYRES])
        tyre, tyre_laps = plan.tyre, 0
    for area in plan.repairs:
        wear = wear.repair(area, 1)
    return replace(car, wear=wear, tyre=tyre, tyre_laps=tyre_laps)


def all_plans(ruleset: Ruleset, car: CarState, start: Wear) -> list[PitPlan]:
    """Every plan worth listing: fuel amounts × tyre choices × repair combinations (× long)."""
    masters = ruleset.pit_system is PitSystem.QUICK_LONG
    fuels = [0] if masters else list(range(0, max(start[WearArea.FUEL] - car.wear.fuel, 0) + 1))
    tyres: list[Tyre | None] = list(Tyre) if masters else [None, *Tyre]
    allowed = MASTERS_REPAIRABLE if masters else REPAIRABLE
    damaged = [a for a in allowed if car.wear[a] < start[a]]
    repair_sets: list[tuple[WearArea, ...]] = [()]
    for k in range(1, max_repairs(ruleset, car.wear) + 1):
        for combo in combinations_with_replacement(damaged, k):
            if all(car.wear[a] + combo.count(a) <= start[a] for a in set(combo)):
                repair_sets.append(combo)
    plans = []
    for fuel in fuels:
        for tyre in tyres:
            for repairs in repair_sets:
                for long in (False, True) if masters else (False,):
                    if masters and repairs and not long:
                        continue
                    plans.append(PitPlan(tyre=tyre, fuel=fuel, repairs=repairs, long=long))
    return plans
