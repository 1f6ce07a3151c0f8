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

import secrets
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
from rennleitung.league.qualifying_weather import parse_weather
from rennleitung.league.race_result_codec import qualifying_laps_from_csv, race_result_from_csv
from rennleitung.league.race_validation import MAX_RACE_LAPS
from rennleitung.league.season import League
from rennleitung.league.starters import parse_starters
from rennleitung.play.league_races import league_race_spec
from rennleitung.play.model import MAX_DECISION_SECONDS
from rennleitung.render.league_html import league_sections, rows_table
from rennleitung.render.league_tables import history_rows, karma_rows
from rennleitung.store.league_store import MAX_SEED, LeagueStore
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
    rows = history_rows(store.history(name), p.lang)
    table = rows_table(rows, p.lang) if rows else f"<p>{word(p, 'no_history')}</p>"
    return _render(p, "league_table.html", league=loaded, heading=word(p, "history"),
                   body=Markup(table))


@router.get("/league/organise", response_class=HTMLResponse)
def organise(request: Request, name: str, p: Page = Depends(page)) -> Response:
    store = _store(request)
    _organiser(p, store, name)
    return _render(p, "league_organise.html", league=store.load(name),
                   tracks=builtin_track_names(), organisers=store.organisers(name),
                   invitation="")


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
        return _render(p, "league_organise.html", league=store.load(name),
                       tracks=builtin_track_names(), organisers=store.organisers(name),
                       invitation=link)
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
            organiser=user.holder)
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
    result = race_result_from_csv(field(form, "csv"), number, laps, field(form, "track").strip())
    if field(form, "replace") == "1":
        store.replace_race(name, result, by)
    else:
        store.enter_race(name, result)
    return _back(name, f"#race-{number}")


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
