"""The web server: FastAPI app with server-rendered pages (Jinja2, htmx), accounts and races.

``create_app(settings)`` builds everything from the settings; ``serve`` runs it with uvicorn.
The app holds no game state of its own: races live in the play service, accounts in the store.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import event
from starlette.exceptions import HTTPException as StarletteHTTPException

from rennleitung.errors import RennleitungError
from rennleitung.store.accounts import AccountStore
from rennleitung.store.database import open_database
from rennleitung.web import accounts as account_routes
from rennleitung.web import boards, league_pages, races
from rennleitung.web.context import Page, Refused, page
from rennleitung.web.i18n import text
from rennleitung.web.security import SESSION_AGE, SESSION_COOKIE, SessionCodec, new_session
from rennleitung.web.settings import Settings

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("rennleitung.web")


def create_app(settings: Settings) -> FastAPI:
    """The whole server on ``settings.db_url`` (migrated on first use)."""
    engine = open_database(settings.db_url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _write_ahead_log)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        extensions = app.state.extensions
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
    app.state.extensions = Extensions()
    codec = SessionCodec(settings.secret)

    @app.middleware("http")
    async def sessions(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        found = codec.loads(request.cookies.get(SESSION_COOKIE))
        request.state.session = found or new_session()
        request.state.session_dirty = found is None
        response = await call_next(request)
        if request.state.session_dirty:
            response.set_cookie(
                SESSION_COOKIE,
                codec.dumps(request.state.session),
                max_age=SESSION_AGE,
                httponly=True,
                samesite="lax",
                secure=settings.secure_cookies,
            )
        return response

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

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(account_routes.router)
    app.include_router(boards.router)
    app.include_router(league_pages.router)

    @app.get("/", response_class=HTMLResponse)
    def home(p: Page = Depends(page)) -> Response:
        listing = app.state.extensions.listing
        return p.render("home.html", races=listing(p) if listing else [])

    @app.get("/healthz", response_class=PlainTextResponse)
    def healthz() -> str:
        return "ok"

    races.install(app)
    return app


def _write_ahead_log(dbapi_connection: Any, _record: Any) -> None:
    """SQLite in WAL mode: pages are read while an answer is written, and a commit is one
    synced append (synchronous stays FULL, so an acknowledged answer survives a crash)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


class Extensions:
    """Parts plugged in at start-up (the races): start/stop hooks and the home page's list."""

    def __init__(self) -> None:
        self.starts: list[Callable[[FastAPI], Awaitable[None]]] = []
        self.stops: list[Callable[[FastAPI], Awaitable[None]]] = []
        self.listing: Callable[[Page], list[object]] | None = None


def _refusal(request: Request, status: int, error: RennleitungError) -> Response:
    """A refusal in the reader's language: a fragment for htmx, else a page."""
    p = page(request)
    message = p.say(error)
    if p.htmx or request.headers.get("accept", "").startswith("application/json"):
        return PlainTextResponse(message, status_code=status)
    return p.render("error.html", status=status, message=message)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server in the foreground and print its address first."""
    import uvicorn

    app = create_app(settings)
    print(f"rennleitung: http://{host}:{port}/", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
