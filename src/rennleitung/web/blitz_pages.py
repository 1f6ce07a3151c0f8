"""FD Blitz on the web (issue 27 online, issue 29 at the table; Dresden "FD Blitz").

Online: an organiser or one of the two players makes a match on a board of their choice; the
players take their places; either of them (or the organiser) starts each heat, which is a race
page like any other (``races.py``) with the match's panel on it: both chess clocks, live, and
the score. The answers of a heat go through ``BlitzService.apply`` (the clock), the flags that
fell are settled by this module's ticker. At the table: one screen, a big tap area per player,
the clock kept by the page, the winners entered into the same match record.

Pages render ``BlitzView`` (``play/blitz.py``) only; a refusal comes back in the reader's
language naming the field or rule.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track_names
from rennleitung.play.blitz import BlitzService, BlitzView
from rennleitung.web import forms
from rennleitung.web.context import Page, Refused, checked_form, field, page

log = logging.getLogger("rennleitung.web.blitz")
router = APIRouter()

WORDS: dict[str, tuple[str, str]] = {
    "blitz": ("FD Blitz", "FD Blitz"),
    "new": ("Neues FD-Blitz-Match", "New FD Blitz match"),
    "intro": ("Zwei Spieler, Blitz-Setup (6 Reifen, 1 Verbrauch, 1 Karosserie, 1 Motor), zwei "
              "Siege gewinnen; jeder hat seine Schachuhr je Lauf.",
              "Two players, the Blitz setup (6 tyres, 1 fuel, 1 body, 1 engine), two wins take "
              "the match; each has his own chess clock per heat."),
    "player1": ("Spieler 1 (Lauf 1 von der Pole)", "Player 1 (pole in heat 1)"),
    "player2": ("Spieler 2 (Lauf 2 von der Pole)", "Player 2 (pole in heat 2)"),
    "track": ("Strecke", "Board"),
    "laps": ("Runden (0: Regelwerk)", "Laps (0: the ruleset's)"),
    "minutes": ("Bedenkzeit je Lauf (Minuten)", "Time per heat (minutes)"),
    "league": ("Liga (optional)", "League (optional)"),
    "play_myself": ("Ich spiele selbst als Spieler 1", "I play myself as player 1"),
    "create": ("Anlegen", "Create"),
    "table": ("Am Tisch: Schachuhr für zwei", "At the table: chess clock for two"),
    "matches": ("Matches", "Matches"),
    "none": ("Noch keine.", "None yet."),
    "score": ("Stand", "Score"),
    "heat": ("Lauf", "Heat"),
    "heats": ("Läufe", "Heats"),
    "winner": ("Sieger", "Winner"),
    "drawn": ("gleich weit: wird wiederholt", "level: driven again"),
    "over_line": ("zuerst im Ziel", "first over the line"),
    "farther": ("weiter gefahren", "got farther"),
    "take_place": ("Diesen Platz nehmen", "Take this place"),
    "free": ("frei", "free"),
    "start_heat": ("Lauf {n} starten", "Start heat {n}"),
    "to_heat": ("Zum Lauf {n}", "To heat {n}"),
    "match_won": ("{name} gewinnt das Match", "{name} wins the match"),
    "to_match": ("Zum Match", "To the match"),
    "time_up": ("Zeit abgelaufen: das Auto steht", "time up: the car stands"),
    "on_move": ("am Zug", "to decide"),
    "you": ("du", "you"),
    "pole": ("{name} auf der Pole", "{name} on pole"),
    "side_by_side": ("nebeneinander, {name} beginnt (Würfel: {rolls})",
                     "side by side, {name} begins (die: {rolls})"),
    "tap": ("Tippen: Zug beendet", "Tap: move done"),
    "start_clock": ("Uhr starten", "Start the clock"),
    "pause": ("Pause", "Pause"),
    "reset": ("Neuer Lauf", "New heat"),
    "heat_won": ("Lauf gewonnen", "Heat won"),
    "save": ("Ergebnis speichern", "Save the result"),
    "table_help": ("Wer seinen Zug beendet hat (mit Abstreichen der VP), tippt auf seine Hälfte: "
                   "seine Uhr hält, die des Gegners läuft. Ist eine Zeit abgelaufen, bleibt das "
                   "Auto stehen und der andere fährt weiter, bis auch seine Zeit um ist; wer am "
                   "weitesten kam, gewinnt den Lauf.",
                   "Whoever has finished his move (wear points struck off included) taps his "
                   "half: his clock stops, the other's runs. When a time is up that car stays "
                   "where it stands and the other drives on until his time is up too; the one "
                   "who got farthest wins the heat."),
    "table_match": ("Match am Tisch", "Match at the table"),
    "enter_winner": ("Sieger dieses Laufs eintragen", "Enter this heat's winner"),
    "json": ("Match-Datei (wie rennleitung blitz)", "Match file (as rennleitung blitz)"),
}


def word(lang: str, key: str, **values: object) -> str:
    de, en = WORDS[key]
    chosen = de if lang == "de" else en
    return chosen.format(**values) if values else chosen


def blitz_of(request: Request) -> BlitzService:
    found: BlitzService = request.app.state.blitz
    return found


def install(app: FastAPI) -> None:
    """The Blitz service on the app's race service, its pages, and its clock's ticker."""
    blitz = BlitzService(app.state.races)
    app.state.blitz = blitz
    every = app.state.settings.deadline_tick

    async def start(app: FastAPI) -> None:
        app.state.blitz_ticker = asyncio.create_task(_tick(blitz, every))

    async def stop(app: FastAPI) -> None:
        app.state.blitz_ticker.cancel()

    app.state.extensions.starts.append(start)
    app.state.extensions.stops.append(stop)
    app.include_router(router)


async def _tick(blitz: BlitzService, every: float) -> None:
    """Halt the cars whose flag fell, end the heats nobody can drive on."""
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(blitz.run_due)
        except Exception:
            log.exception("settling the Blitz clocks failed")


def panel(p: Page, race_id: int) -> dict[str, Any] | None:
    """The match panel of a race page when the race is a heat, else None."""
    blitz: BlitzService | None = getattr(p.request.app.state, "blitz", None)
    if blitz is None:
        return None
    match_id = blitz.match_of_race(race_id)
    if match_id is None:
        return None
    return panel_values(p, blitz.view(match_id), race_id)


def panel_values(p: Page, view: BlitzView, race_id: int | None) -> dict[str, Any]:
    """What the panel shows: both clocks, the score, the heats, the next step."""
    holder = p.user.holder if p.user else None
    me = view.player_of(holder)
    may = me is not None or (holder is not None and holder == view.organiser)
    heats = []
    for heat in view.heats:
        how = "drawn" if heat.winner is None else (
            "over_line" if heat.finished_first else "farther")
        heats.append({"number": heat.number, "winner": heat.winner,
                      "how": word(p.lang, how), "distances": heat.distances})
    return {"view": view, "me": me, "race_id": race_id, "heats": heats,
            "may_start": may and view.race is None and view.winner is None and view.full
            and view.mode == "online",
            "w": lambda key, **v: word(p.lang, key, **v)}


def _render(p: Page, template: str, **values: Any) -> HTMLResponse:
    return p.render(template, w=lambda key, **v: word(p.lang, key, **v), **values)


@router.get("/blitz", response_class=HTMLResponse)
def blitz_list(request: Request, p: Page = Depends(page)) -> Response:
    return _render(p, "blitz_new.html", tracks=builtin_track_names(),
                   matches=blitz_of(request).matches())


@router.post("/blitz")
async def create(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)

    def make() -> Response:
        user = p.need_user()
        mode = field(form, "mode", "online")
        mine = field(form, "myself") == "on"
        match_id = blitz_of(request).create(
            (field(form, "player1"), field(form, "player2")),
            track=field(form, "track", "oval").strip(),
            minutes=forms.number(form, "minutes", 5, 1, 120),
            laps=forms.number(form, "laps", 0, 0, 10),
            holders=(user.holder if mine else None, None), organiser=user.holder,
            league=field(form, "league").strip() or None, mode=mode)
        where = f"/blitz/{match_id}/table" if mode == "table" else f"/blitz/{match_id}"
        return RedirectResponse(where, status_code=303)

    return await run_in_threadpool(make)


@router.get("/blitz/{match_id}", response_class=HTMLResponse)
def match_page(match_id: int, request: Request, p: Page = Depends(page)) -> Response:
    view = _view(request, match_id)
    return _render(p, "blitz.html", blitz=panel_values(p, view, None), view=view,
                   invite=f"{request.app.state.settings.base_url}/blitz/{match_id}")


@router.get("/blitz/{match_id}/panel", response_class=HTMLResponse)
def match_panel(match_id: int, request: Request, race: int | None = None,
                p: Page = Depends(page)) -> Response:
    """The live panel (htmx polls it every second)."""
    view = _view(request, match_id)
    return _render(p, "blitz_panel.html", blitz=panel_values(p, view, race))


@router.get("/blitz/{match_id}/view.json")
def match_json(match_id: int, request: Request) -> JSONResponse:
    return JSONResponse(_view(request, match_id).to_json())


@router.get("/blitz/{match_id}/match.json")
def match_file(match_id: int, request: Request) -> JSONResponse:
    """The match as ``rennleitung blitz`` keeps it in its file."""
    _view(request, match_id)
    return JSONResponse(blitz_of(request).session(match_id))


@router.post("/blitz/{match_id}/join")
async def join(match_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)

    def take() -> Response:
        place = field(form, "place")
        blitz_of(request).join(match_id, p.need_user().holder,
                               int(place) if place in ("0", "1") else None)
        return RedirectResponse(f"/blitz/{match_id}", status_code=303)

    return await run_in_threadpool(take)


@router.post("/blitz/{match_id}/heat")
async def start_heat(match_id: int, request: Request, p: Page = Depends(page)) -> Response:
    await checked_form(request)

    def go() -> Response:
        race_id = blitz_of(request).start_heat(match_id, p.need_user().holder)
        return RedirectResponse(f"/races/{race_id}", status_code=303)

    return await run_in_threadpool(go)


@router.get("/blitz/{match_id}/table", response_class=HTMLResponse)
def table_page(match_id: int, request: Request, p: Page = Depends(page)) -> Response:
    view = _view(request, match_id)
    return _render(p, "blitz_table.html", blitz=panel_values(p, view, None), view=view)


@router.post("/blitz/{match_id}/table")
async def table_heat(match_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)

    def enter() -> Response:
        blitz_of(request).enter_heat(match_id, field(form, "winner"), p.need_user().holder)
        return RedirectResponse(f"/blitz/{match_id}/table", status_code=303)

    return await run_in_threadpool(enter)


def _view(request: Request, match_id: int) -> BlitzView:
    try:
        return blitz_of(request).view(match_id)
    except RennleitungError as error:
        raise Refused(404, error.de, error.en, error.where) from None
