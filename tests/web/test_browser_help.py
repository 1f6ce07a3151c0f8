"""A newcomer plays the demo race to the flag on a phone (390×844, touch) by tapping, with the
help a beginner needs, and with the keyboard where a tap is not at hand; axe-core
(``tests/vendor/axe-core``) finds no serious or critical violation on the race page (setup,
gear, move, flag; phone and desktop), the new-race form and the replay.

Also: the first-race guide goes away for good, the board's legend explains flags and colours,
the setup form counts its points as they are typed, the flag shows a podium, the replay steps
by buttons and says what each decision did, a stale answer is answered in plain words, and
``/races/new`` signed out offers a way to sign in.
"""

from __future__ import annotations

from typing import Any

from tests.web.axe import assert_accessible
from tests.web.conftest import (
    LiveServer,
    choose_destination,
    client,
    make_settings,
    pick_gear,
    shot,
    signed_up,
    wait_for_change,
)
from tests.web.test_browser_phone import PHONE, page_width, seated_demo


def test_a_newcomer_plays_to_the_flag_on_a_phone(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        page = seated_demo(browser, server, PHONE, "Thumb", touch=True)
        race_url = page.url

        # the first-race guide, dismissed once, stays away
        assert page.locator("#guide").is_visible()
        page.click("#guide-dismiss")
        assert not page.locator("#guide").is_visible()
        page.reload()
        page.wait_for_selector("#question form")
        assert not page.locator("#guide").is_visible()

        # the legend explains the corner flags, the trails and the colours
        page.click("#board-legend summary")
        legend = page.inner_text("#board-legend")
        assert "corner flag" in legend and "longest" in legend and "last move" in legend
        assert "orange" in legend and "certain elimination" in legend

        # the setup form counts as it is typed, with the limits beside it
        assert "at least 1" in page.inner_text("#setup-limits")
        assert page.inner_text("#setup-sum") == "Shared out: 22 of 22"
        tyres = page.locator("input[name=wear_tyres]")
        start = tyres.input_value()
        tyres.fill(str(int(start) + 1))
        assert page.inner_text("#setup-sum") == "Shared out: 23 of 22"
        assert "wrong" in (page.get_attribute("#setup-sum", "class") or "")
        tyres.fill(start)
        assert page.inner_text("#setup-sum") == "Shared out: 22 of 22"
        assert_accessible(page, "setup on a phone")
        shot(page, "help-1-setup")

        checked: set[str] = set()
        by_keyboard = 0
        for _ in range(400):
            page.wait_for_selector("#question form, #flag", timeout=60_000)
            if page.locator("#flag").count():
                break
            assert page_width(page) <= 390
            version = page.get_attribute("#race-version", "data-version") or ""
            form = page.locator("#question form")
            kind = form.get_attribute("id") or ""
            if kind not in checked and kind in ("turn-form", "move-form"):
                assert_accessible(page, kind + " on a phone")
                checked.add(kind)
            if kind == "move-form" and by_keyboard == 0:
                # Tab reaches the destinations on the board; the list follows the focus
                for _ in range(120):
                    page.keyboard.press("Tab")
                    if page.evaluate("document.activeElement.classList.contains('dest')"):
                        break
                focused = page.evaluate("document.activeElement.getAttribute('data-key')")
                assert focused, "no destination reached by Tab"
                assert page.locator("#option").input_value() == focused
                assert "chosen" in (page.evaluate(
                    "document.activeElement.getAttribute('class')") or "")
                assert page.inner_text("#cost").startswith("to ")
                shot(page, "help-2-keyboard-move")
                page.keyboard.press("Enter")
                by_keyboard += 1
            elif kind == "move-form":
                choose_destination(page).tap()
            elif kind == "turn-form":
                pick_gear(form)
                form.locator("button[type=submit]").tap()
            else:
                form.locator("button[type=submit]").tap()
            wait_for_change(page, version)
        assert page.locator("#flag").count() == 1
        assert by_keyboard == 1 and {"turn-form", "move-form"} <= checked

        # the flag: a podium of three, the newcomer marked if he is on it
        podium = page.locator("#podium li")
        assert podium.count() == 3
        assert podium.first.inner_text().startswith("1")
        assert_accessible(page, "the flag on a phone")
        shot(page.locator("#status"), "help-3-podium")

        # the replay: step buttons, and what the decision at each step did
        page.click("#replay-link")
        page.wait_for_load_state("load")
        page.click("[data-step=first]")
        page.wait_for_selector("#overlay[data-at='0']", state="attached")
        assert "Before the first decision" in page.inner_text("#step-made")
        page.click("#step-on")
        page.wait_for_selector("#overlay[data-at='1']", state="attached")
        assert page.inner_text("#step-made").startswith("Decision 1:")
        # each click one decision on, each frame waited for: six clicks in a row once left
        # the page short of the last frame for the whole 20 s wait on a busy CI machine
        # (2026-12-07; not reproduced alone or beside a CPU load; CONTRIBUTING "Browser tests")
        for at in range(2, 8):
            page.click("#step-on")
            page.wait_for_selector(f"#overlay[data-at='{at}']", state="attached")
        made = page.inner_text("#step-made")
        page.click("#step-back")
        page.wait_for_selector("#overlay[data-at='6']", state="attached")
        assert page.inner_text("#step-made") != made
        assert page.locator("#at").input_value() == "6"
        assert page_width(page) <= 390
        assert_accessible(page, "the replay on a phone")
        shot(page, "help-4-replay")
        page.context.close()

        # a spectator on a desktop: the running page is as accessible
        watcher = browser.new_context(locale="en-GB",
                                      viewport={"width": 1400, "height": 900}).new_page()
        watcher.goto(race_url)
        assert_accessible(watcher, "a finished race on a desktop")
        watcher.context.close()


def test_desktop_race_and_new_race_pages_are_accessible(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        from tests.web.test_browser_phone import DESKTOP

        page = seated_demo(browser, server, DESKTOP, "Wide", touch=False)
        assert_accessible(page, "setup on a desktop")
        for _ in range(8):
            version = page.get_attribute("#race-version", "data-version") or ""
            form = page.locator("#question form")
            kind = form.get_attribute("id") or ""
            if kind == "move-form":
                assert_accessible(page, "a move on a desktop")
                break
            if kind == "turn-form":
                pick_gear(form)
            form.locator("button[type=submit]").click()
            wait_for_change(page, version)
            page.wait_for_selector("#question form", timeout=60_000)
        page.goto(server.url + "/races/new")
        assert_accessible(page, "the new-race form")
        page.context.close()


def test_new_race_signed_out_offers_sign_in(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        page = browser.new_context(locale="en-GB", viewport=PHONE).new_page()
        page.goto(server.url + "/races/new")
        assert "sign in or create an account" in page.inner_text("#need-sign-in")
        page.click("#signin-link")
        assert "/signin" in page.url and "next=/races/new" in page.url
        page.context.close()


def test_a_stale_answer_is_told_in_plain_words(sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        anna = signed_up(server, "Anna")
        home = client(server).get("/").text
        race = int(home.split('href="/races/', 1)[1].split('"', 1)[0])
        anna.page(f"/races/{race}")
        assert anna.submit(f"/races/{race}/join", {"car": "car1"}).status_code == 303
        anna.page(f"/races/{race}")
        assert anna.submit(f"/races/{race}/start", {"version": "0"}).status_code == 303
        asked = anna.get(f"/races/{race}/question.json").json()
        setup = {"car": "car1", "version": str(asked["version"]), "kind": "setup",
                 "tyre": "hard", **{f"wear_{a}": str(p) for a, p in
                                    asked["question"]["suggested"].items()}}
        first = anna.submit(f"/races/{race}/act", setup)
        assert first.status_code in (200, 303), first.text
        again = anna.submit(f"/races/{race}/act", {**setup, "version": "0"},
                            headers={"Accept-Language": "en"})
        assert again.status_code == 409
        assert "The race moved on while you were choosing" in again.text
        assert "please choose again" in again.text
        assert "since then: " in again.text and "Anna set up the car" in again.text
