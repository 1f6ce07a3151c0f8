"""Sentences from race events: the one place where an event's data becomes words.

Events carry data only (``events.py``); this module renders one event in one language at a time
(``render(event, "de")``). The wording is data too: ``TEMPLATES`` holds one German and one
English template per kind, ``WORDS`` the words for enum codes, and a placeholder with a spec
``{spaces:Feld|Felder}`` writes the number with the singular or the plural noun ("1 Feld",
"4 Felder"; ``{n:~point|points}`` the noun alone). Changing a sentence here changes nothing a
record or ``race verify`` compares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rennleitung.formula_de.car import WearArea, Weather, WeatherRoll
from rennleitung.formula_de.dice import RollPurpose
from rennleitung.formula_de.events import Cause, Event, EventKind
from rennleitung.formula_de.movement import Elimination
from rennleitung.formula_de.race_ledger import KarmaReason
from rennleitung.formula_de.race_retirement import Retirement

if TYPE_CHECKING:
    from rennleitung.formula_de.qualifying import QualifyingEvent

Lang = str
"""``"de"`` or ``"en"``; anything else is read as English."""

TEMPLATES: dict[EventKind, tuple[str, str]] = {
    EventKind.CREATED: (
        "Rennen auf {track} nach {ruleset} über {laps:Runde|Runden}, Würfel-Hash {commitment}",
        "race on {track} under {ruleset} over {laps:lap|laps}, dice hash {commitment}",
    ),
    EventKind.GRID: (
        "{driver} startet von Platz {grid} ({how})",
        "{driver} starts from grid slot {grid} ({how})",
    ),
    EventKind.WEATHER: (
        "Wetterwurf {result}: {forecast}",
        "weather roll {result}: {forecast}",
    ),
    EventKind.SETUP: (
        "{driver} wählt {tyre} und verteilt die Punkte: {wear}",
        "{driver} chooses {tyre} and shares out the points: {wear}",
    ),
    EventKind.BOX: ("{driver} wählt Box {box}", "{driver} chooses box {box}"),
    EventKind.ROUND: ("Reihenfolge: {order}", "order of play: {order}"),
    EventKind.START_ROLL: (
        "{driver} macht den Startwurf: {result} ({outcome})",
        "{driver} makes the start roll: {result} ({outcome})",
    ),
    EventKind.STALLED: (
        "{driver} hat den Motor abgewürgt und fährt nächste Spielrunde im 1. Gang an",
        "{driver} stalled and moves off in 1st gear next round",
    ),
    EventKind.SUPER_START: (
        "{driver} hat einen Traumstart: {spaces:Feld|Felder} ohne Gangwurf",
        "{driver} makes a super start: {spaces:space|spaces} without a gear roll",
    ),
    EventKind.SHIFT: (
        "{driver} schaltet in den {gear}. Gang",
        "{driver} shifts into gear {gear}",
    ),
    EventKind.SKIP_COST: (
        "{driver} überspringt {skipped:Gang|Gänge} und streicht {cost}",
        "{driver} skips {skipped:gear|gears} and crosses out {cost}",
    ),
    EventKind.BOOST: (
        "{driver} kündigt den Motor-Boost an (+{gear:Feld|Felder}, 1 VP Motor)",
        "{driver} announces the engine boost (+{gear:space|spaces}, 1 engine point)",
    ),
    EventKind.ROLL: (
        "{driver} schaltet in den {gear}. Gang und würfelt {result}",
        "{driver} shifts into gear {gear} and rolls {result}",
    ),
    EventKind.MOVE: (
        "{driver} fährt {spaces:Feld|Felder} nach {end}{notes}",
        "{driver} moves {spaces:space|spaces} to {end}{notes}",
    ),
    EventKind.NO_MOVE: (
        "{driver} kann nicht fahren und bleibt auf {space}",
        "{driver} cannot move and stays on {space}",
    ),
    EventKind.WEAR: (
        "{driver} streicht {points} VP {area} ({reason}), noch {left} übrig",
        "{driver} crosses out {points} {area} {points:~point|points} ({reason}), {left} left",
    ),
    EventKind.SLIPSTREAM: (
        "{driver} nutzt {count}× den Windschatten",
        "{driver} uses the slipstream {times}",
    ),
    EventKind.LAP: (
        "{driver} beendet Runde {lap}",
        "{driver} completes lap {lap}",
    ),
    EventKind.SPIN: (
        "{driver} dreht sich (letzter VP Reifen) und braucht einen Startwurf",
        "{driver} spins (last tyre point) and needs a restart roll",
    ),
    EventKind.TEST: (
        "{driver}: {purpose}, schwarzer Würfel {result}{modifier}, nötig über {limit}: {lost}",
        "{driver}: {purpose}, black die {result}{modifier}, needs more than {limit}: {lost}",
    ),
    EventKind.KARMA: (
        "{driver}: Karma {change:+d} ({reason}), Stand {karma}",
        "{driver}: karma {change:+d} ({reason}), now {karma}",
    ),
    EventKind.DANGEROUS: (
        "{space} wird ein gefährliches Feld ({reason})",
        "{space} becomes a dangerous space ({reason})",
    ),
    EventKind.PIT_ANNOUNCE: (
        "{driver} sagt den Boxenstopp an: {plan}",
        "{driver} announces the pit stop: {plan}",
    ),
    EventKind.PIT_IN: (
        "{driver} ist in Box {box}: {plan}; {points:Punkt|Punkte} abzuarbeiten",
        "{driver} is in box {box}: {plan}; {points:point|points} to work off",
    ),
    EventKind.QUICK_STOP: (
        "{driver} würfelt für den schnellen Stopp {result} (sofort hinaus bei 1–{limit})",
        "{driver} rolls {result} for the quick stop (straight out on 1–{limit})",
    ),
    EventKind.PIT_WORK: (
        "{driver} arbeitet in der Box {result:Punkt|Punkte} ab, noch {left} übrig",
        "{driver} works off {result:point|points} in the pit, {left} left",
    ),
    EventKind.PIT_OUT: (
        "{driver} verlässt die Box mit {spaces:Feld|Feldern} im {gear}. Gang",
        "{driver} leaves the pit with {spaces:space|spaces} in gear {gear}",
    ),
    EventKind.ROLLING_OUT: (
        "{driver} rollt im {gear}. Gang aus ({reason})",
        "{driver} rolls out in gear {gear} ({reason})",
    ),
    EventKind.RETIRED: (
        "{driver} scheidet aus: {reason} ({rule})",
        "{driver} retires: {reason} ({rule})",
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
        "Rennen nach {rounds:Spielrunde|Spielrunden} abgebrochen (Sicherheitsgrenze)",
        "race stopped after {rounds:round|rounds} of play (safety limit)",
    ),
    EventKind.HEAD_TO_HEAD: (
        "Kopf an Kopf: {bids}",
        "head to head: {bids}",
    ),
    EventKind.RESTART: (
        "Unterbrechung: Wracks blockieren die Strecke; {full}",
        "interruption: wrecks block the track; {full}",
    ),
    EventKind.T_CAR: (
        "{driver} startet mit dem T-Car ({points} VP) auf {space}",
        "{driver} starts in the T-car ({points:point|points}) on {space}",
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
    EventKind.END: ("Rennende", "end of the race"),  # the seed is the record's, shown beside it
}
"""kind -> (German template, English template); placeholders name data fields."""

ROUND_PREFIX = ("Spielrunde {round}: ", "Round {round}: ")
"""Put in front of every event of a round of play (round 0 is before the start)."""

AREAS: dict[str, tuple[str, str]] = {
    **{a.value: (a.label_de, a.label_en) for a in WearArea},
    "box": ("Boxreserve", "box reserve"),  # was "Box 1", read as the pit box of "wählt Box 1"
}
"""Wear areas and the box reserve of a setup."""

_CAUSES: dict[str, tuple[str, str]] = {
    Cause.BRAKING: ("Bremsmanöver", "braking"),  # "1 VP Bremsen (Bremsen)" said it twice
    Cause.OVERSHOOTING: ("Überschießen", "overshooting"),
    Cause.LAP: ("Runde", "lap"),
    Cause.REAR_HIT: ("Auffahrunfall", "rear hit"),
    Cause.ROAD_HOLDING: ("Straßenlage", "road holding"),
    Cause.WALL: ("Mauer", "wall"),
    Cause.COLLISION: ("Kollision", "collision"),
    Cause.CAUSED_RETIREMENT: ("Ausfall verursacht", "caused a retirement"),
    Cause.ENGINE_TEST: ("Motorcheck", "engine test"),
    Cause.THREE_GEARS_SKIPPED: ("drei Gänge übersprungen", "three gears skipped"),
    Cause.ENGINE_BOOST: ("Motor-Boost", "engine boost"),
    Cause.BLOCKING: ("Blockade", "blocking"),
    Cause.ENGINE: ("Motor", "engine"),
    Cause.ROLLING_OUT: ("Ausrollen", "rolling out"),
    Cause.ENGINE_TO_FLAG: ("Motorschaden, bis ins Ziel", "engine failure, to the flag"),
    # the retirements in the words of the classification
    **{r.cause: (r.text_de, r.text_en) for r in Retirement},
}

_KARMA_REASONS: dict[str, tuple[str, str]] = {
    KarmaReason.NATURAL_TWENTY: ("gewürfelte 20", "natural 20"),
    KarmaReason.PLUS_ONE: ("+1 auf den Wurf", "+1 on the roll"),
    KarmaReason.REROLL: ("Wurf wiederholen", "re-roll"),
    KarmaReason.HEAD_TO_HEAD: ("Kopf an Kopf", "head to head"),
    KarmaReason.END_OF_RACE: ("Rennende", "end of race"),
}

TYRES: dict[str, tuple[str, str]] = {
    # accusative plural without article (strong declension): "wählt harte Reifen"
    "hard": ("harte Reifen", "hard tyres"),
    "soft": ("weiche Reifen", "soft tyres"),
    "rain": ("Regenreifen", "rain tyres"),
}

WORDS: dict[tuple[EventKind | None, str], dict[Any, tuple[str, str]]] = {
    (EventKind.GRID, "how"): {
        "qualifying": ("Qualifikation", "qualifying"),
        "drawn": ("ausgelost", "drawn"),
    },
    (EventKind.WEATHER, "roll"): {r.value: (r.label_de, r.label_en) for r in WeatherRoll},
    (EventKind.WEATHER, "weather"): {w.value: (w.label_de, w.label_en) for w in Weather},
    (EventKind.SETUP, "tyre"): TYRES,
    (EventKind.START_ROLL, "outcome"): {
        "stall": ("abgewürgt", "stall"),
        "normal": ("normal", "normal"),
        "super_start": ("Traumstart", "super start"),
    },
    (EventKind.WEAR, "area"): AREAS,
    (EventKind.TEST, "purpose"): {
        RollPurpose.ROAD_HOLDING: ("Straßenlagecheck", "road-holding test"),
        RollPurpose.COLLISION: ("Kollisionscheck", "collision test"),
        RollPurpose.ENGINE: ("Motorcheck", "engine test"),
        RollPurpose.WALL: ("Mauercheck", "wall test"),
    },
    (EventKind.TEST, "lost"): {
        True: ("nicht bestanden", "failed"),
        False: ("bestanden", "passed"),
    },
    (EventKind.KARMA, "reason"): _KARMA_REASONS,
    (EventKind.RESTART, "full"): {
        True: ("Neustart von der Startaufstellung", "restart from the grid"),
        False: ("Neustart im engen Feld", "restart in a tight field"),
    },
    (None, "reason"): _CAUSES,
}
"""(kind, field) -> code -> (German, English); kind None: the field in any other kind."""


def count(n: int, one: str, many: str) -> str:
    """A number with its noun, singular after 1: ``count(1, "Feld", "Felder")`` is "1 Feld"."""
    return f"{n} {one if n == 1 else many}"


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "de" else pair[1]


def _join(parts: list[str]) -> str:
    return ", ".join(parts)


def _wear_list(value: Any, lang: Lang, names: Mapping[str, str]) -> str:
    """A setup: "Reifen 5, Bremsen 4, …" / "tyres 5, brakes 4, …"."""
    return _join([f"{_pick(AREAS.get(k, (k, k)), lang)} {v}" for k, v in dict(value).items()])


def _cost_list(value: Any, lang: Lang, names: Mapping[str, str]) -> str:
    """Points crossed out: "1 VP Bremsen" / "1 brakes point"."""
    parts = []
    for area, points in dict(value).items():
        de, en = AREAS.get(area, (area, area))
        parts.append(f"{points} VP {de}" if lang == "de" else f"{points} {en} " + (
            "point" if points == 1 else "points"))
    return _join(parts)


PLAN_PARTS: tuple[tuple[str, str, str], ...] = (
    ("fuel", "{} VP Verbrauch", "{} fuel"),
    ("repairs", "Reparatur {}", "repair {}"),
    ("long", "langer Stopp", "long stop"),
)
"""A pit plan's fields after its tyres: field, German, English (``{}``: the value; a list
gives one part per item)."""


def plan_text(value: Any, lang: Lang) -> str:
    """A pit plan's JSON form (``race_decisions.plan_to_data``) in words: "harte Reifen,
    2 VP Verbrauch, Reparatur Bremsen" / "hard tyres, 2 fuel, repair brakes"."""
    plan = dict(value or {})
    tyre = plan.get("tyre")
    parts = [_pick(TYRES.get(tyre, (tyre, tyre)), lang)] if tyre else []
    for field, de, en in PLAN_PARTS:
        items = plan.get(field)
        for item in items if isinstance(items, list) else [items] if items else []:
            word = _pick(AREAS.get(item, (item, item)), lang) if field == "repairs" else item
            parts.append((de if lang == "de" else en).format(word))
    return _join(parts) or ("nichts" if lang == "de" else "nothing")


def _order(value: Any, lang: Lang, names: Mapping[str, str]) -> str:
    return _join([names.get(car, car) for car in value or ()])


def _bids(value: Any, lang: Lang, names: Mapping[str, str]) -> str:
    return _join([f"{names.get(b['car'], b['car'])} {b['karma']}" for b in value or ()])


def _modifier(value: Any, lang: Lang, names: Mapping[str, str]) -> str:
    return f"{value:+d}" if value else ""


_FIELDS: dict[str, Callable[[Any, Lang, Mapping[str, str]], str]] = {
    "wear": _wear_list,
    "cost": _cost_list,
    "plan": lambda value, lang, names: plan_text(value, lang),
    "order": _order,
    "bids": _bids,
    "modifier": _modifier,
}
"""Fields whose value is a list or an object: how each is written."""


MOVE_NOTES: tuple[tuple[str, str, str], ...] = (
    ("brakes", "bremst {}", "brakes {}"),
    ("overshoot", "überschießt {}", "overshoots {}"),
    ("stop_corner", "Stopp in Kurve {}", "stop in corner {}"),
    ("blocked", "blockiert {}", "blocked {}"),
    ("pit", "in die Box", "into the pit"),
)
"""What a move cost, noted after it when the field is set: field, German, English."""


def _move_notes(data: Mapping[str, Any], lang: Lang) -> str:
    """What a move cost, in brackets: " (bremst 2, Stopp in Kurve 3)"."""
    notes = [
        (de if lang == "de" else en).format(data.get(field))
        for field, de, en in MOVE_NOTES
        if data.get(field)
    ]
    return f" ({_join(notes)})" if notes else ""


def _forecast(data: Mapping[str, Any], lang: Lang) -> str:
    """What a weather roll did, each word once (was "Sonne, es herrscht Sonne (fest)"):
    settled for the race, changeable with the weather for now, or a streak not yet long enough
    (Masters 3-2-4 to 3-2-6)."""
    roll, weather = data.get("roll"), data.get("weather")
    rolls = WORDS.get((EventKind.WEATHER, "roll"), {})
    weathers = WORDS.get((EventKind.WEATHER, "weather"), {})
    rolled = _pick(rolls.get(roll, (str(roll), str(roll))), lang)
    now = _pick(weathers.get(weather, (str(weather), str(weather))), lang)
    if data.get("settled"):
        return f"{now} bis zum Rennende" if lang == "de" else f"{now} for the rest of the race"
    if roll == weather:
        return f"{now}, noch wechselhaft" if lang == "de" else f"{now}, still changeable"
    return f"{rolled}, vorerst {now}" if lang == "de" else f"{rolled}, {now} for now"


def _times(data: Mapping[str, Any], lang: Lang) -> str:
    count = data.get("count", 0)
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


_DERIVED: dict[str, Callable[[Mapping[str, Any], Lang], str]] = {
    "notes": _move_notes,
    "times": _times,
    "forecast": _forecast,
}
"""Placeholders made from several fields."""


QUALIFYING_TEMPLATES: dict[str, tuple[str, str]] = {
    "roll": (
        "Wurf {number}: {gear}. Gang, {result}{bonus}",
        "roll {number}: gear {gear}, {result}{bonus}",
    ),
    "no_move": ("kein Zug möglich", "no move possible"),
    "move": ("fährt {spaces:Feld|Felder} nach {end}", "moves {spaces:space|spaces} to {end}"),
    "penalty": (
        "überschießt {overshoot:Feld|Felder}: {points:Strafpunkt|Strafpunkte}",
        "overshoots {overshoot:space|spaces}: {points:penalty point|penalty points}",
    ),
    "finish": (
        "über die Linie nach {rolls:Wurf|Würfen}, {penalty_points:Strafpunkt|Strafpunkte}",
        "over the line after {rolls:roll|rolls}, {penalty_points:penalty point|penalty points}",
    ),
    "abort": (
        "Runde abgebrochen nach {rolls:Wurf|Würfen}: {reason}",
        "lap aborted after {rolls:roll|rolls}: {reason}",
    ),
}
"""A qualifying lap's protocol (``qualifying.QualifyingEvent``): kind -> German, English."""

QUALIFYING_WORDS: dict[str, dict[Any, tuple[str, str]]] = {
    "reason": {
        **{e.name.lower(): (e.text_de, e.text_en) for e in Elimination},
        "safety_stop": ("Sicherheitsgrenze", "safety limit"),
    },
    "bonus": {True: (" (+1 Weichreifen)", " (+1 soft tyres)"), False: ("", "")},
}


class _Count(int):
    """A number that a ``{n:singular|plural}`` spec writes with its noun (``~``: noun only)."""

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return format(int(self), spec)
        one, many = spec.removeprefix("~").split("|", 1)
        noun = one if self == 1 else many
        return noun if spec.startswith("~") else f"{int(self)} {noun}"


class _Values(dict[str, Any]):
    """An event's data as ``str.format_map`` reads it: words of one language for codes, lists
    and objects written out, numbers that know their singular and plural."""

    def __init__(
        self,
        data: Mapping[str, Any],
        kind: EventKind | None,
        lang: Lang,
        names: Mapping[str, str],
        words: Mapping[str, Mapping[Any, tuple[str, str]]] | None = None,
    ) -> None:
        super().__init__(data)
        self.kind = kind
        self.lang = lang
        self.names = names
        self.words = words

    def __getitem__(self, name: str) -> Any:
        value = self.get(name, "")
        if self.words is not None:  # a qualifying lap
            table = self.words.get(name)
        elif name in _DERIVED:
            return _DERIVED[name](self, self.lang)
        elif name in _FIELDS:
            return _FIELDS[name](value, self.lang, self.names)
        else:
            table = WORDS.get((self.kind, name)) or WORDS.get((None, name))
        if table is not None and value in table:
            return _pick(table[value], self.lang)
        if isinstance(value, int) and not isinstance(value, bool):
            return _Count(value)
        return value


def render(event: Event, lang: Lang, names: Mapping[str, str] | None = None) -> str:
    """The event as one sentence in ``lang`` ("de" or "en"), its round in front. ``names`` maps
    car ids to driver names for fields that list cars (order of play, bids); a car not in it
    is shown by its id."""
    template = TEMPLATES[event.kind][0 if lang == "de" else 1]
    text = template.format_map(_Values(dict(event.data), event.kind, lang, names or {}))
    if event.round:
        return ROUND_PREFIX[0 if lang == "de" else 1].format(round=event.round) + text
    if template[:1].islower():  # a line starts with a capital ("Race on …"); names stay as given
        return text[:1].upper() + text[1:]
    return text


def render_data(data: Mapping[str, Any], lang: Lang, names: Mapping[str, str] | None = None) -> str:
    """An event's JSON form (``Event.to_data``, as in a view) as one sentence in ``lang``."""
    event = Event(
        seq=int(data.get("seq", 0)),
        round=int(data.get("round", 0)),
        kind=EventKind(data["kind"]),
        car=str(data.get("car", "")),
        data=tuple(dict(data.get("data", {})).items()),
    )
    return render(event, lang, names)


def render_qualifying(event: QualifyingEvent, lang: Lang) -> str:
    """One line of a qualifying lap's protocol in ``lang``."""
    template = QUALIFYING_TEMPLATES[event.kind][0 if lang == "de" else 1]
    data = dict(event.data)
    data.setdefault("number", event.roll_number)
    data["bonus"] = bool(data.get("soft_bonus"))
    return template.format_map(_Values(data, None, lang, {}, QUALIFYING_WORDS))
