"""Race pages: create, invite, join, play, watch live, halt and close (after the flag:
``race_archive.py``).

Every change goes through the play service's ``RaceService`` in one transaction with the race
version the page showed; a stale or repeated form is refused with 409 naming the decisions made
since. Who may do what is checked here before the service is asked (and a driver's seat once more
by the service, in the answer's transaction): a driver acts only for the car whose seat he holds,
an organiser only in his own races, a visitor only watches.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.responses import StreamingResponse

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track_names
from rennleitung.formula_de.race_decisions import DecisionError
from rennleitung.formula_de.ruleset import get_ruleset, preset_names
from rennleitung.names import clean_name
from rennleitung.play.engine import StaleVersion
from rennleitung.play.league_races import enter_finished
from rennleitung.play.model import (
    MAX_DECISION_SECONDS,
    Actor,
    Applied,
    ClockWhat,
    Notice,
    NotYourSeat,
    PlayError,
    QuestionFor,
    RaceInfo,
    RaceSpec,
    RaceState,
    Seat,
    SeatKind,
    SeatSpec,
    UnknownRace,
)
from rennleitung.play.service import RaceService, system_clock
from rennleitung.play.views import Reader, View
from rennleitung.store.accounts import User
from rennleitung.store.league_store import LeagueStore
from rennleitung.web import forms, mailer, view
from rennleitung.web.blitz_pages import blitz_of
from rennleitung.web.blitz_pages import panel as blitz_panel
from rennleitung.web.boards import drawing_url
from rennleitung.web.context import Page, Refused, checked_form, field, page
from rennleitung.web.database_work import database_work
from rennleitung.web.hub import POLL, Hub
from rennleitung.web.i18n import TEXTS, text
from rennleitung.web.league_pages import league_url

T = TypeVar("T")
log = logging.getLogger("rennleitung.web.races")
router = APIRouter()

DEMO_NAME = "Demo: Monaco"
DEMO_BOT = "strong"
BOT_NAMES = ("strong", "steady", "simple")
DEMO_DRIVERS = ("Alonso", "Räikkönen", "Schumacher")
KEEPALIVE = 15.0
VIEW_THREADS = 4
"""Worker threads for race pages and their live parts, apart from the answers' threads."""


def service(request: Request) -> RaceService:
    races: RaceService = request.app.state.races
    return races


def hub(request: Request) -> Hub:
    found: Hub = request.app.state.hub
    return found


def install(app: FastAPI) -> None:
    """Plug the races into the app: service, live updates, mail, demo race, deadline ticker."""
    settings = app.state.settings
    races = RaceService(app.state.engine, settings.clock or system_clock)
    app.state.races = races
    app.state.hub = Hub()
    races.subscribe(app.state.hub.notice)
    races.subscribe(lambda notice: _notify(app, notice))

    app.state.outbox = mailer.Outbox(app.state.engine, settings)

    async def start(app: FastAPI) -> None:
        app.state.hub.loop = asyncio.get_running_loop()
        app.state.views = CapacityLimiter(VIEW_THREADS)
        if settings.demo:
            await run_in_threadpool(ensure_demo, races, settings.demo_laps)
        app.state.ticker = asyncio.create_task(_tick(races, settings.deadline_tick))
        app.state.poller = asyncio.create_task(app.state.hub.poll(races, POLL))
        app.state.sender = asyncio.create_task(app.state.outbox.run(settings.mail_tick)) \
            if settings.smtp_host else None

    async def stop(app: FastAPI) -> None:
        app.state.ticker.cancel()
        app.state.poller.cancel()
        if app.state.sender is not None:
            app.state.sender.cancel()

    app.state.extensions.starts.append(start)
    app.state.extensions.stops.append(stop)
    app.state.extensions.listing = lambda p: races_listed(races, p)
    app.include_router(router)


async def _tick(races: RaceService, every: float) -> None:
    """Let the bots decide for people whose time ran out, and enter the league races that
    finished into their leagues."""
    leagues = LeagueStore(races.engine)
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(races.run_due)  # deadlines, then quiet races abandoned
        except Exception:
            log.exception("deadline run failed")
        try:
            await run_in_threadpool(enter_finished, races, leagues)
        except Exception:
            log.exception("entering league races failed")


def demo_spec(laps: int = 0) -> RaceSpec:
    """One free seat and three of the strongest bots on Monaco."""
    bots = [SeatSpec(f"car{n + 2}", name, SeatKind.BOT, DEMO_BOT)
            for n, name in enumerate(DEMO_DRIVERS)]
    seats = (SeatSpec("car1", "", SeatKind.PERSON, DEMO_BOT), *bots)
    return RaceSpec(track="monaco", ruleset="dresden-2006", seats=seats, laps=laps,
                    name=DEMO_NAME)


def ensure_demo(races: RaceService, laps: int = 0) -> int | None:
    """A fresh database gets the demo race; one that has races keeps what it has."""
    if races.races():
        return None
    return races.create_race(demo_spec(laps))


def renew_demo(races: RaceService) -> None:
    """Once the demo's seat is taken, the next newcomer finds a new demo race."""
    demos = [i for i in races.races(states=(RaceState.OPEN,), unorganised=True)
             if i.name == DEMO_NAME]
    if demos and all(any(s.holder for s in i.seats) for i in demos):
        races.create_race(demo_spec(demos[0].laps))


def _notify(app: FastAPI, notice: Notice) -> None:
    """Mail the driver whose move it is, unless he is watching the race right now."""
    if not isinstance(notice, QuestionFor) or not notice.holder:
        return
    settings = app.state.settings
    if not settings.smtp_host or app.state.hub.watchers.get((notice.race_id, notice.holder)):
        return
    user = _user_of(app, notice.holder)
    if user is None or not user.email:
        return
    lang = user.lang or "en"
    link = f"{settings.base_url}/races/{notice.race_id}"
    app.state.outbox.queue(
        user.email, text(lang, "move_mail_subject", race=notice.race_id),
        text(lang, "move_mail_body", name=user.name, car=notice.car, link=link),
        ref=f"web-move:{notice.race_id}:{notice.car}:{notice.version}")


def _user_of(app: FastAPI, holder: str) -> User | None:
    if not holder.startswith("user:"):
        return None
    try:
        return app.state.accounts.user(int(holder.removeprefix("user:")))  # type: ignore[no-any-return]
    except ValueError:
        return None


# --- who may do what ---------------------------------------------------------------------------


def info_of(request: Request, race_id: int) -> RaceInfo:
    try:
        return service(request).info(race_id)
    except UnknownRace:
        raise Refused.key(404, "not_found") from None


def looked(request: Request, race_id: int, user: User | None) -> View:
    """What ``user`` (None: a visitor) may know of the race, on one consistent read
    (``RaceService.view_for``: his seat's view, the organiser's or a spectator's); an unknown
    race is a 404."""
    try:
        return service(request).view_for(race_id, user.holder if user else None)
    except UnknownRace:
        raise Refused.key(404, "not_found") from None


def seat_of(info: RaceInfo, user: User | None) -> Seat | None:
    if user is None:
        return None
    return next((s for s in info.seats if s.holder == user.holder), None)


def is_organiser(info: RaceInfo, user: User | None) -> bool:
    return user is not None and info.organiser is not None and info.organiser == user.holder


def need_organiser(p: Page, info: RaceInfo) -> User:
    user = p.need_user()
    if not is_organiser(info, user):
        raise Refused.key(403, "not_organiser")
    return user


def refusal(error: RennleitungError) -> Refused:
    """The HTTP status of a refusal by the service or the engine."""
    if isinstance(error, UnknownRace):
        return Refused.key(404, "not_found")
    if isinstance(error, NotYourSeat):
        return Refused.key(403, "not_your_car")
    if isinstance(error, StaleVersion):
        return Refused.of(409, error)
    if isinstance(error, PlayError):
        return Refused.of(409, error)
    if isinstance(error, DecisionError):
        return Refused.of(422, error)
    return Refused.of(400, error)


def expected(form: Any) -> int:
    try:
        return forms.number(form, "version", None, 0, 10**9)
    except RennleitungError as error:
        raise Refused.of(400, error) from None


def stale_message(request: Request, race_id: int, seen: int, error: RennleitungError) -> Refused:
    """A 409 that says what changed since the version the page showed."""
    since = [d for d in service(request).decisions(race_id) if d.seq > seen]
    if not since:
        return Refused.of(409, error)
    info = service(request).info(race_id)
    names = {s.car: s.driver or s.car for s in info.seats}

    def did(lang: str, kind: str) -> str:
        return text(lang, f"did_{kind}") if f"did_{kind}" in TEXTS else kind

    def changed(lang: str) -> str:
        return "; ".join(f"{names.get(d.car, d.car)} {did(lang, str(d.decision.get('kind')))}"
                         for d in since[-8:])

    return Refused(409, f"{text('de', 'stale_plain')} (seitdem: {changed('de')})",
                   f"{text('en', 'stale_plain')} (since then: {changed('en')})", error.where)


# --- pages -------------------------------------------------------------------------------------


LISTED = ((RaceState.RUNNING,), 40), ((RaceState.OPEN,), 40), \
    ((RaceState.FINISHED, RaceState.CLOSED), 20)
"""The home page's list: the demo first, then the newest running, open and finished races, each
state with its own share, so many new open races push neither the demo nor the running races
off the page."""
RACES_PER_DAY = 20
"""Races one account may create in 24 hours."""
OPEN_RACES_PER_ACCOUNT = 5
"""Races one account may have waiting for their start at once."""


def races_listed(races: RaceService, p: Page) -> list[dict[str, Any]]:
    demos = [i for i in races.races(states=(RaceState.OPEN,), unorganised=True, limit=5)
             if i.name == DEMO_NAME]
    shown = {i.id for i in demos[:1]}
    listed = demos[:1] + [i for states, most in LISTED
                          for i in races.races(states=states, limit=most) if i.id not in shown]
    rows = []
    for info in listed:
        free = sum(1 for s in info.seats if s.kind is SeatKind.PERSON and s.holder is None)
        rows.append({"info": info, "free": free,
                     "mine": seat_of(info, p.user) is not None or is_organiser(info, p.user)})
    return rows


def check_race_quota(races: RaceService, user: User) -> None:
    """Refuse (429) a race beyond the account's share (``RACES_PER_DAY``,
    ``OPEN_RACES_PER_ACCOUNT``)."""
    now = races.now()
    if (races.organised(user.holder, now - timedelta(days=1)) >= RACES_PER_DAY
            or races.organised(user.holder, now - timedelta(days=3650), (RaceState.OPEN,))
            >= OPEN_RACES_PER_ACCOUNT):
        raise Refused.key(429, "too_many_races", day=RACES_PER_DAY,
                          open=OPEN_RACES_PER_ACCOUNT)


@router.get("/races/new", response_class=HTMLResponse)
def new_race_form(p: Page = Depends(page)) -> Response:
    if p.user is None:  # a way in instead of a bare refusal
        return p.render("race_new_signin.html", status=401)
    return p.render("race_new.html", tracks=builtin_track_names(), rulesets=preset_names(),
                    bots=BOT_NAMES, problem="", values={})


@router.post("/races/new", response_class=HTMLResponse)
async def create_race(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    user = p.need_user()
    try:
        track = field(form, "track")
        if track not in builtin_track_names():
            raise RennleitungError("unbekannte Strecke", "unknown track", "track")
        people = forms.number(form, "people", 1, 0, 10)
        bots = forms.number(form, "bots", 0, 0, 10)
        bot = field(form, "bot", DEMO_BOT)
        if bot not in BOT_NAMES:
            raise RennleitungError("unbekannter Bot", "unknown bot", "bot")
        if people + bots < 1:
            raise RennleitungError("mindestens ein Auto", "at least one car", "people")
        seconds_raw = field(form, "seconds").strip()
        seconds = (forms.number(form, "seconds", None, 5, MAX_DECISION_SECONDS) if seconds_raw
                   else None)
        clock = forms.clock(form)
        seats = tuple(SeatSpec(f"car{n + 1}", "", SeatKind.PERSON, bot) for n in range(people))
        seats += tuple(
            SeatSpec(f"car{people + n + 1}", view_bot_name(n), SeatKind.BOT, bot)
            for n in range(bots)
        )
        spec = RaceSpec(
            track=track, ruleset=field(form, "ruleset"), seats=seats,
            laps=forms.number(form, "laps", 0, 0, 20), decision_seconds=seconds,
            name=clean_name(field(form, "name"))[:80] or f"{track}", organiser=user.holder,
            table=flag_on(form, "table"), **clock,
        )
        await run_in_threadpool(check_race_quota, service(request), user)
        race_id = await run_in_threadpool(service(request).create_race, spec)
        if flag_on(form, "drive"):
            await run_in_threadpool(service(request).join, race_id, user.holder,
                                    driver=user.name)
    except RennleitungError as error:
        return p.render("race_new.html", status=422, tracks=builtin_track_names(),
                        rulesets=preset_names(), bots=BOT_NAMES, problem=p.say(error),
                        values=dict(form))
    return RedirectResponse(f"/races/{race_id}", status_code=303)


def flag_on(form: Any, name: str) -> bool:
    return forms.flag(form, name)


def view_bot_name(n: int) -> str:
    from rennleitung.formula_de.race_run import DRIVER_NAMES

    return DRIVER_NAMES[n % len(DRIVER_NAMES)]


def parts_values(p: Page, seen: View) -> dict[str, Any]:
    """Everything that changes during a race, for the page and for its live updates, from the
    reader's view alone. A driver is offered his own open question whenever he has one: the
    setups and head-to-head bids asked of all drivers at once are offered on every driver's
    page at the same time."""
    info = seen.info
    seat = seat_of(info, p.user)
    values: dict[str, Any] = {"info": info, "race": seen if seen.started else None,
                              "seat": seat, "organiser": is_organiser(info, p.user),
                              "question": None, "choices": [], "dash": None, "order": [],
                              "log": [], "timeouts": [], "weather": "", "deadline": None,
                              "round": 0, "away": 0, "clocks": {}, "bank_left": 0,
                              "blitz": blitz_panel(p, info.id), "desk": False, "sheets": [],
                              "rolling": ""}
    if not seen.started:
        values["overlay"] = ""
        return values
    desk = seen.table and values["organiser"]  # at the table he enters for every car
    values["desk"] = desk
    asked = seen.question() if (seat is not None and seat.kind is SeatKind.PERSON) or desk \
        else None
    ask = asked.question if asked is not None and info.state is RaceState.RUNNING else None
    if ask is not None and not desk and ask.kind.value == "roll":
        values["rolling"] = seen.driver(ask.car)  # the table's die: the organiser enters it
        ask = None
    if ask is not None and seat is not None and seat.deadline_at is not None:
        values.update(countdown(p.request.app.state.races.now(), seat))
    if seat is not None and seat.away and info.state is RaceState.RUNNING:
        values["away"] = away_reason(info, seat)
    values["clocks"] = {
        s.car: {"away": s.away,
                "bank": view.clock_text(s.bank_left) if s.bank_left is not None else None}
        for s in info.seats if s.kind is SeatKind.PERSON
    }
    values["question"] = view.question(seen, ask, p.lang)
    if values["question"] is not None and asked is not None:
        # the version the question opened at: a setup or bid asked of all drivers at once
        # stays the same question while the others answer, so its form stays as it is
        values["question"]["opened"] = asked.opened
    values["choices"] = values["question"]["choices"] if values["question"] and ask and \
        ask.kind.value == "move" else []
    values["overlay"] = view.overlay(seen, values["choices"], p.lang)
    values["dash"] = view.dashboard(seen, seat.car, p.lang) if seat else None
    if desk:  # every car's sheet, the asked car's first
        first = [ask.car] if ask is not None else []
        values["sheets"] = [view.dashboard(seen, c, p.lang)
                            for c in first + [c.car for c in seen.cars if c.car not in first]]
    values["order"] = view.running_order(seen, p.lang)
    values["log"] = view.log_lines(seen, p.lang)
    values["timeouts"] = view.timeout_lines(seen, p.lang)
    values["weather"] = view.weather(seen, p.lang)
    values["round"] = seen.round
    values["waiting_for"] = ", ".join(seen.driver(car) for car in seen.asked)
    return values


def away_reason(info: RaceInfo, seat: Seat) -> int:
    """Why the bot drives the reader's seat, from the clock log's latest word on it: the
    decisions he missed in a row, or -1 when the race went quiet and was given to the bots."""
    for event in reversed(info.clock_log):
        if event.what is ClockWhat.AWAY and event.car == seat.car:
            return event.misses
        if event.what is ClockWhat.BOTS:
            return -1
    return seat.misses or -1


def countdown(now: datetime, seat: Seat) -> dict[str, Any]:
    """The asked driver's clock on his page: the deadline (the time per decision and then the
    bank), the seconds to the end of the time per decision by the server's clock (negative:
    the bank is running) and the bank left."""
    assert seat.deadline_at is not None
    bank = seat.bank_left or 0
    to_deadline = (seat.deadline_at - now).total_seconds()
    return {"deadline": seat.deadline_at, "bank_left": bank,
            "seconds_left": max(-bank, math.floor(to_deadline) - bank)}


async def viewed(request: Request, show: Callable[[], T]) -> T:
    """``show()`` in a worker thread of the views' own pool: a watcher's page does not wait
    in line behind the drivers' answers for a thread."""
    return await to_thread.run_sync(show, limiter=request.app.state.views)


@router.get("/races/{race_id}", response_class=HTMLResponse)
async def race_page(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    def show(seen: View) -> Response:
        info = seen.info
        league = service(request).league_of(race_id)
        return p.render("race.html", board=drawing_url(info.track),
                        laps=info.laps or get_ruleset(info.ruleset).laps,
                        invite=f"{request.app.state.settings.base_url}/races/{race_id}",
                        bots=BOT_NAMES, league=league,
                        league_href=league_url(league.league) if league else "",
                        **parts_values(p, seen))

    return await viewed(request, lambda: show(looked(request, race_id, p.user)))


@router.get("/races/{race_id}/parts", response_class=HTMLResponse)
async def race_parts(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    return await viewed(request, lambda: parts(p, looked(request, race_id, p.user)))


def parts(p: Page, seen: View) -> Response:
    """The parts of the race page that change, for htmx to swap in."""
    return p.render("race_parts.html", oob=True, **parts_values(p, seen))


@router.get("/races/{race_id}/stream")
async def race_stream(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """Server-sent events: ``race`` with the version after every change."""
    await run_in_threadpool(info_of, request, race_id)
    live = hub(request)
    queue: asyncio.Queue[int] = asyncio.Queue()
    holder = p.user.holder if p.user else ""

    async def events() -> AsyncIterator[str]:
        live.queues[race_id].add(queue)
        live.watchers[(race_id, holder)] += 1
        try:
            shown = await run_in_threadpool(service(request).version, race_id)
            yield f"event: race\ndata: {shown}\n\n"
            while True:
                try:
                    version = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if version != shown:
                    shown = version
                    yield f"event: race\ndata: {version}\n\n"
        finally:
            live.queues[race_id].discard(queue)
            live.watchers[(race_id, holder)] -= 1

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def wants_json(request: Request) -> bool:
    return request.headers.get("accept", "").startswith("application/json")


def done(request: Request, p: Page, race_id: int, applied: Applied | None = None,
         car: str = "") -> Response:
    """After an accepted action: JSON for scripts, the changed parts for htmx, else back to
    the page. ``car``: the driver's car that just answered (its next question is read from
    the race in memory the answer left, without another database read)."""
    if wants_json(request):
        now: Applied | RaceInfo = applied or service(request).info(race_id)
        seq = now.stored[0].seq if isinstance(now, Applied) and now.stored else None
        reply: dict[str, Any] = {"race": race_id, "version": now.version, "seq": seq,
                                 "state": now.state.value}
        if p.user is not None:  # a driver's next question, as question.json would say it
            reply["next"] = next_question(request, p, race_id, now, car)
        return JSONResponse(reply)
    if p.htmx:
        return parts(p, looked(request, race_id, p.user))
    return RedirectResponse(f"/races/{race_id}", status_code=303)


def next_question(request: Request, p: Page, race_id: int, now: Applied | RaceInfo,
                  car: str) -> dict[str, Any] | None:
    """What ``question.json`` says now: after a driver's answer from the race in memory at the
    version the answer made (no read), else (or if the race moved on meanwhile) from a read."""
    if isinstance(now, Applied) and car:
        seen = service(request).view_at(race_id, now.version, Reader.seat(car), board=False)
        if seen is not None:
            return asked_json(seen)
    seen = looked(request, race_id, p.user)
    return asked_of(p.user, seen) if seat_of(seen.info, p.user) else None


@router.post("/races/{race_id}/act", response_class=HTMLResponse)
async def act(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """A driver answers his car's question. Everything after the form is read runs in one go
    (``database_work``: on SQLite in the event loop's thread, else in one worker thread): the
    answer's transaction (which checks the seat is his first) and the reply; one read of the
    race and one write in all."""
    form = await checked_form(request)
    user = p.need_user()

    def answer() -> Response:
        car = field(form, "car")
        seen = expected(form)
        try:
            decision = forms.decision(form)
            applied = blitz_of(request).apply(race_id, car, decision, seen,
                                              holder=user.holder)  # a Blitz heat: on the clock
        except StaleVersion as error:
            raise stale_message(request, race_id, seen, error) from None
        except RennleitungError as error:
            raise refusal(error) from None
        return done(request, p, race_id, applied, car)

    return await database_work(request, answer)


@router.post("/races/{race_id}/table", response_class=HTMLResponse)
async def table_entry(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """At the table (issue 29, ``docs/table.md``): the organiser enters the answer to the
    open question of any car, a number read off a die included."""
    form = await checked_form(request)

    def answer() -> Response:
        need_organiser(p, info_of(request, race_id))
        seen = expected(form)
        try:
            decision = forms.decision(form)
            applied = service(request).apply(race_id, field(form, "car"), decision, seen,
                                             Actor.ORGANISER)
        except StaleVersion as error:
            raise stale_message(request, race_id, seen, error) from None
        except RennleitungError as error:
            raise refusal(error) from None
        return done(request, p, race_id, applied)

    return await database_work(request, answer)


@router.post("/races/{race_id}/take_back", response_class=HTMLResponse)
async def take_back(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """At the table: the organiser takes back the last entry (a mistyped roll)."""
    form = await checked_form(request)

    def undo() -> Response:
        need_organiser(p, info_of(request, race_id))
        seen = expected(form)
        try:
            applied = service(request).take_back(race_id, seen)
        except StaleVersion as error:
            raise stale_message(request, race_id, seen, error) from None
        except RennleitungError as error:
            raise refusal(error) from None
        return done(request, p, race_id, applied)

    return await database_work(request, undo)


@router.get("/races/{race_id}/question.json")
def question_json(race_id: int, request: Request, p: Page = Depends(page)) -> JSONResponse:
    """The signed-in driver's open question as JSON (kind and legal answers), with the race
    version to send back; ``question`` is null while another car is asked."""
    user = p.need_user()
    return JSONResponse(asked_of(user, looked(request, race_id, user)))


def asked_of(user: User | None, seen: View) -> dict[str, Any]:
    """``question.json``'s answer: the person's car, its open question (None while another car
    is asked) and the version to answer with."""
    if seat_of(seen.info, user) is None or seen.reader.car is None:
        raise Refused.key(403, "not_your_car")
    return asked_json(seen)


def asked_json(seen: View) -> dict[str, Any]:
    """``question.json``'s answer from a seat's view: its open question (setups and secret
    bids are open to every driver at once) in the JSON form with ``options``."""
    asked = seen.question() if seen.running else None
    return {"race": seen.info.id, "version": seen.version, "state": seen.info.state.value,
            "car": seen.reader.car, "question": asked.to_json() if asked else None}


@router.post("/races/{race_id}/join", response_class=HTMLResponse)
async def join(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_join, race_id, request, p, form)


def _join(race_id: int, request: Request, p: Page, form: FormData) -> Response:
    user = p.need_user()
    info_of(request, race_id)
    car = field(form, "car") or None
    # a league race keeps the league's driver names: its result goes into the standings
    driver = "" if service(request).league_of(race_id) is not None else user.name
    try:
        service(request).join(race_id, user.holder, car=car, driver=driver)
    except RennleitungError as error:
        raise refusal(error) from None
    if request.app.state.settings.demo:
        renew_demo(service(request))
    return RedirectResponse(f"/races/{race_id}", status_code=303)


@router.post("/races/{race_id}/start", response_class=HTMLResponse)
async def start(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_start, race_id, request, p, form)


def _start(race_id: int, request: Request, p: Page, form: FormData) -> Response:
    info = info_of(request, race_id)
    if info.name == DEMO_NAME and info.organiser is None:
        need_seat(p, info)  # the demo race: its driver starts it
    else:
        need_organiser(p, info)
    check_version(request, form, info)
    try:
        service(request).start(race_id)
    except RennleitungError as error:
        raise refusal(error) from None
    return RedirectResponse(f"/races/{race_id}", status_code=303)


def need_seat(p: Page, info: RaceInfo) -> Seat:
    seat = seat_of(info, p.need_user())
    if seat is None:
        raise Refused.key(403, "not_your_car")
    return seat


def check_version(request: Request, form: Any, info: RaceInfo) -> int:
    seen = expected(form)
    if seen != info.version:
        error = StaleVersion(seen, info.version)
        raise stale_message(request, info.id, seen, error)
    return seen


@router.post("/races/{race_id}/back", response_class=HTMLResponse)
async def back(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """The driver takes his seat back from the bot that drove it while he was away."""
    await checked_form(request)
    user = p.need_user()

    def take_back() -> Response:
        try:
            service(request).back(race_id, user.holder)
        except RennleitungError as error:
            raise refusal(error) from None
        return done(request, p, race_id)

    return await run_in_threadpool(take_back)


@router.post("/races/{race_id}/halt", response_class=HTMLResponse)
async def halt(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_halt, race_id, request, p, form)


def _halt(race_id: int, request: Request, p: Page, form: FormData) -> Response:
    info = info_of(request, race_id)
    need_organiser(p, info)
    seen = expected(form)
    try:
        service(request).halt(race_id, field(form, "car"), expected_version=seen)
    except StaleVersion as error:
        raise stale_message(request, race_id, seen, error) from None
    except RennleitungError as error:
        raise refusal(error) from None
    return done(request, p, race_id)


@router.post("/races/{race_id}/close", response_class=HTMLResponse)
async def close(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await run_in_threadpool(_close, race_id, request, p, form)


def _close(race_id: int, request: Request, p: Page, form: FormData) -> Response:
    info = info_of(request, race_id)
    need_organiser(p, info)
    check_version(request, form, info)
    try:
        service(request).close(race_id)
    except RennleitungError as error:
        raise refusal(error) from None
    return RedirectResponse(f"/races/{race_id}", status_code=303)


@router.post("/races/{race_id}/seat", response_class=HTMLResponse)
async def seat(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """The organiser puts a bot into a car (a driver who left) or frees it for a person."""
    form = await checked_form(request)
    return await run_in_threadpool(_seat, race_id, request, p, form)


def _seat(race_id: int, request: Request, p: Page, form: FormData) -> Response:
    info = info_of(request, race_id)
    need_organiser(p, info)
    check_version(request, form, info)
    kind = SeatKind.BOT if field(form, "kind") == "bot" else SeatKind.PERSON
    bot = field(form, "bot", DEMO_BOT)
    if bot not in BOT_NAMES:
        raise Refused(400, "unbekannter Bot", "unknown bot", "bot")
    try:
        service(request).assign(race_id, field(form, "car"), kind=kind, bot=bot)
    except RennleitungError as error:
        raise refusal(error) from None
    return RedirectResponse(f"/races/{race_id}", status_code=303)


@router.get("/races/{race_id}/view.json")
async def view_json(race_id: int, request: Request, p: Page = Depends(page)) -> JSONResponse:
    """What the reader may know of the race now, as JSON (``docs/play.md``, "Views"): a
    driver's view of his seat, the organiser's or a visitor's."""
    return await viewed(request, lambda: JSONResponse(
        looked(request, race_id, p.user).to_json()))


@router.get("/races/{race_id}/state.json")
def race_json(race_id: int, request: Request) -> JSONResponse:
    """The public facts of a race: version, state, seats (no holders), commitment, seed after
    the flag; from a spectator's view."""
    try:
        info = service(request).view(race_id, Reader.spectator()).info
    except UnknownRace:
        raise Refused.key(404, "not_found") from None
    return JSONResponse({
        "id": info.id, "name": info.name, "state": info.state.value, "version": info.version,
        "track": info.track, "ruleset": info.ruleset, "laps": info.laps,
        "commitment": info.commitment, "seed": info.seed,
        "seats": [{"car": s.car, "driver": s.driver, "kind": s.kind.value,
                   "taken": s.holder is not None} for s in info.seats],
    })
