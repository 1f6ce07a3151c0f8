"""The event form of record version 1, kept so that records made before events became data
still verify (``docs/formula_de/records.md``, "Record versions").

Until record version 2 every event carried a German and an English sentence and some of its data
as words (``tyre_de``, ``reason_en``, the order of play as comma-joined names), and a record's
``summary.digest`` covers that form. ``v1_form`` rebuilds it, word for word, from today's data
events. The sentences below are frozen: they are what those records hold, mistakes included
("1 Felder", "wählt hart Reifen"); never correct them here (``event_text`` is where sentences
are written now). A data field added to an event after record version 1 must be dropped here
(``_LATER``), or every old record would stop verifying.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rennleitung.formula_de.events import Event, EventKind

_TEXTS: dict[EventKind, tuple[str, str]] = {
    EventKind.CREATED: (
        "Rennen auf {track} nach {ruleset} über {laps} Runden, Würfel-Hash {commitment}",
        "race on {track} under {ruleset} over {laps} laps, dice hash {commitment}",
    ),
    EventKind.GRID: (
        "{driver} startet von Platz {grid} ({how})",
        "{driver} starts from grid slot {grid} ({how_en})",
    ),
    EventKind.WEATHER: (
        "Wetterwurf {result}: {roll_de}, es herrscht {weather_de}{settled_de}",
        "weather roll {result}: {roll_en}, the weather is {weather_en}{settled_en}",
    ),
    EventKind.SETUP: (
        "{driver} wählt {tyre_de} Reifen und das Setup {wear}",
        "{driver} chooses {tyre_en} tyres and the setup {wear}",
    ),
    EventKind.BOX: ("{driver} wählt Box {box}", "{driver} chooses box {box}"),
    EventKind.ROUND: ("Reihenfolge: {order}", "order of play: {order}"),
    EventKind.START_ROLL: (
        "{driver} macht den Startwurf: {result} ({outcome_de})",
        "{driver} makes the start roll: {result} ({outcome_en})",
    ),
    EventKind.STALLED: (
        "{driver} hat den Motor abgewürgt und fährt nächste Runde im 1. Gang an",
        "{driver} stalled and moves off in 1st gear next round",
    ),
    EventKind.SUPER_START: (
        "{driver} hat einen Traumstart: {spaces} Felder ohne Gangwurf",
        "{driver} makes a super start: {spaces} spaces without a gear roll",
    ),
    EventKind.SHIFT: (
        "{driver} schaltet in den {gear}. Gang",
        "{driver} shifts into gear {gear}",
    ),
    EventKind.SKIP_COST: (
        "{driver} überspringt {skipped} Gang/Gänge und streicht {cost_de}",
        "{driver} skips {skipped} gear(s) and crosses out {cost_en}",
    ),
    EventKind.BOOST: (
        "{driver} kündigt den Motor-Boost an (+{gear} Felder, 1 VP Motor)",
        "{driver} announces the engine boost (+{gear} spaces, 1 engine point)",
    ),
    EventKind.ROLL: (
        "{driver} schaltet in den {gear}. Gang und würfelt {result}",
        "{driver} shifts into gear {gear} and rolls {result}",
    ),
    EventKind.MOVE: (
        "{driver} fährt {spaces} Felder nach {end}{extra_de}",
        "{driver} moves {spaces} spaces to {end}{extra_en}",
    ),
    EventKind.NO_MOVE: (
        "{driver} kann nicht fahren und bleibt auf {space}",
        "{driver} cannot move and stays on {space}",
    ),
    EventKind.WEAR: (
        "{driver} streicht {points} VP {area_de} ({reason_de}), bleiben {left}",
        "{driver} crosses out {points} {area_en} point(s) ({reason_en}), {left} left",
    ),
    EventKind.SLIPSTREAM: (
        "{driver} nutzt {count}× den Windschatten",
        "{driver} uses the slipstream {count} time(s)",
    ),
    EventKind.LAP: ("{driver} beendet Runde {lap}", "{driver} completes lap {lap}"),
    EventKind.SPIN: (
        "{driver} dreht sich (letzter VP Reifen) und braucht einen Startwurf",
        "{driver} spins (last tyre point) and needs a restart roll",
    ),
    EventKind.TEST: (
        "{driver}: {test_de} mit dem schwarzen Würfel {result}{modifier} gegen {limit}: "
        "{outcome_de}",
        "{driver}: {test_en} on the black die {result}{modifier} against {limit}: {outcome_en}",
    ),
    EventKind.KARMA: (
        "{driver}: Karma {change:+d} ({reason_de}), Stand {karma}",
        "{driver}: karma {change:+d} ({reason_en}), now {karma}",
    ),
    EventKind.DANGEROUS: (
        "{space} wird ein gefährliches Feld ({reason_de})",
        "{space} becomes a dangerous space ({reason_en})",
    ),
    EventKind.PIT_ANNOUNCE: (
        "{driver} sagt den Boxenstopp an: {plan_de}",
        "{driver} announces the pit stop: {plan_en}",
    ),
    EventKind.PIT_IN: (
        "{driver} ist in Box {box}: {plan_de}; {points} Punkte abzuarbeiten",
        "{driver} is in box {box}: {plan_en}; {points} points to work off",
    ),
    EventKind.QUICK_STOP: (
        "{driver} würfelt für den schnellen Stopp {result} (sofort hinaus bei 1–{limit})",
        "{driver} rolls {result} for the quick stop (straight out on 1–{limit})",
    ),
    EventKind.PIT_WORK: (
        "{driver} arbeitet in der Box {result} Punkte ab, bleiben {left}",
        "{driver} works off {result} points in the pit, {left} left",
    ),
    EventKind.PIT_OUT: (
        "{driver} verlässt die Box mit {spaces} Feldern im {gear}. Gang",
        "{driver} leaves the pit with {spaces} spaces in gear {gear}",
    ),
    EventKind.ROLLING_OUT: (
        "{driver} rollt im {gear}. Gang aus ({reason_de})",
        "{driver} rolls out in gear {gear} ({reason_en})",
    ),
    EventKind.RETIRED: (
        "{driver} scheidet aus: {reason_de} ({rule})",
        "{driver} retires: {reason_en} ({rule})",
    ),
    EventKind.WRECK_REMOVED: (
        "das Wrack von {driver} wird von {space} entfernt",
        "the wreck of {driver} is removed from {space}",
    ),
    EventKind.FINISHED: (
        "{driver} kommt als {place}. ins Ziel",
        "{driver} finishes in position {place}",
    ),
    EventKind.STOPPED: (
        "Rennen nach {rounds} Spielrunden abgebrochen (Sicherheitsgrenze)",
        "race stopped after {rounds} rounds of play (safety limit)",
    ),
    EventKind.HEAD_TO_HEAD: ("Kopf an Kopf: {bids}", "head to head: {bids}"),
    EventKind.RESTART: (
        "Unterbrechung: Wracks blockieren die Strecke; {how_de}",
        "interruption: wrecks block the track; {how_en}",
    ),
    EventKind.T_CAR: (
        "{driver} startet mit dem T-Car ({points} VP) auf {space}",
        "{driver} starts in the T-car ({points} points) on {space}",
    ),
    EventKind.HALTED: (
        "{driver} muss sofort anhalten und bleibt bis zum Ende stehen ({rule})",
        "{driver} must stop at once and stands still to the end ({rule})",
    ),
    EventKind.ROUND_SKIPPED: (
        "{driver} ist überrundet worden und setzt in dieser Spielrunde aus ({rule})",
        "{driver} has been lapped and misses the rest of this round of play ({rule})",
    ),
    EventKind.ROUND_AGAIN: (
        "{driver} hat den Führenden wieder überholt und ist in dieser Spielrunde noch einmal "
        "am Zug ({rule})",
        "{driver} has passed the leader again and plays once more in this round ({rule})",
    ),
    EventKind.TAKEN_BACK: (
        "Eingabe zurückgenommen: {entry} {value} für {driver}",
        "entry taken back: {entry} {value} for {driver}",
    ),
    EventKind.END: ("Rennende; Würfel-Seed {seed}", "end of the race; dice seed {seed}"),
}

_AREAS = {
    "tyres": ("Reifen", "tyres"),
    "brakes": ("Bremsen", "brakes"),
    "fuel": ("Verbrauch", "fuel"),
    "body": ("Karosserie", "body"),
    "engine": ("Motor", "engine"),
    "road_holding": ("Straßenlage", "road holding"),
}
_TYRES = {"hard": ("hart", "hard"), "soft": ("weich", "soft"), "rain": ("Regenreifen", "rain")}
_WEATHER = {"rain": ("Regen", "rain"), "changeable": ("wechselhaft", "changeable"),
            "sun": ("Sonne", "sun")}
_REASONS = {
    "braking": ("Bremsen", "braking"),
    "overshooting": ("Überschießen", "overshooting"),
    "lap": ("Runde", "lap"),
    "rear_hit": ("Auffahrunfall", "rear hit"),
    "road_holding": ("Straßenlage", "road holding"),
    "wall": ("Mauer", "wall"),
    "collision": ("Kollision", "collision"),
    "caused_retirement": ("Ausfall verursacht", "caused a retirement"),
    "engine_test": ("Motorcheck", "engine test"),
    "three_gears_skipped": ("drei Gänge übersprungen", "three gears skipped"),
    "engine_boost": ("Motor-Boost", "engine boost"),
    "blocking": ("Blockade", "blocking"),
    "engine": ("Motor", "engine"),
    "rolling_out": ("ausrollen", "rolling out"),
    "engine_to_flag": ("Motorschaden, bis ins Ziel", "engine failure, to the flag"),
    "missed_stops": ("zwei oder mehr Kurvenstopps fehlen", "missed stops"),
    "tyre_failure": ("Reifenschaden", "tyre failure"),
    "blocked": ("blockiert", "blocked"),
    "body_damage": ("Karosserieschaden", "body damage"),
    "engine_failure": ("Motorschaden", "engine failure"),
    "road_holding_lost": ("Straßenlage verloren", "road holding"),
    "out_of_fuel": ("ohne Benzin ausgerollt", "ran out of fuel"),
    # karma
    "natural_20": ("gewürfelte 20", "natural 20"),
    "plus_one": ("+1 auf den Wurf", "+1 on the roll"),
    "reroll": ("Wurf wiederholen", "re-roll"),
    "head_to_head": ("Kopf an Kopf", "head to head"),
    "end_of_race": ("Rennende", "end of race"),
}
_TESTS = {
    "road_holding": ("Straßenlagecheck", "road-holding test"),
    "collision": ("Kollisionscheck", "collision test"),
    "engine": ("Motorcheck", "engine test"),
    "wall": ("Mauercheck", "wall test"),
}


def _pair(data: dict[str, Any], key: str, words: Mapping[str, tuple[str, str]]) -> None:
    """Replace ``key`` by ``key_de`` and ``key_en``."""
    de, en = words[data.pop(key)]
    data[f"{key}_de"], data[f"{key}_en"] = de, en


def _plan(plan: Mapping[str, Any]) -> tuple[str, str]:
    de: list[str] = []
    en: list[str] = []
    if plan.get("tyre"):
        de.append(f"Reifen {_TYRES[plan['tyre']][0]}")
        en.append(f"{_TYRES[plan['tyre']][1]} tyres")
    if plan.get("fuel"):
        de.append(f"{plan['fuel']} VP Verbrauch")
        en.append(f"{plan['fuel']} fuel")
    for area in plan.get("repairs") or ():
        de.append(f"Reparatur {_AREAS[area][0]}")
        en.append(f"repair {_AREAS[area][1]}")
    if plan.get("long"):
        de.append("langer Stopp")
        en.append("long stop")
    return (", ".join(de) or "nichts", ", ".join(en) or "nothing")


def _notes(data: dict[str, Any]) -> None:
    de: list[str] = []
    en: list[str] = []
    if data.get("brakes"):
        de.append(f"bremst {data['brakes']}")
        en.append(f"brakes {data['brakes']}")
    if data.get("overshoot"):
        de.append(f"überschießt {data['overshoot']}")
        en.append(f"overshoots {data['overshoot']}")
    if data.get("stop_corner"):
        de.append(f"Stopp in Kurve {data['stop_corner']}")
        en.append(f"stop in corner {data['stop_corner']}")
    if data.get("blocked"):
        de.append(f"blockiert {data['blocked']}")
        en.append(f"blocked {data['blocked']}")
    if data.get("pit"):
        de.append("in die Box")
        en.append("into the pit")
    for key in ("brakes", "overshoot", "stop_corner", "blocked", "pit"):
        data.pop(key, None)
    data["extra_de"] = f" ({', '.join(de)})" if de else ""
    data["extra_en"] = f" ({', '.join(en)})" if en else ""


def _grid(data: dict[str, Any], names: Mapping[str, str]) -> None:
    qualified = data["how"] == "qualifying"
    data["how"] = "Qualifikation" if qualified else "ausgelost"
    data["how_en"] = "qualifying" if qualified else "drawn"


def _weather(data: dict[str, Any], names: Mapping[str, str]) -> None:
    _pair(data, "roll", _WEATHER)
    _pair(data, "weather", _WEATHER)
    settled = data.pop("settled")
    data["settled_de"] = " (fest)" if settled else " (wechselhaft)"
    data["settled_en"] = " (settled)" if settled else " (changeable)"


def _setup(data: dict[str, Any], names: Mapping[str, str]) -> None:
    _pair(data, "tyre", _TYRES)
    data["wear"] = ", ".join(f"{k} {v}" for k, v in data["wear"].items())


def _start_roll(data: dict[str, Any], names: Mapping[str, str]) -> None:
    outcome = data.pop("outcome")
    data["outcome_de"] = {"stall": "abgewürgt", "normal": "normal", "super_start": "Traumstart"}[
        outcome
    ]
    data["outcome_en"] = outcome.replace("_", " ")


def _skip_cost(data: dict[str, Any], names: Mapping[str, str]) -> None:
    cost = data.pop("cost")
    data["cost_de"] = ", ".join(f"{p} VP {_AREAS[a][0]}" for a, p in cost.items())
    data["cost_en"] = ", ".join(f"{p} {_AREAS[a][1]}" for a, p in cost.items())


def _wear(data: dict[str, Any], names: Mapping[str, str]) -> None:
    _pair(data, "area", _AREAS)
    _pair(data, "reason", _REASONS)


def _test(data: dict[str, Any], names: Mapping[str, str]) -> None:
    purpose = data["purpose"]
    data["test_de"], data["test_en"] = _TESTS[purpose]
    lost = data.pop("lost")
    data["outcome_de"] = "verloren" if lost else "gehalten"
    data["outcome_en"] = "lost" if lost else "held"
    modifier = data["modifier"]
    data["modifier"] = f"{modifier:+d}" if modifier else ""


def _reason(data: dict[str, Any], names: Mapping[str, str]) -> None:
    _pair(data, "reason", _REASONS)


def _with_plan(data: dict[str, Any], names: Mapping[str, str]) -> None:
    data["plan_de"], data["plan_en"] = _plan(data.pop("plan"))


def _round(data: dict[str, Any], names: Mapping[str, str]) -> None:
    data["order"] = ", ".join(names.get(c, c) for c in data["order"])


def _head_to_head(data: dict[str, Any], names: Mapping[str, str]) -> None:
    data["bids"] = ", ".join(f"{names.get(b['car'], b['car'])} {b['karma']}" for b in data["bids"])


def _restart(data: dict[str, Any], names: Mapping[str, str]) -> None:
    full = data.pop("full")
    data["how_de"] = "Neustart von der Startaufstellung" if full else "Neustart im engen Feld"
    data["how_en"] = "restart from the grid" if full else "restart in a tight field"


_DATA: dict[EventKind, Callable[[dict[str, Any], Mapping[str, str]], None]] = {
    EventKind.GRID: _grid,
    EventKind.WEATHER: _weather,
    EventKind.SETUP: _setup,
    EventKind.ROUND: _round,
    EventKind.START_ROLL: _start_roll,
    EventKind.SKIP_COST: _skip_cost,
    EventKind.MOVE: lambda data, names: _notes(data),
    EventKind.WEAR: _wear,
    EventKind.TEST: _test,
    EventKind.KARMA: _reason,
    EventKind.DANGEROUS: _reason,
    EventKind.PIT_ANNOUNCE: _with_plan,
    EventKind.PIT_IN: _with_plan,
    EventKind.ROLLING_OUT: _reason,
    EventKind.RETIRED: _reason,
    EventKind.HEAD_TO_HEAD: _head_to_head,
    EventKind.RESTART: _restart,
}
"""kind -> how version 1 wrote its data (kinds not listed kept their data as it is)."""


_LATER: dict[EventKind, frozenset[str]] = {}
"""Data fields added to a kind since record version 1 (none yet): left out of its form."""


def v1_form(event: Event, names: Mapping[str, str]) -> dict[str, Any]:
    """The event as record version 1 held it: version-1 data and both sentences. ``names`` maps
    car ids to driver names (the order of play and the bids were written with names)."""
    later = _LATER.get(event.kind, frozenset())
    data = {k: v for k, v in event.data if k not in later}
    for key, value in data.items():  # copy what the conversions change in place
        if isinstance(value, dict):
            data[key] = dict(value)
    convert = _DATA.get(event.kind)
    if convert is not None:
        convert(data, names)
    de, en = _TEXTS[event.kind]
    prefix_de = f"Runde {event.round}: " if event.round else ""
    prefix_en = f"Round {event.round}: " if event.round else ""
    return {
        "seq": event.seq,
        "round": event.round,
        "kind": event.kind.value,
        "car": event.car,
        "data": data,
        "de": prefix_de + de.format(**data),
        "en": prefix_en + en.format(**data),
    }
