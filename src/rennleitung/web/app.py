"""The web server: FastAPI app with server-rendered pages (Jinja2, htmx), accounts and races.

``create_app(settings)`` builds everything from the settings; ``serve`` runs it with uvicorn.
The app holds no game state of its own: races live in the play service, accounts in the store.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rennleitung.errors import RennleitungError
from rennleitung.play.qualifying_sessions import QualifyingSessions
from rennleitung.play.service import system_clock
from rennleitung.store.accounts import AccountStore
from rennleitung.store.database import open_database
from rennleitung.web import accounts as account_routes
from rennleitung.web import (
    blitz_pages,
    boards,
    league_pages,
    league_roster,
    qualifying_pages,
    race_archive,
    races,
)
from rennleitung.web.collector import settle_collector
from rennleitung.web.context import Page, Refused, page, page_now
from rennleitung.web.i18n import text
from rennleitung.web.limits import Guard
from rennleitung.web.security import SESSION_AGE, SESSION_COOKIE, SessionCodec, new_session
from rennleitung.web.settings import Settings

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("rennleitung.web")


def create_app(settings: Settings) -> FastAPI:
    """The whole server on ``settings.db_url`` (migrated on first use)."""
    # a pooled connection for every thread that may hold one at once (the answers' threads, the
    # race pages' and the accounts'), so none is opened and closed per request
    engine = open_database(settings.db_url, pool_size=settings.threads + races.VIEW_THREADS
                           + account_routes.ACCOUNT_THREADS)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        extensions = app.state.extensions
        to_thread.current_default_thread_limiter().total_tokens = settings.threads
        app.state.accounts_pool = CapacityLimiter(account_routes.ACCOUNT_THREADS)
        for start in extensions.starts:
            await start(app)
        yield
        for stop in extensions.stops:
            await stop(app)
        engine.dispose()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.state.engine = engine
    app.state.accounts = AccountStore(engine)
    app.state.qualifying = QualifyingSessions(engine, settings.clock or system_clock)
    app.state.extensions = Extensions()
    codec = SessionCodec(settings.secret)

    app.add_middleware(SessionCookies, codec=codec, secure=settings.secure_cookies)
    app.add_middleware(Guard)  # outermost: limits before anything reads, headers on everything

    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> Response:
        return _refusal(request, error.status, error.error)

    @app.exception_handler(RennleitungError)
    async def bad_input(request: Request, error: RennleitungError) -> Response:
        return _refusal(request, 400, error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        key = "not_found" if error.status_code == 404 else "error"
        return _refusal(request, error.status_code,
                        RennleitungError(text("de", key), text("en", key)))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        fields = ", ".join(".".join(str(x) for x in e.get("loc", ())) for e in error.errors())
        return _refusal(request, 422, RennleitungError(
            "ungültige Eingabe", "invalid input", fields))

    # Routes are matched in the order they are added, and with FastAPI's included routers a
    # route passed over costs about 3 µs: the health check and the race routes (an answer, the
    # driver's question, the race page) come first, so a request does not try forty routes of
    # accounts, leagues and qualifying before its own (docs/web.md, "Speed"). No path of one
    # router matches another's, so the order changes no request's route.
    @app.get("/healthz", response_class=PlainTextResponse)
    def healthz() -> str:
        return "ok"

    races.install(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(account_routes.router)
    app.include_router(boards.router)
    app.include_router(league_pages.router)
    app.include_router(league_roster.router)
    app.include_router(qualifying_pages.router)

    @app.get("/", response_class=HTMLResponse)
    def home(p: Page = Depends(page)) -> Response:
        listing = app.state.extensions.listing
        return p.render("home.html", races=listing(p) if listing else [])

    blitz_pages.install(app)
    app.include_router(race_archive.router)
    app.state.verdicts = race_archive.Verdicts()
    return app


class SessionCookies:
    """Reads the signed session cookie into ``request.state.session`` and writes it back when a
    handler changed the session (or there was none). A plain ASGI middleware: Starlette's
    ``BaseHTTPMiddleware`` runs every request through an extra task and stream, which cost
    more than the answer itself under load."""

    def __init__(self, app: ASGIApp, codec: SessionCodec, secure: bool) -> None:
        self.app = app
        self.codec = codec
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        found = self.codec.loads(_cookie(scope, SESSION_COOKIE))
        state["session"] = found or new_session()
        state["session_dirty"] = found is None

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and state["session_dirty"]:
                cookie = Response()
                cookie.set_cookie(SESSION_COOKIE, self.codec.dumps(state["session"]),
                                  max_age=SESSION_AGE, httponly=True, samesite="lax",
                                  secure=self.secure)
                MutableHeaders(scope=message).append(
                    "set-cookie", cookie.headers["set-cookie"])
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _cookie(scope: Scope, name: str) -> str | None:
    for key, value in scope["headers"]:
        if key == b"cookie":
            return cookie_parser(value.decode("latin-1")).get(name)
    return None


class Extensions:
    """Parts plugged in at start-up (the races): start/stop hooks and the home page's list."""

    def __init__(self) -> None:
        self.starts: list[Callable[[FastAPI], Awaitable[None]]] = []
        self.stops: list[Callable[[FastAPI], Awaitable[None]]] = []
        self.listing: Callable[[Page], list[object]] | None = None


def _refusal(request: Request, status: int, error: RennleitungError) -> Response:
    """A refusal in the reader's language: a fragment for htmx, else a page."""
    p = page_now(request)
    message = p.say(error)
    if p.htmx or request.headers.get("accept", "").startswith("application/json"):
        return PlainTextResponse(message, status_code=status)
    return p.render("error.html", status=status, message=message)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server in the foreground and print its address first."""
    import uvicorn

    from rennleitung.web.wire import server_config

    app = create_app(settings)

    async def settle(_app: FastAPI) -> None:
        settle_collector()  # the last start-up step: everything built so far is kept

    app.state.extensions.starts.append(settle)
    print(f"rennleitung: http://{host}:{port}/", flush=True)
    uvicorn.Server(server_config(app, settings, host, port)).run()
