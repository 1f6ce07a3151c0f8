"""The standings renderers: chart geometry, CSV text and labels."""

from __future__ import annotations

import csv
import html
import io
import itertools
import re

from test_league_drivers_championship import full_season

from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.progression import points_after_each_race
from rennleitung.render.league_chart import HEIGHT, TOP, points_chart_svg
from rennleitung.render.league_html import league_page
from rennleitung.render.league_tables import driver_rows, label, rows_to_csv


def polyline_points(svg: str, driver: str) -> list[tuple[float, float]]:
    match = re.search(rf'data-driver="{driver}"[^>]*points="([^"]+)"', svg)
    assert match is not None
    return [(float(x), float(y)) for x, y in (p.split(",") for p in match.group(1).split())]


def test_chart_has_one_line_per_driver_with_a_point_per_race() -> None:
    league = full_season()
    svg = points_chart_svg(points_after_each_race(league), ["Anna", "Ben", "Clara"])
    assert svg.count('class="driver"') == 3
    anna, clara = polyline_points(svg, "Anna"), polyline_points(svg, "Clara")
    assert len(anna) == len(clara) == 10
    # Anna ends on top (74 points): the highest point, smallest y; lines only go up or flat.
    assert anna[-1][1] == TOP
    assert clara[-1][1] > anna[-1][1]
    assert all(b[1] <= a[1] for a, b in itertools.pairwise(anna))
    assert all(0 <= y <= HEIGHT for _, y in anna + clara)


def test_driver_rows_mark_drops_and_csv_round_trips() -> None:
    rows = driver_rows(driver_standings(full_season()))
    anna = rows[0]
    assert (anna["driver"], anna["r6"], anna["r8"], anna["r1"]) == ("Anna", "(6)", "(6)", "10")
    parsed = list(csv.DictReader(io.StringIO(rows_to_csv(rows))))
    assert [(r["driver"], r["points"]) for r in parsed] == [
        ("Anna", "74"), ("Ben", "70"), ("Clara", "60")
    ]


def test_labels_in_both_languages() -> None:
    assert label("driver", "de") == "Fahrer"
    assert label("driver", "en") == "Driver"
    assert label("driver", "both") == "Fahrer / Driver"
    assert label("team", "both") == "Team"


def test_page_without_city_ranking_for_a_season() -> None:
    page = html.unescape(league_page(full_season(), "en"))
    assert "Drivers' championship" in page and "City ranking" not in page
    assert page.count("<svg") == 1


def test_after_one_race_the_chart_marks_each_driver_and_the_page_has_its_language() -> None:
    """Issue 26: after race 1 the chart was empty (a line of one point draws nothing), and the
    page said lang="de" in English."""
    league = full_season()
    first = league.__class__(league.name, league.roster, league.races[:1], league.qualifying,
                             {})
    page = league_page(first, "en")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert page.count('class="point"') == len(first.races[0].drivers)
    assert league_page(first, "de").startswith('<!DOCTYPE html>\n<html lang="de">')
    assert 'class="point"' not in league_page(league, "en")  # lines from two races on
