"""An organiser in chromium creates a race for two people and two bots with a time per decision,
drives one car herself and invites a second person by link (his own browser context). He answers
his setup, then lets his clock run out: his seat's bot decides, recorded as such, and both pages
follow live. The organiser halts his car (FD Blitz), plays on by clicking destinations and
closes the race; the seed appears."""

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


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "race-day-1")
    page.click("form.stack button[type=submit]")
    page.wait_for_selector("#whoami")


def asked(page: Any) -> str:
    """The kind of question this page shows now ('' if none)."""
    form = page.locator("#question form")
    return (form.get_attribute("id") or "").removesuffix("-form") if form.count() else ""


def answer(page: Any) -> str:
    """Answer what this page asks, the way a quick person would; returns the kind."""
    kind = asked(page)
    version = page.get_attribute("#race-version", "data-version") or ""
    form = page.locator("#question form")
    if kind == "move":
        choose_destination(page).click()
    else:
        if kind == "turn":
            pick_gear(form)
        form.locator("button[type=submit]").click()
    wait_for_change(page, version)
    return kind


def test_organiser_two_people_two_bots_and_a_clock(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, deadline_tick=0.5)) as server:
        olga_context = browser.new_context(locale="de-DE", viewport={"width": 1400, "height": 900})
        olga = olga_context.new_page()
        sign_up(olga, server.url, "Olga")
        olga.click("text=Neues Rennen")
        olga.fill("input[name=name]", "Vereinsrennen")
        olga.select_option("select[name=track]", "monaco")
        olga.fill("input[name=laps]", "1")
        olga.fill("input[name=people]", "2")
        olga.fill("input[name=bots]", "2")
        olga.fill("input[name=seconds]", "5")
        olga.check("input[name=drive]")
        olga.click("form.stack button[type=submit]")
        invite = olga.inner_text("#invite")
        race_id = int(invite.rsplit("/", 1)[1])

        paul_context = browser.new_context(locale="en-GB", viewport={"width": 1400, "height": 900})
        paul = paul_context.new_page()
        sign_up(paul, server.url, "Paul")
        paul.goto(invite)
        paul.click("text=Take this seat")
        paul.wait_for_selector("text=Paul")
        olga.reload()
        olga.click("#start")
        shot(olga, "organiser-1-start")

        races = server.app.state.races
        seats = {s.driver: s.car for s in races.info(race_id).seats}
        paul_car, olga_car = seats["Paul"], seats["Olga"]

        # setup and box: both answer; then Paul lets his clock run out on his first turn
        paul_waited = False
        for _ in range(60):
            if asked(olga):
                answer(olga)
                continue
            kind = asked(paul)
            if kind in ("setup", "box", "bid", "karma"):
                answer(paul)
                continue
            if kind:  # his turn: he does nothing, and the clock counts down live
                version = paul.get_attribute("#race-version", "data-version") or ""
                paul.wait_for_function(
                    "() => /^\\d+:\\d\\d left$|^time is up/.test("
                    "(document.getElementById('countdown') || {}).textContent || '')")
                wait_for_change(paul, version)  # the bot decided, and the page followed live
                paul_waited = True
                break
            olga.wait_for_timeout(200)
        assert paul_waited
        # the log says the bot decided for him, on his page and on the organiser's
        paul.wait_for_selector("#timeouts")
        assert "Time ran out: the bot decided for Paul" in paul.inner_text("#log")
        olga.wait_for_selector("#timeouts")
        assert "der Bot hat für Paul entschieden" in olga.inner_text("#log")
        by_paul = [d for d in races.decisions(race_id) if d.car == paul_car]
        assert Actor.TIMEOUT_BOT in {d.actor for d in by_paul}
        assert {d.actor for d in by_paul} <= {Actor.PERSON, Actor.TIMEOUT_BOT}

        # the organiser halts Paul's car and plays on
        olga.wait_for_selector(f"#order form[action$='/halt'] input[value='{paul_car}']",
                               state="attached")
        version = olga.get_attribute("#race-version", "data-version") or ""
        asked_to_confirm: list[str] = []

        def confirm(dialog: Any) -> None:  # Halt asks first; the organiser says yes
            asked_to_confirm.append(dialog.message)
            dialog.accept()

        olga.once("dialog", confirm)
        olga.locator("#order form[action$='/halt']").filter(
            has=olga.locator(f"input[value='{paul_car}']")).locator("button").click()
        wait_for_change(olga, version)
        assert "angehalten" in olga.inner_text("#order")
        assert asked_to_confirm and "anhalten" in asked_to_confirm[0]
        moves = 0
        for _ in range(40):
            if moves >= 3:
                break
            if asked(olga):
                moves += answer(olga) == "move"
            else:
                olga.wait_for_timeout(200)
        assert moves >= 3
        shot(olga, "organiser-2-mid-race")
        assert paul.locator("#question form").count() == 0
        version = olga.get_attribute("#race-version", "data-version") or ""
        olga.once("dialog", lambda dialog: dialog.accept())
        olga.click("#close")
        olga.wait_for_selector("#seed")
        shot(olga, "organiser-3-closed")
        assert races.info(race_id).state.value == "closed"
        halts = [d for d in races.decisions(race_id) if d.decision.get("kind") == "halt"]
        assert [(d.car, d.actor) for d in halts] == [(paul_car, Actor.ORGANISER)]
        assert olga_car != paul_car
        olga_context.close()
        paul_context.close()
