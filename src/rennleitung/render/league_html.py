"""The league page: every standings table and the points chart in one self-contained HTML file.

Pure function of the league; the CLI writes the text to a file. No scripts, no external assets,
so the page can be mailed or put on any web space.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from rennleitung.league.city_standings import city_standings
from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.karma import karma_balances, karma_ledger
from rennleitung.league.progression import points_after_each_race
from rennleitung.league.season import League
from rennleitung.render.blitz_tables import blitz_match_rows, blitz_table_rows
from rennleitung.render.league_chart import points_chart_svg
from rennleitung.render.league_lap_chart import lap_chart_svg
from rennleitung.render.league_tables import (
    Row,
    city_rows,
    constructor_rows,
    display_value,
    driver_rows,
    grid_rows,
    label,
    race_rows,
)

HEADINGS: dict[str, tuple[str, str]] = {
    "drivers": ("Fahrerwertung", "Drivers' championship"),
    "constructors": ("Konstrukteurswertung", "Constructors' championship"),
    "cities": ("Städtewertung", "City ranking"),
    "karma": ("Karmapool", "Karma pool"),
    "chart": ("Punkte nach jedem Rennen", "Points after each race"),
    "transfers": ("Teamwechsel", "Transfers"),
    "lap_chart": ("Rennverlauf", "Lap chart"),
    "race": ("Ergebnis", "Result"),
    "blitz": ("FD Blitz", "FD Blitz"),
}

STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #bbb;padding:.25em .6em;text-align:right}"
    "th{background:#eee}td.text{text-align:left}"
)


def league_page(league: League, lang: str = "both") -> str:
    """The whole page as HTML text."""
    return (
        f'<!DOCTYPE html>\n<html lang="{"en" if lang == "en" else "de"}"><head>'
        '<meta charset="utf-8">'
        f"<title>{escape(league.name)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(league.name)}</h1>" + league_sections(league, lang) + "</body></html>\n"
    )


def league_sections(league: League, lang: str = "both") -> str:
    """The page's sections without the document around them (the web server puts them in its
    own page): chart, tables, karma, every race with its grid and lap chart."""
    drivers = driver_standings(league)
    sections = [
        _section("chart", lang, points_chart_svg(
            points_after_each_race(league), [d.driver for d in drivers], league.name,
            label("race", lang), label("points", lang),
            dots=len(league.races) == 1,  # one race: no line to draw, so mark the points
        )),
        _section("drivers", lang, _table(driver_rows(drivers), lang)),
        _section("constructors", lang, _table(constructor_rows(constructor_standings(league)),
                                              lang)),
    ]
    if league.roster.transfers:  # who drove for whom from which race (league/transfers.py)
        moves: list[Row] = [{"driver": t.driver, "team": t.team, "from_race": t.from_race}
                            for t in league.roster.transfers]
        sections.append(_section("transfers", lang, _table(moves, lang)))
    if league.format.city_ranking:
        sections.append(_section("cities", lang, _table(city_rows(city_standings(league)), lang)))
    balances = karma_balances(karma_ledger(league))
    karma_table: list[Row] = [{"driver": name, "balance": balance}
                              for name, balance in balances.items()]
    sections.append(_section("karma", lang, _table(karma_table, lang)))
    if league.blitz:  # finished FD Blitz matches (issue 27; the table is a house decision)
        sections.append(_section("blitz", lang, _table(blitz_table_rows(league.blitz), lang)
                                 + _table(blitz_match_rows(league.blitz), lang)))
    for result in league.races:
        title = f"{label('race', lang)} {result.race}" + (f": {result.track}" if result.track
                                                           else "")
        body = f"<h3>{escape(title)}</h3>" + _table(race_rows(league, result.race), lang)
        qualifying = league.qualifying_of(result.race)
        if qualifying is not None:
            with_points = bool(league.format.pole_qualifying_points)
            body += _table(grid_rows(qualifying, with_points), lang)
        sections.append(_section("race", lang, body, f"-{result.race}"))
        if result.rounds:
            sections.append(_section("lap_chart", lang, f"<h3>{escape(title)}</h3>"
                                     + lap_chart_svg(result.rounds, title), f"-{result.race}"))
    return "".join(sections)


def rows_table(rows: Sequence[Row], lang: str) -> str:
    """Any rows (e.g. the karma ledger) as an HTML table, every cell escaped."""
    return _table(rows, lang)


def _section(key: str, lang: str, body: str, suffix: str = "") -> str:
    de, en = HEADINGS[key]
    heading = {"de": de, "en": en}.get(lang, f"{de} / {en}")
    return f'<section id="{key}{suffix}"><h2>{escape(heading)}</h2>{body}</section>'


def _table(rows: Sequence[Row], lang: str) -> str:
    if not rows:
        return "<p>-</p>"
    keys = list(dict.fromkeys(key for row in rows for key in row))
    head = "".join(f"<th>{escape(_column(key, lang))}</th>" for key in keys)
    body = "".join(
        "<tr>" + "".join(_cell(key, row.get(key), lang) for key in keys) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _column(key: str, lang: str) -> str:
    if key.startswith("r") and key[1:].isdigit():
        return f"{label('race', lang)} {key[1:]}"
    return label(key, lang)


def _cell(key: str, value: str | int | None, lang: str) -> str:
    if value is None:
        return "<td></td>"
    css = "" if isinstance(value, int) else ' class="text"'
    return f"<td{css}>{escape(display_value(key, value, lang))}</td>"
