"""A newcomer in Debian's chromium: opens the demo race, takes the free seat and plays to the
flag against three bots by clicking destinations on the board, while a spectator (not signed in,
another browser context) watches the board and log change live, without reloading. Afterwards
the spectator replays the race with the slider and verifies it. Screenshots of the board at the
start, in the middle and at the flag go to ``test-artifacts/``."""

from __future__ import annotations

from typing import Any

from rennleitung.play.model import Actor
from tests.web.conftest import (
    LiveServer,
    choose_destination,
    make_settings,
    pick_gear,
    shot,
    wait_for_change,
)


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
        race_url = page.url
        watcher = browser.new_context(locale="de-DE").new_page()
        watcher.goto(race_url)
        watcher.evaluate("window.sameDocument = true")
        first_log = watcher.inner_text("#log")
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
                pick_gear(form)
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

        # the spectator saw it all live: same document, the flag and a longer log
        watcher.wait_for_selector("#flag", timeout=60_000)
        assert watcher.evaluate("window.sameDocument") is True
        assert "Zielflagge" in watcher.inner_text("#flag")
        assert len(watcher.inner_text("#log")) > len(first_log)
        assert watcher.locator("form[action$='/act']").count() == 0
        seed = watcher.inner_text("#seed")
        watcher.click("#replay-link")
        watcher.wait_for_load_state("load")
        slider = watcher.locator("#at")
        last = int(slider.get_attribute("max") or 0)
        assert last == len(stored)
        slider.fill("3")
        watcher.wait_for_selector("#overlay[data-at='3']", state="attached")
        early = watcher.inner_html("#overlay")
        slider.fill(str(last // 2))
        watcher.wait_for_selector(f"#overlay[data-at='{last // 2}']", state="attached")
        assert watcher.locator("#overlay svg g.car").count() >= 1
        assert watcher.inner_html("#overlay") != early
        shot(watcher, "demo-4-replay")
        watcher.go_back()
        watcher.click("#verify")
        assert "Geprüft" in watcher.inner_text("#verdict")
        assert seed in watcher.inner_text("main")
