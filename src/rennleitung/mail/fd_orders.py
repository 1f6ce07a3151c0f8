"""Formula Dé orders written in a mail, German or English, one per line, read against the
question the race asks (Masters 6-3: gear, then the move; Dresden "Boxenstopp", "Karmapool").

- ``Gang 5`` / ``gear 5``; ``Boost``; ``Reifenbonus`` / ``soft bonus``; ``kein Start`` /
  ``no launch`` (a Praktiker's launch +1 declined): the turn (Masters 6-3, Dresden
  "Verschleiß", "Reifen", "Fahrerprofile").
- ``Box: 8 Punkte, weiche Reifen`` / ``pit: 8 points, soft tyres``, ``Reparatur Bremsen`` /
  ``repair brakes``, ``lang`` / ``long``: a stop announced with the turn, or the work on arrival.
- ``Ziel C57`` / ``to C57`` (the cheapest way there) or a path ``B21,A22,B22``: the move;
  braking is implied by the destination.
- ``Karma +1`` / ``Karma neu würfeln`` / ``kein Karma`` (``karma +1`` / ``karma reroll`` /
  ``no karma``), ``Gebot 3`` / ``bid 3``: karma (Dresden "Karmapool", "Kopf an Kopf").
- ``Wenn zu viel: bremsen, Spur halten`` / ``if too many: brake, keep lane``: with the gear, a
  standing order for the move after the roll (``fd_standing``).
- ``Box 3`` / ``box 3``: the team's box; ``Reifen 4, Bremsen 3, …`` / ``tyres 4, brakes 3, …``
  with ``Startreifen weich`` / ``start tyres soft``: the setup.

``parse_orders`` returns the decision in its JSON form (``race_decisions.decision_from_data``),
or the problems, each naming the line in both languages. Legality beyond the form (a gear the
car may not take, an unreachable space) is checked here where the question lists the choices;
the race checks everything again when the decision is applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race_decisions import Ask, AskKind
from rennleitung.formula_de.track import Track

_AREAS = {
    "reifen": "tyres", "tyres": "tyres", "tires": "tyres",
    "bremsen": "brakes", "brakes": "brakes",
    "verbrauch": "fuel", "fuel": "fuel", "benzin": "fuel", "gas": "fuel",
    "karosserie": "body", "body": "body",
    "motor": "engine", "engine": "engine",
    "straßenlage": "road_holding", "strassenlage": "road_holding",
    "road holding": "road_holding", "road_holding": "road_holding", "roadholding": "road_holding",
}
_RESERVE = {"reserve": "box", "boxenreserve": "box", "box reserve": "box"}
_TYRES = {"hart": "hard", "harte": "hard", "hard": "hard", "weich": "soft", "weiche": "soft",
          "soft": "soft", "regen": "rain", "regenreifen": "rain", "rain": "rain", "wet": "rain"}
_SPACE = r"(?:[A-Za-z]{1,3}\d{1,4}|box\d{1,2}|p\d{1,3})"
_PATH = re.compile(rf"^(?:(?:weg|path|pfad)\s*:?\s*)?({_SPACE}(?:\s*[,;]\s*{_SPACE})+)$", re.I)
_STANDING = re.compile(r"(wenn|falls|if)\s+(zu\s+viele?|too\s+(many|much|high))\s*:?\s*(.*)")
_STANDING_ACTIONS = (frozenset({"bremsen", "spur halten"}), frozenset({"brake", "keep lane"}),
                     frozenset({"brake", "stay in lane"}))
_KINDS_DE = {AskKind.SETUP: "Aufstellung", AskKind.BOX: "Boxenwahl", AskKind.TURN: "Gangwahl",
             AskKind.MOVE: "Zug", AskKind.PIT: "Boxenstopp", AskKind.KARMA: "Karma",
             AskKind.BID: "Karmagebot"}
_KINDS_EN = {AskKind.SETUP: "setup", AskKind.BOX: "box choice", AskKind.TURN: "gear choice",
             AskKind.MOVE: "move", AskKind.PIT: "pit stop", AskKind.KARMA: "karma",
             AskKind.BID: "karma bid"}


@dataclass(frozen=True)
class OrderProblem:
    """One problem of an order mail: the line (0: the mail as a whole) and why."""

    line: int
    de: str
    en: str

    def text(self, language: str) -> str:
        place = (f"Zeile {self.line}" if language == "de" else f"line {self.line}") \
            if self.line else ("Mail" if language == "de" else "mail")
        return f"{place}: {self.de if language == 'de' else self.en}"


@dataclass
class _Read:
    gear: int | None = None
    boost: bool = False
    soft_bonus: bool = False
    launch: bool = True
    pit: dict[str, Any] | None = None
    repairs: list[str] = field(default_factory=list)
    long: bool = False
    destination: str | None = None
    path: list[str] | None = None
    karma: str | None = None
    bid: int | None = None
    box: int | None = None
    wear: dict[str, int] = field(default_factory=dict)
    tyre: str | None = None
    standing: bool = False
    used: dict[str, int] = field(default_factory=dict)  # what was read → its line


STANDING = "standing_order"
"""The key under which ``parse_orders`` passes a standing order with a turn's decision."""


def kind_label(kind: AskKind, language: str) -> str:
    """The name of a kind of question in the reader's language."""
    return (_KINDS_DE if language == "de" else _KINDS_EN)[kind]


def _pit_plan(text: str, line: int, problems: list[OrderProblem]) -> dict[str, Any]:
    """``8 Punkte, weiche Reifen`` / ``8 points, soft tyres`` (fuel points and tyres)."""
    plan: dict[str, Any] = {"tyre": None, "fuel": 0, "repairs": [], "long": False}
    for part in (p.strip().lower() for p in re.split(r"[,;]", text) if p.strip()):
        number = re.fullmatch(r"(\d{1,3})\s*(punkte?|points?|vp|fuel|verbrauch)?", part)
        words = part.replace("reifen", "").replace("tyres", "").replace("tires", "").strip()
        if number:
            plan["fuel"] = int(number.group(1))
        elif words in _TYRES:
            plan["tyre"] = _TYRES[words]
        elif part in ("keine reifen", "no tyres", "alte reifen", "keep tyres"):
            plan["tyre"] = None
        elif part in ("lang", "long", "langer stopp", "long stop"):
            plan["long"] = True
        elif part.startswith(("reparatur ", "repair ")):
            area = _AREAS.get(part.split(" ", 1)[1].strip())
            if area is None:
                problems.append(OrderProblem(line, f"unbekannter Bereich in {part!r}",
                                             f"unknown area in {part!r}"))
            else:
                plan["repairs"].append(area)
        else:
            problems.append(OrderProblem(line, f"{part!r} nicht verstanden (z. B. \"8 Punkte, "
                                         "weiche Reifen\")", f"{part!r} not understood (e.g. "
                                         "\"8 points, soft tyres\")"))
    return plan


def _read_line(line: str, number: int, read: _Read, problems: list[OrderProblem]) -> bool:
    """Read one line into ``read``; False if it is no order at all (nothing understood)."""
    low = line.lower().strip().rstrip(".")
    if m := re.fullmatch(r"(gang|gear)\s*:?\s*(\d{1,2})", low):
        read.gear, read.used["gear"] = int(m.group(2)), number
    elif low in ("boost", "boost ja", "boost: ja", "boost yes", "boost: yes", "mit boost"):
        read.boost, read.used["boost"] = True, number
    elif low in ("kein boost", "no boost", "boost nein", "boost: nein", "boost: no"):
        read.boost, read.used["boost"] = False, number
    elif low in ("reifenbonus", "soft bonus", "soft-bonus", "bonus", "reifen +1", "tyres +1"):
        read.soft_bonus, read.used["soft_bonus"] = True, number
    elif low in ("kein start", "kein startbonus", "no launch", "kein start-bonus"):
        read.launch, read.used["launch"] = False, number
    elif m := re.fullmatch(r"(box|pit|boxenstopp|stopp|stop)\s*:\s*(.+)", low):
        read.pit, read.used["pit"] = _pit_plan(m.group(2), number, problems), number
    elif m := re.fullmatch(r"(box|boxe)\s+(\d{1,2})", low):
        read.box, read.used["box"] = int(m.group(2)), number
    elif m := re.fullmatch(r"(reparatur|repair)\s*:?\s*(.+)", low):
        area = _AREAS.get(m.group(2).strip())
        if area is None:
            problems.append(OrderProblem(number, f"unbekannter Bereich {m.group(2)!r}",
                                         f"unknown area {m.group(2)!r}"))
        else:
            read.repairs.append(area)
            read.used["repair"] = number
    elif low in ("lang", "long", "langer stopp", "long stop"):
        read.long, read.used["long"] = True, number
    elif m := re.fullmatch(rf"(ziel|nach|to|target|destination)\s*:?\s*({_SPACE})", low):
        read.destination, read.used["move"] = m.group(2).upper(), number
    elif m := _PATH.fullmatch(line.strip()):
        read.path = [s.strip().upper() for s in re.split(r"[,;]", m.group(1))]
        read.used["move"] = number
    elif re.fullmatch(_SPACE, low):
        read.destination, read.used["move"] = low.upper(), number
    elif m := re.fullmatch(r"karma\s*:?\s*(.+)", low):
        word = m.group(1).strip()
        action = {"+1": "plus_one", "plus 1": "plus_one", "plus eins": "plus_one",
                  "plus one": "plus_one", "neu würfeln": "reroll", "neuwurf": "reroll",
                  "reroll": "reroll", "re-roll": "reroll", "nein": "none", "no": "none",
                  "none": "none", "nichts": "none"}.get(word)
        if action is None:
            problems.append(OrderProblem(number, "Karma: \"+1\", \"neu würfeln\" oder \"nein\"",
                                         "karma: \"+1\", \"reroll\" or \"no\""))
        else:
            read.karma, read.used["karma"] = action, number
    elif low in ("kein karma", "no karma"):
        read.karma, read.used["karma"] = "none", number
    elif m := re.fullmatch(r"(gebot|bid|karmagebot|karma bid)\s*:?\s*(\d{1,3})", low):
        read.bid, read.used["bid"] = int(m.group(2)), number
    elif m := re.fullmatch(r"(startreifen|start tyres|start tires|reifenwahl|tyre choice)"
                           r"\s*:?\s*(\w+)", low):
        tyre = _TYRES.get(m.group(2))
        if tyre is None:
            problems.append(OrderProblem(number, "Reifen: hart, weich oder Regen",
                                         "tyres: hard, soft or rain"))
        else:
            read.tyre, read.used["tyre"] = tyre, number
    elif m := _STANDING.fullmatch(low):
        parts = re.split(r"\s*(?:,|;|\bund\b|\band\b)\s*", m.group(4))
        if frozenset(re.sub(r"\s+", " ", p) for p in parts if p) in _STANDING_ACTIONS:
            read.standing, read.used["standing"] = True, number
        else:
            problems.append(OrderProblem(
                number, "Dauerauftrag nicht verstanden; möglich ist nur \"Wenn zu viel: bremsen, "
                "Spur halten\"", "standing order not understood; the only one possible is "
                "\"if too many: brake, keep lane\""))
    elif _wear_line(low, number, read):
        pass
    else:
        return False
    return True


def not_understood(line: str, number: int) -> OrderProblem:
    """The problem of a line that is no order at all."""
    return OrderProblem(number, f"nicht verstanden: {line.strip()[:60]!r}",
                        f"not understood: {line.strip()[:60]!r}")


_GREETING = re.compile(
    r"(hallo|hello|hi|hey|moin|servus|grüß gott|guten (tag|morgen|abend)|liebe[rs]?|"
    r"sehr geehrte[rs]?|dear|good (morning|afternoon|evening))\b[^0-9]{0,60}", re.I)
_CLOSING = re.compile(
    r"((viele|liebe|beste|herzliche|schöne|sportliche|freundliche)\s+)?"
    r"(grüße|grüsse|gruesse|gruß|gruss)\b[^0-9]{0,60}|"
    r"(vg|lg|mfg|mit freundlichen grüßen|cheers|regards|best|best regards|best wishes|"
    r"kind regards|thanks|thank you|danke|danke schön|vielen dank|bis bald|bis dann|ciao|"
    r"tschüss|tschüs|bye|see you)\b[^0-9]{0,60}", re.I)
"""Greetings and closings a person writes around his orders (issue 24): never orders."""
ORDER_WORDS = frozenset({
    "gang", "gear", "boost", "reifenbonus", "bonus", "kein", "no", "box", "boxe", "pit",
    "boxenstopp", "stopp", "stop", "reparatur", "repair", "lang", "long", "ziel", "nach", "to",
    "target", "destination", "weg", "path", "pfad", "karma", "gebot", "bid", "karmagebot",
    "startreifen", "start", "reifenwahl", "tyre", "wenn", "falls", "if", "reifen", "tyres",
    "tires", "bremsen", "brakes", "verbrauch", "fuel", "benzin", "karosserie", "body", "motor",
    "engine", "straßenlage", "strassenlage", "road", "reserve", "boxenreserve", "verschleiß",
    "verschleiss", "wear", "setup", "aufstellung"})
"""First words of an order: a line starting with one is read as an order, and refused if
wrong, wherever it stands."""


def looks_like_order(line: str) -> bool:
    """Whether a line not understood still looks like an order (refused, never ignored)."""
    words = re.findall(r"[\wäöüß+]+", line.lower())
    return bool(words) and (words[0] in ORDER_WORDS or re.fullmatch(_SPACE, words[0]) is not None)


def _ignorable(line: str, after_closing: bool) -> tuple[bool, bool]:
    """(ignored, a closing): a greeting or closing line is ignored, and after a closing every
    line that does not look like an order (the signature: name, telephone, …)."""
    text = line.strip().rstrip(",.!;:")
    if _CLOSING.fullmatch(text):
        return True, True
    if _GREETING.fullmatch(text):
        return True, False
    return after_closing and not looks_like_order(line), False


BOARD_WORDS = frozenset({"brett", "ganzes brett", "das ganze brett", "board", "whole board",
                         "the whole board", "full board"})
"""A line asking for the whole board instead of answering (the question mail shows a part)."""


def is_board_request(text: str) -> bool:
    """Whether a mail asks for the whole board: one line "Brett" / "board", every other line
    a greeting, a closing or the signature below it."""
    asked = False
    after_closing = False
    for line in text.split("\n"):
        low = line.strip().lower().rstrip(".!")
        if not low or low.startswith("#"):
            continue
        if low in BOARD_WORDS and not asked:
            asked = True
            continue
        skip, closing = _ignorable(line, after_closing)
        after_closing = after_closing or closing
        if not skip:
            return False
    return asked


def _wear_line(low: str, number: int, read: _Read) -> bool:
    """``Reifen 4, Bremsen 3, Verbrauch 4, …`` (the setup's points per area)."""
    low = re.sub(r"^(verschleiß|verschleiss|wear|setup|aufstellung)\s*:?\s*", "", low)
    parts = [p.strip() for p in re.split(r"[,;]", low) if p.strip()]
    found: dict[str, int] = {}
    for part in parts:
        m = re.fullmatch(r"([a-zß_ ]+?)\s*:?\s*(\d{1,2})", part)
        name = m.group(1).strip() if m else ""
        if not m or (name not in _AREAS and name not in _RESERVE):
            return False
        found[_AREAS.get(name) or _RESERVE[name]] = int(m.group(2))
    if not found:
        return False
    read.wear.update(found)
    read.used["wear"] = number
    return True


ALLOWED = {
    AskKind.TURN: {"gear", "boost", "soft_bonus", "launch", "pit", "repair", "long",
                   "standing"},
    AskKind.MOVE: {"move"},
    AskKind.PIT: {"pit", "repair", "long"},
    AskKind.KARMA: {"karma"},
    AskKind.BID: {"bid"},
    AskKind.BOX: {"box"},
    AskKind.SETUP: {"wear", "tyre"},
}


SINGLE = ("gear", "move", "karma", "bid", "box", "tyre", "pit")
"""Orders given once per answer: a second one with another value is two answers, refused."""


@dataclass
class Reading:
    """What a mail's orders gave: the decision (JSON form) or the problems, and the lines left
    out as no orders (greetings, closings, the signature), with their numbers."""

    data: dict[str, Any] | None
    problems: list[OrderProblem]
    ignored: list[tuple[int, str]] = field(default_factory=list)

    def ignored_text(self, language: str) -> str:
        """The lines left out, for the confirmation (empty: none)."""
        if not self.ignored:
            return ""
        de = language == "de"
        listed = "; ".join(f"{'Zeile' if de else 'line'} {n} {t.strip()[:40]!r}"
                           for n, t in self.ignored)
        return (f"Nicht als Angabe gelesen: {listed}" if de
                else f"Not read as orders: {listed}")


def parse_orders(text: str, ask: Ask, track: Track,
                 options: tuple[MoveOption, ...] | None = None) -> tuple[dict[str, Any] | None,
                                                                         list[OrderProblem]]:
    """The decision a mail gives for ``ask`` (JSON form), or the problems that keep it from
    being one (``read_orders`` also says which lines were left out)."""
    reading = read_orders(text, ask, track, options)
    return reading.data, reading.problems


def read_orders(text: str, ask: Ask, track: Track,
                options: tuple[MoveOption, ...] | None = None) -> Reading:
    """The decision a mail gives for ``ask``, or the problems that keep it from being one.
    Empty lines and lines starting with ``#`` are skipped; greetings, closings and the
    signature below a closing are left out and named; any other line that is no order, a
    wrong order, or a second answer to the same thing refuses the mail (issue 24)."""
    read = _Read()
    problems: list[OrderProblem] = []
    ignored: list[tuple[int, str]] = []
    after_closing = False
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.strip().startswith("#"):
            continue
        before = dict(read.used)
        if _read_line(line, number, read, problems):
            problems += [OrderProblem(number, f"zweite Antwort (die erste steht in Zeile "
                                      f"{before[key]})", f"a second answer (the first is in "
                                      f"line {before[key]})")
                         for key in SINGLE if key in before and read.used[key] != before[key]]
            continue
        skip, closing = _ignorable(line, after_closing)
        after_closing = after_closing or closing
        if skip:
            ignored.append((number, line))
        else:
            problems.append(not_understood(line, number))
    for what, at in sorted(read.used.items(), key=lambda item: item[1]):
        if what not in ALLOWED[ask.kind]:
            problems.append(OrderProblem(
                at, f"passt nicht zur Frage: gefragt ist {kind_label(ask.kind, 'de')}",
                f"does not fit the question: asked is the {kind_label(ask.kind, 'en')}"))
    if problems:
        return Reading(None, problems, ignored)
    offered = ask.moves if ask.kind is AskKind.MOVE else ()
    decision = _decide(ask, track, read, options if options is not None else offered,
                       problems)
    return Reading(decision if not problems else None, problems, ignored)


def _decide(ask: Ask, track: Track, read: _Read, moves: tuple[MoveOption, ...],
            problems: list[OrderProblem]) -> dict[str, Any] | None:
    if ask.kind is AskKind.TURN:
        if read.gear is None:
            problems.append(OrderProblem(0, "Gang fehlt (z. B. \"Gang 4\")",
                                         "gear missing (e.g. \"gear 4\")"))
            return None
        if ask.gears and read.gear not in ask.gears:
            allowed = ", ".join(map(str, ask.gears))
            problems.append(OrderProblem(read.used["gear"], f"Gang {read.gear} geht nicht, "
                                         f"möglich: {allowed}", f"gear {read.gear} is not "
                                         f"possible, possible: {allowed}"))
            return None
        data: dict[str, Any] = {"kind": "turn", "gear": read.gear}
        if read.boost:
            data["boost"] = True
        if read.soft_bonus:
            data["soft_bonus"] = True
        if not read.launch:
            data["launch"] = False
        if read.pit is not None:
            data["pit"] = {**read.pit, "repairs": read.pit["repairs"] + read.repairs,
                           "long": read.pit["long"] or read.long}
        if read.standing:  # the mail's, not the race's: ``FdAdapter`` takes it out
            data[STANDING] = "brake_keep_lane"
        return data
    if ask.kind is AskKind.PIT:
        plan = read.pit or {"tyre": None, "fuel": 0, "repairs": [], "long": False}
        plan = {**plan, "repairs": plan["repairs"] + read.repairs,
                "long": plan["long"] or read.long}
        return {"kind": "pit", "plan": plan}
    if ask.kind is AskKind.MOVE:
        return _move(track, read, moves, problems)
    if ask.kind is AskKind.KARMA:
        if read.karma is None:
            problems.append(OrderProblem(0, "Karma-Antwort fehlt (\"Karma +1\", \"Karma neu "
                                         "würfeln\", \"kein Karma\")", "karma answer missing "
                                         "(\"karma +1\", \"karma reroll\", \"no karma\")"))
            return None
        return {"kind": "karma", "action": read.karma}
    if ask.kind is AskKind.BID:
        return {"kind": "bid", "karma": read.bid or 0}
    if ask.kind is AskKind.BOX:
        if read.box is None:
            problems.append(OrderProblem(0, "Box fehlt (z. B. \"Box 3\")",
                                         "box missing (e.g. \"box 3\")"))
            return None
        return {"kind": "box", "box": read.box}
    if not read.wear or read.tyre is None:
        problems.append(OrderProblem(0, "Aufstellung: Punkte je Bereich und Startreifen fehlen",
                                     "setup: points per area and start tyres missing"))
        return None
    wear = {area: read.wear.get(area, 0)
            for area in ("tyres", "brakes", "fuel", "body", "engine", "road_holding", "box")}
    return {"kind": "setup", "wear": wear, "tyre": read.tyre}


def option_cost(option: MoveOption) -> tuple[int, ...]:
    """What an option costs, for choosing the cheapest way to a space: eliminations last, then
    wear points, tests, lane changes."""
    return (option.eliminated is not None, option.brakes + option.tyres + option.fuel,
            len(option.dangerous) + len(option.contacts), option.lane_changes)


def _move(track: Track, read: _Read, moves: tuple[MoveOption, ...],
          problems: list[OrderProblem]) -> dict[str, Any] | None:
    line = read.used.get("move", 0)
    if read.path is None and read.destination is None:
        problems.append(OrderProblem(0, "Ziel fehlt (z. B. \"Ziel C57\")",
                                     "destination missing (e.g. \"to C57\")"))
        return None
    names = read.path or [read.destination or ""]
    for name in names:
        try:
            track.space(name)
        except ValueError:  # RennleitungError is a ValueError
            problems.append(OrderProblem(line, f"Feld {name} gibt es auf dieser Strecke nicht",
                                         f"there is no space {name} on this track"))
            return None
    if read.path is not None:
        wanted = tuple(track.space(n) for n in read.path)
        matching = [o for o in moves if o.path == wanted]
        if not matching:
            problems.append(OrderProblem(line, "dieser Weg ist kein erlaubter Zug (die "
                                         "Tabelle der Frage nennt alle)", "this path is not a "
                                         "legal move (the question's table lists them all)"))
            return None
        return {"kind": "move", "path": read.path}
    end = track.space(read.destination or "")
    reaching = [o for o in moves if o.end == end]
    if not reaching:
        problems.append(OrderProblem(line, f"{read.destination} ist mit diesem Wurf nicht "
                                     "erreichbar (die Tabelle der Frage nennt alle Ziele)",
                                     f"{read.destination} cannot be reached with this roll "
                                     "(the question's table lists every destination)"))
        return None
    best = min(reaching, key=option_cost)
    return {"kind": "move", "path": [track.name_of(s) for s in best.path]}


_AREA_WORDS = {"tyres": ("Reifen", "tyres"), "brakes": ("Bremsen", "brakes"),
               "fuel": ("Verbrauch", "fuel"), "body": ("Karosserie", "body"),
               "engine": ("Motor", "engine"), "road_holding": ("Straßenlage", "road holding")}
_TYRE_WORDS = {"hard": ("harte", "hard"), "soft": ("weiche", "soft"), "rain": ("Regen", "rain")}
_START_TYRES = {"hard": ("hart", "hard"), "soft": ("weich", "soft"), "rain": ("Regen", "rain")}


def _plan_text(plan: dict[str, Any], language: str) -> str:
    de = language == "de"
    parts = [f"{plan.get('fuel', 0)} {'Punkte' if de else 'points'}"]
    if plan.get("tyre"):
        word = _TYRE_WORDS[plan["tyre"]][0 if de else 1]
        parts.append(f"{word} {'Reifen' if de else 'tyres'}")
    parts += [f"{'Reparatur' if de else 'repair'} {_AREA_WORDS[a][0 if de else 1]}"
              for a in plan.get("repairs", [])]
    if plan.get("long"):
        parts.append("lang" if de else "long")
    return ", ".join(parts)


def order_text(data: dict[str, Any], language: str) -> str:
    """A decision (JSON form) written as the mail orders that give it: what a player would
    write, and what the mail says a bot decided when a deadline passed."""
    de = language == "de"
    kind = data.get("kind")
    lines: list[str] = []
    if kind == "turn":
        lines.append(f"{'Gang' if de else 'gear'} {data['gear']}")
        if data.get("boost"):
            lines.append("Boost")
        if data.get("soft_bonus"):
            lines.append("Reifenbonus" if de else "soft bonus")
        if data.get("launch") is False:
            lines.append("kein Start" if de else "no launch")
        if data.get("pit") is not None:
            lines.append(f"{'Box' if de else 'pit'}: {_plan_text(data['pit'], language)}")
        if data.get(STANDING):
            lines.append("Wenn zu viel: bremsen, Spur halten" if de else
                         "if too many: brake, keep lane")
    elif kind == "move":
        lines.append(",".join(data["path"]) if data["path"] else "")
    elif kind == "pit":
        lines.append(f"{'Box' if de else 'pit'}: {_plan_text(data['plan'], language)}")
    elif kind == "karma":
        lines.append({"plus_one": "Karma +1", "reroll": "Karma neu würfeln" if de else
                      "karma reroll", "none": "kein Karma" if de else "no karma"}
                     [data["action"]])
    elif kind == "bid":
        lines.append(f"{'Gebot' if de else 'bid'} {data['karma']}")
    elif kind == "box":
        lines.append(f"Box {data['box']}")
    elif kind == "setup":
        wear = data["wear"]
        reserve = "Reserve" if de else "box reserve"
        lines.append(", ".join([*(f"{_AREA_WORDS[a][0 if de else 1]} {wear[a]}"
                                  for a in _AREA_WORDS), f"{reserve} {wear.get('box', 0)}"]))
        lines.append(f"{'Startreifen' if de else 'start tyres'} "
                     f"{_START_TYRES[data['tyre']][0 if de else 1]}")
    return "\n".join(lines)
