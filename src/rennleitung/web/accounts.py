"""Signing up, in and out: by password (argon2) or by a one-time link sent by e-mail.

Failed sign-ins are counted per account and per client address; past the limit the form is
refused with 429 for a while, whatever the password. A link is confirmed by a button (POST), so
a mail program that opens links to preview them does not use the link up.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

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

ACCOUNT_THREADS = 2
"""Worker threads of their own for sign-up, sign-in and sign-in links: a password hash takes a
tenth of a second and a link is mailed, and the drivers' answers do not wait behind them."""


async def account_work(request: Request, work: Callable[..., Response], *args: Any) -> Response:
    """``work(*args)`` in a thread of the accounts' own pool (``app.state.accounts_pool``)."""
    return await to_thread.run_sync(work, *args, limiter=request.app.state.accounts_pool)


LINK_LIFETIME = 3600.0
EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+$")


def sign_in(request: Request, user: User, target: str) -> Response:
    """Start a session for ``user`` (new CSRF token) and go to ``target``."""
    request.state.session = request.state.session.signed_in(user.id, user.epoch)
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


def _limited(request: Request, login: str) -> list[str]:
    """The attempt keys of this sign-in; refused with 429 when either is over its limit."""
    address = request.client.host if request.client else "?"
    by_account = attempt_key("login", login)
    by_address = attempt_key("address", address)
    store = accounts(request)
    if (store.failures([by_account], FAILURE_WINDOW) >= FAILURES_PER_ACCOUNT
            or store.failures([by_address], FAILURE_WINDOW) >= FAILURES_PER_ADDRESS):
        raise Refused.key(429, "too_many", minutes=FAILURE_WINDOW // 60)
    return [by_account, by_address]


@router.post("/signin", response_class=HTMLResponse)
async def signin(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await account_work(request, _signin, request, p, form)


def _signin(request: Request, p: Page, form: FormData) -> Response:
    login = field(form, "login").strip()
    password = field(form, "password")
    target = safe_next(field(form, "next"))
    keys = _limited(request, login)
    found = accounts(request).by_login(login) if login else None
    if found is not None and check_password(found[1], password):
        return sign_in(request, found[0], target)
    if found is None:
        check_password(None, password)  # the same time whether the account exists or not
    accounts(request).record_failure(keys, FAILURE_WINDOW)
    return p.render("signin.html", status=401, next=target, login=login,
                    problem=p.t("bad_login"), notice="")


@router.post("/signin/link", response_class=HTMLResponse)
async def request_link(request: Request, p: Page = Depends(page)) -> Response:
    """Mail a one-time link; the answer is the same whether the address is known or not."""
    form = await checked_form(request)
    return await account_work(request, _request_link, request, p, form)


def _request_link(request: Request, p: Page, form: FormData) -> Response:
    login = field(form, "login").strip()
    target = safe_next(field(form, "next"))
    keys = _limited(request, login)
    found = accounts(request).by_login(login) if login else None
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
        accounts(request).record_failure(keys[1:], FAILURE_WINDOW)
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
    keys = _limited(request, "link")
    user = accounts(request).use_link(token)
    if user is None:
        accounts(request).record_failure(keys[1:], FAILURE_WINDOW)
        raise Refused.key(400, "link_invalid")
    return sign_in(request, user, target)


@router.post("/signout")
async def signout(request: Request, p: Page = Depends(page)) -> Response:
    form = await checked_form(request)
    return await account_work(request, _signout, request, p, form)


def _signout(request: Request, p: Page, form: FormData) -> Response:
    if p.user is not None and field(form, "everywhere"):
        accounts(request).end_sessions(p.user.id)
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
