"""Step 9: the public results sheet (Rennanzeiger) and one report per team, German text first;
``as_html`` wraps either for the web or e-mail. Pure functions of the evaluated turn.
"""

from __future__ import annotations

import html

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.standings import winners, wm_table
from rennleitung.turbo2000.turn import Turn

NEWS_SECTIONS: tuple[tuple[str, str], ...] = (
    ("Rennställe", "Rennställe / teams"),
    ("Rennen", "Rennen / races"),
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


def announcement_lines(state: GameState, config: GameConfig) -> list[str]:
    """The next round's races with their conditions, training places and Turbo prices."""
    lines = []
    for announcement in state.announcements:
        t = config.race(announcement.code)
        extra = []
        if announcement.stage:
            extra.append(f"Etappe {announcement.stage}/{announcement.stages}")
        if announcement.stage == 1:
            extra.append("Etappen in Runden " + ", ".join(
                str(r) for r in rally_rounds(state.round, announcement.code, config)))
        if t.lp_cap:
            extra.append(f"höchstens {t.lp_cap} LP nach Originalregel")
        if t.min_risk:
            extra.append(f"Mindestrisiko {t.min_risk}")
        if t.constructors_prize:
            extra.append(f"Konstrukteursprämie {money(t.constructors_prize)}")
        if t.series == "junior":
            extra.append("nur Rennställe ohne WM-Punkte")
        prizes = " / ".join(money(p) for p in t.prizes)
        lines.append(f"{t.code:<7} {t.name}: {t.sections} Abschnitte, {t.grid} Startplätze, "
                     f"Preise {prizes}" + (f"; {'; '.join(extra)}" if extra else ""))
    lines.append(f"Trainingsplätze: {config.training_places}")
    ratings = state.new_factory_rating
    lines.append("Turbo verkauft: " + ", ".join(
        f"{config.reserved_maker}-{kind}{ratings[kind]} zu {money(config.turbo_price[kind])}"
        for kind in sorted(ratings)))
    return lines


def start_sheet(state: GameState, config: GameConfig) -> str:
    """The Rennanzeiger of round 0 that opens a game (as in 1996): teams, free drivers, the races
    of round 1, training places and what Turbo sells."""
    out = [f"TURBO 2000 - Rennanzeiger zu Runde {state.round} / start sheet", "",
           "== Rennställe / teams",
           "  " + ", ".join(sorted(t.name for t in state.active_teams())), "",
           f"== Rennausschreibung Runde {state.round} / races"]
    out += [f"  {line}" for line in announcement_lines(state, config)]
    free = sorted((d for d in state.drivers.values() if d.team is None),
                  key=lambda d: (-d.rating, d.name))
    out += ["", "== Vertraglose Fahrer / free drivers",
            "  " + (", ".join(d.notation() for d in free) or "keine"),
            f"  Mindestgehalt / minimum salary {money(config.minimum_salary)}", "",
            "== Startkapital / start money",
            f"  {money(config.start_money)} je Rennstall, Sponsorgeld {money(config.sponsor_money)}"
            " je Runde",
            "", "== Fabriken / factories",
            "  Kennzahl einer neuen Fabrik / new factory rating (§7): "
            + ", ".join(f"{k} {v}" for k, v in sorted(state.new_factory_rating.items())),
            "  Baukosten / cost: " + ", ".join(f"{k} {money(v)}"
                                              for k, v in sorted(config.factory_cost.items()))]
    return "\n".join(out) + "\n"


def results_sheet(turn: Turn, evaluated_round: int) -> str:
    """The public Rennanzeiger of the evaluated round, with what the next round offers."""
    state, config = turn.state, turn.config
    out = [f"TURBO 2000 - Rennanzeiger Runde {evaluated_round} "
           f"(Jahr {config.year_of(evaluated_round)}, "
           f"Runde {config.round_in_year(evaluated_round)})",
           ""]
    for key, title in NEWS_SECTIONS:
        if turn.news.get(key):
            out += [f"== {title}", *turn.news[key], ""]
    out.append("== Fabriken / factories")
    for f in sorted(state.factories, key=lambda f: (f.kind, -f.rating, f.owner)):
        out.append(f"  {f.owner}-{f.kind}: Kennzahl {f.rating}")
    ratings = state.new_factory_rating
    out += ["Kennzahl einer neuen Fabrik / new factory rating (§7): "
            + ", ".join(f"{k} {ratings[k]}" for k in sorted(ratings)), ""]
    out.append(f"== Geschäftszeilen zur Antwort in Runde {state.round} / trade lines")
    out += [f"  {offer.describe()}" + (" (unerfüllbar)" if offer.unfulfillable else "")
            for offer in state.offers] or ["  keine"]
    if state.finished:
        names, best = winners(state)
        out += ["", f"== Partiesieger / winner of the game (§20): {' und '.join(names)} mit "
                f"{best} WM-Punkten"]
    out += ["", f"== Rennausschreibung Runde {state.round} / races"]
    out += [] if state.finished else [f"  {line}" for line in announcement_lines(state, config)]
    free = sorted((d for d in state.drivers.values() if d.team is None),
                  key=lambda d: (-d.rating, d.name))
    out += ["", "== Vertraglose Fahrer / free drivers",
            "  " + (", ".join(d.notation() for d in free) or "keine")]
    out += ["", "== Ewige WM-Liste / eternal WM list"]
    out += [f"  {place:>2}. {name:<13} {points:>4}"
            + ("" if state.teams[name].active else "  (ausgestiegen / left)")
            for place, name, points in wm_table(state)]
    contacts = [(team, text) for team, sheet in sorted(turn.sheets.items())
                for _, text in sheet.contacts]
    if contacts:
        out += ["", "== Kontakte / contacts (§18)"]
        out += [f"  {team}: {text}" for team, text in contacts]
    return "\n".join(out) + "\n"


def team_report(turn: Turn, team_name: str, evaluated_round: int) -> str:
    """What one team learns: its account, stock, drivers, factories, and every note."""
    state = turn.state
    team = state.teams[team_name]
    start = team.money - sum(amount for _, amount in turn.ledger.get(team_name, []))
    out = [f"TURBO 2000 - Bericht Runde {evaluated_round} für {team_name}", "",
           "== Konto / account", f"  {'Anfang / start':<48} {money(start):>14}"]
    out += [f"  {why:<48.48} {money(amount):>14}" for why, amount in turn.ledger.get(team_name, [])]
    out += [f"  {'Stand / balance':<48} {money(team.money):>14}", "", "== Lager / stock"]
    out += [f"  {count:>3} x {part.notation()}" for part, count in sorted(team.stock.items())]
    out += ["", "== Fahrer / drivers"]
    for d in sorted(state.drivers.values(), key=lambda d: d.name):
        if d.team == team_name:
            out.append(f"  {d.notation()} Gehalt {money(d.salary)}"
                       + (f", Folgejahr {d.next_team}" if d.next_team else ""))
        elif d.next_team == team_name:
            out.append(f"  {d.notation()} ab Folgejahr, Gehalt {money(d.next_salary)}")
    out += ["", "== Fabriken / factories"]
    out += [f"  {f.kind}: Kennzahl {f.rating}, Ziffern {''.join(map(str, f.digits))}"
            for f in state.factories if f.owner == team_name]
    out += ["", "== Meldungen / notes"]
    out += [f"  {note}" for note in turn.notes.get(team_name, [])] or ["  keine"]
    return "\n".join(out) + "\n"


def as_html(text: str, title: str) -> str:
    """A report as a small HTML page (same text, so mail and web show the same)."""
    return (f"<!DOCTYPE html>\n<html lang=\"de\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head>\n<body><pre>{html.escape(text)}</pre>"
            "</body></html>\n")
