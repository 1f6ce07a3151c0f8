"""Signing up, in and out: by password (argon2) or by a one-time link sent by e-mail.

Failed sign-ins are counted per account from one address and per client address; past the
limit the form is refused with 429 for a while, whatever the password. Each failure of an
account is answered a little later than the one before. A link is confirmed by a button (POST), so
a mail program that opens links to preview them does not use the link up.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from anyio import to_thread
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.store.accounts import NAME_MAX, User, attempt_key
from rennleitung.web import mailer
from rennleitung.web.context import Page, Refused, accounts, checked_form, field, page
from rennleitung.web.i18n import LANGS, text
from rennleitung.web.security import (
    FAILURE_DELAY,
    FAILURE_DELAY_MAX,
    FAILURE_WINDOW,
    FAILURES_PER_ACCOUNT,
    FAILURES_PER_ADDRESS,
    LANG_COOKIE,
    PASSWORD_MIN,
    SIGNUPS_PER_ADDRESS,
    check_password,
    hash_password,
    safe_next,
)

router = APIRouter()
T = TypeVar("T")

ACCOUNT_THREADS = 2
"""Worker threads of their own for sign-up, sign-in and sign-in links: a password hash takes a
tenth of a second and a link is mailed, and the drivers' answers do not wait behind them."""


async def account_work(request: Request, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a thread of the accounts' own pool (``app.state.accounts_pool``)."""
    return await to_thread.run_sync(work, *args, limiter=request.app.state.accounts_pool)


LINK_LIFETIME = 3600.0
EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+$")


def sign_in(request: Request, user: User, target: str) -> Response:
    """Start a session for ``user`` (new CSRF token and session id, kept on the server) and go
    to ``target``."""
    session = request.state.session.signed_in(user.id, user.epoch)
    accounts(request).start_session(user.id, session.sid)
    request.state.session = session
    request.state.session_dirty = True
    return RedirectResponse(target, status_code=303)


@router.get("/signup", response_class=HTMLResponse)
def signup_form(p: Page = Depends(page), next: str = "/") -> Response:
    return p.render("signup.html", next=safe_next(next), values={}, problem="")


@router.post("/signup", response_class=HTMLResponse)
async def signup(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await account_work(request, _signup, request, p, form)


def _signup(request: Request, p: Page, form: FormData) -> Response:
    """Password hashing and the account store run in a worker thread, never on the
    event loop that serves everyone else."""
    name = field(form, "name").strip()
    email = field(form, "email").strip()
    password = field(form, "password")
    target = safe_next(field(form, "next"))
    problem = ""
    if not name:
        problem = p.t("name_missing")
    elif len(name) > NAME_MAX:
        problem = p.t("name_too_long", n=NAME_MAX)
    elif email and (len(email) > 200 or not EMAIL.match(email)):
        problem = p.t("email_bad")
    elif len(password) < PASSWORD_MIN:
        problem = p.t("password_short")
    if not problem:
        made_here = attempt_key("signup", request.client.host if request.client else "?")
        if accounts(request).failures([made_here], FAILURE_WINDOW) >= SIGNUPS_PER_ADDRESS:
            raise Refused.key(429, "too_many_signups", minutes=FAILURE_WINDOW // 60)
        hashed = hash_password(password)
        accounts(request).record_failure([made_here], FAILURE_WINDOW)  # counted: hashed
        try:
            user = accounts(request).create_user(name, email or None, hashed, p.lang)
        except RennleitungError as error:
            problem = p.say(error)
        else:
            return sign_in(request, user, target)
    return p.render("signup.html", status=422, next=target,
                    values={"name": name, "email": email}, problem=problem)


@router.get("/signin", response_class=HTMLResponse)
def signin_form(p: Page = Depends(page), next: str = "/") -> Response:
    return p.render("signin.html", next=safe_next(next), login="", problem="", notice="")


class Attempt:
    """The counters one sign-in touches: this account from this address (``FAILURES_PER_ACCOUNT``:
    a stranger elsewhere cannot lock the owner out), this address whatever the account
    (``FAILURES_PER_ADDRESS``), and this account from anywhere (only to slow its failures down).
    The account is counted by its id when it exists, so its name and its e-mail address share
    one counter."""

    def __init__(self, request: Request, account: str) -> None:
        address = request.client.host if request.client else "?"
        self.pair = attempt_key("pair", f"{account}|{address}")
        self.address = attempt_key("address", address)
        self.account = attempt_key("account", account)
        store = accounts(request)
        if (store.failures([self.pair], FAILURE_WINDOW) >= FAILURES_PER_ACCOUNT
                or store.failures([self.address], FAILURE_WINDOW) >= FAILURES_PER_ADDRESS):
            raise Refused.key(429, "too_many", minutes=FAILURE_WINDOW // 60)
        self.earlier = store.failures([self.account], FAILURE_WINDOW)

    def failed(self, request: Request) -> float:
        """Count a failure; the seconds its answer waits (``FAILURE_DELAY`` more for each
        earlier failure of the account, at most ``FAILURE_DELAY_MAX``)."""
        accounts(request).record_failure([self.pair, self.address, self.account], FAILURE_WINDOW)
        return min(FAILURE_DELAY * self.earlier, FAILURE_DELAY_MAX)


def account_of(found: tuple[User, str | None] | None, login: str) -> str:
    """The key an attempt on ``login`` is counted under."""
    return f"id:{found[0].id}" if found is not None else f"login:{login}"


@router.post("/signin", response_class=HTMLResponse)
async def signin(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    answer, wait = await account_work(request, _signin, request, p, form)
    if wait:
        await asyncio.sleep(wait)  # on the event loop: the accounts' threads stay free
    return answer


def _signin(request: Request, p: Page, form: FormData) -> tuple[Response, float]:
    login = field(form, "login").strip()
    password = field(form, "password")
    target = safe_next(field(form, "next"))
    found = accounts(request).by_login(login) if login else None
    attempt = Attempt(request, account_of(found, login))
    if found is not None and check_password(found[1], password):
        return sign_in(request, found[0], target), 0.0
    if found is None:
        check_password(None, password)  # the same time whether the account exists or not
    wait = attempt.failed(request)
    return p.render("signin.html", status=401, next=target, login=login,
                    problem=p.t("bad_login"), notice=""), wait


@router.post("/signin/link", response_class=HTMLResponse)
async def request_link(request: Request, p: Page = Depends(page)) -> Response:
    """Mail a one-time link; the answer is the same whether the address is known or not."""
    form = await checked_form(request)
    return await account_work(request, _request_link, request, p, form)


def _request_link(request: Request, p: Page, form: FormData) -> Response:
    login = field(form, "login").strip()
    target = safe_next(field(form, "next"))
    found = accounts(request).by_login(login) if login else None
    attempt = Attempt(request, account_of(found, login))
    settings = request.app.state.settings
    if found is not None and found[0].email:
        user = found[0]
        token = secrets.token_urlsafe(32)
        accounts(request).add_link(user.id, token, LINK_LIFETIME)
        link = f"{settings.base_url}/signin/link/{token}?next={target}"
        lang = user.lang or p.lang
        mailer.send(settings, user.email or "", text(lang, "link_mail_subject"),
                    text(lang, "link_mail_body", name=user.name, link=link))
    else:
        accounts(request).record_failure([attempt.address], FAILURE_WINDOW)
    return p.render("signin.html", next=target, login=login, problem="",
                    notice=p.t("link_sent"))


@router.get("/signin/link/{token}", response_class=HTMLResponse)
def link_form(token: str, p: Page = Depends(page), next: str = "/") -> Response:
    return p.render("signin_link.html", token=token, next=safe_next(next))


@router.post("/signin/link/{token}", response_class=HTMLResponse)
async def use_link(token: str, request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await account_work(request, _use_link, token, request, p, form)


def _use_link(token: str, request: Request, p: Page, form: FormData) -> Response:
    target = safe_next(field(form, "next"))
    attempt = Attempt(request, "link")
    user = accounts(request).use_link(token)
    if user is None:
        accounts(request).record_failure([attempt.address], FAILURE_WINDOW)
        raise Refused.key(400, "link_invalid")
    return sign_in(request, user, target)


@router.post("/signout")
async def signout(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await account_work(request, _signout, request, p, form)


def _signout(request: Request, p: Page, form: FormData) -> Response:
    if p.user is not None and field(form, "everywhere"):
        accounts(request).end_sessions(p.user.id)
    elif p.user is not None:
        accounts(request).end_session(p.user.id, request.state.session.sid)
    request.state.session = request.state.session.signed_out()
    request.state.session_dirty = True
    return RedirectResponse("/", status_code=303)


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    """Set the page language in a cookie (a link, so it changes nothing stored)."""
    if code not in LANGS:
        raise Refused.key(404, "not_found")
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="lax")
    return response
