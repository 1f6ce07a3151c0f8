"""Step 9: the public results sheet (Rennanzeiger) and one report per team, German text first.

Each is built as a ``document.Document`` (sections of lines and tables); ``as_text`` gives the
text that is mailed and stored, ``render/turbo_html.py`` the HTML page with the same content plus
charts. Pure functions of the evaluated turn.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.document import Document, Section, Table, as_text
from rennleitung.turbo2000.model import GameState, HistoryPoint
from rennleitung.turbo2000.standings import winners, wm_table
from rennleitung.turbo2000.turn import Turn

NEWS_SECTIONS: tuple[tuple[str, str], ...] = (
    ("Rennställe", "Rennställe / teams"),
    ("Training", "Trainingslager / training (§1)"),
    ("Verträge", "Verträge / contracts"),
    ("Geschäfte", "Geschäfte / trades"),
    ("Fabrikbau", "Fabrikbau / factory news"),
    ("Abstimmung", "Partieende / end of the game (§20)"),
)


def money(value: int) -> str:
    """German thousands separators: 1.200.000."""
    return amount(value)


def rally_rounds(first: int, code: str, config: GameConfig) -> list[int]:
    """All stage rounds of a Rallye starting in round ``first`` (published at its start, §4.6)."""
    start = first - config.round_in_year(first)
    return [start + index + 1 for index, day in enumerate(config.calendar)
            if code in day and start + index + 1 >= first]


ANNOUNCEMENT_WORDS: dict[str, tuple[str, str]] = {
    "stage": ("Etappe", "stage"),
    "stages": ("Etappen in Runden", "stages in rounds"),
    "cap": ("höchstens {} LP nach Originalregel", "at most {} LP by the original rule"),
    "risk": ("Mindestrisiko {}", "least risk {}"),
    "prize": ("Konstrukteursprämie {}", "maker's bonus {}"),
    "junior": ("nur Rennställe ohne WM-Punkte", "only teams without WM points"),
    "race": ("{}: {} Abschnitte, {} Startplätze, Preise {}",
             "{}: {} sections, {} grid places, prizes {}"),
    "training": ("Trainingsplätze: {}", "training places: {}"),
    "turbo": ("Turbo verkauft: {}", "Turbo sells: {}"),
    "at": ("zu", "at"),
}
"""The race announcement's words, German and English (the English results sheet, issue 24)."""


def announcement_lines(state: GameState, config: GameConfig,
                       english: bool = False) -> list[str]:
    """The next round's races with their conditions, training places and Turbo prices."""
    def word(key: str) -> str:
        return ANNOUNCEMENT_WORDS[key][english]

    lines = []
    for announcement in state.announcements:
        t = config.race(announcement.code)
        extra = []
        if announcement.stage:
            extra.append(f"{word('stage')} {announcement.stage}/{announcement.stages}")
        if announcement.stage == 1:
            extra.append(f"{word('stages')} " + ", ".join(
                str(r) for r in rally_rounds(state.round, announcement.code, config)))
        if t.lp_cap:
            extra.append(word("cap").format(t.lp_cap))
        if t.min_risk:
            extra.append(word("risk").format(t.min_risk))
        if t.constructors_prize:
            extra.append(word("prize").format(money(t.constructors_prize)))
        if t.series == "junior":
            extra.append(word("junior"))
        prizes = " / ".join(money(p) for p in t.prizes)
        lines.append(f"{t.code:<7} " + word("race").format(t.name, t.sections, t.grid, prizes)
                     + (f"; {'; '.join(extra)}" if extra else ""))
    lines.append(word("training").format(
        config.places_for_training(len(state.active_teams()))))
    ratings = state.new_factory_rating
    lines.append(word("turbo").format(", ".join(
        f"{config.reserved_maker}-{kind}{ratings[kind]} {word('at')} "
        f"{money(config.turbo_price[kind])}" for kind in sorted(ratings))))
    return lines


def _extra_driver_fee(config: GameConfig, say: Callable[[str], str]) -> tuple[str, ...]:
    """The start sheet names the fee for drivers beyond the third (rules version 3)."""
    if not config.extra_driver_fee:
        return ()
    fee, free = money(config.extra_driver_fee), config.fee_free_drivers
    text = say(f"Zuschlag je Fahrer über {free} / fee per driver beyond {free}")
    return (f"  {text} {fee} {say('je Runde / a round')}",)


def _driver_limit(config: GameConfig, say: Callable[[str], str]) -> tuple[str, ...]:
    """The start sheet names the limit of drivers a team and year (rules version 4)."""
    if not config.max_drivers:
        return ()
    limit = config.max_drivers
    text = (f"Höchstens {limit} Fahrer je Rennstall und Jahr / "
            f"at most {limit} drivers a team and year")
    return (f"  {say(text)}",)


def start_document(state: GameState, config: GameConfig, language: str = "") -> Document:
    """The Rennanzeiger of round 0 that opens a game (as in 1996): teams, free drivers, the races
    of round 1, training places and what Turbo sells. In both languages unless ``language`` is
    "en" (the start sheet the welcome mail sends an English team, issue 24)."""
    free = sorted((d for d in state.drivers.values() if d.team is None),
                  key=lambda d: (-d.rating, d.name))
    english = language == "en"

    def say(both: str) -> str:
        return _one(language, both)

    start_money = (f"  {money(config.start_money)} a team, sponsor money "
                   f"{money(config.sponsor_money)} a round" if english else
                   f"  {money(config.start_money)} je Rennstall, Sponsorgeld "
                   f"{money(config.sponsor_money)} je Runde")
    title = (f"TURBO 2000 - start sheet for round {state.round}" if english
             else f"TURBO 2000 - Rennanzeiger zu Runde {state.round} / start sheet")
    return Document(title, (
        Section(say("Rennställe / teams"),
                ("  " + ", ".join(sorted(t.name for t in state.active_teams())),)),
        Section(f"races of round {state.round}" if english
                else f"Rennausschreibung Runde {state.round} / races",
                tuple(f"  {line}" for line in announcement_lines(state, config, english))),
        Section(say("Vertraglose Fahrer / free drivers"),
                ("  " + (", ".join(d.notation() for d in free) or ("none" if english
                                                                   else "keine")),
                 f"  {say('Mindestgehalt / minimum salary')} {money(config.minimum_salary)}",
                 *_driver_limit(config, say), *_extra_driver_fee(config, say))),
        Section(say("Startkapital / start money"), (start_money,)),
        Section(say("Fabriken / factories"), (
            f"  {say('Kennzahl einer neuen Fabrik / new factory rating')} (§7): "
            + ", ".join(f"{k} {v}" for k, v in sorted(state.new_factory_rating.items())),
            f"  {say('Baukosten / cost')}: " + ", ".join(
                f"{k} {money(v)}" for k, v in sorted(config.factory_cost.items())))),
    ))


def start_sheet(state: GameState, config: GameConfig, language: str = "") -> str:
    """The start sheet as text (both languages, or English only with ``language="en"``)."""
    return as_text(start_document(state, config, language))


def wm_section(state: GameState, chart: bool = True, language: str = "") -> Section:
    """The eternal WM list as a table; departed teams are marked."""
    english = language == "en"
    rows = tuple((f"{place}.", name, str(points),
                  "" if state.teams[name].active else _one(language, "ausgestiegen / left"))
                 for place, name, points in wm_table(state))
    return Section(_one(language, "Ewige WM-Liste / eternal WM list"),
                   table=Table(("place" if english else "Platz",
                                _one(language, "Rennstall / team"),
                                "WM points" if english else "WM-Punkte", ""), rows,
                               frozenset({0, 2})),
                   chart="wm" if chart else "")


def results_document(turn: Turn, evaluated_round: int, language: str = "") -> Document:
    """The public Rennanzeiger of the evaluated round, with what the next round offers. In
    both languages (``de / en``) unless ``language`` is "en": the English one an English team
    gets by mail holds no German but the sheet's keywords (issue 24)."""
    state, config = turn.state, turn.config
    english = language == "en"

    def say(both: str) -> str:
        return _one(language, both)

    def line(german: str) -> str:
        return turn.english.get(german, say(german)) if english else german

    none = "  none" if english else "  keine"
    sections: list[Section] = []
    for key, title in NEWS_SECTIONS[:1]:
        if turn.news.get(key):
            sections.append(Section(say(title), tuple(line(n) for n in turn.news[key])))
    for race in turn.races:
        table = Table(("place" if english else "Platz", say("Fahrer / driver"),
                       say("Rennstall / team"), race.score_label, "W M R"), tuple(race.rows),
                      frozenset({0, 3})) if race.rows else None
        title = race.title_en or race.title if english else race.title
        sections.append(Section(f"{say('Rennen / race')}: {title}", table=table,
                                notes=tuple(f"  {line(note)}" for note in race.lines)))
    for key, title in NEWS_SECTIONS[1:]:
        if turn.news.get(key):
            sections.append(Section(say(title), tuple(line(n) for n in turn.news[key])))
    ratings = state.new_factory_rating
    sections.append(Section(say("Fabriken / factories"), (
        f"  {say('Kennzahl einer neuen Fabrik / new factory rating')} (§7): "
        + ", ".join(f"{k} {ratings[k]}" for k in sorted(ratings)),), Table(
        (say("Fabrik / factory"), say("Kennzahl / rating")),
        tuple((f"{f.owner}-{f.kind}", str(f.rating)) for f in
              sorted(state.factories, key=lambda f: (f.kind, -f.rating, f.owner))),
        frozenset({1}))))
    unfulfillable = " (cannot be fulfilled)" if english else " (unerfüllbar)"
    sections.append(Section(
        f"trade lines to answer in round {state.round} (the sheet's keywords)" if english
        else f"Geschäftszeilen zur Antwort in Runde {state.round} / trade lines",
        tuple(f"  {offer.describe()}" + (unfulfillable if offer.unfulfillable else "")
              for offer in state.offers) or (none,)))
    if state.finished:
        names, best = winners(state)
        sections.append(Section(
            f"winner of the game (§20): {' and '.join(names)} with {best} WM points" if english
            else f"Partiesieger / winner of the game (§20): "
                 f"{' und '.join(names)} mit {best} WM-Punkten"))
    else:
        sections.append(Section(f"races of round {state.round}" if english
                                else f"Rennausschreibung Runde {state.round} / races",
                                tuple(f"  {text}"
                                      for text in announcement_lines(state, config, english))))
    free = sorted((d for d in state.drivers.values() if d.team is None),
                  key=lambda d: (-d.rating, d.name))
    sections.append(Section(say("Vertraglose Fahrer / free drivers"),
                            ("  " + (", ".join(d.notation() for d in free)
                                     or none.strip()),)))
    sections.append(wm_section(state, language=language))
    contacts = [(team, text) for team, sheet in sorted(turn.sheets.items())
                for _, text in sheet.contacts]
    if contacts:
        sections.append(Section(f"{say('Kontakte / contacts')} (§18)",
                                tuple(f"  {team}: {text}" for team, text in contacts)))
    if english:
        return Document(f"TURBO 2000 - results round {evaluated_round} "
                        f"(year {config.year_of(evaluated_round)}, "
                        f"round {config.round_in_year(evaluated_round)})", tuple(sections))
    return Document(f"TURBO 2000 - Rennanzeiger Runde {evaluated_round} "
                    f"(Jahr {config.year_of(evaluated_round)}, "
                    f"Runde {config.round_in_year(evaluated_round)})", tuple(sections))


def results_sheet(turn: Turn, evaluated_round: int) -> str:
    """The results sheet as text."""
    return as_text(results_document(turn, evaluated_round))


def _one(language: str, both: str) -> str:
    """A ``de / en`` text in one language ("de" or "en"); both for any other."""
    german, slash, english = both.partition(" / ")
    if not slash or language not in ("de", "en"):
        return both
    indent = german[:len(german) - len(german.lstrip(" "))]  # "  keine / none": kept
    return german if language == "de" else indent + english


def _note(turn: Turn, note: str) -> str:
    """A report note in English: as the step worded it, else the English half of a ``de / en``
    note (only where it has one such half: a problem's note has more slashes and is worded)."""
    if note in turn.english:
        return turn.english[note]
    return _one("en", note) if note.count(" / ") == 1 else note


def _standing(state: GameState, team_name: str, language: str = "") -> tuple[str, ...]:
    table = wm_table(state)
    mine = next((row for row in table if row[1] == team_name), None)
    if mine is None:
        return (_one(language, "  nicht in der WM-Liste / not in the WM list"),)
    place, _, points = mine
    leader = table[0]
    gap = leader[2] - points
    if language == "en":
        return (f"  place {place} of {len(table)} with {points} WM points",
                "  leader: " + (f"{leader[1]} with {leader[2]}, {gap} points ahead"
                                if gap else "yourselves"))
    return (f"  Platz {place} von {len(table)} mit {points} WM-Punkten / place {place} of "
            f"{len(table)} with {points} WM points",
            "  Spitze / leader: " + (f"{leader[1]} mit {leader[2]}, {gap} Punkte voraus / ahead"
                                     if gap else "Sie selbst / yourselves"))


def _contracts_ending(state: GameState, team_name: str, evaluated_round: int,
                      config: GameConfig, english: bool = False) -> tuple[str, ...]:
    """Contracts hold for the running year only: the drivers that leave the team after the
    year's last round unless it bids for them with ``Folgejahr`` (the driver used to leave
    silently after round 6)."""
    if state.finished:
        return ()
    leaving = sorted(d.name for d in state.drivers.values()
                     if d.team == team_name and d.next_team != team_name)
    if not leaving:
        return ()
    coming = evaluated_round + 1
    last = coming + config.rounds_per_year - config.round_in_year(coming)
    names = ", ".join(leaving)
    if english:
        return (("  WARNING: " if coming == last else "  ") + f"contracts end after round "
                f"{last} (end of the year): {names} without a contract for the next year; "
                "to keep one, bid for next year on your sheet with the line 'Vertrag: NAME "
                "AMOUNT Folgejahr' (the sheet's keywords stay German: Folgejahr = next year)",)
    urgent = "  ACHTUNG / WARNING: " if coming == last else "  "
    return (f"{urgent}Verträge enden nach Runde {last} (Jahresende): {names} ohne Vertrag "
            f"für das Folgejahr ('Vertrag: NAME BETRAG Folgejahr') / contracts end after round "
            f"{last} (end of the year): {names} without a contract for the next year",)


def team_document(turn: Turn, team_name: str, evaluated_round: int,
                  language: str = "") -> Document:
    """What one team learns: account, stock, drivers, factories, its races section by section,
    its WM standing, and every note. In both languages (``de / en``) unless ``language`` is
    "en": an English team's report holds no German entries (issue 24)."""
    state = turn.state
    team = state.teams[team_name]
    english = language == "en"

    def say(both: str) -> str:
        return _one(language, both)

    def entry(german: str) -> str:
        return turn.english.get(german, say(german)) if english else german

    ledger = turn.ledger.get(team_name, [])
    start = team.money - sum(value for _, value in ledger)
    account = Table((say("Buchung / entry"), say("Betrag / amount")), (
        (say("Anfang / start"), money(start)),
        *((entry(why), money(value)) for why, value in ledger),
        (say("Stand / balance"), money(team.money))), frozenset({1}))
    stock = Table((say("Anzahl / count"), say("Komponente / component")),
                  tuple((str(count), part.notation())
                        for part, count in sorted(team.stock.items())), frozenset({0}))
    drivers = []
    for d in sorted(state.drivers.values(), key=lambda d: d.name):
        if d.team == team_name:
            drivers.append((d.notation(), money(d.salary), d.next_team or ""))
        elif d.next_team == team_name:
            drivers.append((d.notation(), ("from next year " if english else "ab Folgejahr ")
                            + money(d.next_salary), team_name))
    contract_notes = _contracts_ending(state, team_name, evaluated_round, turn.config, english)
    factories = tuple((f.kind, str(f.rating), "".join(map(str, f.digits)))
                      for f in state.factories if f.owner == team_name)
    races = tuple(turn.english.get(line, line) if english else line
                  for line in turn.race_log.get(team_name, [])) \
        or (say("  keine Rennen / no races"),)
    title = (f"TURBO 2000 - report round {evaluated_round} for {team_name}" if english
             else f"TURBO 2000 - Bericht Runde {evaluated_round} für {team_name}")
    return Document(title, (
        Section(say("Konto / account"), table=account, chart="money"),
        Section(say("Lager / stock"), table=stock),
        Section(say("Fahrer / drivers"),
                table=Table((say("Fahrer / driver"), say("Gehalt / salary"),
                             say("Folgejahr / next year")), tuple(drivers), frozenset({1})),
                chart="ratings", notes=contract_notes),
        Section(say("Fabriken / factories"),
                table=Table((say("Typ / kind"), say("Kennzahl / rating"),
                             say("Ziffern / digits")), factories,
                            frozenset({1})) if factories else None,
                lines=() if factories else (say("  keine / none"),)),
        Section(say("Rennen / races"), races),
        Section(say("WM-Stand / WM standing"), _standing(state, team_name, language),
                chart="wm"),
        Section(say("Meldungen / notes"),
                tuple(f"  {_note(turn, note) if english else note}"
                      for note in turn.notes.get(team_name, []))
                or (("  none",) if english else ("  keine",))),
    ))


def team_report(turn: Turn, team_name: str, evaluated_round: int, language: str = "") -> str:
    """A team report as text (both languages, or English only with ``language="en"``)."""
    return as_text(team_document(turn, team_name, evaluated_round, language))


def history_point(state: GameState, evaluated_round: int) -> HistoryPoint:
    """The standing after a round, for the charts of later reports."""
    ratings: dict[str, dict[str, int]] = {}
    for driver in state.drivers.values():
        if driver.team is not None:
            ratings.setdefault(driver.team, {})[driver.name] = driver.rating
    return HistoryPoint(evaluated_round, dict(state.wm_points),
                        {name: team.money for name, team in state.teams.items()}, ratings)


def as_html(text: str, title: str) -> str:
    """A plain-text report as a minimal HTML page (kept for callers that only have text)."""
    return (f"<!DOCTYPE html>\n<html lang=\"de\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head>\n<body><pre>{html.escape(text)}</pre>"
            "</body></html>\n")
