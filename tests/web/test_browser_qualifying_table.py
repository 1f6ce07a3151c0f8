"""Qualifying at the table (issue 29) in chromium on a tablet-sized page: the organiser runs one
driver's stopwatch, enters the gear dice as the table rolls them (a number that is no face of the
die is refused naming the die, a mistyped one is taken back and stays in the protocol), points
at the moves, stops the watch once the car is over the
line; the lap time is the server's clock between the two taps (moved by the test, no sleeps);
closing draws the driver without a lap behind him. Screenshots under test-artifacts/."""

from __future__ import annotations

from typing import Any

from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.play.clock import ManualClock
from rennleitung.store.league_store import LeagueStore
from tests.web.axe import violations
from tests.web.conftest import LiveServer, make_settings, shot
from tests.web.test_browser_organiser import sign_up

LEAGUE = "Tischliga"
ROLLED = {1: 2, 2: 3, 3: 6, 4: 9, 5: 15, 6: 25}
"""What the table's die shows, per gear."""


def test_the_organisers_stopwatch_and_the_tables_dice_make_the_grid(browser: Any,
                                                                   sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, clock=ManualClock())) as server:
        store = LeagueStore(server.app.state.engine)
        store.create_league(LEAGUE, LeagueKind.SEASON)
        store.add_team(LEAGUE, "Rot")
        store.add_driver(LEAGUE, Driver("Anna", "Rot"))
        store.add_driver(LEAGUE, Driver("Ben", "Rot"))
        page = browser.new_context(locale="en-GB", viewport={"width": 820, "height": 1180}
                                   ).new_page()
        sign_up(page, server.url, "Olga")
        store.add_organiser(LEAGUE, "Olga")
        page.goto(server.url + "/league/sessions?name=" + LEAGUE)
        page.select_option("#form-open_session select[name=track]", "short")
        page.select_option("#form-open_session select[name=mode]", "table")
        page.click("#form-open_session button[type=submit]")
        page.wait_for_selector("#session-title")
        session_url = page.url
        page.locator("#laps-table tr[data-driver='Anna'] a.to-lap").click()
        page.click("#watch-start button")
        page.wait_for_selector("#gear-form")

        page.fill("#gear-form input[name=roll]", "3")  # the yellow die has no 3
        page.click("#gear-form button[type=submit]")
        assert "yellow die (gear 1) has no 3" in page.inner_text(".problem")
        page.go_back()
        page.reload()
        page.fill("#gear-form input[name=roll]", "1")  # mistyped: the die showed 2
        page.click("#gear-form button[type=submit]")
        page.wait_for_selector("#take-back")
        page.click("#take-back button")
        page.wait_for_selector("#gear-form")
        assert page.inner_text("#lap-rolls") == "0"
        assert "taken back: gear 1, die 1" in page.inner_text("#protocol")

        for _ in range(40):
            ask = page.get_attribute("#lap-state", "data-ask")
            if not ask:
                break
            if ask == "gear":
                gears = [int(v) for v in page.locator("#gear-form input[name=gear]")
                         .evaluate_all("inputs => inputs.map(i => i.value)")]
                gear = max(g for g in gears if g <= 4)
                page.check(f"#gear-form input[name=gear][value='{gear}']")
                page.fill("#gear-form input[name=roll]", str(ROLLED[gear]))
                page.click("#gear-form button[type=submit]")
            else:
                moves = page.locator("#move-form button.move")
                costs = moves.evaluate_all(
                    "bs => bs.map(b => Number(b.dataset.aborts) * 1000"
                    " + Number(b.dataset.penalty))")
                moves.nth(costs.index(min(costs))).click()
            page.wait_for_load_state()
        assert page.get_attribute("#lap-state", "data-state") == "over"
        rolls = int(page.inner_text("#lap-rolls"))
        penalty = int(page.inner_text("#lap-penalty"))
        shot(page, "qualifying-table-1-over-the-line")
        assert violations(page) == []
        server.clock.advance(75)
        page.click("#watch-stop button")
        page.wait_for_selector("#lap-time")
        assert page.inner_text("#lap-time") == "1:15.000"

        page.goto(session_url)
        row = page.locator("#standings-table tbody tr").first.inner_text()
        assert "Anna" in row and f"{rolls + penalty + 1}" in row  # + one whole minute
        page.click("#form-close button[type=submit]")
        page.wait_for_selector("#grid")
        assert page.locator("#grid li").evaluate_all(
            "items => items.map(i => i.dataset.driver)") == ["Anna", "Ben"]
        assert "drawn" in page.inner_text("#grid li[data-driver='Ben']")
        shot(page, "qualifying-table-2-grid")
