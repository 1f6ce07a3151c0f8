"""A qualifying session of three drivers in chromium (issue 27): the organiser opens it online
on the short circuit; three people (a desktop in German, a phone in English, a tablet) each
take their driver's lap and drive it in their own browser while the server's clock is moved
between their rolls (no sleeps); the standings follow live on the organiser's page; closing
makes the grid, and the league race the organiser then starts here starts from it.
Screenshots under test-artifacts/."""

from __future__ import annotations

from typing import Any

from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.play.clock import ManualClock
from rennleitung.store.league_store import LeagueStore
from tests.web.axe import violations
from tests.web.conftest import LiveServer, make_settings, shot
from tests.web.test_browser_organiser import sign_up

LEAGUE = "Herbstpokal"


def drive_lap(page: Any, server: LiveServer, seconds: float) -> str:
    """Roll in the highest gear up to 4th, take the first move offered; the server's clock moves
    ``seconds`` after each answer. Returns the lap's end state."""
    for _ in range(80):
        state = page.locator("#lap-state")
        ask = state.get_attribute("data-ask")
        if not ask:
            return state.get_attribute("data-state") or ""
        if ask == "gear":
            gears = [int(v) for v in page.locator("#gear-form input[name=gear]").evaluate_all(
                "inputs => inputs.map(i => i.value)")]
            gear = max(g for g in gears if g <= 4) if min(gears) <= 4 else min(gears)
            page.check(f"#gear-form input[name=gear][value='{gear}']")
            page.click("#gear-form button[type=submit]")
        else:
            page.locator("#move-form button.move").first.click()
        page.wait_for_load_state()
        server.clock.advance(seconds)
    raise AssertionError("the lap did not end")


def test_three_drivers_qualify_online_and_the_grid_starts_the_league_race(browser: Any,
                                                                        sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, clock=ManualClock())) as server:
        store = LeagueStore(server.app.state.engine)
        store.create_league(LEAGUE, LeagueKind.SEASON)
        store.add_team(LEAGUE, "Rot")
        store.add_team(LEAGUE, "Blau")
        for name, team in (("Anna", "Rot"), ("Ben", "Rot"), ("Clara", "Blau")):
            store.add_driver(LEAGUE, Driver(name, team))
        people = {}
        for name, locale, viewport in (("Olga", "de-DE", {"width": 1300, "height": 900}),
                                       ("Ben", "en-GB", {"width": 390, "height": 844}),
                                       ("Clara", "en-GB", {"width": 820, "height": 1100})):
            context = browser.new_context(locale=locale, viewport=viewport)
            people[name] = context.new_page()
            sign_up(people[name], server.url, name)
        store.add_organiser(LEAGUE, "Olga")
        olga, ben, clara = people["Olga"], people["Ben"], people["Clara"]

        olga.goto(server.url + "/league?name=" + LEAGUE)
        olga.click("#sessions")
        olga.select_option("#form-open_session select[name=track]", "short")
        olga.click("#form-open_session button[type=submit]")
        olga.wait_for_selector("#session-title")
        session_url = olga.url
        assert "Sonne" in olga.inner_text("#weather") or "Regen" in olga.inner_text("#weather")

        for page, driver, seconds in ((olga, "Anna", 4), (ben, "Ben", 6), (clara, "Clara", 3)):
            page.goto(session_url)
            page.locator(f"#laps-table tr[data-driver='{driver}'] button.take").click()
            page.wait_for_selector("#gear-form")
            if page is ben:
                assert page.evaluate("document.documentElement.scrollWidth <= 390")
                assert violations(page) == []
                shot(page, "qualifying-1-phone-lap")
            drive_lap(page, server, seconds)
            if page is olga:
                olga.goto(session_url)  # the organiser watches the others from here on
        # the organiser's page was not reloaded: the standings arrived by themselves
        olga.wait_for_function(  # every lap over (a refresh may still bring the last one)
            "() => document.querySelectorAll('#laps-table tr[data-state=waiting],"
            " #laps-table tr[data-state=driving]').length == 0", timeout=30_000)
        shot(olga, "qualifying-2-standings")
        assert violations(olga) == []
        done, ranked = olga.evaluate(  # one look at one refresh: every lap done has its place
            "() => [document.querySelectorAll('#laps-table tr[data-state=done]').length,"
            " document.querySelectorAll('#standings-table tbody tr').length]")
        assert done == ranked and done >= 1

        olga.click("#form-close button[type=submit]")
        olga.wait_for_selector("#grid")
        grid = olga.locator("#grid li").evaluate_all("items => items.map(i => i.dataset.driver)")
        assert sorted(grid) == ["Anna", "Ben", "Clara"]
        qualifying = store.load(LEAGUE).qualifying_of(1)
        assert qualifying is not None and list(qualifying.grid_order()) == grid
        shot(olga, "qualifying-3-grid")

        olga.click("#to-organise")
        form = olga.locator("#form-play_race")
        form.locator("select[name=track]").select_option("short")
        form.locator("input[name=laps]").fill("1")
        form.locator("button[type=submit]").click()
        olga.wait_for_url("**/races/*")
        race_id = int(olga.url.rstrip("/").rsplit("/", 1)[1].split("?")[0])
        server.app.state.races.start(race_id)  # bots in every seat: nobody else to wait for
        race = server.app.state.races.race(race_id)
        assert list(race.config.qualifying) == grid  # the league race starts from the grid
