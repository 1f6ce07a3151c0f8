"""Qualifying sessions on the web (issues 27 and 29): the organiser opens one for the league's
next race, online or at a table; each driver drives his lap in his browser within the window,
or the organiser runs each driver's stopwatch and enters the table's gear dice; everyone
follows the standings live; closing the session makes the league race's grid.

The pages render what the play service's views hold (``play/qualifying_views.py``); every rule
is checked there and in the engine, and a refusal comes back in the reader's language naming
the field or rule. The standings fragment is fetched again every two seconds (htmx).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.events import JsonValue
from rennleitung.play.qualifying_sessions import QualifyingSessions
from rennleitung.play.qualifying_views import LapView
from rennleitung.render.board_overlay import CarMark, Destination, render_overlay
from rennleitung.store.league_store import LeagueStore
from rennleitung.web import forms
from rennleitung.web.boards import drawing_url
from rennleitung.web.context import Page, Refused, checked_form, field, page
from rennleitung.web.league_pages import league_url

router = APIRouter()

WORDS: dict[str, tuple[str, str]] = {
    "sessions": ("Qualifizierungen hier", "Qualifying sessions here"),
    "no_sessions": ("Noch keine.", "None yet."),
    "open_session": ("Qualifizierung eröffnen (ihr Ergebnis wird die Startaufstellung)",
                     "Open a qualifying session (its result becomes the grid)"),
    "race_number": ("Rennen Nr.", "Race no."),
    "track": ("Strecke", "Track"),
    "mode": ("Art", "Mode"),
    "online": ("online: jeder fährt seine Runde im Browser",
               "online: each driver drives his lap in the browser"),
    "table": ("am Tisch: Stoppuhr und Würfel des Organisators",
              "at the table: the organiser's stopwatch and dice"),
    "runs": ("Läufe (Open: 1 oder 2)", "Runs (Open: 1 or 2)"),
    "opens": ("Von (UTC)", "From (UTC)"),
    "closes": ("Bis (UTC)", "To (UTC)"),
    "send": ("Eröffnen", "Open"),
    "qualifying": ("Qualifizierung", "Qualifying"),
    "race": ("Rennen", "race"),
    "window": ("Zeitfenster", "Window"),
    "weather": ("Wetter", "Weather"),
    "rolled": ("gewürfelt", "rolled"),
    "run": ("Lauf", "Run"),
    "standings": ("Stand", "Standings"),
    "no_laps": ("Noch keine Runde mit Zeit.", "No timed lap yet."),
    "place": ("Platz", "Place"),
    "driver": ("Fahrer", "Driver"),
    "rolls": ("Würfe", "Rolls"),
    "penalty": ("Strafpunkte", "Penalty points"),
    "time": ("Zeit", "Time"),
    "score": ("Wertung", "Score"),
    "points": ("Punkte", "Points"),
    "laps": ("Runden", "Laps"),
    "state": ("Stand", "State"),
    "waiting": ("wartet", "waiting"),
    "driving": ("fährt", "driving"),
    "done": ("im Ziel", "over the line"),
    "aborted": ("abgebrochen (Auslosung)", "aborted (drawn)"),
    "over": ("im Ziel, Stoppuhr läuft", "over the line, stopwatch running"),
    "take": ("Diese Runde fahren", "Drive this lap"),
    "drive": ("Zur Runde", "To the lap"),
    "stopwatch": ("Stoppuhr", "Stopwatch"),
    "close": ("Schließen und Startaufstellung bilden", "Close and make the grid"),
    "grid": ("Startaufstellung", "Grid"),
    "drawn": ("ausgelost", "drawn"),
    "play_race": ("Das Rennen hier fahren", "Play the race here"),
    "state_open": ("offen", "open"),
    "state_entered": ("geschlossen, Startaufstellung in der Liga",
                      "closed, grid in the league"),
    "state_refused": ("von der Liga abgelehnt", "refused by the league"),
    "seed": ("Seed", "Seed"),
    "space": ("Feld", "Space"),
    "gear": ("Gang", "Gear"),
    "stops": ("Kurvenstopps", "Corner stops"),
    "tyres": ("Reifen", "Tyres"),
    "hard": ("hart", "hard"),
    "soft": ("weich", "soft"),
    "rain": ("Regen", "rain"),
    "soft_bonus": ("+1 der Weichreifen", "soft tyres' +1"),
    "roll_it": ("Würfeln", "Roll"),
    "die_showed": ("Der Würfel zeigt", "The die shows"),
    "enter": ("Eintragen", "Enter"),
    "choose_move": ("Wurf {roll}: Zug wählen", "Roll {roll}: choose a move"),
    "aborts": ("bricht die Runde ab", "aborts the lap"),
    "protocol": ("Protokoll", "Protocol"),
    "start": ("Start", "Start"),
    "stop": ("Stopp", "Stop"),
    "lap_time": ("Rundenzeit", "Lap time"),
    "back": ("Zur Qualifizierung", "To the session"),
    "not_yours": ("Diese Runde fährt jemand anderes.", "Someone else drives this lap."),
    "closed_window": ("Außerhalb des Zeitfensters.", "Outside the window."),
    "faces": ("Seiten", "faces"),
    "take_back": ("Letzten Eintrag zurücknehmen", "Take back the last entry"),
}


def _word(p: Page, key: str) -> str:
    de, en = WORDS[key]
    return de if p.lang == "de" else en


def _service(request: Request) -> QualifyingSessions:
    service: QualifyingSessions = request.app.state.qualifying
    return service


def _render(p: Page, template: str, **values: Any) -> HTMLResponse:
    return p.render(template, w=lambda key: _word(p, key), league_url=league_url,
                    both=lambda pair: pair[0] if p.lang == "de" else pair[1], **values)


def _organises(p: Page, request: Request, league: str) -> bool:
    return p.user is not None and p.user.name in LeagueStore(
        request.app.state.engine).organisers(league)


def _need_organiser(p: Page, request: Request, league: str) -> None:
    p.need_user()
    if not _organises(p, request, league):
        raise Refused(403, "Nur die Organisatoren dieser Liga dürfen das.",
                      "Only this league's organisers may do that.")


def _moment(form: FormData, name: str, default: datetime) -> datetime:
    text = field(form, name).strip()
    if not text:
        return default
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)
    except ValueError:
        raise RennleitungError(f"Zeitpunkt {text!r} nicht lesbar; Beispiel 2026-12-01T18:00",
                               f"cannot read the moment {text!r}; example 2026-12-01T18:00",
                               name) from None


def _local(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M")


@router.get("/league/sessions", response_class=HTMLResponse)
def sessions(request: Request, name: str, p: Page = Depends(page)) -> Response:
    service = _service(request)
    loaded = service.leagues.load(name)
    now = service.now()
    return _render(p, "qualifying_list.html", league=loaded, sessions=service.sessions_of(name),
                   may_organise=_organises(p, request, name), tracks=builtin_track_names(),
                   next_race=len(loaded.races) + 1, opens=_local(now),
                   closes=_local(now + timedelta(days=1)))


@router.post("/league/sessions")
async def open_session(request: Request, name: str, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)

    def create() -> Response:
        _need_organiser(p, request, name)
        service = _service(request)
        now = service.now()
        session_id = service.open(
            name, forms.number(form, "race", None, 0, 10_000), field(form, "track").strip(),
            opens_at=_moment(form, "opens", now),
            closes_at=_moment(form, "closes", now + timedelta(days=1)),
            mode=field(form, "mode", "online"), runs=forms.number(form, "runs", 1, 1, 2),
            organiser=p.need_user().holder)
        return RedirectResponse(f"/qualifying/{session_id}", status_code=303)

    return await run_in_threadpool(create)


def _session_page(request: Request, session_id: int, p: Page, template: str) -> Response:
    service = _service(request)
    service.close_due(session_id)
    holder = p.user.holder if p.user else None
    view = service.view(session_id, holder)
    return _render(p, template, view=view, may_organise=_organises(p, request, view.league))


@router.get("/qualifying/{session_id}", response_class=HTMLResponse)
def session_page(request: Request, session_id: int, p: Page = Depends(page)) -> Response:
    return _session_page(request, session_id, p, "qualifying.html")


@router.get("/qualifying/{session_id}/standings", response_class=HTMLResponse)
def standings(request: Request, session_id: int, p: Page = Depends(page)) -> Response:
    """The live part of the session page (htmx polls it)."""
    return _session_page(request, session_id, p, "qualifying_standings.html")


@router.post("/qualifying/{session_id}/hold")
async def hold(request: Request, session_id: int, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)

    def take() -> Response:
        user = p.need_user()
        driver = field(form, "driver")
        _service(request).hold(session_id, driver, user.holder)
        return RedirectResponse(_lap_url(session_id, driver, 1), status_code=303)

    return await run_in_threadpool(take)


@router.post("/qualifying/{session_id}/close")
async def close(request: Request, session_id: int, p: Page = Depends(page)) -> Response:
    await checked_form(request)

    def shut() -> Response:
        service = _service(request)
        _need_organiser(p, request, service.view(session_id).league)
        service.close(session_id)
        return RedirectResponse(f"/qualifying/{session_id}", status_code=303)

    return await run_in_threadpool(shut)


def _lap_url(session_id: int, driver: str, run: int) -> str:
    return f"/qualifying/{session_id}/lap?driver={quote(driver, safe='')}&run={run}"


@router.get("/qualifying/{session_id}/lap", response_class=HTMLResponse)
def lap_page(request: Request, session_id: int, driver: str, run: int = 1,
             p: Page = Depends(page)) -> Response:
    service = _service(request)
    summary = service.view(session_id)
    organiser = _organises(p, request, summary.league)
    lap = service.lap_view(session_id, driver, run, p.user.holder if p.user else None,
                           organiser)
    return _render(p, "qualifying_lap.html", view=summary, lap=lap, may_organise=organiser,
                   lap_url=_lap_url(session_id, driver, run), board=drawing_url(summary.track),
                   overlay=Markup(_overlay(p, summary.track, lap)))


RISK = {"free": "#8fd18f", "penalty": "#f2d16b", "eliminated": "#e07a7a"}
"""A destination's colour as on the race board: free, penalty points, or the lap's end."""


def _overlay(p: Page, track: str, lap: LapView) -> str:
    """The car and the ends of the offered moves over the track drawing (not clickable: the
    buttons below the board answer)."""
    targets = []
    for move in lap.moves:
        risk = "eliminated" if move.aborts else "penalty" if move.penalty else "free"
        title = f"{move.end}: {move.penalty} {_word(p, 'penalty')}" if move.penalty else move.end
        targets.append(Destination(move.path[-1], " ".join(map(str, move.path)), RISK[risk],
                                   title, risk))
    car = CarMark(lap.space_index, "1", "#e6194b", lap.driver, mine=True,
                  you=lap.driver[:12])
    return render_overlay(builtin_track(track), [car], targets)


@router.post("/qualifying/{session_id}/lap")
async def lap_answer(request: Request, session_id: int, driver: str, run: int = 1,
                     p: Page = Depends(page)) -> Response:
    """A gear (with tyres, soft bonus and, at a table, the die's number), a move, or the
    stopwatch's start and stop."""
    form = await checked_form(request)

    def answer() -> Response:
        user = p.need_user()
        service = _service(request)
        organiser = _organises(p, request, service.view(session_id).league)
        action = field(form, "action")
        if action in ("start", "stop"):
            service.stopwatch(session_id, driver, run, action, organiser)
        elif action == "take_back":
            service.take_back(session_id, driver, run, organiser)
        else:
            service.decide(session_id, driver, run, _decision(form, action), user.holder,
                           organiser)
        return RedirectResponse(_lap_url(session_id, driver, run), status_code=303)

    return await run_in_threadpool(answer)


def _decision(form: FormData, action: str) -> dict[str, JsonValue]:
    if action == "move":
        text = field(form, "path").split()
        if not text or not all(part.isdigit() and len(part) < 6 for part in text):
            raise RennleitungError("Zug nicht lesbar", "cannot read the move", "path")
        return {"path": [int(part) for part in text]}
    if action != "gear":
        raise RennleitungError("unbekannte Aktion", "unknown action", "action")
    decision: dict[str, JsonValue] = {"gear": forms.number(form, "gear", None, 1, 6),
                                      "soft": field(form, "soft") == "1"}
    if field(form, "tyre"):
        decision["tyre"] = field(form, "tyre")
    if field(form, "roll").strip():
        decision["roll"] = forms.number(form, "roll", None, 1, 30)
    return decision
