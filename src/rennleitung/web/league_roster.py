"""The organiser's roster work on the web: a new league, teams, drivers (profile, city), names,
transfers, drop results, renaming the league or a race and taking back the last race.

One route per page section, each action a row of ``ACTIONS``; every action is the same
``LeagueStore`` call as the command line, so every check and the history apply. Only the
league's organisers may send them (``league_pages._organiser``); a new league may be created by
any signed-in account, which becomes its first organiser.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import parse_kind
from rennleitung.league.profiles import parse_profile
from rennleitung.league.roster import Driver
from rennleitung.league.transfers import Transfer
from rennleitung.store.league_store import LeagueStore
from rennleitung.web import forms
from rennleitung.web.context import Page, checked_form, field, page
from rennleitung.web.league_pages import _organiser, _store, league_url

router = APIRouter()

MAX_LEAGUES_PER_ACCOUNT = 50
"""Leagues one account may organise when it creates another (a brake on a script)."""

Action = Callable[[LeagueStore, str, FormData, str], str]
"""(store, league, form, by) -> the league's name afterwards (renaming changes it)."""


def _add_team(store: LeagueStore, name: str, form: FormData, _by: str) -> str:
    store.add_team(name, field(form, "team"))
    return name


def _add_driver(store: LeagueStore, name: str, form: FormData, _by: str) -> str:
    profile = parse_profile(field(form, "profile") or "normalo", "profile")
    store.add_driver(name, Driver(field(form, "driver"), field(form, "team"), profile,
                                  field(form, "city")))
    return name


def _transfer(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.transfer(name, Transfer(field(form, "driver"), field(form, "team").strip(),
                                  forms.number(form, "from_race", None, 1, 10_000)), by)
    return name


def _remove_transfer(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.remove_transfer(name, field(form, "driver"),
                          forms.number(form, "from_race", None, 1, 10_000), by)
    return name


def _drops(store: LeagueStore, name: str, form: FormData, _by: str) -> str:
    text = field(form, "races").replace(",", " ").split()
    races = []
    for piece in text:
        if not piece.isdigit() or len(piece) > 5:
            raise RennleitungError(f"keine Rennnummer: {piece[:20]!r}",
                                   f"not a race number: {piece[:20]!r}", "races")
        races.append(int(piece))
    store.name_drops(name, field(form, "driver"), races)
    return name


def _rename_league(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.rename_league(name, field(form, "new"), by)
    return field(form, "new").strip()


def _rename_team(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.rename_team(name, field(form, "old"), field(form, "new"), by)
    return name


def _rename_driver(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.rename_driver(name, field(form, "old"), field(form, "new"), by)
    return name


def _remove_driver(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.remove_driver(name, field(form, "driver"), by)
    return name


def _remove_team(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.remove_team(name, field(form, "team"), by)
    return name


def _delete_race(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.delete_race(name, forms.number(form, "race", None, 0, 10_000), by)
    return name


def _rename_race(store: LeagueStore, name: str, form: FormData, by: str) -> str:
    store.rename_race(name, forms.number(form, "race", None, 0, 10_000), field(form, "track"),
                      by)
    return name


ACTIONS: dict[str, Action] = {
    "add-team": _add_team,
    "add-driver": _add_driver,
    "transfer": _transfer,
    "remove-transfer": _remove_transfer,
    "drops": _drops,
    "rename-league": _rename_league,
    "rename-team": _rename_team,
    "rename-driver": _rename_driver,
    "remove-driver": _remove_driver,
    "remove-team": _remove_team,
    "delete-race": _delete_race,
    "rename-race": _rename_race,
}
"""Every roster action of the organise page, by the form's ``action`` field."""


@router.post("/league/roster")
async def roster(request: Request, name: str, p: Page = Depends(page)) -> Response:
    """One roster action of the organise page (``ACTIONS``)."""
    form = await checked_form(request)

    def act() -> Response:
        store = _store(request)
        by = _organiser(p, store, name)
        action = ACTIONS.get(field(form, "action"))
        if action is None:
            raise RennleitungError("unbekannte Aktion", "unknown action", "action")
        after = action(store, name, form, by)
        return RedirectResponse(league_url(after, "/organise") + "#roster", status_code=303)

    return await run_in_threadpool(act)


@router.post("/leagues/new")
async def create_league(request: Request, p: Page = Depends(page)) -> Response:
    """A new season or Open; the signed-in account that creates it organises it."""
    form = await checked_form(request)

    def create() -> Response:
        user = p.need_user()
        store = _store(request)
        if store.organised_by(user.name) >= MAX_LEAGUES_PER_ACCOUNT:
            raise RennleitungError(
                f"ein Konto organisiert höchstens {MAX_LEAGUES_PER_ACCOUNT} Ligen",
                f"one account organises at most {MAX_LEAGUES_PER_ACCOUNT} leagues", "name")
        name = field(form, "name").strip()
        store.create_league(name, parse_kind(field(form, "kind") or "season"), user.name)
        return RedirectResponse(league_url(name, "/organise"), status_code=303)

    return await run_in_threadpool(create)
