"""The race clock in chromium, on the server's controllable clock (no sleeps): Olga (1400 px)
creates a race with 60 s a decision, a 30 s time bank and the bot taking over after two
misses; Paul (390 px, a phone) lets his time run out. His countdown shows the limit and the
bank, then the bank running; the bot decides when both are up; at his second miss the bot
drives his car (his page offers "I am back", Olga's running order says "bot drives"), and he
takes the seat back."""

from __future__ import annotations

import re
from typing import Any

from rennleitung.formula_de.bots import make_bot
from rennleitung.play.clock import ManualClock
from rennleitung.play.engine import decision_to_json, questions
from tests.web.axe import assert_accessible
from tests.web.conftest import LiveServer, make_settings, shot, wait_for_change


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "race-day-1")
    page.click("form.stack button[type=submit]")
    page.wait_for_selector("#whoami")


def countdown(page: Any) -> str:
    page.wait_for_function("() => (document.getElementById('countdown') || {}).textContent")
    return str(page.inner_text("#countdown"))


def test_bank_then_bot_then_back(browser: Any, sqlite_url: str) -> None:
    clock = ManualClock()
    with LiveServer(make_settings(sqlite_url, clock=clock, deadline_tick=3600)) as server:
        olga_context = browser.new_context(locale="en-GB", viewport={"width": 1400, "height": 900})
        olga = olga_context.new_page()
        sign_up(olga, server.url, "Olga")
        olga.click("text=New race")
        olga.select_option("select[name=track]", "oval")
        olga.fill("input[name=laps]", "1")
        olga.fill("input[name=people]", "2")
        olga.fill("input[name=bots]", "1")
        olga.fill("input[name=seconds]", "60")
        olga.fill("input[name=bank_seconds]", "30")
        olga.fill("input[name=bot_after_misses]", "2")
        olga.check("input[name=drive]")
        olga.click("form.stack button[type=submit]")
        invite = olga.inner_text("#invite")
        race_id = int(invite.rsplit("/", 1)[1])

        paul_context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                           is_mobile=True, has_touch=True)
        paul = paul_context.new_page()
        sign_up(paul, server.url, "Paul")
        paul.goto(invite)
        paul.click("text=Take this seat")
        paul.wait_for_selector("text=Paul")
        olga.reload()
        olga.click("#start")
        paul.wait_for_selector("#countdown")  # his page reloads itself once the race runs

        races = server.app.state.races
        cars = {s.driver: s.car for s in races.info(race_id).seats}
        olga_car, paul_car = cars["Olga"], cars["Paul"]

        def olga_answers() -> None:
            """Olga answers whatever she is asked at once (as the simple bot would)."""
            while True:
                race = races.race(race_id)
                ask = next((q for q in questions(race) if q.car == olga_car), None)
                if ask is None:
                    return
                decision = decision_to_json(race, make_bot("simple").decide(race, ask))
                races.apply(race_id, olga_car, decision, races.version(race_id),
                            holder=races.info(race_id).seat(olga_car).holder)

        olga_answers()  # her setup; Paul is asked his and thinks
        assert re.fullmatch(r"[01]:\d\d left · time bank 0:30", countdown(paul)), countdown(paul)
        shot(paul.locator("#question"), "clock-1-bank-390")

        server.advance(70)  # the minute is up: 20 s of his bank are left
        paul.goto(invite)
        assert re.fullmatch(r"time bank: 0:[12]\d left", countdown(paul)), countdown(paul)
        assert paul.locator("#countdown.bank").count() == 1
        version = paul.get_attribute("#race-version", "data-version") or ""
        assert [t.car for t in server.advance(21)] == [paul_car]  # limit and bank are up
        wait_for_change(paul, version)  # the page follows live
        paul.wait_for_selector("#timeouts")
        assert "the bot decided for Paul" in paul.inner_text("#timeouts")
        assert races.info(race_id).seat(paul_car).bank_left == 0

        # his next questions: no bank left; the second miss hands his car to the bot
        for _ in range(30):
            if races.info(race_id).seat(paul_car).away:
                break
            olga_answers()
            if paul_car in {q.car for q in questions(races.race(race_id))}:
                assert not races.info(race_id).seat(paul_car).bank_left
                server.advance(61)
        seat = races.info(race_id).seat(paul_car)
        assert seat.away and seat.misses == 2
        paul.goto(invite)
        paul.wait_for_selector("#away")
        assert "missed 2 decisions" in paul.inner_text("#away")
        assert "the bot drives for Paul until Paul is back" in paul.inner_text("#timeouts")
        shot(paul.locator("#away"), "clock-2-away-390")
        assert_accessible(paul, "race page, the bot driving the reader's car")
        olga.goto(invite)
        olga.wait_for_selector(f"[data-away='{paul_car}']")
        assert "bot drives" in olga.inner_text("#order")
        shot(olga, "clock-3-page-1400")
        shot(olga.locator("#order"), "clock-3-order-1400")
        assert paul.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll

        paul.click("#back")  # the page's parts come back at once (the version stays)
        paul.wait_for_selector("#away", state="detached")
        assert "Paul is back and drives again" in paul.inner_text("#timeouts")
        assert not races.info(race_id).seat(paul_car).away
        olga.reload()
        assert olga.locator(f"[data-away='{paul_car}']").count() == 0
        shot(paul.locator("#log"), "clock-4-back-390")
        olga_context.close()
        paul_context.close()
