"""What a race page shows, computed from the race: the board overlay, the dashboard, the running
order, the event log in one language and, after a roll, every destination with its cost.

This is the one place in ``web/`` that reads the race engine's objects (cars, questions, move
options, events), so a change in the engine's API is followed here only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rennleitung.formula_de.car import CarStatus, Tyre, WearArea
from rennleitung.formula_de.dice import gear_range
from rennleitung.formula_de.event_text import count, plan_text, render
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Ask, AskKind, SetupChoice, plan_to_data
from rennleitung.render.board_overlay import CarMark, Destination, render_overlay
from rennleitung.render.position_svg import CAR_COLOURS, OPTION_COLOURS, option_colour

AREAS = (WearArea.TYRES, WearArea.BRAKES, WearArea.FUEL, WearArea.BODY, WearArea.ENGINE,
         WearArea.ROAD_HOLDING)

def words(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def colours(race: Race) -> dict[str, str]:
    """One colour per car, by the order of entry (stable for the whole race)."""
    return {
        entry.id: CAR_COLOURS[n % len(CAR_COLOURS)]
        for n, entry in enumerate(race.config.entries)
    }


def status_text(race: Race, car: str, lang: str) -> str:
    state = race.cars.get(car)
    if state is None:
        return words(lang, "am Start", "on the grid")
    de, en = state.status.label_de, state.status.label_en
    if car in race.halted:
        de, en = "angehalten", "halted"
    return words(lang, de, en)


def cars_on_board(race: Race, lang: str) -> list[CarMark]:
    paint = colours(race)
    marks = []
    for car in race.grid_order:
        state = race.cars[car]
        if not (state.status.on_track or state.status is CarStatus.FINISHED):
            continue
        wreck = state.status is CarStatus.WRECK
        title = f"{race.driver(car)} ({car}) – {race.track.name_of(state.space)}, " + status_text(
            race, car, lang)
        marks.append(CarMark(state.space, race.driver(car)[:3].upper(),
                             "#555555" if wreck else paint[car], title))
    return marks


def option_key(race: Race, option: MoveOption) -> str:
    """The form value of a move: its path by space names."""
    return ",".join(race.track.name_of(s) for s in option.path)


def option_cost(race: Race, option: MoveOption, lang: str) -> str:
    """Where a move ends and everything it costs and triggers, with the rules, in one line."""
    end = race.track.name_of(option.end)
    return f"{words(lang, f'nach {end}', f'to {end}')}; {option_charges(option, lang)}"


def option_charges(option: MoveOption, lang: str) -> str:
    """Everything a move costs and triggers, with the rules ("free" when nothing)."""
    parts: list[str] = []
    if option.eliminated is not None:
        reason = option.eliminated
        parts.append(words(lang, f"SCHEIDET AUS: {reason.text_de}",
                           f"ELIMINATED: {reason.text_en}") + f" ({reason.rule})")
    if option.brakes:
        parts.append(words(lang, count(option.brakes, "Bremspunkt", "Bremspunkte"),
                           count(option.brakes, "brake point", "brake points"))
                     + " (Masters 10-0-2)")
    if option.tyres:
        parts.append(words(lang, count(option.tyres, "Reifenpunkt", "Reifenpunkte"),
                           count(option.tyres, "tyre point", "tyre points"))
                     + " (Masters 10-0-2)")
    if option.fuel:
        parts.append(words(lang, f"{option.fuel} VP Verbrauch", f"{option.fuel} fuel"))
    if option.overshoot:
        parts.append(words(lang, count(option.overshoot, "Feld", "Felder") + " überschossen",
                           count(option.overshoot, "space", "spaces") + " overshot")
                     + " (Masters 10-1)")
    if option.stop_corner:
        parts.append(words(lang, f"Stopp in Kurve {option.stop_corner}",
                           f"stop in corner {option.stop_corner}") + " (Masters 7-1-1)")
    if option.dangerous:
        n = len(option.dangerous)
        parts.append(words(lang, count(n, "Straßenlagetest auf gefährlichem Feld",
                                       "Straßenlagetests auf gefährlichen Feldern"),
                           count(n, "road-holding test on a dangerous space",
                                 "road-holding tests on dangerous spaces"))
                     + " (Masters 17-0-2)")
    if option.contacts:
        n = len(option.contacts)
        parts.append(words(lang, count(n, "Kollisionstest", "Kollisionstests"),
                           count(n, "collision test", "collision tests"))
                     + " (Masters 14-1)")
    if option.wall_tests:
        parts.append(words(lang, count(option.wall_tests, "Mauertest", "Mauertests"),
                           count(option.wall_tests, "wall test", "wall tests"))
                     + " (Masters 15-0-1)")
    if option.slipstreams:
        parts.append(words(lang, f"{option.slipstreams}× Windschatten",
                           f"{option.slipstreams}× slipstream") + " (Masters 18)")
    if option.blocked:
        parts.append(words(lang, count(option.blocked, "Feld", "Felder") + " blockiert",
                           "blocked by " + count(option.blocked, "space", "spaces"))
                     + " (Dresden Blockierte Spur)")
    if option.spin:
        parts.append(words(lang, "Dreher", "spin") + " (Masters 10-4-1)")
    if option.pit:
        parts.append(words(lang, "in die Boxengasse", "into the pit lane") + " (Masters 19)")
    return "; ".join(parts) or words(lang, "ohne Kosten", "free")


@dataclass(frozen=True, slots=True)
class Choice:
    """One destination as the page lists it."""

    key: str
    space: str
    cost: str
    """The end and the charges (the board's hover text)."""
    colour: str
    listed: str
    """The charges alone: the list shows the end beside them."""


def destinations(race: Race, ask: Ask | None, lang: str) -> list[Choice]:
    """The cheapest option per end space of a move question (all are listed by key)."""
    if ask is None or ask.kind is not AskKind.MOVE:
        return []
    ranking = list(OPTION_COLOURS.values())
    best: dict[int, MoveOption] = {}
    for option in ask.moves:
        current = best.get(option.end)
        if current is None or _cheaper(option, current, ranking):
            best[option.end] = option
    return [
        Choice(option_key(race, o), race.track.name_of(o.end), option_cost(race, o, lang),
               option_colour(o), option_charges(o, lang))
        for o in sorted(best.values(), key=lambda o: -len(o.path))
    ]


def _cheaper(a: MoveOption, b: MoveOption, ranking: list[str]) -> bool:
    def weight(o: MoveOption) -> tuple[int, int, int]:
        return (ranking.index(option_colour(o)), o.brakes + o.tyres + len(o.dangerous),
                len(o.path))
    return weight(a) < weight(b)


def overlay(race: Race, choices: list[Choice], lang: str) -> str:
    marks = [
        Destination(race.track.space(c.space), c.key, c.colour, c.cost) for c in choices
    ]
    return render_overlay(race.track, cars_on_board(race, lang), marks, race.dangerous)


def dashboard(race: Race, car: str, lang: str) -> dict[str, Any]:
    """One car's instruments: gear, tyres and their laps, the wear areas, karma, laps, box."""
    state = race.cars.get(car)
    info = race.info.get(car)
    if state is None or info is None:
        return {"car": car, "driver": race.driver(car), "ready": False}
    tyre: Tyre = state.tyre
    return {
        "car": car,
        "driver": race.driver(car),
        "ready": True,
        "colour": colours(race)[car],
        "gear": state.gear,
        "tyre": words(lang, tyre.label_de, tyre.label_en),
        "tyre_laps": state.tyre_laps,
        "wear": [(words(lang, a.label_de, a.label_en), state.wear[a]) for a in AREAS],
        "reserve": state.wear.box,
        "karma": info.karma,
        "laps": race.laps_done(car),
        "box": state.box,
        "status": status_text(race, car, lang),
        "space": race.track.name_of(state.space),
        "pit_plan": _plan_words(info.pit_plan, lang),
    }


def _plan_words(plan: Any, lang: str) -> str:
    if plan is None:
        return ""
    return plan_text(plan_to_data(plan), lang)


def running_order(race: Race, lang: str) -> list[dict[str, Any]]:
    paint = colours(race)
    rows = []
    for placing in race.classification():
        rows.append({
            "position": placing.position,
            "car": placing.car,
            "driver": placing.driver,
            "colour": paint.get(placing.car, "#888"),
            "laps": placing.laps,
            "status": status_text(race, placing.car, lang),
            "gear": race.cars[placing.car].gear if placing.car in race.cars else 0,
            "points": placing.points,
        })
    return rows


def weather(race: Race, lang: str) -> str:
    current = race.weather.current
    return words(lang, current.label_de, current.label_en)


def log_lines(race: Race, lang: str, last: int = 80) -> list[str]:
    """The newest events first, in plain words of the page's language only."""
    names = race.driver_names()
    return [render(e, lang, names) for e in reversed(race.events[-last:])]


def question(race: Race, ask: Ask | None, lang: str) -> dict[str, Any] | None:
    """The pending question in the form the templates need, or None."""
    if ask is None:
        return None
    data: dict[str, Any] = {"kind": ask.kind.value, "car": ask.car}
    if ask.kind is AskKind.SETUP:
        defaults = race.legal_decisions()[0]
        if not isinstance(defaults, SetupChoice):
            return None
        wear = defaults.wear
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), wear[a]) for a in AREAS]
        data["box_points"] = wear.box
        data["total"] = wear.on_car + wear.box
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
    elif ask.kind is AskKind.BOX:
        data["boxes"] = list(ask.boxes)
    elif ask.kind is AskKind.TURN:
        data["gears"] = [(g, *gear_range(g)) for g in ask.gears]
        current = race.cars[ask.car].gear
        data["default_gear"] = min(ask.gears, key=lambda g: (abs(g - current), -g))
        data["boost"] = ask.boost
        data["soft_bonus"] = ask.soft_bonus
        data["launch_optional"] = ask.launch_optional
        data["pit_plans"] = ask.pit_plans
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), 0) for a in AREAS]
    elif ask.kind is AskKind.MOVE:
        data["roll"] = ask.roll
        data["choices"] = destinations(race, ask, lang)
    elif ask.kind is AskKind.PIT:
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), 0) for a in AREAS]
        data["long"] = race.ruleset.pit_system.value if hasattr(race.ruleset, "pit_system") else ""
    elif ask.kind is AskKind.KARMA:
        data["test"] = ask.test
        data["actions"] = [a.value for a in ask.karma_actions]
    elif ask.kind is AskKind.BID:
        data["most"] = ask.karma
    return data
