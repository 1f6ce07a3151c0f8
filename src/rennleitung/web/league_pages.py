"""The league on the web: public standings pages and the organiser's forms.

The pages show exactly what ``rennleitung league html`` writes (the same renderers,
``render.league_html``), inside the site's own page and in the reader's language. Entering a
table race or a qualifying and correcting them goes through the same ``LeagueStore`` calls as
the command line, so every check, the karma rebooking and the history apply; only the
league's organisers (``rennleitung league add-organiser``) see and may send the forms. An
organiser adds existing accounts, revokes them, or makes an invitation link for someone
without an account (``/league/invitation/…``, taken up once by whoever signs in and uses it).

Leagues are addressed by name in the query (``/league?name=…``), so any name works in a URL.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track_names
from rennleitung.league.karma import karma_ledger
from rennleitung.league.profiles import DriverProfile, league_name
from rennleitung.league.qualifying_weather import parse_weather
from rennleitung.league.race_result import RaceResult, RaceSource
from rennleitung.league.race_result_codec import (
    qualifying_laps_from_csv,
    race_result_from_csv,
    race_result_from_json,
)
from rennleitung.league.race_validation import MAX_RACE_LAPS
from rennleitung.league.season import League
from rennleitung.league.starters import parse_starters
from rennleitung.play.league_races import league_race_spec
from rennleitung.play.model import MAX_DECISION_SECONDS
from rennleitung.render.league_html import league_sections, rows_table
from rennleitung.render.league_tables import history_rows, karma_rows
from rennleitung.store.league_store import MAX_SEED, LeagueStore
from rennleitung.textinput import load_json
from rennleitung.web import forms
from rennleitung.web.context import Page, Refused, checked_form, field, page

router = APIRouter()

WORDS: dict[str, tuple[str, str]] = {
    "leagues": ("Ligen", "Leagues"),
    "no_leagues": ("Noch keine Liga.", "No league yet."),
    "karma_ledger": ("Karmabuch", "Karma ledger"),
    "history": ("Korrekturen", "Corrections"),
    "no_history": ("Keine Korrekturen.", "No corrections."),
    "organise": ("Organisieren", "Organise"),
    "standings": ("Wertung", "Standings"),
    "enter_race": ("Tischrennen eintragen", "Enter a table race"),
    "replace_race": ("Rennen ersetzen (Karma danach neu gebucht)",
                     "Replace a race (later karma rebooked)"),
    "enter_qualifying": ("Qualifizierung eintragen", "Enter a qualifying"),
    "replace_qualifying": ("Qualifizierung ersetzen", "Replace a qualifying"),
    "delete_qualifying": ("Qualifizierung löschen", "Delete a qualifying"),
    "race_number": ("Rennen Nr.", "Race no."),
    "laps": ("Runden", "Laps"),
    "track": ("Strecke", "Track"),
    "by_mail": ("per E-Mail gefahren", "run by e-mail"),
    "race_csv": ("Ergebnis als CSV (driver,grid,position,laps,status,driven_by,laps_most_led,"
                 "karma)", "Result as CSV (driver,grid,position,laps,status,driven_by,"
                 "laps_most_led,karma)"),
    "laps_csv": ("Runden als CSV (driver,rolls,penalty_points,errors,lap_time,run,driven_by)",
                 "Laps as CSV (driver,rolls,penalty_points,errors,lap_time,run,driven_by)"),
    "race_csv_too": ("Richtiges Rennen als CSV, falls es von der alten Startaufstellung "
                     "gestartet ist (freiwillig)", "The corrected race as CSV, if it started "
                     "from the old grid (optional)"),
    "starters": ("Starter, Komma getrennt (leer: alle)", "Starters, comma separated (empty: "
                 "all)"),
    "seed": ("Würfel-Seed der Auslosung (leer: zufällig)", "Draw seed (empty: random)"),
    "weather": ("Gewürfeltes Wetter (sonne, regen, wechselhaft; leer: keins)",
                "Rolled weather (sun, rain, changeable; empty: none)"),
    "send": ("Absenden", "Send"),
    "play_race": ("Rennen hier fahren (Ergebnis kommt nach der Zielflagge in die Wertung)",
                  "Play a race here (its result enters the standings after the flag)"),
    "table": ("Am Tisch mit echten Würfeln: die Rennleitung gibt jeden Wurf ein",
              "At the table with real dice: the organiser enters every roll"),
    "people": ("Fahrer, die Menschen steuern, Komma getrennt (die anderen fahren Bots)",
               "Drivers played by people, comma separated (bots drive the others)"),
    "seconds": ("Sekunden je Entscheidung (leer: keine Frist)",
                "Seconds per decision (empty: no deadline)"),
    "not_organiser": ("Nur die Organisatoren dieser Liga dürfen das.",
                      "Only this league's organisers may do that."),
    "organisers": ("Organisatoren", "Organisers"),
    "add_organiser": ("Konto als Organisator hinzufügen (Kontoname)",
                      "Add an account as organiser (account name)"),
    "invite": ("Einladungslink für jemanden ohne Konto (gilt einmal, sieben Tage)",
               "Invitation link for someone without an account (works once, for seven days)"),
    "make_link": ("Link erzeugen", "Make a link"),
    "invitation_link": ("Einladungslink", "Invitation link"),
    "revoke": ("entziehen", "revoke"),
    "invitation": ("Einladung: die Liga organisieren", "Invitation: organise the league"),
    "accept": ("Einladung annehmen", "Accept the invitation"),
    "sign_in_first": ("Bitte zuerst anmelden oder ein Konto anlegen.",
                      "Please sign in or sign up first."),
    "roster": ("Teams und Fahrer", "Teams and drivers"),
    "races": ("Rennen", "Races"),
    "qualifying": ("Qualifizierung", "Qualifying"),
    "sessions": ("Qualifizierung hier fahren", "Qualifying here"),
    "team": ("Team", "Team"),
    "teams": ("Teams", "Teams"),
    "driver": ("Fahrer", "Driver"),
    "profile": ("Fahrerprofil", "Profile"),
    "city": ("Stadt", "City"),
    "required": ("Pflicht im Open", "required in the Open"),
    "transfers": ("Teamwechsel", "Transfers"),
    "transfer_line": ("{driver} fährt ab Rennen {race} für {team}",
                      "{driver} drives for {team} from race {race}"),
    "take_back": ("zurücknehmen", "take back"),
    "add_team": ("Team anlegen", "Add a team"),
    "add_driver": ("Fahrer anlegen", "Add a driver"),
    "transfer": ("Teamwechsel eintragen (ab Rennen N zählen seine Punkte für das neue Team)",
                 "Enter a transfer (from race N his points count for the new team)"),
    "new_team": ("Neues Team", "New team"),
    "from_race": ("Ab Rennen", "From race"),
    "drops": ("Streichresultate festlegen (leer: die schlechtesten)",
              "Name drop results (empty: the lowest)"),
    "drop_races": ("Gestrichene Rennen, z. B. 3 7", "Dropped races, e.g. 3 7"),
    "rename_driver": ("Fahrer umbenennen", "Rename a driver"),
    "new_name": ("Neuer Name", "New name"),
    "remove_driver": ("Fahrer ohne Einträge entfernen", "Remove a driver with no entries"),
    "rename_team": ("Team umbenennen", "Rename a team"),
    "remove_team": ("Team ohne Fahrer entfernen", "Remove a team without drivers"),
    "rename_league": ("Liga umbenennen", "Rename the league"),
    "file": ("Datei (CSV oder JSON; füllt das Feld darunter)",
             "File (CSV or JSON; fills the field below)"),
    "delete_race": ("Letztes Rennen löschen", "Delete the last race"),
    "delete_race_note": ("Rennen {race} mit seinem Karma zurücknehmen (ein früheres Rennen "
                         "wird ersetzt, nicht gelöscht).",
                         "Take back race {race} with its karma (an earlier race is replaced, "
                         "not deleted)."),
    "delete": ("Löschen", "Delete"),
    "rename_race": ("Rennen umbenennen (Strecke)", "Rename a race (its track)"),
    "new_league": ("Neue Liga anlegen (Sie organisieren sie)",
                   "Create a league (you organise it)"),
    "league_name": ("Name", "Name"),
    "kind": ("Art", "Kind"),
    "season": ("Saison (10 Rennen)", "Season (10 races)"),
    "open": ("Open (3 Rennen, Städtewertung)", "Open (3 races, city ranking)"),
}


def word(p: Page, key: str) -> str:
    de, en = WORDS[key]
    return de if p.lang == "de" else en


def league_url(name: str, suffix: str = "") -> str:
    return f"/league{suffix}?name={quote(name, safe='')}"


def _store(request: Request) -> LeagueStore:
    return LeagueStore(request.app.state.engine)


def _render(p: Page, template: str, **values: Any) -> HTMLResponse:
    return p.render(template, w=lambda key: word(p, key), league_url=league_url, **values)


def _organiser(p: Page, store: LeagueStore, name: str) -> str:
    user = p.need_user()
    if user.name not in store.organisers(name):
        raise Refused(403, *WORDS["not_organiser"])
    return user.name


@router.get("/leagues", response_class=HTMLResponse)
def leagues(request: Request, p: Page = Depends(page)) -> Response:
    return _render(p, "league_list.html", leagues=_store(request).leagues())


@router.get("/league", response_class=HTMLResponse)
def standings(request: Request, name: str, p: Page = Depends(page)) -> Response:
    store = _store(request)
    loaded = store.load(name)
    may_organise = p.user is not None and p.user.name in store.organisers(name)
    return _render(p, "league.html", league=loaded, may_organise=may_organise,
                   body=Markup(league_sections(loaded, p.lang)))


@router.get("/league/karma", response_class=HTMLResponse)
def karma(request: Request, name: str, p: Page = Depends(page)) -> Response:
    loaded = _store(request).load(name)
    table = rows_table(karma_rows(karma_ledger(loaded), p.lang), p.lang)
    return _render(p, "league_table.html", league=loaded, heading=word(p, "karma_ledger"),
                   body=Markup(table))


@router.get("/league/history", response_class=HTMLResponse)
def history(request: Request, name: str, p: Page = Depends(page)) -> Response:
    store = _store(request)
    loaded = store.load(name)
    rows = [{k: v for k, v in row.items() if k not in ("before", "after")}
            for row in history_rows(store.history(name), p.lang)]
    table = rows_table(rows, p.lang) if rows else f"<p>{word(p, 'no_history')}</p>"
    return _render(p, "league_table.html", league=loaded, heading=word(p, "history"),
                   body=Markup(table))


@router.get("/league/organise", response_class=HTMLResponse)
def organise(request: Request, name: str, p: Page = Depends(page)) -> Response:
    store = _store(request)
    _organiser(p, store, name)
    return _organise_page(p, store, name)


def _organise_page(p: Page, store: LeagueStore, name: str, invitation: str = "") -> Response:
    loaded = store.load(name)
    profiles = [(league_name(profile), profile.label_de if p.lang == "de" else profile.label_en)
                for profile in DriverProfile]
    return _render(p, "league_organise.html", league=loaded, tracks=builtin_track_names(),
                   organisers=store.organisers(name), invitation=invitation,
                   profiles=profiles, next_race=len(loaded.races) + 1,
                   profile_name=lambda profile: (profile.label_de if p.lang == "de"
                                                 else profile.label_en))


@router.post("/league/organisers", response_class=HTMLResponse)
async def organisers(request: Request, name: str, p: Page = Depends(page)) -> Response:
    """An organiser adds an existing account, revokes one, or makes an invitation link."""
    form = await checked_form(request)
    return await run_in_threadpool(_organisers, request, name, p, form)


def _organisers(request: Request, name: str, p: Page, form: FormData) -> Response:
    store = _store(request)
    _organiser(p, store, name)
    action = field(form, "action")
    if action == "add":
        store.add_organiser(name, field(form, "account"))
    elif action == "revoke":
        store.remove_organiser(name, field(form, "account"))
    elif action == "invite":
        token = store.invite_organiser(name)
        link = f"{request.app.state.settings.base_url}/league/invitation/{token}"
        return _organise_page(p, store, name, link)
    else:
        raise RennleitungError("unbekannte Aktion", "unknown action", "action")
    return RedirectResponse(league_url(name, "/organise") + "#organisers", status_code=303)


@router.get("/league/invitation/{token}", response_class=HTMLResponse)
def invitation_form(token: str, p: Page = Depends(page)) -> Response:
    return _render(p, "league_invitation.html", token=token)


@router.post("/league/invitation/{token}")
async def accept_invitation(token: str, request: Request, p: Page = Depends(page)) -> Response:
    """The signed-in person takes up the invitation and organises its league from now on."""
    await checked_form(request)
    user = p.need_user()
    league = await run_in_threadpool(_store(request).accept_invitation, token, user.name)
    return RedirectResponse(league_url(league, "/organise"), status_code=303)


@router.post("/league/play")
async def play_race(request: Request, name: str, p: Page = Depends(page)) -> Response:
    """A league race played on this server: the league's drivers in their seats (people where
    named, else the strongest bot), the organiser as the race's organiser; the result enters
    the standings when it finishes (``play/league_races.py``)."""
    form = await checked_form(request)

    def create() -> Response:
        store = _store(request)
        _organiser(p, store, name)
        user = p.need_user()
        track = field(form, "track").strip()
        if track not in builtin_track_names():
            raise RennleitungError("unbekannte Strecke", "unknown track", "track")
        seconds = field(form, "seconds").strip()
        spec = league_race_spec(
            store, name, _race_number(form), track,
            people=_people(field(form, "people")), laps=forms.number(form, "laps", 0, 0, 20),
            decision_seconds=(forms.number(form, "seconds", None, 5, MAX_DECISION_SECONDS)
                              if seconds else None),
            organiser=user.holder, table=forms.flag(form, "table"))
        spec = replace(spec, **forms.clock(form))  # bank, misses, abandoning (docs/play.md)
        race_id = request.app.state.races.create_race(spec)
        return RedirectResponse(f"/races/{race_id}", status_code=303)

    return await run_in_threadpool(create)


def _people(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


@router.post("/league/race")
async def enter_race(request: Request, name: str, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_enter_race, request, name, p, form)


def _enter_race(request: Request, name: str, p: Page, form: FormData) -> Response:
    store = _store(request)
    by = _organiser(p, store, name)
    number = _race_number(form)
    laps = forms.number(form, "laps", 3, 1, MAX_RACE_LAPS)
    result = _pasted_race(field(form, "csv"), number, laps, field(form, "track").strip())
    if field(form, "by_mail") == "1":
        result = replace(result, source=RaceSource.MAIL)
    if field(form, "replace") == "1":
        store.replace_race(name, result, by)
    else:
        store.enter_race(name, result, by)
    return _back(name, f"#race-{number}")


def _pasted_race(text: str, number: int, laps: int, track: str) -> RaceResult:
    """A race from the paste field: CSV, or the JSON contract (an uploaded ``.json`` file),
    whose race number must be the form's."""
    if not text.lstrip().startswith("{"):
        return race_result_from_csv(text, number, laps, track)
    try:
        data = load_json(text, "json")
    except json.JSONDecodeError as error:
        raise RennleitungError(f"kein gültiges JSON: {error.msg}", f"not valid JSON: {error.msg}",
                               f"json, line {error.lineno}") from None
    if not isinstance(data, dict):
        raise RennleitungError("JSON-Objekt erwartet", "a JSON object is expected", "json")
    if data.get("race", number) != number:
        raise RennleitungError(
            f"die Datei ist Rennen {data.get('race')!r}, das Formular Rennen {number}",
            f"the file is race {data.get('race')!r}, the form race {number}", "race")
    return race_result_from_json({"laps": laps, "track": track, **data, "race": number})


@router.post("/league/qualifying")
async def enter_qualifying(request: Request, name: str, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_enter_qualifying, request, name, p, form)


def _enter_qualifying(request: Request, name: str, p: Page, form: FormData) -> Response:
    store = _store(request)
    by = _organiser(p, store, name)
    loaded = store.load(name)
    number = _race_number(form)
    laps = qualifying_laps_from_csv(field(form, "csv"))
    starters = _starters(loaded, field(form, "starters"))
    seed = _seed(form, store.qualifying_seed(name, number))
    weather = [parse_weather(w, "weather") for w in field(form, "weather").replace(",", " ")
               .split()]
    if field(form, "replace") == "1":
        race_text = field(form, "race_csv").strip()
        entered = loaded.race(number)
        corrected = (race_result_from_csv(race_text, number, entered.laps if entered else 3,
                                          entered.track if entered else "")
                     if race_text else None)
        store.replace_qualifying(name, number, laps, starters, seed, weather, corrected, by)
    else:
        store.enter_qualifying(name, number, laps, starters, seed, weather)
    return _back(name, f"#race-{number}")


@router.post("/league/qualifying/delete")
async def delete_qualifying(request: Request, name: str, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_delete_qualifying, request, name, p, form)


def _delete_qualifying(request: Request, name: str, p: Page, form: FormData) -> Response:
    store = _store(request)
    by = _organiser(p, store, name)
    store.delete_qualifying(name, _race_number(form), by)
    return _back(name)


def _back(name: str, anchor: str = "") -> Response:
    return RedirectResponse(league_url(name) + anchor, status_code=303)


def _race_number(form: FormData) -> int:
    """The race number of a form; the league checks it against its season (1 to its races)."""
    return forms.number(form, "race", None, 0, 10_000)


def _seed(form: FormData, old: int | None) -> int:
    if field(form, "seed").strip():
        return forms.number(form, "seed", None, 0, MAX_SEED - 1)
    return old if old is not None else secrets.randbelow(MAX_SEED)


def _starters(league: League, text: str) -> list[str]:
    names = [d.name for d in league.roster.drivers]
    return parse_starters(text, names) or names
