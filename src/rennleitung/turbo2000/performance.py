"""Performance points (Leistungspunkte, LP) and risk of a race entry.

Two formulas are rulesets (setting ``lp_formula`` / ``cap_formula``):
- ``april2000`` (April 2000 §2): of W, M+d, R, F+e drop the highest, multiply the other three,
  drop the last digit;
- ``original`` (reconstructed from the §4.2 example): W·(M+d)·R·(F+e), last two digits dropped.
The risk of an entry is how far d and e are pushed above 1 (reconstructed).
"""

from __future__ import annotations

from collections.abc import Callable

from rennleitung.turbo2000.config import GameConfig


def april2000_lp(car: int, engine: int, tyres: int, driver: int, d: int, e: int,
                 config: GameConfig) -> int:
    """April 2000 §2."""
    values = sorted((car, engine + d, tyres, driver + e))
    return values[0] * values[1] * values[2] // config.april_lp_divisor


def original_lp(car: int, engine: int, tyres: int, driver: int, d: int, e: int,
                config: GameConfig) -> int:
    """The base rule as the §4.2 Formel 1000 example pins it down."""
    return car * (engine + d) * tyres * (driver + e) // config.original_lp_divisor


LP_FORMULAS: dict[str, Callable[[int, int, int, int, int, int, GameConfig], int]] = {
    "april2000": april2000_lp,
    "original": original_lp,
}


def available_lp(car: int, engine: int, tyres: int, driver: int, d: int, e: int,
                 config: GameConfig) -> int:
    """LP an entry may split between qualifying and sections."""
    return LP_FORMULAS[config.lp_formula](car, engine, tyres, driver, d, e, config)


def cap_lp(car: int, engine: int, tyres: int, driver: int, d: int, e: int,
           config: GameConfig) -> int:
    """LP compared with the number of a Formel N (April 2000 §4.2)."""
    return LP_FORMULAS[config.cap_formula](car, engine, tyres, driver, d, e, config)


def section_points(planned: int, qualifying: int, config: GameConfig) -> int:
    """Track points a section scores when the car has no mishap (reconstructed, rules version
    2): what the entry put into it, at most ``qualifying_pace_percent`` of its Q, the pace it
    showed in qualifying; so LP in Q count in every field, not only when the grid is full."""
    if config.qualifying_pace_percent <= 0:
        return planned
    return min(planned, qualifying * config.qualifying_pace_percent // 100)


def risk(d: int, e: int) -> int:
    """Dice rolled per section: every step of d and e above 1 is one die."""
    return (d - 1) + (e - 1)


def wuerfe_from_dice(risk_value: int, dice: list[int], config: GameConfig) -> int:
    """Würfe of one section from the dice rolled for it (setting ``risk_model``)."""
    if config.risk_model == "sixes":
        return sum(1 for value in dice if value == config.wurf_face)
    if risk_value <= 0:
        return 0
    return max(0, risk_value + sum(dice) - config.risk_offset)


def wuerfe_rule(risk_value: int, dice: list[int], config: GameConfig,
                english: bool = False) -> str:
    """The rule that made a section's Würfe, with its numbers, for the team report (a player
    plans his push from it; "Würfel 5 5: 2 Würfe" alone did not say why); in both languages,
    or English only for an English team's report."""
    wuerfe = wuerfe_from_dice(risk_value, dice, config)
    if english:
        if config.risk_model == "sixes":
            return f"{wuerfe} × {config.wurf_face} among {len(dice)} dice = {wuerfe} throws"
        if risk_value <= 0:
            return "risk 0, no dice = 0 throws"
        floor = ", at least 0" if risk_value + sum(dice) < config.risk_offset else ""
        return (f"risk {risk_value} + {' + '.join(map(str, dice))} − {config.risk_offset}"
                f"{floor} = {wuerfe} throws")
    if config.risk_model == "sixes":
        return f"{wuerfe} × {config.wurf_face} unter {len(dice)} Würfeln / {wuerfe} × " \
            f"{config.wurf_face} among {len(dice)} dice = {wuerfe} Würfe"
    if risk_value <= 0:
        return "Risiko 0, keine Würfel / risk 0, no dice = 0 Würfe"
    terms = " + ".join(map(str, dice))
    floor = ", mindestens 0 / at least 0" if risk_value + sum(dice) < config.risk_offset else ""
    return f"Risiko / risk {risk_value} + {terms} − {config.risk_offset}{floor} = {wuerfe} Würfe"


def dice_for(risk_value: int, config: GameConfig) -> int:
    """How many dice a section rolls for a car of this risk (none without push)."""
    if config.risk_model == "sixes":
        return risk_value
    return config.risk_dice if risk_value > 0 else 0


def consequence(wuerfe: int, config: GameConfig) -> str:
    """April 2000 §3: the risk table; the last line holds for that many Würfe and more."""
    table = config.risk_table
    return table[min(wuerfe, len(table) - 1)]
