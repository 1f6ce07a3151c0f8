"""What a race page shows, computed from the reader's view of the race (``play/views.py``): the
board overlay, the dashboard, the running order, the event log in one language and, after a
roll, every destination with its cost.

The page never sees the race itself, only the view made for its reader, so nothing the rules
keep secret (another driver's setup or bid before the reveal) can reach it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rennleitung.formula_de.car import CarStatus, Tyre, WearArea
from rennleitung.formula_de.dice import gear_range
from rennleitung.formula_de.event_text import count, plan_text
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race_decisions import AskKind, plan_to_data
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.track import Track
from rennleitung.play.advice import RISK_ORDER, GearHint, MoveHint, Risk
from rennleitung.play.model import ClockEvent, ClockWhat
from rennleitung.play.views import View
from rennleitung.render.board_overlay import CarMark, Destination, Trail, render_overlay
from rennleitung.render.position_svg import CAR_COLOURS, OPTION_COLOURS

AREAS = (WearArea.TYRES, WearArea.BRAKES, WearArea.FUEL, WearArea.BODY, WearArea.ENGINE,
         WearArea.ROAD_HOLDING)

def words(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def colours(seen: View) -> dict[str, str]:
    """One colour per car, by the order of entry (stable for the whole race)."""
    return {car: CAR_COLOURS[n % len(CAR_COLOURS)] for n, (car, _) in enumerate(seen.entries)}


def status_text(seen: View, car: str, lang: str) -> str:
    line = seen.car(car)
    if line is None:
        return words(lang, "am Start", "on the grid")
    de, en = line.status.label_de, line.status.label_en
    if line.halted:
        de, en = "angehalten", "halted"
    return words(lang, de, en)


def cars_on_board(seen: View, lang: str) -> list[CarMark]:
    paint = colours(seen)
    marks = []
    for line in seen.cars:
        if not (line.status.on_track or line.status is CarStatus.FINISHED):
            continue
        wreck = line.status is CarStatus.WRECK
        title = f"{line.driver} ({line.car}) – {line.space_name}, " + status_text(
            seen, line.car, lang)
        mine = line.car == seen.reader.car
        marks.append(CarMark(line.space, line.driver[:3].upper(),
                             "#555555" if wreck else paint[line.car], title, mine,
                             words(lang, "DU", "YOU") if mine else "", line.car))
    return sorted(marks, key=lambda m: m.mine)  # the reader's own car on top


def option_key(track: Track, option: MoveOption) -> str:
    """The form value of a move: its path by space names."""
    return ",".join(track.name_of(s) for s in option.path)


def option_cost(track: Track, option: MoveOption, lang: str) -> str:
    """Where a move ends and everything it costs and triggers, with the rules, in one line."""
    end = track.name_of(option.end)
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


RISK_COLOURS = {"free": OPTION_COLOURS["plain"], "costly": OPTION_COLOURS["costly"],
                "test": "#f59a3c", "eliminated": OPTION_COLOURS["eliminated"]}
"""A destination's colour by its risk (``play/advice.py``): green free, yellow costly, orange
a test, red certain elimination."""
RISK_WORDS = {"free": ("ohne Kosten", "free"), "costly": ("kostet", "costly"),
              "test": ("Test", "test"), "eliminated": ("SCHEIDET AUS", "ELIMINATED")}


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
    risk: str = "free"
    """free, costly, test or eliminated (``play/advice.Risk``)."""
    notes: tuple[str, ...] = ()
    """What the move leaves: the corner's stops, the warnings in plain words."""


def hint_notes(hint: MoveHint | None, lang: str) -> tuple[str, ...]:
    """A destination's risk, corner stops and warnings as short sentences."""
    if hint is None:
        return ()
    notes = []
    if hint.tests:
        chance = round(hint.passing * 100)
        notes.append(words(lang, f"Test: {chance} % Chance, alle {hint.tests} zu bestehen",
                           f"a test: {chance}% to pass all {hint.tests}")
                     if hint.tests > 1 else
                     words(lang, f"Test: {chance} % Chance, ihn zu bestehen",
                           f"a test: {chance}% to pass it"))
    told = any(w.code.startswith("stops_") for w in hint.warnings)
    if hint.corner and hint.stops_needed and not told:
        notes.append(words(
            lang, f"{hint.stops_made} von {hint.stops_needed} Stopps in Kurve {hint.corner}",
            f"{hint.stops_made} of {hint.stops_needed} stops in corner {hint.corner}"))
    notes += [w.text(lang) for w in hint.warnings]
    return tuple(notes)


def destinations(track: Track, ask: Question | None, lang: str,
                 hints: tuple[object, ...] = ()) -> list[Choice]:
    """The least risky, then cheapest option per end space of a move question (all are listed
    by key), coloured by its risk (``hints``: the view's ``MoveHint`` per option)."""
    if ask is None or ask.kind is not AskKind.MOVE:
        return []
    best: dict[int, tuple[MoveOption, MoveHint | None]] = {}
    for n, option in enumerate(ask.moves):
        found = hints[n] if n < len(hints) else None
        hint = found if isinstance(found, MoveHint) else None
        current = best.get(option.end)
        if current is None or _weight(option, hint) < _weight(*current):
            best[option.end] = (option, hint)
    choices = []
    for o, hint in sorted(best.values(), key=lambda pair: -len(pair[0].path)):
        risk = hint.risk.value if hint is not None else _plain_risk(o)
        notes = hint_notes(hint, lang)
        shown = risk == "eliminated" and o.eliminated is None
        head = words(lang, *RISK_WORDS[risk]) if shown else ""
        if hint is not None and hint.tests:  # the odds first: "a test: 95% to pass it; …"
            head, notes_listed = notes[0], notes[1:]
        else:
            notes_listed = notes
        listed = "; ".join(p for p in (head, option_charges(o, lang), *notes_listed) if p)
        cost = "; ".join((option_cost(track, o, lang), *notes))
        choices.append(Choice(option_key(track, o), track.name_of(o.end), cost,
                              RISK_COLOURS[risk], listed, risk, notes))
    return choices


def preselected(choices: list[Choice]) -> str:
    """The destination chosen when the list opens: the farthest free one, else the farthest
    costly one; never a test or an elimination (the driver must pick those himself)."""
    for risk in ("free", "costly"):
        for choice in choices:
            if choice.risk == risk:
                return choice.key
    return ""


def _plain_risk(option: MoveOption) -> str:
    """A risk without the view's hint (a question the reader does not own)."""
    if option.eliminated is not None:
        return "eliminated"
    if option.contacts or option.wall_tests or option.dangerous:
        return "test"
    return "costly" if option.brakes or option.tyres else "free"


def _weight(option: MoveOption, hint: MoveHint | None) -> tuple[int, int, int]:
    risk = hint.risk if hint is not None else Risk(_plain_risk(option))
    return (RISK_ORDER.index(risk), option.brakes + option.tyres + len(option.dangerous)
            + len(option.contacts) + option.wall_tests, len(option.path))


def overlay(seen: View, choices: list[Choice], lang: str) -> str:
    track = seen.track
    if track is None:
        return ""
    marks = [Destination(track.space(c.space), c.key, c.colour, c.cost, c.risk)
             for c in choices]
    return render_overlay(track, cars_on_board(seen, lang), marks, seen.dangerous,
                          trails=last_moves(seen, lang))


def last_moves(seen: View, lang: str) -> list[Trail]:
    """Each car's last move on the board, from where it stood to where it ended (the events
    are public), so a car never seems to jump."""
    track = seen.track
    if track is None:
        return []
    paint = colours(seen)
    here = {line.car for line in seen.cars if line.status.on_track}
    moves: dict[str, list[tuple[str, ...]]] = {}
    complete = 0
    for event in reversed(seen.events):  # the newest first: two moves per car are enough
        if event.kind is not EventKind.MOVE or event.car not in here:
            continue
        path = event.get("path")
        if not isinstance(path, list) or not path:
            continue  # a car that stayed put (blocked) drew no line
        made = moves.setdefault(event.car, [])
        if len(made) < 2:
            made.append(tuple(str(p) for p in path))
            complete += len(made) == 2
            if complete == len(here):
                break
    trails = []
    for car, made in moves.items():
        start = (made[1][-1],) if len(made) > 1 else ()
        names = start + made[0]
        title = words(lang, f"letzter Zug von {seen.driver(car)}",
                      f"last move of {seen.driver(car)}")
        trails.append(Trail(tuple(track.space(n) for n in names), paint.get(car, "#888"),
                            title))
    return trails


def dashboard(seen: View, car: str, lang: str) -> dict[str, Any]:
    """One car's instruments: gear, tyres and their laps, the wear areas, karma, laps, box
    (the reader's own car: its setup is his to see)."""
    line = seen.car(car)
    if line is None or line.wear is None or line.tyre is None:
        return {"car": car, "driver": seen.driver(car), "ready": False}
    tyre: Tyre = line.tyre
    return {
        "car": car,
        "driver": line.driver,
        "ready": True,
        "colour": colours(seen)[car],
        "gear": line.gear,
        "tyre": words(lang, tyre.label_de, tyre.label_en),
        "tyre_laps": line.tyre_laps,
        "wear": [(words(lang, a.label_de, a.label_en), line.wear[a]) for a in AREAS],
        "reserve": line.wear.box,
        "karma": line.karma,
        "laps": line.laps,
        "box": line.box,
        "status": status_text(seen, car, lang),
        "space": line.space_name,
        "pit_plan": _plan_words(line.pit_plan, lang),
        "corner": _corner_words(line, lang),
    }


def _corner_words(line: Any, lang: str) -> str:
    """Stops made and still needed in the corner the car stands in ("" off a corner)."""
    if not line.stops_needed:
        return ""
    left = max(line.stops_needed - line.corner_stops, 0)
    return words(lang, f"{line.corner_stops} von {line.stops_needed} Stopps, noch {left} nötig",
                 f"{line.corner_stops} of {line.stops_needed} stops, {left} still needed")


def _plan_words(plan: Any, lang: str) -> str:
    if plan is None:
        return ""
    return plan_text(plan_to_data(plan), lang)


POINT_WORDS = {
    WearArea.FUEL: ("Verbrauchspunkt", "Verbrauchspunkte", "fuel point", "fuel points"),
    WearArea.BRAKES: ("Bremspunkt", "Bremspunkte", "brake point", "brake points"),
    WearArea.ENGINE: ("Motorpunkt", "Motorpunkte", "engine point", "engine points"),
    WearArea.TYRES: ("Reifenpunkt", "Reifenpunkte", "tyre point", "tyre points"),
    WearArea.BODY: ("Karosseriepunkt", "Karosseriepunkte", "body point", "body points"),
    WearArea.ROAD_HOLDING: ("Straßenlagepunkt", "Straßenlagepunkte", "road-holding point",
                            "road-holding points"),
}


def area_points(area: WearArea, points: int, lang: str) -> str:
    """"1 fuel point", "2 Bremspunkte"."""
    one_de, many_de, one_en, many_en = POINT_WORDS[area]
    return words(lang, count(points, one_de, many_de), count(points, one_en, many_en))


def gear_notes(hints: tuple[object, ...], lang: str) -> dict[int, dict[str, Any]]:
    """Per gear: what skipping to it costs (with the rule) and the warnings in plain words."""
    notes: dict[int, dict[str, Any]] = {}
    for hint in hints:
        if not isinstance(hint, GearHint):
            continue
        cost = ", ".join(area_points(area, points, lang) for area, points in hint.cost)
        text = (words(lang, f"überspringt {hint.skipped}: kostet {cost}",
                      f"skips {hint.skipped}: costs {cost}") + f" ({hint.rule})"
                if hint.cost else "")
        notes[hint.gear] = {"cost": text, "warnings": [w.text(lang) for w in hint.warnings]}
    return notes


def running_order(seen: View, lang: str) -> list[dict[str, Any]]:
    paint = colours(seen)
    return [
        {
            "position": line.position,
            "car": line.car,
            "driver": line.driver,
            "colour": paint.get(line.car, "#888"),
            "laps": line.laps,
            "status": status_text(seen, line.car, lang),
            "gear": line.gear,
            "points": line.points,
        }
        for line in seen.order
    ]


def weather(seen: View, lang: str) -> str:
    current = seen.weather
    if current is None:
        return ""
    return words(lang, current.label_de, current.label_en)


def log_lines(seen: View, lang: str, last: int = 80) -> list[str]:
    """The newest events first, in plain words of the page's language only."""
    return seen.log(lang, last)


def timeout_lines(seen: View, lang: str, last: int = 8) -> list[str]:
    """What the clock did, the newest first: the bot decided because a driver's time ran out,
    took a seat over after missed decisions, gave it back, the race was abandoned."""
    lines = [((seq, 0), words(lang, f"Zeit abgelaufen: der Bot hat für {seen.driver(car)} "
                                    f"entschieden (Entscheidung {seq})",
                              f"Time ran out: the bot decided for {seen.driver(car)} "
                              f"(decision {seq})"))
             for seq, car in seen.timed_out[-last:]]
    lines += [((event.version, 1), clock_line(seen, event, lang))
              for event in seen.info.clock_log[-last:]]
    return [line for _, line in sorted(lines, reverse=True)[:last]]


def clock_line(seen: View, event: ClockEvent, lang: str) -> str:
    """One thing the clock did, in plain words."""
    name = seen.driver(event.car) if event.car else ""
    hours = event.seconds / 3600
    quiet_de = f"{hours:g} Stunde" + ("" if hours == 1 else "n")
    quiet_en = f"{hours:g} hour" + ("" if hours == 1 else "s")
    said = {
        ClockWhat.AWAY: (f"{event.misses}-mal in Folge verpasst: der Bot fährt für {name}, "
                         f"bis {name} zurück ist",
                         f"{event.misses} decisions missed in a row: the bot drives for "
                         f"{name} until {name} is back"),
        ClockWhat.BACK: (f"{name} ist zurück und fährt wieder selbst",
                         f"{name} is back and drives again"),
        ClockWhat.CLOSED: (f"Rennen aufgegeben: {quiet_de} ohne Entscheidung; geschlossen",
                           f"Race abandoned: no decision for {quiet_en}; closed"),
        ClockWhat.BOTS: (f"Rennen aufgegeben: {quiet_de} ohne Entscheidung; die Bots "
                         "fahren für jeden Fahrer, bis er zurück ist",
                         f"Race abandoned: no decision for {quiet_en}; the bots drive for "
                         "every driver until the driver is back"),
    }[event.what]
    return words(lang, *said)


def clock_text(seconds: int) -> str:
    """Seconds as the countdown shows them: ``1:05`` or ``2:01:05``."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def question(seen: View, ask: Question | None, lang: str) -> dict[str, Any] | None:
    """The reader's open question in the form the templates need, or None."""
    if ask is None or seen.track is None:
        return None
    data: dict[str, Any] = {"kind": ask.kind.value, "car": ask.car}
    own = seen.question(ask.car)
    hints: tuple[object, ...] = own.hints if own is not None else ()
    if ask.kind is AskKind.SETUP:
        wear = ask.fixed or ask.suggested
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), wear[a]) for a in AREAS]
        data["box_points"] = wear.box
        data["total"] = wear.on_car + wear.box
        data["points"] = ask.points
        data["box_max"] = ask.box_max
        data["area_minimum"] = ask.area_minimum
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
    elif ask.kind is AskKind.BOX:
        data["boxes"] = list(ask.boxes)
    elif ask.kind is AskKind.TURN:
        data["gears"] = [(g, *gear_range(g)) for g in ask.gears]
        data["gear_hints"] = gear_notes(hints, lang)
        line = seen.car(ask.car)
        current = line.gear if line is not None else 0
        data["default_gear"] = min(ask.gears, key=lambda g: (abs(g - current), -g))
        data["boost"] = ask.boost
        data["soft_bonus"] = ask.soft_bonus
        data["launch_optional"] = ask.launch_optional
        data["pit_plans"] = ask.pit_plans
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), 0) for a in AREAS]
    elif ask.kind is AskKind.MOVE:
        data["roll"] = ask.roll
        data["choices"] = destinations(seen.track, ask, lang, hints)
        data["preselected"] = preselected(data["choices"])
    elif ask.kind is AskKind.PIT:
        data["tyres"] = [(t.value, words(lang, t.label_de, t.label_en)) for t in Tyre]
        data["areas"] = [(a.value, words(lang, a.label_de, a.label_en), 0) for a in AREAS]
        data["long"] = seen.ruleset.pit_system.value if seen.ruleset is not None else ""
    elif ask.kind is AskKind.KARMA:
        data["test"] = ask.test
        data["actions"] = [a.value for a in ask.karma_actions]
    elif ask.kind is AskKind.BID:
        data["most"] = ask.karma
    elif ask.kind is AskKind.ROLL:  # the table's die (issue 29, docs/table.md)
        de, en = ROLL_PURPOSES.get(ask.purpose, (ask.purpose, ask.purpose))
        data["die"] = ask.die
        data["colour"] = words(lang, ask.colour_de, ask.colour_en)
        data["purpose"] = words(lang, de, en)
        data["faces"] = list(ask.faces)
        data["driver"] = seen.driver(ask.car)
    return data


ROLL_PURPOSES: dict[str, tuple[str, str]] = {
    "gear": ("Gangwurf", "gear roll"),
    "start": ("Startwurf (Dresden)", "start roll (Dresden)"),
    "restart": ("Neustart nach Dreher (Masters 10-4-6)", "restart after a spin (Masters 10-4-6)"),
    "weather": ("Wetterwurf (Masters 3)", "weather roll (Masters 3)"),
    "collision": ("Kollisionsprobe (Masters 14)", "collision test (Masters 14)"),
    "wall": ("Mauerprobe (Masters 15)", "wall test (Masters 15)"),
    "engine": ("Motorprobe (Masters 16)", "engine test (Masters 16)"),
    "road_holding": ("Straßenlageprobe (Masters 17)", "road-holding test (Masters 17)"),
    "quick_stop": ("kurzer Boxenstopp (Masters 19-3)", "quick stop (Masters 19-3)"),
    "grid_draw": ("Startplatz auslosen (Dresden Qualifizierung)",
                  "grid draw (Dresden qualifying)"),
    "karma_reroll": ("Karma: neu würfeln (Dresden Karmapool)",
                     "karma reroll (Dresden Karmapool)"),
    "order": ("Reihenfolge (Dresden FD Blitz)", "order (Dresden FD Blitz)"),
}
"""Why the table rolls a die (``RollPurpose``), as the organiser's page names it."""
