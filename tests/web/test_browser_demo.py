"""A newcomer in Debian's chromium: opens the demo race, takes the free seat and plays to the
flag against three bots by clicking destinations on the board. Screenshots of the board at the
start, in the middle and at the flag go to ``test-artifacts/``."""

from __future__ import annotations

import re
from typing import Any

from rennleitung.play.model import Actor
from tests.web.conftest import LiveServer, make_settings, shot

GREEN, YELLOW = "#8fd18f", "#f2d16b"


def wait_for_change(page: Any, version: str) -> None:
    page.wait_for_function(
        "v => { const m = document.getElementById('race-version');"
        " return m && m.dataset.version !== v; }", arg=version, timeout=60_000)


def choose_destination(page: Any) -> Any:
    """The farthest free destination, else the one costing fewest brake and tyre points (tyres
    weigh double: a car without them is out), else the first."""
    free = page.locator(f'svg.overlay path.dest[fill="{GREEN}"]')
    if free.count():
        return free.first
    costly = page.locator(f'svg.overlay path.dest[fill="{YELLOW}"]')
    if costly.count():
        titles = costly.evaluate_all("paths => paths.map(p => p.textContent)")
        return costly.nth(min(range(len(titles)), key=lambda n: cost(titles[n])))
    return page.locator("svg.overlay path.dest").first


def cost(title: str) -> int:
    found = re.findall(r"(\d+) (brake|tyre) points", title)
    return sum(int(n) * (2 if kind == "tyre" else 1) for n, kind in found)


def test_newcomer_plays_the_demo_to_the_flag(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        context = browser.new_context(locale="en-GB", viewport={"width": 1500, "height": 1000})
        page = context.new_page()
        page.goto(server.url + "/")
        page.click("text=Demo: Monaco")
        page.click("#race-live >> text=Create account")
        page.fill("input[name=name]", "Newcomer")
        page.fill("input[name=password]", "first-race")
        page.click("form.stack button[type=submit]")
        page.click("text=Take this seat")
        page.click("#start")
        page.wait_for_selector("#question form")
        shot(page, "demo-1-start")
        clicks = 0
        for _ in range(400):
            page.wait_for_selector("#question form, #flag", timeout=60_000)
            if page.locator("#flag").count():
                break
            version = page.get_attribute("#race-version", "data-version")
            form = page.locator("#question form")
            kind = form.get_attribute("id")
            if kind == "move-form":
                target = choose_destination(page)
                target.hover()
                assert page.inner_text("#cost").startswith("to ")
                if clicks == 6:
                    shot(page, "demo-2-mid-race")
                target.click()
                clicks += 1
            elif kind == "turn-form":
                gears = [int(g) for g in form.locator("input[name=gear]").evaluate_all(
                    "inputs => inputs.map(i => i.value)")]
                gear = max(g for g in gears if g <= 4) if min(gears) <= 4 else min(gears)
                form.locator(f"input[name=gear][value='{gear}']").check()
                form.locator("button[type=submit]").click()
            else:
                form.locator("button[type=submit]").click()
            wait_for_change(page, version or "")
        assert page.locator("#flag").count() == 1
        shot(page, "demo-3-flag")
        assert clicks >= 3
        assert "Newcomer" in page.inner_text("#order")
        race_id = int(page.url.rstrip("/").split("/")[-1])
        stored = server.app.state.races.decisions(race_id)
        mine = [d for d in stored if d.car == "car1"]
        assert {d.actor for d in mine} == {Actor.PERSON}
        assert sum(1 for d in mine if d.decision["kind"] == "move") == clicks
        assert page.inner_text("#seed")
        context.close()
