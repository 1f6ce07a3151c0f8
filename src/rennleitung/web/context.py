"""What every request knows: who asks, in which language, with which CSRF token; and how a page
or a refusal is rendered in that language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.store.accounts import AccountStore, User
from rennleitung.web.database_work import database_work
from rennleitung.web.i18n import TEXTS, choose_lang, error_text, text
from rennleitung.web.security import LANG_COOKIE, Session, csrf_ok
from rennleitung.web.view import RISK_COLOURS

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
TEMPLATES.env.auto_reload = False  # installed with the package: no file checks per page
TEMPLATES.env.globals["htmx"] = "htmx-2.0.11.min.js"
TEMPLATES.env.globals["risk_colours"] = RISK_COLOURS
TEMPLATES.env.globals["bot_words"] = frozenset(key for key in TEXTS if key.startswith("bot_"))


class Refused(Exception):
    """A request refused with an HTTP status and a message in both languages."""

    def __init__(self, status: int, de: str, en: str, where: str = "") -> None:
        super().__init__(en)
        self.status = status
        self.error = RennleitungError(de, en, where)

    @classmethod
    def key(cls, status: int, key: str, **values: object) -> Refused:
        return cls(status, text("de", key, **values), text("en", key, **values))

    @classmethod
    def of(cls, status: int, error: RennleitungError) -> Refused:
        return cls(status, error.de, error.en, error.where)


@dataclass(slots=True)
class Page:
    """The request with its person (None: a visitor), language and session."""

    request: Request
    user: User | None
    lang: str
    session: Session

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def say(self, error: RennleitungError) -> str:
        return error_text(self.lang, error)

    @property
    def htmx(self) -> bool:
        return self.request.headers.get("HX-Request") == "true"

    def need_user(self) -> User:
        if self.user is None:
            raise Refused.key(401, "need_sign_in")
        return self.user

    def render(self, template: str, status: int = 200, **values: Any) -> HTMLResponse:
        values.update(
            request=self.request,
            user=self.user,
            lang=self.lang,
            csrf=self.session.csrf,
            t=self.t,
            say=self.say,
            path=self.request.url.path,
        )
        return TEMPLATES.TemplateResponse(self.request, template, values, status_code=status)


def accounts(request: Request) -> AccountStore:
    store: AccountStore = request.app.state.accounts
    return store


async def page(request: Request) -> Page:
    """FastAPI dependency: the ``Page`` of this request. The person comes from the accounts'
    memory of the last second when it has him, so most requests need no database read and no
    worker thread before their handler (``AccountStore.remembered``)."""
    session: Session = request.state.session
    found = None
    if session.user:
        store = accounts(request)
        found = store.remembered(session.user)
        if found is None or not found.holds(session.sid):  # a session begun a moment ago,
            # perhaps by another server process, is not in the remembered reading yet
            found = await database_work(request, lambda: store.user(session.user))
    made = _page(request, session, found)
    request.state.page = made
    _no_nul(request.query_params.multi_items())
    return made


def _no_nul(items: Iterable[tuple[str, Any]]) -> None:
    """Refuse a NUL character in any query or form field: no text the server keeps may hold one
    (PostgreSQL refuses it, and no name or file legitimately has one)."""
    for name, value in items:
        if isinstance(value, str) and "\x00" in value:
            raise Refused(400, text("de", "nul"), text("en", "nul"), str(name)[:40])


def page_now(request: Request) -> Page:
    """The ``Page`` outside the dependencies (a refusal before or without them)."""
    made: Page | None = getattr(request.state, "page", None)
    if made is not None:
        return made
    session: Session = request.state.session
    found = None
    if session.user:
        store = accounts(request)
        found = store.remembered(session.user)
        if found is None or not found.holds(session.sid):
            found = store.user(session.user)
    return _page(request, session, found)


def _page(request: Request, session: Session, found: User | None) -> Page:
    user = found if (found is not None and found.epoch == session.epoch
                     and found.holds(session.sid)) else None
    lang = choose_lang(
        request.cookies.get(LANG_COOKIE),
        user.lang if user else None,
        request.headers.get("accept-language"),
    )
    return Page(request, user, lang, session)


async def checked_form(request: Request) -> FormData:
    """The submitted form, after its CSRF token (field ``csrf`` or header ``X-CSRF-Token``) has
    been compared with the session's; a mismatch is refused with 403 before anything else."""
    form = await request.form()
    sent = form.get("csrf")
    token = sent if isinstance(sent, str) else request.headers.get("x-csrf-token")
    if not csrf_ok(request.state.session, token):
        raise Refused.key(403, "csrf")
    _no_nul(form.multi_items())
    return form


def field(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name)
    return value if isinstance(value, str) else default
