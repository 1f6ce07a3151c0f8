"""TURBO 2000 reports as HTML pages: the same sections as the text, tables as tables, and SVG
charts of the game's history (WM points per round, a team's account, its drivers' ratings).

Pure functions; the charts reuse the league's line chart (``render/league_chart.py``). Every
text that comes from the game (team, driver names, contacts) is escaped. No scripts, no external
assets, so a page can be mailed or put on any web space.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from rennleitung.render.league_chart import points_chart_svg
from rennleitung.turbo2000.document import Document, Section, Table
from rennleitung.turbo2000.model import HistoryPoint

STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#222;max-width:60em}"
    "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:.6em 0}"
    "th,td{border:1px solid #bbb;padding:.2em .6em;text-align:left}"
    "th{background:#eee}td.num{text-align:right}"
    "p.line{margin:.15em 0;white-space:pre-wrap}figure{margin:1em 0}"
)

MAX_LINES = 10
"""Lines in the WM chart: the leaders, plus the team the report is for."""


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in table.header)
    rows = []
    for row in table.rows:
        cells = "".join(
            f'<td class="num">{escape(cell)}</td>' if index in table.right
            else f"<td>{escape(cell)}</td>" for index, cell in enumerate(row))
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _line(text: str) -> str:
    depth = (len(text) - len(text.lstrip(" "))) // 2
    style = f' style="margin-left:{depth * 1.2:.1f}em"' if depth > 1 else ""
    return f'<p class="line"{style}>{escape(text.strip())}</p>'


CHART_WORDS = {"wm": "WM-Punkte / WM points", "round": "Runde / round",
               "account": "Konto / account", "thousands": "Tausend / thousands (≥ 0)",
               "drivers": "Fahrer / drivers", "rating": "Kennzahl × 10 / rating × 10"}
"""The charts' titles and axes in both languages; an English page takes the English half."""


def _word(key: str, language: str) -> str:
    german, _, english = CHART_WORDS[key].partition(" / ")
    return {"de": german, "en": english}.get(language, CHART_WORDS[key])


def wm_chart(history: Sequence[HistoryPoint], team: str | None = None,
             language: str = "") -> str:
    """WM points after each round: the leaders of the last round (and ``team``)."""
    if not history:
        return ""
    last = history[-1].wm_points
    names = sorted(last, key=lambda name: (-last[name], name))[:MAX_LINES]
    if team and team not in names and team in last:
        names.append(team)
    # every team starts at 0 WM points: drawn as round 0, so the chart after round 1 has lines
    steps = [(0, {name: 0 for name in last}),
             *((point.round, point.wm_points) for point in history)]
    return points_chart_svg(steps, names, _word("wm", language), _word("round", language),
                            _word("wm", language), dots=True)


def money_chart(history: Sequence[HistoryPoint], team: str, language: str = "") -> str:
    """A team's account after each round, in thousands (below zero drawn at zero)."""
    steps = [(point.round, {team: max(0, point.money.get(team, 0) // 1000)})
             for point in history if team in point.money]
    if not steps:
        return ""
    return points_chart_svg(steps, [team], _word("account", language),
                            _word("round", language), _word("thousands", language), dots=True)


def ratings_chart(history: Sequence[HistoryPoint], team: str, language: str = "") -> str:
    """The ratings (in tenths) of the drivers a team had under contract, after each round."""
    drivers = sorted({name for point in history for name in point.ratings.get(team, {})})
    if not drivers:
        return ""
    # a round in which a driver was not (yet, or no longer) with the team shows his nearest
    # known rating, not a drop to zero
    known = [point.ratings.get(team, {}) for point in history]
    filled: list[dict[str, int]] = [{} for _ in history]
    for name in drivers:
        indices = [i for i, ratings in enumerate(known) if name in ratings]
        for i in range(len(history)):
            nearest = min(indices, key=lambda j: (abs(j - i), j))
            filled[i][name] = known[nearest][name]
    steps = [(point.round, filled[i]) for i, point in enumerate(history)]
    return points_chart_svg(steps, drivers, _word("drivers", language),
                            _word("round", language), _word("rating", language), dots=True)


def _chart(section: Section, history: Sequence[HistoryPoint], team: str | None,
           language: str = "") -> str:
    if section.chart == "wm":
        svg = wm_chart(history, team, language)
    elif section.chart == "money" and team:
        svg = money_chart(history, team, language)
    elif section.chart == "ratings" and team:
        svg = ratings_chart(history, team, language)
    else:
        svg = ""
    return f"<figure>{svg}</figure>" if svg else ""


def document_page(document: Document, history: Sequence[HistoryPoint] = (),
                  team: str | None = None, language: str = "") -> str:
    """A report as a whole HTML page; ``team`` names whose report it is (for its charts);
    ``language="en"``: an English document, its charts worded in English (issue 24)."""
    body = [f"<h1>{escape(document.title)}</h1>"]
    for section in document.sections:
        body.append(f"<section><h2>{escape(section.title)}</h2>")
        body += [_line(line) for line in section.lines]
        if section.table is not None and section.table.rows:
            body.append(_table(section.table))
        body += [_line(line) for line in section.notes]
        body.append(_chart(section, history, team, language))
        body.append("</section>")
    lang = "en" if language == "en" else "de"
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(document.title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(part for part in body if part) + "\n</body></html>\n")
