"""The order sheet: a plain-text form of the paper Rennmeldeblatt and Geschäftsblatt.

One order per line, ``Stichwort: Angaben``; lines starting with ``#`` are comments. The keywords
are the German ones of the paper sheets (see ``docs/turbo2000/sheets.md``)::

    Rennstall: Ferrari
    Passwort: rosso
    Runde: 3
    Rennen F1: Lauda Turbo-W11 Turbo-M9 Turbo-R10 d=1 e=2 Q=30 A=20/20/20
    Training: Prost 40.000
    an alle: Biete 2 Ferrari-W12 zu 650.000
    an Honda: Kaufe 2 Honda-M12 zu 300.000
    an alle: Biete Ferrari-W-Fabrik ab 2.000.000
    Errichtung: R
    Bau R: 20
    Entwicklung M: 600.000
    Entwicklung W: Modernisierung
    Elimination: 4 Turbo-R15-
    Vertrag: Senna 30.000 Folgejahr
    Abstimmung: ja
    Kontakt: Suche Partner für Motoren.
    Ausstieg: rosso

Leaving is for good, so ``Ausstieg`` must repeat the team's password (``Ausstieg: rosso``); any
other text after it ("Ausstieg: nein") is a problem and the team stays. A team joining during
the game sends ``Einstieg`` with the name and password it chooses.

The parser never raises for a player's mistake: every problem is collected with its line number,
field and a German and English message, and the faulty order is left out. The evaluation uses this
same parser, so ``turbo check`` shows exactly what the evaluation will see.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from rennleitung.turbo2000.amounts import MAX_AMOUNT, NUMBER, amount, parse_amount
from rennleitung.turbo2000.config import KINDS, GameConfig
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.notation import (
    NAME_PATTERN,
    EliminationOrder,
    PartSpec,
    parse_elimination,
    parse_part,
)


@dataclass(frozen=True)
class RaceEntry:
    """A Rennmeldung: driver, W, M, R, push d and e, LP for qualifying and each section."""

    line: int
    race: str
    driver: str
    car: PartSpec
    engine: PartSpec
    tyres: PartSpec
    d: int
    e: int
    qualifying: int
    sections: tuple[int, ...]


@dataclass(frozen=True)
class TrainingBid:
    """April 2000 §1: a driver and what the team will pay for a training place."""

    line: int
    driver: str
    bid: int


@dataclass(frozen=True)
class TradeLine:
    """Biete / Suche (published) or Kaufe / Verkaufe (answers); ``to`` None means "an alle"."""

    line: int
    verb: str
    to: str | None
    count: int
    part: PartSpec | None
    price: int
    factory_owner: str | None = None
    factory_kind: str = ""


@dataclass(frozen=True)
class KindOrder:
    """Errichtung, Bau or Entwicklung for one kind; ``amount`` is money or a count (§11)."""

    line: int
    kind: str
    amount: int = 0
    action: str = ""


@dataclass(frozen=True)
class EliminationLine:
    """An elimination order (§6) with the text as written, for the report."""

    line: int
    order: EliminationOrder
    text: str


@dataclass(frozen=True)
class ContractBid:
    """A salary bid for a driver, this year or next; ``blank`` marks a Blankovertrag (§16)."""

    line: int
    driver: str
    salary: int
    next_year: bool
    blank: bool


@dataclass
class OrderSheet:
    """Everything a team ordered for one round, with the problems found while reading it."""

    text: str
    team: str = ""
    password: str = ""
    round: int = 0
    entries: list[RaceEntry] = field(default_factory=list)
    training: list[TrainingBid] = field(default_factory=list)
    trades: list[TradeLine] = field(default_factory=list)
    constructions: list[KindOrder] = field(default_factory=list)
    builds: list[KindOrder] = field(default_factory=list)
    developments: list[KindOrder] = field(default_factory=list)
    eliminations: list[EliminationLine] = field(default_factory=list)
    contracts: list[ContractBid] = field(default_factory=list)
    vote: bool | None = None
    vote_line: int = 0
    contacts: list[tuple[int, str]] = field(default_factory=list)
    leave_line: int = 0
    leave_text: str = ""
    join_line: int = 0
    reserve: str = ""
    """June 1996: the reserve team name of a joining team (``Reserve: NAME``)."""
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    """Valid orders a player should look at twice (``turbo check`` shows them)."""

    def problem(self, line: int, where: str, de: str, en: str) -> None:
        """Note a problem; the order it concerns is left out."""
        self.problems.append(Problem(line, where, de, en))


_KEY_VALUE = re.compile(r"^(?P<key>[deQA])=(?P<value>.*)$")
_FACTORY = re.compile(rf"^(?P<owner>{NAME_PATTERN})-(?P<kind>[WMR])-Fabrik$")
_TRADE_VERBS = ("Biete", "Suche", "Kaufe", "Verkaufe")
_YES = {"ja": True, "ende": True, "yes": True, "nein": False, "weiter": False, "no": False}


def _entry(sheet: OrderSheet, number: int, qualifier: str, rest: str, config: GameConfig) -> None:
    race = qualifier.strip()
    if not race:
        sheet.problem(number, "Rennen", "Rennen ohne Kürzel (z.B. 'Rennen F1:')",
                      "race entry without a race code (e.g. 'Rennen F1:')")
        return
    tokens = rest.split()
    if not tokens:
        sheet.problem(number, "Fahrer", "Fahrer fehlt", "driver missing")
        return
    race = next((t.code for t in config.races if t.code.lower() == race.lower()), race)
    driver = tokens[0]
    parts: dict[str, PartSpec] = {}
    values: dict[str, str] = {}
    ok = True
    for token in tokens[1:]:
        key_value = _KEY_VALUE.match(token)
        if key_value:
            values[key_value["key"]] = key_value["value"]
            continue
        spec = parse_part(token)
        if spec is None or spec.maker is None:
            sheet.problem(number, token, f"'{token}' ist keine Komponente wie 'Turbo-W11'",
                          f"'{token}' is not a component like 'Turbo-W11'")
            ok = False
        elif spec.kind in parts:
            sheet.problem(number, token, f"zweite Komponente {spec.kind}",
                          f"second {spec.kind} component")
            ok = False
        else:
            parts[spec.kind] = spec
    for kind in KINDS:
        if kind not in parts:
            sheet.problem(number, kind, f"Komponente {kind} fehlt", f"component {kind} missing")
            ok = False
    numbers: dict[str, int] = {}
    for key in ("d", "e", "Q"):
        value = parse_amount(values.get(key, ""))
        if value is None:
            sheet.problem(number, key, f"{key}=Zahl fehlt oder ungültig",
                          f"{key}=number missing or invalid")
            ok = False
        else:
            numbers[key] = value
    for key in ("d", "e"):
        if key in numbers and not 1 <= numbers[key] <= config.max_push:
            sheet.problem(number, key, f"{key} muss zwischen 1 und {config.max_push} liegen",
                          f"{key} must be between 1 and {config.max_push}")
            ok = False
    sections: list[int] = []
    raw_sections = values.get("A", "").strip()
    if raw_sections:
        for piece in re.split(r"[,/]", raw_sections):
            points = parse_amount(piece)
            if points is None:
                sheet.problem(number, "A", f"Abschnitt '{piece}' ist keine Zahl",
                              f"section '{piece}' is not a number")
                ok = False
            else:
                sections.append(points)
    if ok:
        sheet.entries.append(RaceEntry(number, race, driver, parts["W"], parts["M"], parts["R"],
                                       numbers["d"], numbers["e"], numbers["Q"], tuple(sections)))


def _training(sheet: OrderSheet, number: int, qualifier: str, rest: str,
              config: GameConfig) -> None:
    tokens = rest.split()
    bid = parse_amount(tokens[1]) if len(tokens) == 2 else None
    if bid is None:
        sheet.problem(number, "Training", "Form: 'Training: Fahrer Betrag'",
                      "form: 'Training: driver amount'")
    elif bid <= 0 or bid % 1000:
        sheet.problem(number, "Betrag", "Betrag muss positiv und durch 1000 teilbar sein (§1)",
                      "amount must be positive and divisible by 1000 (§1)")
    else:
        sheet.training.append(TrainingBid(number, tokens[0], bid))


def _trade(sheet: OrderSheet, number: int, qualifier: str, rest: str,
           config: GameConfig) -> None:
    target = qualifier.strip()
    if not re.fullmatch(NAME_PATTERN, target):
        sheet.problem(number, "an", "Empfänger fehlt: 'an alle:' oder 'an Rennstall:'",
                      "recipient missing: 'an alle:' or 'an team:'")
        return
    to = None if target.lower() == "alle" else target
    tokens = rest.split()
    verb = next((v for v in _TRADE_VERBS if tokens and tokens[0].lower() == v.lower()), None)
    if verb is None:
        sheet.problem(number, "Geschäft", "Geschäft braucht Biete, Suche, Kaufe oder Verkaufe",
                      "trade needs Biete, Suche, Kaufe or Verkaufe")
        return
    if verb in ("Kaufe", "Verkaufe") and to is None:
        sheet.problem(number, "an", f"{verb} antwortet einem Rennstall: 'an Name:'",
                      f"{verb} answers one team: 'an name:'")
        return
    body = tokens[1:]
    factory = _FACTORY.match(body[0]) if body else None
    if factory:
        _factory_trade(sheet, number, verb, to, body, factory)
        return
    count = 1  # April 2000 §12
    if body and parse_amount(body[0]) is not None and len(body) == 4:
        count = parse_amount(body[0]) or 0
        body = body[1:]
    if len(body) != 3 or body[1].lower() != "zu":
        sheet.problem(number, verb, f"Form: '{verb} [Anzahl] Hersteller-W11 zu Preis'",
                      f"form: '{verb} [count] maker-W11 zu price'")
        return
    part = parse_part(body[0])
    price = parse_amount(body[2])
    if part is None:
        sheet.problem(number, body[0], f"'{body[0]}' ist keine Komponente",
                      f"'{body[0]}' is not a component")
    elif part.maker is None and verb != "Suche":
        sheet.problem(number, body[0], f"{verb} braucht den Hersteller ('Turbo-W11')",
                      f"{verb} needs the maker ('Turbo-W11')")
    elif price is None:
        sheet.problem(number, "Preis", f"Preis '{body[2]}' ist keine Zahl",
                      f"price '{body[2]}' is not a number")
    elif count < 1:
        sheet.problem(number, "Anzahl", "Anzahl muss mindestens 1 sein", "count must be at least 1")
    else:
        sheet.trades.append(TradeLine(number, verb, to, count, part, price))


def _factory_trade(sheet: OrderSheet, number: int, verb: str, to: str | None,
                   body: list[str], factory: re.Match[str]) -> None:
    owner, kind = factory["owner"], factory["kind"]
    keyword = "ab" if verb == "Biete" else "zu"
    price = parse_amount(body[2]) if len(body) == 3 and body[1].lower() == keyword else None
    if verb not in ("Biete", "Kaufe"):
        sheet.problem(number, verb, "Fabriken kann man nur bieten oder kaufen (§15)",
                      "factories can only be offered or bought (§15)")
    elif price is None:
        sheet.problem(number, verb, f"Form: '{verb} Name-{kind}-Fabrik {keyword} Preis'",
                      f"form: '{verb} name-{kind}-Fabrik {keyword} price'")
    elif verb == "Biete" and to is not None:
        sheet.problem(number, "an", "Fabriken nur 'an alle' anbieten (§15)",
                      "factories may only be offered 'an alle' (§15)")
    elif verb == "Biete" and owner != sheet.team:
        sheet.problem(number, owner, "nur die eigene Fabrik kann angeboten werden (§15)",
                      "only the team's own factory can be offered (§15)")
    elif verb == "Kaufe" and owner != to:
        sheet.problem(number, owner, "Kaufe geht an den Besitzer der Fabrik (§15)",
                      "Kaufe must be sent to the factory's owner (§15)")
    else:
        sheet.trades.append(TradeLine(number, verb, to, 1, None, price, owner, kind))


def _kind(sheet: OrderSheet, number: int, text: str, keyword: str) -> str | None:
    kind = text.strip().upper()
    if kind not in KINDS:
        sheet.problem(number, keyword, f"{keyword} braucht W, M oder R",
                      f"{keyword} needs W, M or R")
        return None
    return kind


def _construction(sheet: OrderSheet, number: int, qualifier: str, rest: str,
                  config: GameConfig) -> None:
    kind = _kind(sheet, number, rest, "Errichtung")
    if kind:
        sheet.constructions.append(KindOrder(number, kind))


def _build(sheet: OrderSheet, number: int, qualifier: str, rest: str, config: GameConfig) -> None:
    kind = _kind(sheet, number, qualifier, "Bau")
    ordered = parse_amount(rest)
    if kind and (ordered is None or ordered <= 0):
        sheet.problem(number, f"Bau {kind}", "Betrag oder Stückzahl fehlt (§11)",
                      "amount or count missing (§11)")
    elif kind and ordered:
        sheet.builds.append(KindOrder(number, kind, ordered))


def _development(sheet: OrderSheet, number: int, qualifier: str, rest: str,
                 config: GameConfig) -> None:
    kind = _kind(sheet, number, qualifier, "Entwicklung")
    if not kind:
        return
    word = rest.strip().lower()
    if word in ("modernisierung", "elimination"):
        sheet.developments.append(KindOrder(number, kind, 0, word.capitalize()))
        return
    ordered = parse_amount(rest)
    if ordered is None or ordered <= 0:
        sheet.problem(number, f"Entwicklung {kind}",
                      "Betrag, Schrittzahl, 'Modernisierung' oder 'Elimination' erwartet",
                      "amount, number of steps, 'Modernisierung' or 'Elimination' expected")
    else:
        sheet.developments.append(KindOrder(number, kind, ordered, "Entwicklung"))


def _elimination(sheet: OrderSheet, number: int, qualifier: str, rest: str,
                 config: GameConfig) -> None:
    order = parse_elimination(rest)
    if order is None or ((order.low or order.high) and order.low > order.high):
        sheet.problem(number, "Elimination",
                      f"'{rest.strip()}' passt nicht zum Muster von §6 (z.B. '4 Turbo-R15-')",
                      f"'{rest.strip()}' does not fit the pattern of §6 (e.g. '4 Turbo-R15-')")
    else:
        sheet.eliminations.append(EliminationLine(number, order, rest.strip()))


def _contract(sheet: OrderSheet, number: int, qualifier: str, rest: str,
              config: GameConfig) -> None:
    tokens = rest.split()
    flags = {token.lower() for token in tokens[2:]}
    salary = parse_amount(tokens[1]) if len(tokens) >= 2 else None
    unknown = flags - {"folgejahr", "blankovertrag"}
    if salary is None or unknown:
        sheet.problem(number, "Vertrag",
                      "Form: 'Vertrag: Fahrer Gehalt [Folgejahr] [Blankovertrag]'",
                      "form: 'Vertrag: driver salary [Folgejahr] [Blankovertrag]'")
    elif "blankovertrag" in flags and "folgejahr" in flags:
        sheet.problem(number, "Blankovertrag",
                      "Blankovertrag gilt für das laufende Jahr, ohne 'Folgejahr' (§16)",
                      "a blank contract is for the running year, without 'Folgejahr' (§16)")
    elif salary < config.minimum_salary:
        minimum = amount(config.minimum_salary)
        sheet.problem(number, "Gehalt", f"Gehalt unter dem Mindestgehalt {minimum}",
                      f"salary below the minimum salary {minimum}")
    else:
        sheet.contracts.append(ContractBid(number, tokens[0], salary, "folgejahr" in flags,
                                           "blankovertrag" in flags))


def _vote(sheet: OrderSheet, number: int, qualifier: str, rest: str, config: GameConfig) -> None:
    answer = _YES.get(rest.strip().lower())
    if answer is None:
        sheet.problem(number, "Abstimmung", "'ja' (Ende) oder 'nein' (weiter) erwartet",
                      "'ja' (end) or 'nein' (go on) expected")
    elif sheet.vote is not None:
        sheet.problem(number, "Abstimmung", "nur eine Stimme je Rennstall",
                      "only one vote per team")
    else:
        sheet.vote, sheet.vote_line = answer, number


def _contact(sheet: OrderSheet, number: int, qualifier: str, rest: str,
             config: GameConfig) -> None:
    if rest.strip():
        sheet.contacts.append((number, rest.strip()))


def _leave(sheet: OrderSheet, number: int, qualifier: str, rest: str, config: GameConfig) -> None:
    sheet.leave_line, sheet.leave_text = number, rest.strip()


def _join(sheet: OrderSheet, number: int, qualifier: str, rest: str, config: GameConfig) -> None:
    sheet.join_line = number


def _header(sheet: OrderSheet, number: int, key: str, rest: str) -> None:
    value = rest.strip()
    if key == "rennstall":
        sheet.team = value
    elif key == "passwort":
        sheet.password = value
    elif key == "reserve":
        sheet.reserve = value
    else:
        parsed = parse_amount(value)
        if parsed is None:
            sheet.problem(number, "Runde", "Runde ist keine Zahl", "round is not a number")
        else:
            sheet.round = parsed


Handler = Callable[[OrderSheet, int, str, str, GameConfig], None]
HANDLERS: dict[str, Handler] = {
    "rennen": _entry,
    "training": _training,
    "an": _trade,
    "errichtung": _construction,
    "bau": _build,
    "entwicklung": _development,
    "elimination": _elimination,
    "vertrag": _contract,
    "abstimmung": _vote,
    "kontakt": _contact,
    "ausstieg": _leave,
    "einstieg": _join,
}
"""Keyword (first word before the colon) -> reader of the line."""


NUMERIC_LINES = frozenset(HANDLERS) - {"kontakt", "ausstieg", "einstieg"} | {"runde"}
"""Lines whose numbers are orders (free text, names and passwords are not checked)."""


def _numbers_ok(sheet: OrderSheet, number: int, line: str) -> bool:
    """Only ASCII digits are numbers, and none above ``MAX_AMOUNT``; a line that breaks
    either is left out with a problem naming it (an Arabic-Indic or full-width digit was read
    as a number, a salary of 12.000.000.000.000.000 was "fine")."""
    foreign = next((c for c in line if c.isdigit() and not c.isascii()), None)
    if foreign is not None:
        name = unicodedata.name(foreign, "?")
        sheet.problem(number, foreign, f"'{foreign}' ({name}) ist keine Ziffer 0–9",
                      f"'{foreign}' ({name}) is not a digit 0–9")
        return False
    for found in NUMBER.finditer(line):
        if int(found.group().replace(".", "")) > MAX_AMOUNT:
            sheet.problem(number, found.group()[:30],
                          f"Zahl über der Obergrenze {amount(MAX_AMOUNT)}",
                          f"number above the upper bound {amount(MAX_AMOUNT)}")
            return False
    return True


def parse_sheet(text: str, config: GameConfig) -> OrderSheet:
    """Read a sheet; never raises for a player's mistake (see ``OrderSheet.problems``)."""
    sheet = OrderSheet(text=text)
    # a byte-order mark (Windows Notepad) is no part of the first line
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        words = head.split(None, 1)
        keyword = words[0].lower() if words else ""
        qualifier = words[1] if len(words) > 1 else ""
        if keyword in NUMERIC_LINES and not _numbers_ok(sheet, number, line):
            continue
        if keyword in ("rennstall", "passwort", "runde", "reserve") and colon:
            _header(sheet, number, keyword, rest)
        elif keyword in HANDLERS and (colon or keyword in ("ausstieg", "einstieg")):
            HANDLERS[keyword](sheet, number, qualifier, rest, config)
        else:
            sheet.problem(number, words[0] if words else "?",
                          f"unbekannte Zeile '{line[:40]}'", f"unknown line '{line[:40]}'")
    _check_header(sheet)
    _check_leave(sheet)
    _check_combinations(sheet)
    _check_contacts(sheet, config)
    return sheet


def contacts_too_long(sheet: OrderSheet, config: GameConfig) -> int:
    """The line of the contact that takes a sheet's contacts past the game master's limit
    (April 2000 §18, setting ``contact_limit``), or 0."""
    total = 0
    for line, text in sheet.contacts:
        total += len(text)
        if total > config.contact_limit:
            return line
    return 0


def _check_contacts(sheet: OrderSheet, config: GameConfig) -> None:
    """§18: contacts are of reasonable length; the game master decides, so a long one is
    flagged (for the player by ``turbo check``, for the game master by ``turbo status`` and
    the log) and published whole, never cut."""
    line = contacts_too_long(sheet, config)
    if line:
        total = sum(len(text) for _, text in sheet.contacts)
        sheet.warnings.append(Problem(
            line, "Kontakt",
            f"Kontakte zusammen {total} Zeichen, mehr als die {config.contact_limit} des "
            "Spielleiters (§18): er entscheidet, ob sie erscheinen",
            f"contacts of {total} characters together, more than the game master's "
            f"{config.contact_limit} (§18): he decides whether they appear"))


def _check_leave(sheet: OrderSheet) -> None:
    """April 2000 §19 leaving is for good: only ``Ausstieg: <password>`` counts."""
    if not sheet.leave_line:
        return
    if sheet.password and sheet.leave_text == sheet.password:
        sheet.warnings.append(Problem(sheet.leave_line, "Ausstieg",
                                      "dieser Bogen meldet den Rennstall endgültig ab (§19)",
                                      "this sheet makes the team leave the game for good (§19)"))
        return
    sheet.problem(sheet.leave_line, "Ausstieg",
                  "Ausstieg nur als 'Ausstieg: Passwort' (§19); der Rennstall bleibt im Spiel",
                  "leaving needs 'Ausstieg: password' (§19); the team stays in the game")
    sheet.leave_line, sheet.leave_text = 0, ""


def _check_header(sheet: OrderSheet) -> None:
    for value, de, en in ((sheet.team, "Rennstall", "team"), (sheet.password, "Passwort",
                          "password")):
        if not value:
            sheet.problem(0, de, f"'{de}:' fehlt", f"'{de}:' ({en}) missing")
    if not sheet.round:
        sheet.problem(0, "Runde", "'Runde:' fehlt", "'Runde:' (round) missing")


def _check_combinations(sheet: OrderSheet) -> None:
    """Rules that involve more than one line; the later or forbidden order is dropped."""
    for orders, keyword in ((sheet.constructions, "Errichtung"), (sheet.builds, "Bau"),
                            (sheet.developments, "Entwicklung")):
        seen: set[str] = set()
        kept: list[KindOrder] = []
        for order in orders:
            if order.kind in seen:
                sheet.problem(order.line, f"{keyword} {order.kind}",
                              "zweiter Eintrag für dieselbe Komponente wird ignoriert",
                              "second order for the same component is ignored")
            else:
                seen.add(order.kind)
                kept.append(order)
        orders[:] = kept
    eliminations = [o for o in sheet.developments if o.action == "Elimination"]
    others = len(sheet.builds) + len(sheet.constructions) + len(sheet.developments)
    if eliminations and others > len(eliminations):
        for order in eliminations:
            sheet.problem(order.line, f"Entwicklung {order.kind}",
                          "Elimination nur ohne andere Bau- oder Entwicklungsanweisung (§9)",
                          "Elimination only without other building or development orders (§9)")
        sheet.developments[:] = [o for o in sheet.developments if o.action != "Elimination"]
    trained: set[str] = set()
    kept_bids: list[TrainingBid] = []
    for training in sheet.training:
        if training.driver.lower() in trained:
            sheet.problem(training.line, training.driver,
                          "Fahrer ist schon zum Training gemeldet (§1)",
                          "driver is already entered for training (§1)")
        else:
            trained.add(training.driver.lower())
            kept_bids.append(training)
    sheet.training[:] = kept_bids
    in_training = {bid.driver.lower() for bid in sheet.training}
    racing: set[str] = set()
    kept_entries: list[RaceEntry] = []
    for entry in sheet.entries:
        if entry.driver.lower() in in_training:
            sheet.problem(entry.line, entry.driver,
                          "Fahrer ist zum Training gemeldet: kein Rennen in dieser Runde (§1)",
                          "driver is entered for training: no race this round (§1)")
        elif entry.driver.lower() in racing:
            sheet.problem(entry.line, entry.driver, "Fahrer startet nur in einem Rennen (§4)",
                          "a driver starts in one race only (§4)")
        else:
            racing.add(entry.driver.lower())
            kept_entries.append(entry)
    sheet.entries[:] = kept_entries
    blanks = [bid for bid in sheet.contracts if bid.blank]
    for bid in blanks[1:]:
        sheet.problem(bid.line, "Blankovertrag", "höchstens ein Blankovertrag (§16)",
                      "at most one blank contract (§16)")
    if len(blanks) > 1:
        sheet.contracts[:] = [b for b in sheet.contracts if not b.blank or b is blanks[0]]
