"""Races after the flag: the record to download, its verification from the revealed seed, and
the replay with its slider (each frame rebuilt from the record). Before the flag every one of
these is refused with 409, so nothing secret (the seed, other drivers' bids) leaks early. A
replay takes tens of milliseconds, so all of it runs in the race pages' threads, not in the
answers' (``races.viewed``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from rennleitung.formula_de.record import parse_record, record_to_json
from rennleitung.formula_de.replay import Verdict, verify
from rennleitung.play.model import RaceInfo, RaceState
from rennleitung.play.view_build import replay_view
from rennleitung.play.views import View
from rennleitung.web import view
from rennleitung.web.boards import drawing_url
from rennleitung.web.context import Page, Refused, checked_form, page
from rennleitung.web.i18n import TEXTS
from rennleitung.web.races import info_of, service, viewed

router = APIRouter()


def finished_record(request: Request, info: RaceInfo) -> dict[str, Any]:
    if info.state not in (RaceState.FINISHED, RaceState.CLOSED):
        raise Refused.key(409, "not_over")
    return service(request).record(info.id)


@router.get("/races/{race_id}/record.json")
async def record_file(race_id: int, request: Request) -> Response:
    """The race record (with the seed once it is over), for ``rennleitung race verify``."""
    return await viewed(request, lambda: _record_file(race_id, request))


def _record_file(race_id: int, request: Request) -> Response:
    data = finished_record(request, info_of(request, race_id))
    return Response(record_to_json(data), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="race-{race_id}.json"'})


@router.post("/races/{race_id}/verify", response_class=HTMLResponse)
async def verify_race(race_id: int, request: Request, p: Page = Depends(page)) -> Response:
    """Replay the stored record from the revealed seed and check every roll."""
    await checked_form(request)
    return await viewed(request, lambda: _verify_race(race_id, request, p))


def _verify_race(race_id: int, request: Request, p: Page) -> Response:
    info = info_of(request, race_id)
    finished_record(request, info)  # refused before the flag

    def compute() -> Verdict:
        data = finished_record(request, info)
        return verify(parse_record(record_to_json(data)))  # the record as it is downloaded

    verdict = request.app.state.verdicts.get((race_id, info.version), compute)
    return p.render("verify.html", info=info, verdict=verdict)


class Verdicts:
    """Each finished race's verification, computed once and kept (a replay costs a quarter of a
    second, and anyone may ask; twenty at once had slowed every other answer). A race over
    changes no more, so its verdict at its last version stays right; requests for a race whose
    verdict is being computed wait for that one computation instead of starting their own.
    Kept per server process, the newest ``most``."""

    def __init__(self, most: int = 1000) -> None:
        self._done: OrderedDict[tuple[int, int], Verdict] = OrderedDict()
        self._busy: dict[tuple[int, int], threading.Lock] = {}
        self._guard = threading.Lock()
        self._most = most
        self.computed = 0
        """How many verdicts were computed (for the tests: once per race)."""

    def get(self, key: tuple[int, int], compute: Callable[[], Verdict]) -> Verdict:
        with self._guard:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                return found
            gate = self._busy.setdefault(key, threading.Lock())
        with gate:
            with self._guard:
                found = self._done.get(key)
            if found is None:
                found = compute()
                with self._guard:
                    self.computed += 1
                    self._done[key] = found
                    while len(self._done) > self._most:
                        self._done.popitem(last=False)
                    self._busy.pop(key, None)
        return found


@router.get("/races/{race_id}/replay", response_class=HTMLResponse)
async def replay_page(race_id: int, request: Request, p: Page = Depends(page),
                      at: int | None = None) -> Response:
    return await viewed(request, lambda: _replay_page(race_id, request, p, at))


def _replay_page(race_id: int, request: Request, p: Page, at: int | None) -> Response:
    info = info_of(request, race_id)
    data = finished_record(request, info)
    last = info.version
    step = last if at is None else max(0, min(at, last))
    return p.render("replay.html", info=info, last=last, at=step,
                    board=drawing_url(info.track), **frame(p, data, step, info))


@router.get("/races/{race_id}/replay/frame", response_class=HTMLResponse)
async def replay_frame(race_id: int, request: Request, p: Page = Depends(page),
                       at: int = 0) -> Response:
    return await viewed(request, lambda: _replay_frame(race_id, request, p, at))


def _replay_frame(race_id: int, request: Request, p: Page, at: int) -> Response:
    info = info_of(request, race_id)
    data = finished_record(request, info)
    step = max(0, min(at, info.version))
    return p.render("replay_parts.html", info=info, at=step, **frame(p, data, step, info))


def frame(p: Page, data: dict[str, Any], step: int, info: RaceInfo) -> dict[str, Any]:
    """A spectator's view of the race after ``step`` decisions, rebuilt from the record's
    data (``play.view_build.replay_view``)."""
    seen = replay_view(data, step, info)
    return {"overlay": view.overlay(seen, [], p.lang), "order": view.running_order(seen, p.lang),
            "log": view.log_lines(seen, p.lang, last=12), "round": seen.round,
            "step_made": step_made(p, data, step, seen)}


def step_made(p: Page, data: dict[str, Any], step: int, seen: View) -> str:
    """What the decision the replay stands at did: "Decision 12: Alonso moved to A40"."""
    decisions = data.get("decisions") or []
    if step <= 0 or step > len(decisions):
        return p.t("step_none")
    made = decisions[step - 1]
    kind = str(made.get("kind", ""))
    what = f"{seen.driver(str(made.get('car', '')))}: " + (
        p.t(f"did_{kind}") if f"did_{kind}" in TEXTS else kind)
    path = made.get("path")
    if kind == "move" and isinstance(path, list) and path:
        what += f" → {path[-1]}"
    elif kind == "turn" and made.get("gear") is not None:
        what += f" ({p.t('gear')} {made['gear']})"
    return p.t("step_made", n=step, what=what)
