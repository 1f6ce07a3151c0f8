"""The question forms in Debian's chromium, rendered by the race page's own template and style
from a driver's view of a scene (``tests/formula_de/scene.py``): a pit stop announced opens its
options as the box is ticked (it used to hide them, so "keep tyres, 0 fuel" was sent), every
checkbox sits beside its label, and each gear shows what skipping to it costs and warns in
plain words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from rennleitung.play.view_build import local_view
from rennleitung.play.views import Reader
from rennleitung.web import view
from rennleitung.web.context import TEMPLATES
from rennleitung.web.i18n import text
from tests.formula_de.scene import scene
from tests.formula_de.test_race_rules import MONACO, SETUP, staged
from tests.web.conftest import shot

STATIC = Path(__file__).resolve().parents[2] / "src" / "rennleitung" / "web" / "static"


def question_page(race: Any, lang: str = "en") -> str:
    """The question part of the race page for the driver of the race's pending question, in a
    page with the site's style sheet."""
    ask = race.pending
    seen = local_view(race, Reader.seat(ask.car))
    data = view.question(seen, ask, lang)
    assert data is not None
    data["opened"] = race.version
    values = {"question": data, "info": seen.info, "csrf": "x", "deadline": None,
              "lang": lang, "t": lambda key, **kw: text(lang, key, **kw)}
    body = TEMPLATES.env.from_string(
        '{% import "parts.html" as parts with context %}{{ parts.question_part(False) }}'
    ).render(values)
    style = (STATIC / "app.css").read_text(encoding="utf-8")
    return f"<!doctype html><html lang='{lang}'><head><style>{style}</style></head>" \
           f"<body><main><div class='side'>{body}</div></main></body></html>"


def test_ticking_the_pit_stop_opens_its_options(browser: Any) -> None:
    """One lap done on a 3-lap race, 11 rows before the pit entry: a stop may be announced."""
    made = scene(("a",), [10, 10], ruleset=staged("dresden-2006"), board=MONACO, laps=3)
    made.place("a", "C140", gear=3, crossings=2)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_content(question_page(made.race()))
    fuel = page.locator("input[name=pit_fuel]")
    assert not fuel.is_visible()
    page.click("text=Announce a pit stop")  # the label: a tap on the words ticks the box
    assert page.locator("input[name=pit]").is_checked()
    assert fuel.is_visible() and page.locator("select[name=pit_tyre]").is_visible()
    # every checkbox sits beside its words, not above them
    for box in page.locator("input[type=checkbox]").all():
        label = box.locator("xpath=ancestor::label[1]")
        mine, whole = box.bounding_box(), label.bounding_box()
        assert mine is not None and whole is not None
        assert whole["height"] < 2.2 * mine["height"] + 16, label.inner_text()
        assert whole["width"] > mine["width"] + 10
    shot(page, "question-pit-open")
    page.click("text=Announce a pit stop")
    assert not fuel.is_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.context.close()


def test_the_gears_say_what_skipping_costs(browser: Any) -> None:
    made = scene(("a",), [10, 10], ruleset=staged("dresden-2006"), board=MONACO, laps=2)
    made.place("a", "A30", gear=5, wear=replace(SETUP, fuel=1, engine=1))
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_content(question_page(made.race()))
    third = page.locator("label.gear", has=page.locator("input[value='3']"))
    assert "costs 1 fuel point" in third.inner_text()
    assert "rolls out before the flag" in third.inner_text()
    assert "warned" in (third.get_attribute("class") or "")
    fourth = page.locator("label.gear", has=page.locator("input[value='4']"))
    assert "costs" not in fourth.inner_text()
    assert page.locator("input[name=gear][value='5']").is_checked()  # stays in 5th
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    shot(page, "question-gears-warned")
    page.context.close()
