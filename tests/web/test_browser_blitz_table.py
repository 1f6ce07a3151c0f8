"""FD Blitz at the table (issue 29; Dresden "FD Blitz"): one screen, a big tap area per player,
the chess clock kept by the page. Whoever ends his move taps his half; when a time is up that
clock stays at zero and only the other runs on; the winners go into the same match record the
online match and ``rennleitung blitz`` keep. The page's time is Playwright's installed clock,
moved by the test: nothing sleeps."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer, make_settings, shot
from tests.web.test_browser_organiser import sign_up


def shown(page: Any, side: int) -> str:
    page.evaluate("window.blitzTable.show()")
    return page.inner_text(f"#tap-time-{side}")


def state(page: Any, side: int, name: str) -> str:
    page.evaluate("window.blitzTable.show()")
    return page.get_attribute(f"#tap-{side}", f"data-{name}") or ""


def test_a_chess_clock_for_two_on_one_screen_feeds_the_match_record(
        browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
        page = context.new_page()
        page.clock.install()
        sign_up(page, server.url, "Olga")
        page.goto(server.url + "/blitz")
        page.fill("input[name=player1]", "Ada")
        page.fill("input[name=player2]", "Bob")
        page.fill("input[name=minutes]", "1")
        page.uncheck("input[name=myself]")
        page.check("input[name=mode][value=table]")
        page.click("#blitz-new button[type=submit]")
        page.wait_for_selector("#table-clock")
        # the clock's script is deferred: it runs once the page is parsed, a moment after the
        # element is there (on a busy machine long enough for the next line to miss it)
        page.wait_for_function("() => window.blitzTable !== undefined")
        page.clock.pause_at(1_800_000_000_000)  # from here the page's time moves only when told
        assert shown(page, 0) == "1:00" and shown(page, 1) == "1:00"

        page.click("#table-start")  # Ada begins
        page.clock.run_for(10_000)
        assert shown(page, 0) == "0:50" and shown(page, 1) == "1:00"
        assert state(page, 0, "running") == "true"
        page.click("#tap-0")  # Ada's move is done: Bob's clock runs
        page.clock.run_for(5_000)
        assert shown(page, 0) == "0:50" and shown(page, 1) == "0:55"
        page.click("#tap-1")
        page.clock.run_for(51_000)  # Ada's time is up: her car stays, Bob drives on
        assert state(page, 0, "flagged") == "true" and shown(page, 0) == "0:00"
        assert state(page, 1, "running") == "true"
        page.click("#tap-0")  # a flagged player's tap changes nothing
        assert state(page, 1, "running") == "true"
        page.clock.run_for(20_000)
        assert shown(page, 1) == "0:34"  # his clock ran from the instant her flag fell
        shot(page, "blitz-table-1-phone-flag")
        page.clock.run_for(40_000)
        assert state(page, 1, "flagged") == "true" and state(page, 1, "running") == "false"

        match_path = page.url.removeprefix(server.url).removesuffix("/table")
        for winner in ("table-winner-1", "table-winner-0", "table-winner-0"):
            page.click(f"#{winner}")
            page.wait_for_selector("#blitz-heats")
        assert "2:1" in page.inner_text("#blitz-score")
        assert "Ada wins the match" in page.inner_text("#blitz-winner")
        assert page.locator("#table-enter").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "blitz-table-2-phone-match")
        record = page.request.get(server.url + match_path + "/match.json").json()
        assert record["players"] == ["Ada", "Bob"]
        assert [r["winner"] for r in record["runs"]] == ["Bob", "Ada", "Ada"]
        assert record["runs"][2]["start"]["pole"] is None  # heat 3 side by side, die rolled
        assert len(record["runs"][2]["start"]["die_rolls"]) == 2
        context.close()
