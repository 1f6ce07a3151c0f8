"""The setups are asked of every driver at once (Dresden "Rennen"; Masters 5), in the browser
too: two people in two chromium contexts both see their setup form as soon as the race starts,
and answer in the reverse of the rules' order. The race waits for both; the one who answers
second keeps what she had typed in her form while the other's answer arrives live, and her
answer, made against the version her page showed, is taken."""

from __future__ import annotations

from typing import Any

from rennleitung.play.views import Reader
from tests.web.conftest import LiveServer, make_settings, shot, wait_for_change
from tests.web.test_browser_organiser import sign_up


def test_two_drivers_answer_their_setups_at_once_in_reverse_order(
        browser: Any, database_url: str) -> None:
    with LiveServer(make_settings(database_url)) as server:
        olga_context = browser.new_context(locale="de-DE", viewport={"width": 1200, "height": 900})
        olga = olga_context.new_page()
        sign_up(olga, server.url, "Olga")
        olga.click("text=Neues Rennen")
        olga.select_option("select[name=track]", "monaco")
        olga.fill("input[name=laps]", "1")
        olga.fill("input[name=people]", "2")
        olga.fill("input[name=bots]", "1")
        olga.check("input[name=drive]")
        olga.click("form.stack button[type=submit]")
        invite = olga.inner_text("#invite")
        race_id = int(invite.rsplit("/", 1)[1])

        paul_context = browser.new_context(locale="en-GB", viewport={"width": 1200, "height": 900})
        paul = paul_context.new_page()
        sign_up(paul, server.url, "Paul")
        paul.goto(invite)
        paul.click("text=Take this seat")
        paul.wait_for_selector("text=Paul")
        olga.reload()
        olga.click("#start")

        races = server.app.state.races
        cars = {s.driver: s.car for s in races.info(race_id).seats}
        pages = {cars["Olga"]: olga, cars["Paul"]: paul}
        olga.wait_for_selector("#setup-form")
        paul.wait_for_selector("#setup-form")  # his page followed the start live
        asked = races.view(race_id, Reader.spectator()).asked
        assert sorted(asked) == sorted(pages), asked  # both asked at once, the bot has answered
        shot(paul, "simultaneous-1-both-asked")

        first, second = pages[asked[-1]], pages[asked[0]]  # the reverse of the rules' order
        second.select_option("#setup-form select[name=tyre]", "soft")  # typed, not yet sent
        version = first.get_attribute("#race-version", "data-version") or ""
        first.locator("#setup-form button[type=submit]").click()
        wait_for_change(first, version)
        wait_for_change(second, version)  # the other's answer arrived live …
        assert first.locator("#question form").count() == 0
        assert second.locator("#setup-form").count() == 1  # … and her form is still hers
        assert second.input_value("#setup-form select[name=tyre]") == "soft"
        now = races.view(race_id, Reader.spectator())
        assert now.asked == (asked[0],)  # the race waits for her
        assert all(c.wear is None for c in now.cars)  # and nobody sees a setup yet
        shot(second, "simultaneous-2-one-answered")

        version = second.get_attribute("#race-version", "data-version") or ""
        second.locator("#setup-form button[type=submit]").click()
        wait_for_change(second, version)
        after = races.view(race_id, Reader.spectator())
        assert after.version > now.version
        (hers,) = [d for d in races.decisions(race_id)
                   if d.car == asked[0] and d.decision["kind"] == "setup"]
        assert hers.decision["tyre"] == "soft" and hers.seq == now.version + 1
        revealed = {c.car: c for c in after.cars}
        assert revealed[asked[0]].tyre is not None and revealed[asked[0]].tyre.value == "soft"
        assert all(c.wear is not None for c in after.cars)  # revealed together
        assert {d.car for d in races.decisions(race_id) if d.decision["kind"] == "setup"} \
            == {s.car for s in races.info(race_id).seats}
        olga_context.close()
        paul_context.close()
