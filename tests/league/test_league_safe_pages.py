"""Published pages cannot be broken by names: every text in every renderer is escaped, and the
chart legend has room for a big league."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from league_builders import roster

from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import DRESDEN_OPEN, DRESDEN_SEASON_2006
from rennleitung.league.lap_leaders import laps_most_led_from_rounds
from rennleitung.league.progression import points_after_each_race
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    RaceResult,
    RaceSource,
    RoundOrder,
)
from rennleitung.league.season import League
from rennleitung.render.league_chart import points_chart_svg
from rennleitung.render.league_html import league_page

EVIL = ['<script>alert("x")</script>', 'A" onload="alert(1)', "B' data-evil='y", "C & D <b>",
        "</svg><img src=x>"]
TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "section", "table",
        "thead", "tbody", "tr", "th", "td", "p", "svg", "rect", "line", "text", "polyline",
        "circle"}  # the chart marks each point after one race


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.texts: list[str] = []
        self.attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += [(k, v or "") for k, v in attrs]

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def evil_open() -> League:
    teams = {f"Team {name}": [name] for name in EVIL}
    cities = {name: f"Stadt {name}" for name in EVIL}
    league = League('Open <"&\'>', roster(DRESDEN_OPEN, teams, cities=cities))
    rounds = (RoundOrder(1, tuple(EVIL)), RoundOrder(2, tuple(reversed(EVIL))),
              RoundOrder(3, tuple(EVIL)))
    led = laps_most_led_from_rounds(rounds)
    result = RaceResult(1, tuple(
        DriverRaceResult(name, place, place, 3, FinishStatus.FINISHED,
                         laps_most_led=led.get(name, 0))
        for place, name in enumerate(EVIL, start=1)
    ), track='Monaco "<>"', source=RaceSource.ENGINE, rounds=rounds)
    league, _ = enter_race(league, result)
    return league


def test_names_full_of_markup_stay_text_in_every_renderer() -> None:
    page = league_page(evil_open(), "both")
    parsed = Collector()
    parsed.feed(page)
    assert parsed.tags <= TAGS  # no <script>, <b>, <img> made from a name
    text = "".join(parsed.texts)
    for name in EVIL:
        assert name in text  # shown exactly, as text
    drivers = [v for k, v in parsed.attributes if k == "data-driver"]
    cars = [v for k, v in parsed.attributes if k == "data-car"]
    assert sorted(drivers) == sorted(EVIL) and sorted(cars) == sorted(EVIL)
    assert {k for k, _ in parsed.attributes}.isdisjoint({"onload", "data-evil", "src"})
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(svgs) == 2  # points chart and lap chart
    for svg in svgs:
        root = ET.fromstring(svg)  # well-formed XML: no attribute broken open
        names = {el.get("data-driver") or el.get("data-car") for el in root.iter()} - {None}
        assert names == set(EVIL)


def test_the_legend_serves_a_league_of_sixty_drivers() -> None:
    names = [f"Fahrer {n:02d} mit einem recht langen Namen" for n in range(60)]
    teams = {f"T{n}": names[2 * n: 2 * n + 2] for n in range(30)}
    league = League("Groß", roster(DRESDEN_SEASON_2006, teams))
    result = RaceResult(1, tuple(
        DriverRaceResult(name, place, place, 3, FinishStatus.FINISHED)
        for place, name in enumerate(names, start=1)))
    league, _ = enter_race(league, result)
    svg = points_chart_svg(points_after_each_race(league), names)
    root = ET.fromstring(svg)
    height = float(root.get("height", "0"))
    ns = "{http://www.w3.org/2000/svg}"
    legend = [el for el in root.iter(f"{ns}text") if el.get("class") == "legend"]
    assert len(legend) == 60
    assert all(float(el.get("y", "0")) < height for el in legend)
    assert [el.findtext(f"{ns}title") for el in legend] == names  # full name on hover
