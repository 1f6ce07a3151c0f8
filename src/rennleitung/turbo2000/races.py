"""Step 6: all races of the round, run at the same time (April 2000 §4: a driver and a part start
in one race per round; taking the parts out of stock for the race enforces that).

A race (reconstructed, see ``docs/turbo2000/rules.md``): qualifying by the LP put into Q (ties:
higher LP, then lot), the first ``grid`` cars are qualified; in each section every running car
rolls ``risk`` dice and the number of sixes (Würfe) is looked up in the April 2000 risk table (§3);
cars that finish every section are placed, ranked by track points (ties: Q, then lot). Series
rules: §4.1–§4.6; rating gains §5; WM points only in Formel I.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.config import RaceTemplate
from rennleitung.turbo2000.driver_ratings import NOT_QUALIFIED, PLACED, QUALIFIED, race_gain
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import Announcement, Driver, Part, RallyRecord
from rennleitung.turbo2000.performance import (
    available_lp,
    cap_lp,
    consequence,
    dice_for,
    risk,
    section_points,
    wuerfe_from_dice,
    wuerfe_rule,
)
from rennleitung.turbo2000.sheet import RaceEntry
from rennleitung.turbo2000.standings import still_scoring
from rennleitung.turbo2000.turn import RaceSheet, Turn


@dataclass(frozen=True)
class Effect:
    """What a line of the risk table does to a car in one section."""

    scores: bool = True
    wear: str = ""
    destroys: str = ""
    injures: bool = False


EFFECTS: dict[str, Effect] = {
    "-": Effect(),
    "M": Effect(wear="M"),
    "W": Effect(wear="W"),
    "MMM": Effect(wear="MMM"),
    "WWW": Effect(wear="WWW"),
    "Box": Effect(scores=False),
    "Dreher": Effect(scores=False),
    "Reifenschaden": Effect(scores=False, destroys="R"),
    "Motorschaden": Effect(scores=False, destroys="M"),
    "Wagenschaden": Effect(scores=False, destroys="W"),
    "Totalschaden": Effect(scores=False, destroys="WMR"),
    "Unfall": Effect(scores=False, destroys="WMR", injures=True),
}
"""April 2000 §3 consequences; a car that loses a part retires (reconstructed)."""


@dataclass
class Car:
    """One entry in one race, with what happens to it."""

    team: str
    entry: RaceEntry
    driver: Driver
    parts: dict[str, Part]
    lp: int
    risk: int
    started_as: str = ""
    """The driver's rating as he started (the gain comes after the race)."""
    lot: float = 0.0
    points: int = 0
    wear: str = ""
    destroyed: set[str] = field(default_factory=set)
    retired: str = ""
    injured: bool = False
    outcome: str = NOT_QUALIFIED
    place: int = 0
    grid_place: int = 0
    """Place in qualifying (1 = best Q)."""
    grid_q: int = 0
    """The Q that counts for the grid: the entry's, or 0 after a mishap in qualifying."""
    story: list[str] = field(default_factory=list)
    story_en: list[str] = field(default_factory=list)  # the same, English only (issue 24)
    """Each section as the team report tells it: dice, Würfe, consequence, track points."""


def _entry_problem(turn: Turn, team: str, entry: RaceEntry, field_name: str, de: str,
                   en: str) -> None:
    turn.reject(team, Problem(entry.line, field_name, de, en))


Why = tuple[str, str] | None
"""Why an entry may not start (German, English), or None when it may."""


def _formel_n_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    """April 2000 §4.2: the LP available by the original rule may not exceed the formula."""
    parts, entry = car.parts, car.entry
    cap = cap_lp(parts["W"].rating, parts["M"].rating, parts["R"].rating,
                 car.driver.whole_rating, entry.d, entry.e, turn.config)
    if cap > template.lp_cap:
        turn.count(f"cap_refused:{template.code}")
        return (f"{cap} LP (Originalregel) über {template.lp_cap} (§4.2)",
                f"{cap} LP (original rule) above {template.lp_cap} (§4.2)")
    return None


def _stockcar_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    """April 2000 §4.4: a minimum risk."""
    if car.risk < template.min_risk:
        return (f"Risiko {car.risk} unter dem Mindestrisiko {template.min_risk} (§4.4)",
                f"risk {car.risk} below the minimum risk {template.min_risk} (§4.4)")
    return None


def _junior_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    """April 2000 §4.5: only teams with no WM points in the last evaluation's eternal list."""
    if turn.state.wm_points.get(car.team, 0) > 0:
        return ("nur Rennställe ohne WM-Punkte (§4.5)", "only teams without WM points (§4.5)")
    return None


def _formel2_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    """April 2000 §4.1: no entry for another race this round, not the last Formel II winner."""
    if any(e.race != car.entry.race for e in turn.sheets[car.team].entries):
        return ("Formel II nur ohne Meldung für ein anderes Rennen (§4.1)",
                "Formel II only without an entry for any other race (§4.1)")
    if turn.state.last_formel2_winner == car.team:
        return ("Sieger des letzten Formel-II-Rennens darf nicht starten (§4.1)",
                "the winner of the last Formel II race may not start (§4.1)")
    return None


def _rallye_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    return _rally_problem(turn, car.team, car.entry, car) if stage > 1 else None


def _no_problem(turn: Turn, car: Car, template: RaceTemplate, stage: int) -> Why:
    return None


SERIES_CONDITIONS: dict[str, Callable[[Turn, Car, RaceTemplate, int], Why]] = {
    "formel1": _no_problem,
    "formel2": _formel2_problem,
    "formel_n": _formel_n_problem,
    "dragster": _no_problem,
    "stockcar": _stockcar_problem,
    "junior": _junior_problem,
    "rallye": _rallye_problem,
}
"""The entry condition of each series (April 2000 §4.1–§4.6)."""


def _rally_problem(turn: Turn, team: str, entry: RaceEntry, car: Car) -> tuple[str, str] | None:
    """April 2000 §4.6, the four conditions for the stages after the first."""
    record = turn.state.rally.get(entry.driver)
    last_allowed = (record.placed_count - turn.config.rally_excluded_last) if record else 0
    if record is None or record.team != team or record.place > last_allowed:
        return ("Fahrer war in der letzten Etappe nicht (oder als Letzter/Vorletzter) plaziert "
                "(§4.6 Bed. 1)", "driver was not placed in the last stage, or last or second-"
                "last (§4.6 cond. 1)")
    if car.parts["W"] != record.car or car.parts["M"] != record.engine:
        return (f"Wagen und Motor müssen {record.car.notation()} und {record.engine.notation()} "
                "sein (§4.6 Bed. 2)", f"car and engine must be {record.car.notation()} and "
                f"{record.engine.notation()} (§4.6 cond. 2)")
    if car.parts["R"].rating != record.tyre_rating:
        return (f"Reifen müssen Kennzahl {record.tyre_rating} haben (§4.6 Bed. 3)",
                f"tyres must have rating {record.tyre_rating} (§4.6 cond. 3)")
    if entry.qualifying != record.track_points:
        return (f"Q muss {record.track_points} sein (Streckenpunkte der letzten Etappe, §4.6 "
                "Bed. 4)", f"Q must be {record.track_points} (track points of the last stage, "
                "§4.6 cond. 4)")
    return None


def _admit(turn: Turn, team: str, entry: RaceEntry,
           announcements: dict[str, Announcement]) -> Car | None:
    """Check an entry against the state; on success its parts leave the stock for the race."""
    state, config = turn.state, turn.config
    announcement = announcements.get(entry.race)
    if announcement is None:
        _entry_problem(turn, team, entry, entry.race, "Rennen ist in dieser Runde nicht "
                       "ausgeschrieben", "race is not announced this round")
        return None
    template = config.race(entry.race)
    driver = state.drivers.get(entry.driver)
    if driver is None or driver.team != team:
        _entry_problem(turn, team, entry, entry.driver, "Fahrer nicht unter Vertrag",
                       "driver not under contract")
        return None
    if driver.out_in_round == state.round:
        _entry_problem(turn, team, entry, entry.driver, "Fahrer ist nach einem Unfall verletzt",
                       "driver is injured after an accident")
        return None
    stock = state.teams[team]
    parts: dict[str, Part] = {}
    for spec in (entry.car, entry.engine, entry.tyres):
        part = spec.part()
        if part is None or stock.count(part) < 1:
            _entry_problem(turn, team, entry, spec.notation(), "Komponente nicht (mehr) im Lager",
                           "component not (or no longer) in stock")
            return None
        parts[spec.kind] = part
    if len(entry.sections) != template.sections:
        _entry_problem(turn, team, entry, "A", f"{template.name} hat {template.sections} "
                       "Abschnitte", f"{template.name} has {template.sections} sections")
        return None
    lp = available_lp(parts["W"].rating, parts["M"].rating, parts["R"].rating,
                      driver.whole_rating, entry.d, entry.e, config)
    spent = entry.qualifying + sum(entry.sections)
    if spent > lp:
        _entry_problem(turn, team, entry, "Q/A", f"{spent} LP verteilt, nur {lp} vorhanden (§2)",
                       f"{spent} LP split, only {lp} available (§2)")
        return None
    car = Car(team, entry, driver, parts, lp, risk(entry.d, entry.e), driver.notation())
    problem = SERIES_CONDITIONS[template.series](turn, car, template, announcement.stage)
    if problem:
        _entry_problem(turn, team, entry, template.code, *problem)
        return None
    for part in parts.values():
        stock.remove(part)
    return car


def _run_section(turn: Turn, code: str, number: int, car: Car, track_points: int) -> None:
    config = turn.config
    dice = turn.roll_many(dice_for(car.risk, config), config.die_sides,
                          f"{code} A{number} {car.driver.name}")
    wuerfe = wuerfe_from_dice(car.risk, dice, config)
    result = consequence(wuerfe, config)
    turn.count("section")
    turn.count(f"row:{result}")
    effect = EFFECTS[result]
    car.wear += effect.wear
    planned, track_points = track_points, section_points(track_points, car.entry.qualifying,
                                                         config)
    if effect.scores:
        car.points += track_points
    if effect.destroys:
        car.destroyed.update(effect.destroys)
        car.retired = result
        car.injured = effect.injures
    if result != "-":
        turn.say(f"{code} A{number} {car.driver.name}: {wuerfe} Würfe -> {result}")
    rolled = " ".join(map(str, dice)) if dice else "keine / none"
    car.story.append(f"    A{number}: Würfel / dice {rolled}: "
                     f"{wuerfe_rule(car.risk, dice, config)} -> "
                     f"{_what_happened(result, effect)}, {track_points if effect.scores else 0}"
                     f" von {track_points} SP" + _paced(planned, track_points, car))
    car.story_en.append(f"    A{number}: dice {_en(rolled)}: "
                        f"{wuerfe_rule(car.risk, dice, config, english=True)} -> "
                        f"{_en(_what_happened(result, effect))}, "
                        f"{track_points if effect.scores else 0} of {track_points} track points"
                        + _paced(planned, track_points, car, english=True))


def _qualifying_run(turn: Turn, code: str, car: Car, full: bool) -> int:
    """Reconstructed (rules version 2, ``qualifying_risk``): a pushed car rolls its dice in
    qualifying as in a section; a mishap that scores nothing sets its Q for the grid to 0, one
    that destroys a part puts it out before the start; wear counts as in a section. So the LP
    a push buys are not free in qualifying, where a full grid is decided. In a ``full`` grid
    (more entries than places) the roll counts as ``qualifying_full_grid_push`` steps more
    push (rules version 3), and with ``full_grid_every_car_rolls`` a car that is not pushed
    rolls too, as if pushed those steps (rules version 5): in a full grid no place is safe."""
    config = turn.config
    extra = config.qualifying_full_grid_push if full else 0
    if car.risk <= 0 and not (extra > 0 and config.full_grid_every_car_rolls):
        return car.entry.qualifying
    dice = turn.roll_many(dice_for(car.risk if car.risk > 0 else extra, config),
                          config.die_sides, f"{code} Q {car.driver.name}")
    wuerfe = wuerfe_from_dice(car.risk + extra, dice, config)
    result = consequence(wuerfe, config)
    turn.count(f"qualifying:{result}")
    effect = EFFECTS[result]
    car.wear += effect.wear
    if effect.destroys:
        car.destroyed.update(effect.destroys)
        car.retired, car.injured = result, effect.injures
    if result != "-":
        turn.say(f"{code} Q {car.driver.name}: {wuerfe} Würfe -> {result}")
    rolled = " ".join(map(str, dice)) if dice else "keine / none"
    counts = car.entry.qualifying if effect.scores else 0
    grid = (f" (volles Feld / full grid: {car.risk} + {extra})", f" (full grid: {car.risk} + "
            f"{extra})") if extra else ("", "")
    car.story.append(f"    Q: Würfel / dice {rolled}: "
                     f"{wuerfe_rule(car.risk + extra, dice, config)}{grid[0]} -> "
                     f"{_what_happened(result, effect)}, Q zählt / counts {counts}")
    car.story_en.append(f"    Q: dice {_en(rolled)}: "
                        f"{wuerfe_rule(car.risk + extra, dice, config, english=True)}{grid[1]}"
                        f" -> {_en(_what_happened(result, effect))}, Q counts {counts}")
    return counts


def _en(both: str) -> str:
    """The English half of a ``de / en`` text."""
    return both.partition(" / ")[2] or both


def _paced(planned: int, track_points: int, car: Car, english: bool = False) -> str:
    """The report says when the qualifying pace capped a section (rules version 2)."""
    if planned <= track_points:
        return ""
    if english:
        return (f" (A {planned} above the qualifying pace {car.entry.qualifying}: counts "
                f"{track_points})")
    return (f" (A {planned} über dem Q-Tempo {car.entry.qualifying}: zählt {track_points} / "
            f"above the qualifying pace, counts {track_points})")


_HAPPENINGS: dict[str, str] = {
    "-": "nichts / nothing",
    "Box": "Boxenstopp / pit stop",
    "Dreher": "Dreher / spin",
    "Reifenschaden": "Reifenschaden, Reifen zerstört, ausgefallen / tyres destroyed, retired",
    "Motorschaden": "Motorschaden, Motor zerstört, ausgefallen / engine destroyed, retired",
    "Wagenschaden": "Wagenschaden, Wagen zerstört, ausgefallen / car destroyed, retired",
    "Totalschaden": "Totalschaden, W, M und R zerstört, ausgefallen / all destroyed, retired",
    "Unfall": "Unfall, W, M und R zerstört, Fahrer verletzt / accident, driver injured",
}


_OUTCOME_EN = {QUALIFIED: "qualified", NOT_QUALIFIED: "not qualified"}


def _why_out(result: str, english: bool = False) -> str:
    """Why a car did not start, as the results sheet names it (German: the table's word)."""
    return _en(_HAPPENINGS.get(result, result)) if english else result


def _what_happened(result: str, effect: Effect) -> str:
    if effect.wear:
        return f"Verschleiß / wear {effect.wear}"
    return _HAPPENINGS.get(result, result)


def return_parts(turn: Turn, car: Car) -> list[Part]:
    """Wear letters lower the ratings for good; destroyed parts are gone. Returns what is back
    in stock."""
    stock = turn.state.teams[car.team]
    back = []
    for kind, part in car.parts.items():
        if kind in car.destroyed:
            continue
        worn = max(turn.config.min_component_rating, part.rating - car.wear.count(kind))
        stock.add(Part(part.maker, part.kind, worn))
        back.append(Part(part.maker, part.kind, worn))
    return back


def _award(turn: Turn, template: RaceTemplate, placed: list[Car], pay_prizes: bool) -> None:
    state, config = turn.state, turn.config
    scored: set[str] = set()
    for car in placed:
        if pay_prizes and car.place <= len(template.prizes):
            turn.pay(car.team, template.prizes[car.place - 1],
                     f"Preisgeld {template.name} Platz {car.place}",
                     f"prize money {template.name} place {car.place}")
        if template.series == "formel1" and car.place <= len(config.wm_points):
            points = config.wm_points[car.place - 1]
            state.wm_points[car.team] = state.wm_points.get(car.team, 0) + points
        if template.series == "formel1" and car.place <= len(config.maker_wm_points):
            points = config.maker_wm_points[car.place - 1]
            for part in car.parts.values():
                if config.maker_points_once_per_race and part.maker in scored:
                    continue
                if still_scoring(state, part.maker) and points:
                    scored.add(part.maker)
                    state.wm_points[part.maker] = state.wm_points.get(part.maker, 0) + points
                    turn.say(f"WM-Punkte {points} an Hersteller {part.maker} ({part.notation()})")
    if template.series == "formel2":
        winner = placed[0] if placed else None
        state.last_formel2_winner = winner.team if winner else None
        if winner and template.constructors_prize:
            share = template.constructors_prize // len(winner.parts)
            for part in winner.parts.values():
                if still_scoring(state, part.maker):
                    turn.pay(part.maker, share, f"Konstrukteursprämie {part.notation()} (§4.1)",
                             f"maker's bonus {part.notation()} (§4.1)")
                    turn.race_note(f"Konstrukteursprämie {amount(share)} an {part.maker} "
                                   f"({part.notation()}, §4.1)", f"maker's bonus "
                                   f"{amount(share)} to {part.maker} ({part.notation()}, §4.1)")


def close_rally_stage(turn: Turn, announcement: Announcement, placed: list[Car]) -> bool:
    """Keep what the next stage must match; True when prizes are due (last stage or early end)."""
    state, config = turn.state, turn.config
    state.rally_stage_done = announcement.stage
    early = len(placed) < config.rally_min_finishers
    if early or announcement.stage >= announcement.stages:
        if early and announcement.stage < announcement.stages:
            state.rally_closed = True
            turn.race_note(f"Rallye endet vorzeitig: nur {len(placed)} im Ziel (§4.6)",
                           f"rally ends early: only {len(placed)} finished (§4.6)")
        state.rally = {}
        return True
    state.rally = {
        car.driver.name: RallyRecord(
            car.team,
            Part(car.parts["W"].maker, "W", max(config.min_component_rating,
                                                car.parts["W"].rating - car.wear.count("W"))),
            Part(car.parts["M"].maker, "M", max(config.min_component_rating,
                                                car.parts["M"].rating - car.wear.count("M"))),
            car.parts["R"].rating, car.points, car.place, len(placed))
        for car in placed
    }
    return False


def run_race(turn: Turn, announcement: Announcement, cars: list[Car]) -> list[Car]:
    """One race; returns the placed cars in order.

    The race's header and result are published before its prizes, so that a constructors' prize
    or the early end of a Rallye stands under the race it belongs to.
    """
    state, config = turn.state, turn.config
    template = config.race(announcement.code)
    code = template.code
    for car in cars:
        car.lot = turn.lot(f"{code} {car.driver.name}")
        car.grid_q = _qualifying_run(turn, code, car, len(cars) > template.grid) \
            if config.qualifying_risk else car.entry.qualifying
    order = sorted(cars, key=lambda c: (bool(c.retired), -c.grid_q, -c.lp, c.lot))
    for grid_place, car in enumerate(order, start=1):
        car.grid_place = grid_place
    qualified = [car for car in order[:template.grid] if not car.retired]
    turn.say(f"{code} Qualifikation: " + ", ".join(
        f"{c.driver.name} Q{c.entry.qualifying}" for c in order))
    for car in qualified:
        car.outcome = QUALIFIED
    for number in range(1, template.sections + 1):
        for car in qualified:
            if not car.retired:
                _run_section(turn, code, number, car, car.entry.sections[number - 1])
    if template.series == "dragster":
        placed = list(qualified)
    else:
        finishers = [c for c in qualified if not c.retired]
        placed = sorted(finishers, key=lambda c: (-c.points, -c.entry.qualifying, c.lot))
    for place, car in enumerate(placed, start=1):
        car.outcome, car.place = PLACED, place
    _publish_race(turn, template, announcement, order, placed)
    pay = True
    if template.series == "rallye":
        pay = close_rally_stage(turn, announcement, placed)
    _award(turn, template, placed, pay)
    for car in cars:
        gain = race_gain(car.outcome, car.place, template.series, config)
        car.driver.rating += gain
        if car.injured:
            car.driver.rating -= config.injury_penalty
            car.driver.out_in_round = state.round + 1
        back = return_parts(turn, car)
        car.story.append("    zurück ins Lager / back in stock: "
                         + (" ".join(p.notation() for p in back) or "nichts / nothing"))
        car.story_en.append("    back in stock: "
                            + (" ".join(p.notation() for p in back) or "nothing"))
    _tell_teams(turn, template, announcement, order)
    return placed


def _stage(announcement: Announcement) -> str:
    return f" Etappe {announcement.stage}/{announcement.stages}" if announcement.stage else ""


def _publish_race(turn: Turn, template: RaceTemplate, announcement: Announcement,
                  order: list[Car], placed: list[Car]) -> None:
    stage = _stage(announcement)
    dragster = template.series == "dragster"
    stage_en = f" stage {announcement.stage}/{announcement.stages}" if announcement.stage else ""
    sheet = RaceSheet(f"{template.name} ({template.code}){stage}: {len(order)} Meldungen",
                      "Q" if dragster else "SP", title_en=f"{template.name} ({template.code})"
                      f"{stage_en}: {len(order)} entries")
    for car in placed:
        score = car.entry.qualifying if dragster else car.points
        sheet.rows.append((f"{car.place}.", car.started_as, car.team, str(score),
                           " ".join(p.notation() for p in car.parts.values())))
    turn.races.append(sheet)
    if order and not dragster:  # a Dragster's score column is its Q already
        grid = min(template.grid, len(order))
        out = " (nicht qualifiziert / not qualified)"

        def grid_list(out: str, english: bool = False) -> str:
            return ", ".join(
                f"{c.grid_place}. {c.driver.name} ({c.team}) Q {c.entry.qualifying}"
                + (f" ({_why_out(c.retired, english)})" if c.retired
                   and c.outcome == NOT_QUALIFIED
                   else "" if c.outcome != NOT_QUALIFIED else out) for c in order)

        turn.race_note(f"Qualifikation / qualifying ({grid} von / of {len(order)} am Start / "
                       "on the grid): " + grid_list(out), f"qualifying ({grid} of {len(order)} "
                       "on the grid): " + grid_list(" (not qualified)", english=True))
    dropped = [c for c in order if c.outcome == QUALIFIED]
    if dropped:
        turn.race_note("qualifiziert: " + ", ".join(
            f"{c.driver.name} ({c.team}, {c.retired})" for c in dropped), "qualified: "
            + ", ".join(f"{c.driver.name} ({c.team}, {_why_out(c.retired, True)})"
                        for c in dropped))


def _tell_teams(turn: Turn, template: RaceTemplate, announcement: Announcement,
                order: list[Car]) -> None:
    stage = _stage(announcement)
    grid = min(template.grid, len(order))
    for car in order:
        status = car.outcome if car.outcome != PLACED else f"Platz {car.place}"
        said = _OUTCOME_EN.get(car.outcome, car.outcome) if car.outcome != PLACED \
            else f"place {car.place}"
        if car.retired:
            status += f" (ausgefallen: {car.retired})"
            said += f" (retired: {car.retired})"
        if car.wear:
            status += f", Verschleiß {car.wear}"
            said += f", wear {car.wear}"
        parts = " ".join(p.notation() for p in car.parts.values())
        sections = '/'.join(map(str, car.entry.sections)) or '-'
        head = f"  {template.name}{stage}: {car.started_as} LP {car.lp}"
        turn.tell_race(car.team, [
            f"{head}, Risiko {car.risk}: {status}, {car.points} Streckenpunkte, jetzt / now "
            f"{car.driver.notation()}",
            f"    {parts}, d={car.entry.d} e={car.entry.e}, Q {car.entry.qualifying}, "
            f"Abschnitte / sections {sections}",
            f"    Qualifikation / qualifying: {car.grid_place}. von {len(order)}, "
            f"{grid} Startplätze / grid places",
            *car.story], [
            f"{head}, risk {car.risk}: {said}, {car.points} track points, now "
            f"{car.driver.notation()}",
            f"    {parts}, d={car.entry.d} e={car.entry.e}, Q {car.entry.qualifying}, "
            f"sections {sections}",
            f"    qualifying: {car.grid_place} of {len(order)}, {grid} grid places",
            *car.story_en])


def run_races(turn: Turn) -> None:
    """Admit every entry first (parts leave the stock), then run the races in calendar order."""
    turn.begin("6 Rennen")
    announcements = {a.code: a for a in turn.state.announcements}
    fields: dict[str, list[Car]] = {code: [] for code in announcements}
    for team, sheet in sorted(turn.sheets.items()):
        for entry in sheet.entries:
            car = _admit(turn, team, entry, announcements)
            if car:
                fields[entry.race].append(car)
    for announcement in turn.state.announcements:
        _tally_cap(turn, announcement, fields[announcement.code])
        run_race(turn, announcement, fields[announcement.code])


def _tally_cap(turn: Turn, announcement: Announcement, cars: list[Car]) -> None:
    """Balance study: does a Formel N cap bind? Yes when it refused an entry, or when an entered
    car could not push one step more (d or e) without passing it."""
    template = turn.config.race(announcement.code)
    if template.series != "formel_n" or not cars:
        return

    def fits(car: Car, d: int, e: int) -> bool:
        return cap_lp(car.parts["W"].rating, car.parts["M"].rating, car.parts["R"].rating,
                      car.driver.whole_rating, d, e, turn.config) <= template.lp_cap

    tight = any(not fits(car, car.entry.d + 1, car.entry.e)
                and not fits(car, car.entry.d, car.entry.e + 1) for car in cars)
    turn.count("formel_n_races")
    if tight or turn.tally.get(f"cap_refused:{template.code}"):
        turn.count("formel_n_bound")
