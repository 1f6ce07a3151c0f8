"""Standings as rows of plain values: one source for Rich tables, JSON, CSV and the HTML page.

Pure functions. Column labels come from one table in German and English; ``lang`` picks
``de``, ``en`` or ``both`` ("Fahrer / Driver").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from rennleitung.league.city_standings import CityStanding
from rennleitung.league.constructor_standings import TeamStanding
from rennleitung.league.driver_standings import DriverStanding
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.karma import KarmaEntry, karma_ledger
from rennleitung.league.points import race_points
from rennleitung.league.qualifying import format_lap_time
from rennleitung.league.season import League

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
            "wins": sum(1 for r in line.races if r.position == 1),
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
         "total_points": c.total_points, "score": f"{float(c.score):.1f}"}
        for c in standings
    ]


def karma_rows(ledger: Sequence[KarmaEntry], lang: str = "both") -> list[Row]:
    """The karma ledger, one movement per row, reason in words."""
    return [
        {"driver": e.driver, "race": e.race, "amount": e.amount,
         "reason": _reason(e.reason.value, lang), "balance": e.balance, "note": e.note}
        for e in ledger
    ]


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


def _reason(value: str, lang: str) -> str:
    de, en = REASONS.get(value, (value, value))
    return {"de": de, "en": en}.get(lang, f"{de} / {en}")
