"""The organiser's roster work over HTTP on both databases: a league created on the web, teams,
drivers with profile and city, a transfer with its history, drops, names, taking back the last
race and a pasted JSON race; every refusal in the page's language."""

from __future__ import annotations

import json

from rennleitung.league.constructor_standings import constructor_standings
from rennleitung.league.profiles import DriverProfile
from rennleitung.store.league_store import LeagueStore
from rennleitung.web.league_pages import league_url
from tests.web.conftest import LiveServer, client, signed_up

RACE = "driver,grid,position\nAnna,1,1\nBen,2,2\nClara,3,3\n"


def test_a_season_set_up_on_the_web(server: LiveServer) -> None:
    store = LeagueStore(server.app.state.engine)
    orga = signed_up(server, "Orga")
    orga.page("/leagues")
    made = orga.submit("/leagues/new", {"name": "Herbst", "kind": "season"})
    assert made.status_code == 303 and made.headers["location"] == league_url("Herbst",
                                                                              "/organise")
    assert store.organisers("Herbst") == ("Orga",)
    orga.page(league_url("Herbst", "/organise"))

    def roster(action: str, **values: str) -> int:
        answer = orga.submit(league_url("Herbst", "/roster"), {"action": action, **values})
        assert answer.status_code in (303, 400), answer.text
        return answer.status_code

    for team in ("Rot", "Blau", "Grün"):
        assert roster("add-team", team=team) == 303
    for name, team, profile, city in (("Anna", "Rot", "theoretiker", "Dresden"),
                                      ("Ben", "Rot", "praktiker", "Pirna"),
                                      ("Clara", "Blau", "regengott", "")):
        assert roster("add-driver", driver=name, team=team, profile=profile, city=city) == 303
    loaded = store.load("Herbst")
    assert [(d.name, d.team, d.profile, d.city) for d in loaded.roster.drivers] == [
        ("Anna", "Rot", DriverProfile.THEORIST, "Dresden"),
        ("Ben", "Rot", DriverProfile.PRACTITIONER, "Pirna"),
        ("Clara", "Blau", DriverProfile.RAIN_GOD, "")]
    third = orga.submit(league_url("Herbst", "/roster"),
                        {"action": "add-driver", "driver": "Dora", "team": "Rot"},
                        )
    assert third.status_code == 400 and "already has 2 drivers" in third.text

    assert orga.submit(league_url("Herbst", "/race"), {"race": "1", "csv": RACE}
                       ).status_code == 303
    assert roster("transfer", driver="Ben", team="Grün", from_race="2") == 303
    pasted = json.dumps({"race": 2, "drivers": [
        {"driver": d, "grid": i, "position": i, "laps_completed": 3, "status": "finished"}
        for i, d in enumerate(("Ben", "Anna", "Clara"), start=1)]})
    assert orga.submit(league_url("Herbst", "/race"), {"race": "2", "csv": pasted}
                       ).status_code == 303
    teams = {t.team: t.points for t in constructor_standings(store.load("Herbst"))}
    assert teams == {"Rot": 10 + 8 + 8, "Grün": 10, "Blau": 6 + 6}
    page = orga.page(league_url("Herbst", "/organise")).text
    assert "Ben drives for Grün from race 2" in page
    history = orga.page(league_url("Herbst", "/history")).text
    assert "transfer" in history and "Grün" in history

    assert roster("drops", driver="Anna", races="1 2") == 303
    assert store.load("Herbst").named_drops == {"Anna": (1, 2)}
    assert roster("drops", driver="Anna", races="x") == 400
    assert roster("rename-driver", old="Clara", new="Clara M.") == 303
    assert roster("add-team", team="Leer") == 303
    assert roster("rename-team", old="Leer", new="Weiß") == 303
    assert roster("remove-team", team="Weiß") == 303
    assert roster("remove-team", team="Grün") == 400  # Ben drives for it
    assert roster("delete-race", race="1") == 400  # only the last race
    assert roster("delete-race", race="2") == 303
    assert store.load("Herbst").held_races() == (1,)
    assert roster("rename-race", race="1", track="Monaco") == 303
    assert store.load("Herbst").race(1).track == "Monaco"  # type: ignore[union-attr]
    assert roster("rename-race", race="7", track="Spa") == 400
    assert [c.action for c in store.history("Herbst")][-1] == "rename-race"
    assert roster("remove-transfer", driver="Ben", from_race="2") == 303
    assert store.load("Herbst").roster.transfers == ()
    assert roster("rename-league", new="Herbst 2026") == 303
    assert store.organisers("Herbst 2026") == ("Orga",)

    stranger = signed_up(server, "Fremd")
    stranger.page("/leagues")
    refused = stranger.submit(league_url("Herbst 2026", "/roster"),
                              {"action": "add-team", "team": "X"})
    assert refused.status_code == 403
    assert "X" not in store.load("Herbst 2026").roster.teams


def test_refusals_in_the_page_language(server: LiveServer) -> None:
    """Issue 26: a German page showed the place of a refusal in English ("line 1", "race")."""
    german = client(server)
    german.headers["Accept-Language"] = "de-DE,de;q=0.9"
    german.page("/signup")
    assert german.submit("/signup", {"name": "Olga", "password": "race-day-1x"}
                         ).status_code == 303
    german.page("/leagues")
    german.submit("/leagues/new", {"name": "L", "kind": "season"})
    german.page(league_url("L", "/organise"))
    bad_file = german.submit(league_url("L", "/race"), {"race": "1", "csv": "Fahrer;Start\n"})
    assert bad_file.status_code == 400
    assert 'lang="de"' in bad_file.text
    assert "Zeile 1: Spalten fehlen in der Kopfzeile: position" in bad_file.text
    bad_number = german.submit(league_url("L", "/race"), {"race": "x", "csv": "a"})
    assert "Rennen: Zahl erwartet" in bad_number.text and "race:" not in bad_number.text
    english = signed_up(server, "Paul")
    english.headers["Accept-Language"] = "en"
    english.page("/leagues")
    english.submit("/leagues/new", {"name": "M", "kind": "season"})
    english.page(league_url("M", "/organise"))
    answer = english.submit(league_url("M", "/race"), {"race": "1", "csv": "driver,grid\n"})
    assert 'lang="en"' in answer.text and "line 1: columns missing" in answer.text
