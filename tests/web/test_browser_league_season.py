"""An organiser runs a small season in chromium from nothing to the published standings: she
creates the league, its teams and drivers (profile, city), uploads race 1 as a Windows-1252 CSV
file through the page's file input (read into the paste field by league-upload.js), enters a
transfer, pastes race 2, names drop results, grants organiser rights to an existing account and
revokes them; a visitor then reads the standings. Screenshots under test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.store.league_store import LeagueStore
from tests.web.conftest import LiveServer, make_settings, shot, signed_up
from tests.web.test_browser_organiser import sign_up

RACE1 = "Fahrer;Start;Platz\nJörg;4;1\nAnna;3;2\nBen;2;3\nClara;1;4\n"
RACE2 = "driver,grid,position,team\nBen,1,1,Grün\nJörg,2,2,Blau\nAnna,3,3,Rot\nClara,4,4,Blau\n"


def roster_form(page: Any, action: str, **values: str) -> None:
    form = page.locator(f"#form-{action}")
    for name, value in values.items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator(".problem").count() == 0, page.inner_text("main")


def test_a_season_from_creation_to_the_published_standings(
    browser: Any, sqlite_url: str, tmp_path: Path
) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        store = LeagueStore(server.app.state.engine)
        signed_up(server, "Helfer")  # an existing account to grant rights to
        context = browser.new_context(locale="en-GB", viewport={"width": 1300, "height": 1000})
        page = context.new_page()
        sign_up(page, server.url, "Olga")
        page.goto(server.url + "/leagues")
        page.fill("#form-new_league input[name=name]", "Spring Cup")
        page.select_option("#form-new_league select[name=kind]", "season")
        page.click("#form-new_league button[type=submit]")
        page.wait_for_selector("#form-add-team")
        for team in ("Rot", "Blau", "Grün"):
            roster_form(page, "add-team", team=team)
        for name, team, profile, city in (("Anna", "Rot", "theoretiker", "Dresden"),
                                          ("Ben", "Rot", "praktiker", "Pirna"),
                                          ("Clara", "Blau", "regengott", "Meißen"),
                                          ("Jörg", "Blau", "normalo", "Dresden")):
            roster_form(page, "add-driver", driver=name, team=team, profile=profile,
                        city=city)
        assert page.locator("#roster-table tbody tr").count() == 4
        shot(page, "league-season-1-roster")

        upload = tmp_path / "rennen1.csv"
        upload.write_bytes(RACE1.encode("cp1252"))  # as German Excel saves it
        race_form = page.locator("#form-enter_race")
        race_form.locator("input[type=file]").set_input_files(str(upload))
        page.wait_for_function(
            "document.getElementById('csv-enter_race').value.includes('Jörg')")
        assert race_form.locator("input[name=race]").input_value() == "1"
        shot(race_form, "league-season-2-uploaded")
        race_form.locator("button[type=submit]").click()
        page.wait_for_selector("#league-name")

        page.click("#organise")
        roster_form(page, "transfer", driver="Ben", team="Grün", from_race="2")
        assert "Ben drives for Grün from race 2" in page.inner_text("#transfers")
        race_form = page.locator("#form-enter_race")
        race_form.locator("textarea[name=csv]").fill(RACE2)
        race_form.locator("button[type=submit]").click()
        page.wait_for_selector("#league-name")
        page.click("#organise")
        roster_form(page, "drops", driver="Clara", races="1")

        page.fill("#form-add_organiser input[name=account]", "helfer")
        page.click("#form-add_organiser button[type=submit]")
        page.wait_for_selector("#organiser-list li:has-text('Helfer')")
        assert store.organisers("Spring Cup") == ("Helfer", "Olga")
        page.locator("#organiser-list li:has-text('Helfer') button").click()
        page.wait_for_load_state()
        assert store.organisers("Spring Cup") == ("Olga",)
        page.screenshot(path=str(shot(page, "league-season-3-organise")), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})  # the organiser on a phone
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        page.screenshot(path=str(shot(page, "league-season-3-organise-phone")), full_page=True)

        teams = {t.team: t.points for t in constructor_standings(store.load("Spring Cup"))}
        # race 1: Jörg 10, Anna 8, Ben 6, Clara 5; race 2: Ben 10 (Grün), Jörg 8, Anna 6,
        # Clara 5
        assert teams == {"Rot": 8 + 6 + 6, "Blau": 10 + 5 + 8 + 5, "Grün": 10}

        visitor = browser.new_context(locale="de-DE", viewport={"width": 1300, "height": 1000})
        reader = visitor.new_page()
        reader.goto(server.url + "/leagues")
        reader.click("text=Spring Cup")
        reader.wait_for_selector("#league-name")
        assert reader.get_attribute("html", "lang") == "de"
        text = reader.inner_text("main")
        assert "Jörg" in text and "Grün" in text and ".0" not in text
        assert reader.locator("svg").count() >= 1
        assert "Ben" in reader.inner_text("section#transfers")  # the standings list transfers
        shot(reader, "league-season-4-standings")
        history = reader.goto(server.url + "/league/history?name=Spring%20Cup")
        assert history is not None and "Teamwechsel" in reader.inner_text("main")
        shot(reader, "league-season-5-history")
        reader.set_viewport_size({"width": 390, "height": 844})  # tables scroll in their box
        assert reader.evaluate("document.scrollingElement.scrollWidth") <= 390
        shot(reader, "league-season-5-history-phone")
        reader.goto(server.url + "/league?name=Spring%20Cup")
        reader.wait_for_selector("#league-name")
        assert reader.evaluate("document.scrollingElement.scrollWidth") <= 390
        shot(reader, "league-season-4-standings-phone")
        context.close()
        visitor.close()
