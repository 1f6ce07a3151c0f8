"""The league on the web: public standings, organiser forms that enter and correct races, and
names that cannot break the page; over HTTP on both databases and in Debian's chromium."""

from __future__ import annotations

import json
import time
from typing import Any

from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.store.league_store import LeagueStore
from rennleitung.web.league_pages import league_url
from tests.web.conftest import LiveServer, client, make_settings, shot, signed_up

NAME = 'Saison <"2006"> & Co'
RACE = "driver,grid,position\nAnna,1,1\nBen,2,2\nClara,3,3\n"
FIXED = "driver,grid,position\nClara,1,1\nBen,2,2\nAnna,3,3\n"


def season(server: LiveServer) -> LeagueStore:
    store = LeagueStore(server.app.state.engine)
    store.create_league(NAME, LeagueKind.SEASON)
    store.add_team(NAME, "Rot")
    store.add_team(NAME, "Blau")
    store.add_driver(NAME, Driver("Anna", "Rot"))
    store.add_driver(NAME, Driver("Ben", "Rot"))
    store.add_driver(NAME, Driver('Clara "<b>"', "Blau"))
    store.rename_driver(NAME, 'Clara "<b>"', "Clara")  # a correction before any race
    return store


def test_public_pages_and_organiser_forms(server: LiveServer) -> None:
    store = season(server)
    visitor = client(server)
    listing = visitor.page("/leagues")
    assert listing.status_code == 200
    assert "Saison &lt;&#34;2006&#34;&gt; &amp; Co" in listing.text  # escaped by Jinja
    assert '<"2006">' not in listing.text
    assert visitor.page(league_url(NAME)).status_code == 200
    assert visitor.get(league_url(NAME, "/organise")).status_code == 401
    assert visitor.post(league_url(NAME, "/race"), data={"race": "1", "csv": RACE}
                        ).status_code == 403  # no CSRF token, no change
    stranger = signed_up(server, "Fremd")
    stranger.page(league_url(NAME))
    refused = stranger.submit(league_url(NAME, "/race"), {"race": "1", "csv": RACE})
    assert refused.status_code == 403
    assert store.load(NAME).races == ()

    orga = signed_up(server, "Orga")
    assert orga.page(league_url(NAME, "/organise")).status_code == 403
    assert store.add_organiser(NAME, "orga") == "Orga"  # rights go to the existing account
    assert orga.page(league_url(NAME, "/organise")).status_code == 200
    entered = orga.submit(league_url(NAME, "/race"), {"race": "1", "csv": RACE})
    assert entered.status_code == 303, entered.text
    entered = orga.submit(league_url(NAME, "/race"), {"race": "2", "csv": RACE, "by_mail": "1"})
    assert entered.status_code == 303, entered.text
    assert [r.source.value for r in store.load(NAME).races] == ["table", "mail"]
    bad = orga.submit(league_url(NAME, "/race"), {"race": "3", "csv": "driver\nAnna\n"})
    assert bad.status_code == 400 and "line 1" in bad.text
    for wrong in ({"race": "10" * 20}, {"race": "x"}, {"laps": "0"}, {"laps": "10" * 20}):
        refused = orga.submit(league_url(NAME, "/race"), {"race": "3", "csv": RACE, **wrong})
        field = next(iter(wrong))
        assert refused.status_code == 400 and field in refused.text, (wrong, refused.text)
    huge_seed = orga.submit(league_url(NAME, "/qualifying"),
                            {"race": "3", "csv": "driver,rolls,lap_time\nAnna,41,5:01\n",
                             "seed": str(2**64)})
    assert huge_seed.status_code == 400 and "seed" in huge_seed.text, huge_seed.text
    fixed = orga.submit(league_url(NAME, "/race"), {"race": "1", "csv": FIXED, "replace": "1"})
    assert fixed.status_code == 303, fixed.text
    points = {line.driver: line.points for line in driver_standings(store.load(NAME))}
    assert points == {"Anna": 6 + 10, "Ben": 8 + 8, "Clara": 10 + 6}
    page = visitor.page(league_url(NAME)).text
    assert page.count("<svg") == 1 and 'data-driver="Anna"' in page
    history = visitor.page(league_url(NAME, "/history")).text
    assert "race replaced" in history or "Rennen ersetzt" in history
    assert "Orga" in history
    assert "position: " in history and "{&#34;" not in history  # the change in words, no JSON
    karma = visitor.page(league_url(NAME, "/karma")).text
    assert "championship points" in karma or "Meisterschaftspunkte" in karma


def test_organiser_enters_a_race_in_the_browser(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        season(server)
        context = browser.new_context(locale="de-DE")
        page = context.new_page()
        page.goto(server.url + "/signup")
        page.fill("input[name=name]", "Orga")
        page.fill("input[name=password]", "rennen-2026")
        page.click("form.stack button[type=submit]")
        page.wait_for_selector("#whoami")
        LeagueStore(server.app.state.engine).add_organiser(NAME, "Orga")
        page.goto(server.url + "/leagues")
        page.click("#leagues a")
        page.wait_for_selector("#league-name")
        assert page.inner_text("#league-name") == NAME  # shown as text, not markup
        page.click("#organise")
        form = page.locator("#form-enter_race")
        form.locator("input[name=race]").fill("1")
        form.locator("textarea[name=csv]").fill(RACE)
        form.locator("button[type=submit]").click()
        page.wait_for_selector("section#race-1")
        assert "Fahrerwertung" in page.inner_text("main")
        first = page.locator("section#drivers tbody tr").first.inner_text()
        assert "Anna" in first and "10" in first
        assert page.locator("svg polyline.driver").count() == 3
        shot(page, "league-standings")
        context.close()


def test_a_league_race_played_here_enters_the_standings(server: LiveServer) -> None:
    """The organiser plays race 1 here (Ben by a person, who takes his seat under his own
    account name; the rest bots); after the flag the server enters the result into the league,
    under the league's driver names."""
    store = season(server)
    stranger = signed_up(server, "Fremd")
    stranger.page(league_url(NAME))
    form = {"race": "1", "track": "oval", "laps": "1", "people": "Ben"}
    assert stranger.submit(league_url(NAME, "/play"), form).status_code == 403
    orga = signed_up(server, "Orga")
    store.add_organiser(NAME, "Orga")
    orga.page(league_url(NAME, "/organise"))
    assert orga.submit(league_url(NAME, "/play"), {**form, "people": "Zora"}).status_code == 400
    for wrong in ({"seconds": "1" + "0" * 18}, {"seconds": "2"}, {"laps": "999999"},
                  {"bank_seconds": "60"}, {"abandon_action": "explode"}):
        assert orga.submit(league_url(NAME, "/play"), {**form, **wrong}).status_code == 400, wrong
    made = orga.submit(league_url(NAME, "/play"), {**form, "abandon_hours": "24"})
    assert made.status_code == 303, made.text
    race = made.headers["location"]
    assert orga.get(f"{race}/view.json").json()["clock"]["abandon_seconds"] == 24 * 3600
    shown = orga.page(race)
    assert shown.status_code == 200 and 'id="league-race"' in shown.text
    ben = signed_up(server, "Benjamin")
    ben.page(race)
    assert ben.submit(f"{race}/join", {"car": "Ben"}).status_code == 303
    assert orga.submit(f"{race}/start", {"version": "0"}).status_code == 303
    while True:  # Benjamin drives as the first legal answer says until the flag
        asked = ben.get(f"{race}/question.json").json()
        if asked["state"] != "running":
            break
        if asked["question"] is None:
            time.sleep(0.05)
            continue
        first = json.dumps(asked["question"]["options"][0])
        answer = ben.submit(f"{race}/act", {"car": "Ben", "version": str(asked["version"]),
                                            "decision": first},
                            headers={"Accept": "application/json"})
        assert answer.status_code == 200, answer.text
        follows = answer.json()["next"]  # what question.json says now, in the same reply
        assert follows == ben.get(f"{race}/question.json").json()
    deadline = time.monotonic() + 30
    while store.load(NAME).race(1) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    entered = store.load(NAME).race(1)
    assert entered is not None, "the finished race went into the league"
    assert {d.driver for d in entered.drivers} == {"Anna", "Ben", "Clara"}
    assert "in the standings" in client(server).get(race, headers={
        "Accept-Language": "en"}).text
    standings = client(server).page(league_url(NAME)).text
    assert 'data-driver="Ben"' in standings and "Benjamin" not in standings
