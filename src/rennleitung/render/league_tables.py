"""Standings as rows of plain values: one source for Rich tables, JSON, CSV and the HTML page.

Pure functions. Column labels come from one table in German and English; ``lang`` picks
``de``, ``en`` or ``both`` ("Fahrer / Driver").
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction

from rennleitung.league.city_standings import CityStanding
from rennleitung.league.constructor_standings import TeamStanding
from rennleitung.league.driver_standings import DriverStanding
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.history import ACTIONS, Correction
from rennleitung.league.karma import KarmaEntry, KarmaReason, karma_ledger
from rennleitung.league.points import race_points
from rennleitung.league.qualifying import format_lap_time
from rennleitung.league.season import League
from rennleitung.render.json_changes import changes

Row = dict[str, str | int | None]

LABELS: dict[str, tuple[str, str]] = {
    "rank": ("Platz", "Rank"),
    "driver": ("Fahrer", "Driver"),
    "team": ("Team", "Team"),
    "city": ("Stadt", "City"),
    "drivers": ("Fahrer", "Drivers"),
    "points": ("Punkte", "Points"),
    "gross_points": ("Punkte brutto", "Gross points"),
    "dropped": ("Streichresultate", "Drop results"),
    "wins": ("Siege", "Wins"),
    "score": ("Schnitt je Fahrer", "Average per driver"),
    "total_points": ("Punkte gesamt", "Total points"),
    "race": ("Rennen", "Race"),
    "amount": ("Karma", "Karma"),
    "reason": ("Grund", "Reason"),
    "balance": ("Stand", "Balance"),
    "note": ("Vermerk", "Note"),
    "position": ("Platz", "Place"),
    "score_q": ("Wertung", "Score"),
    "lap_time": ("Rundenzeit", "Lap time"),
    "qualifying_points": ("Quali-Punkte", "Qualifying points"),
    "draw": ("Schwarzer Würfel", "Black die"),
    "profile": ("Profil", "Profile"),
    "constructors": ("Konstrukteure", "Constructors"),
    "cities": ("Städte", "Cities"),
    "karma": ("Karma", "Karma"),
    "grid": ("Start", "Grid"),
    "laps": ("Runden", "Laps"),
    "status": ("Status", "Status"),
    "driven_by": ("gefahren von", "driven by"),
    "seq": ("Nr.", "No."),
    "at": ("Zeit (UTC)", "Time (UTC)"),
    "by": ("von", "by"),
    "action": ("Korrektur", "Correction"),
    "subject": ("betrifft", "Subject"),
    "before": ("vorher", "before"),
    "after": ("nachher", "after"),
    "changes": ("geändert", "changed"),
    "by_mail": ("per E-Mail gefahren", "run by e-mail"),
    "kind": ("Art", "Kind"),
    "name": ("Name", "Name"),
    "history": ("Korrekturen", "Corrections"),
    "from_race": ("ab Rennen", "from race"),
    "matches": ("Matches", "Matches"),
    "match_wins": ("Matchsiege", "Match wins"),
    "heats_won": ("Läufe gewonnen", "Heats won"),
    "heats_lost": ("Läufe verloren", "Heats lost"),
    "heat_difference": ("Laufdifferenz", "Heat difference"),
    "date": ("Datum", "Date"),
    "board": ("Brett", "Board"),
    "players": ("Fahrer", "Drivers"),
    "heats": ("Laufsieger", "Heat winners"),
    "winner": ("Sieger", "Winner"),
    "source": ("gespielt", "Played"),
}

REASONS: dict[str, tuple[str, str]] = {
    "start": ("Startguthaben", "starting karma"),
    "twenty": ("20 gewürfelt", "rolled a 20"),
    "points": ("Meisterschaftspunkte", "championship points"),
    "places-gained": ("Plätze gutgemacht", "places gained"),
    "laps-most-led": ("meiste Führungsrunden", "most laps led"),
    "reroll": ("Wurf wiederholt", "re-roll"),
    "plus-one": ("Wurf +1", "roll +1"),
    "head-to-head": ("Kopf an Kopf", "head-to-head"),
}


def label(key: str, lang: str) -> str:
    """A column label in ``de``, ``en`` or ``both``."""
    de, en = LABELS.get(key, (key, key))
    return {"de": de, "en": en}.get(lang, de if de == en else f"{de} / {en}")


def driver_rows(standings: Sequence[DriverStanding]) -> list[Row]:
    """The drivers' table; one column per held race (``r1``, ``r2``, …; dropped in brackets)."""
    rows: list[Row] = []
    for line in standings:
        row: Row = {
            "rank": line.rank, "driver": line.driver, "team": line.team, "city": line.city,
            "points": line.points, "gross_points": line.gross_points,
            "wins": sum(1 for r in line.races if r.won),
            "dropped": " ".join(str(r.race) for r in line.races if r.dropped),
        }
        for race in line.races:
            cell = "-" if race.position is None else str(race.points)
            row[f"r{race.race}"] = f"({cell})" if race.dropped else cell
        rows.append(row)
    return rows


def constructor_rows(standings: Sequence[TeamStanding]) -> list[Row]:
    """The constructors' table with the team's points per race."""
    rows: list[Row] = []
    for line in standings:
        row: Row = {"rank": line.rank, "team": line.team, "drivers": ", ".join(line.drivers),
                    "points": line.points}
        for race, points in line.points_by_race:
            row[f"r{race}"] = points
        rows.append(row)
    return rows


def city_rows(standings: Sequence[CityStanding]) -> list[Row]:
    """The city table; the average is shown with one decimal."""
    return [
        {"rank": c.rank, "city": c.city, "drivers": ", ".join(c.drivers),
         "total_points": c.total_points, "score": _average(c.score)}
        for c in standings
    ]


def karma_rows(ledger: Sequence[KarmaEntry], lang: str = "both") -> list[Row]:
    """The karma ledger, one movement per row, reason and note in words."""
    return [
        {"driver": e.driver, "race": e.race, "amount": e.amount,
         "reason": _reason(e.reason.value, lang), "balance": e.balance,
         "note": karma_note(e, lang)}
        for e in ledger
    ]


def karma_note(entry: KarmaEntry, lang: str = "both") -> str:
    """The note of a movement in the reader's language, worded from its figures; a note typed
    by the organiser (or one stored without figures) is shown as it is."""
    figures = entry.figures
    if entry.driven_by is not None:
        return _words(f"gefahren von {entry.driven_by}", f"driven by {entry.driven_by}", lang)
    if entry.reason is KarmaReason.CHAMPIONSHIP_POINTS and len(figures) == 1:
        n = figures[0]
        return _words(f"{n} {'Punkt' if n == 1 else 'Punkte'}",
                      f"{n} {'point' if n == 1 else 'points'}", lang)
    if entry.reason is KarmaReason.PLACES_GAINED and len(figures) == 2:
        grid, place = figures
        return _words(f"Start {grid} → Platz {place}", f"grid {grid} → place {place}", lang)
    if entry.reason is KarmaReason.LAPS_MOST_LED and len(figures) == 1:
        n = figures[0]
        return _words(f"{n} {'Runde' if n == 1 else 'Runden'}",
                      f"{n} {'lap' if n == 1 else 'laps'}", lang)
    return entry.note


VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "status": {
        "finished": ("im Ziel", "finished"),
        "retired": ("ausgefallen", "retired"),
        "did-not-start": ("nicht gestartet", "did not start"),
    },
    "kind": {"season": ("Saison", "season"), "open": ("Open", "Open")},
    "source": {"online": ("online", "online"), "table": ("am Tisch", "at the table"),
               "command-line": ("Kommandozeile", "command line")},
    "action": {key: words for key, words in ACTIONS.items()},
}
"""Coded values shown in words (the JSON and CSV for programs keep the codes)."""


def display_value(key: str, value: str | int | None, lang: str) -> str:
    """A cell as a person reads it: coded values in words, ``None`` as empty."""
    if value is None:
        return ""
    words = VALUES.get(key, {}).get(str(value))
    return _words(*words, lang) if words else str(value)


SUBJECTS: dict[str, tuple[str, str]] = {
    "race": ("Rennen", "race"), "qualifying": ("Qualifizierung", "qualifying"),
    "driver": ("Fahrer", "driver"), "team": ("Team", "team"), "league": ("Liga", "league"),
}


def history_rows(history: Sequence[Correction], lang: str = "both") -> list[Row]:
    """The league's corrections, oldest first: what changed in words (``json_changes``), and
    what was there before and after as compact JSON."""
    rows: list[Row] = []
    for c in history:
        kind, _, rest = c.subject.partition(" ")
        words = SUBJECTS.get(kind)
        subject = f"{_words(*words, lang)} {rest}" if words else c.subject
        rows.append({"seq": c.seq, "at": c.at, "by": c.by, "action": c.action,
                     "subject": subject, "changes": "; ".join(changes(c.before, c.after)),
                     "before": _compact(c.before), "after": _compact(c.after)})
    return rows


def _compact(data: object) -> str | None:
    return None if data is None else json.dumps(data, ensure_ascii=False,
                                                separators=(",", ":"))


def race_rows(league: League, race: int) -> list[Row]:
    """One race as classified: place, grid, laps, status, stand-in, points and karma earned."""
    result = league.race(race)
    if result is None:
        return []
    qualifying = league.qualifying_of(race)
    karma_by_driver: dict[str, int] = {}
    for entry in karma_ledger(league):
        if entry.race == race:
            karma_by_driver[entry.driver] = karma_by_driver.get(entry.driver, 0) + entry.amount
    rows: list[Row] = []
    for e in sorted(result.drivers, key=lambda e: e.position):
        points = race_points(league.format, e.position, e.laps_completed)
        if qualifying is not None:
            points += qualifying.points_of(e.driver)
        rows.append({
            "position": e.position, "driver": e.driver, "grid": e.grid,
            "laps": e.laps_completed, "status": e.status.value, "driven_by": e.driven_by,
            "points": points, "amount": karma_by_driver.get(e.driver, 0),
        })
    for name in result.did_not_start:
        rows.append({
            "position": None, "driver": name, "grid": None, "laps": None,
            "status": "did-not-start", "driven_by": None, "points": 0, "amount": 0,
        })
    return rows


def grid_rows(qualifying: QualifyingResult, with_points: bool) -> list[Row]:
    """A qualifying's grid: place, driver, score, lap time, (Open) points, black-die rolls."""
    rows: list[Row] = []
    for slot in qualifying.grid:
        row: Row = {
            "position": slot.position,
            "driver": slot.driver,
            "score_q": slot.score,
            "lap_time": format_lap_time(slot.lap_time_ms) if slot.lap_time_ms else None,
        }
        if with_points:
            row["qualifying_points"] = slot.qualifying_points
        row["draw"] = " ".join(str(r) for r in slot.draw_rolls)
        rows.append(row)
    return rows


def rows_to_csv(rows: Sequence[Row]) -> str:
    """Rows as CSV text with a header line of the keys (union, in first-seen order)."""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=keys, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: "" if row.get(key) is None else row.get(key) for key in keys})
    return out.getvalue()


def rows_to_spreadsheet_csv(rows: Sequence[Row], lang: str = "de") -> str:
    """Rows as CSV that a German spreadsheet opens as it is: a byte-order mark (so Excel reads
    UTF-8), ``;`` between fields, column labels and coded values in words, decimal commas."""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow([column_label(key, lang) for key in keys])
    for row in rows:
        writer.writerow([_spreadsheet_cell(key, row.get(key), lang) for key in keys])
    return "\ufeff" + out.getvalue()


def column_label(key: str, lang: str) -> str:
    """A column's heading; race columns ``r3`` read "Rennen 3"."""
    if key.startswith("r") and key[1:].isdigit():
        return f"{label('race', lang)} {key[1:]}"
    return label(key, lang)


def _spreadsheet_cell(key: str, value: str | int | None, lang: str) -> str:
    text = display_value(key, value, lang)
    if lang != "en" and key == "score":
        text = text.replace(".", ",")
    return text


def _words(de: str, en: str, lang: str) -> str:
    return {"de": de, "en": en}.get(lang, de if de == en else f"{de} / {en}")


def _reason(value: str, lang: str) -> str:
    de, en = REASONS.get(value, (value, value))
    return {"de": de, "en": en}.get(lang, f"{de} / {en}")


def _average(score: Fraction) -> str:
    """A city's average points: whole points without a decimal ("2100", not "2100.0"), else
    one decimal."""
    return str(int(score)) if score.denominator == 1 else f"{float(score):.1f}"
