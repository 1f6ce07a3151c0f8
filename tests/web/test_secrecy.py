"""Nothing a reader receives holds another seat's secret before the rules reveal it.

A secret (a driver's setup before all are in, Dresden "Rennen"; his head-to-head bid before the
level cars' bids are shown together, Dresden "Kopf an Kopf") may change nothing anyone else
receives. So each race is played twice, in two worlds (two servers on two databases, the same
people, the same seed, the same answers), except that one driver answers his simultaneous
question differently in the second world. At every version until the last answer of that
question reveals it, every other reader must receive exactly the same thing in both worlds:
the race page, its live parts, ``state.json``, ``view.json``, ``question.json`` and the reply
to his own answer (the two drivers in the browser), the organiser's and a visitor's pages, and
the question mails of the two drivers playing by mail (text and board). The driver's own view
and, after the reveal, everyone's pages do differ: the test checks that too, so it would see a
leak.

The windows come from a reference race played to the flag first: the setups at the start and
the first head-to-head bids. Each window is a fresh race in both worlds, brought to the window's
start by the reference race's decisions.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.mail.fd_game import FdAdapter, holder_of
from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.play import RaceService, RaceSpec, RaceState, SeatSpec
from rennleitung.play import engine as eng
from rennleitung.play.views import Reader
from tests.web.conftest import Client, LiveServer, client, make_settings, signed_up

SEED = "secrets-stay-secret-1"
WEB = {"car1": "Anna", "car2": "Bert"}
MAIL = {"car3": "carl@example.net", "car4": "dora@example.net"}
BID_WINDOWS = 2
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
_CSRF = re.compile(r'(name="csrf" value="|data-csrf="|"X-CSRF-Token": ")[^"]*"')


@dataclass
class World:
    """One server on its own database, its people signed in, the mail face beside it."""

    server: LiveServer
    mail: MailService
    people: dict[str, Client]
    organiser: str
    games: dict[int, str] = field(default_factory=dict)

    @property
    def races(self) -> RaceService:
        found: RaceService = self.server.app.state.races
        return found

    def new_race(self) -> int:
        seats = tuple(SeatSpec(car, name) for car, name in WEB.items()) + tuple(
            SeatSpec(car, f"Post {car}") for car in MAIL)
        race_id = self.races.create_race(
            RaceSpec("monaco", "dresden-2006", seats, laps=1, organiser=self.organiser),
            seed=SEED, now=NOW)
        for car in WEB:
            people = self.people[car]
            people.page(f"/races/{race_id}")
            assert people.submit(f"/races/{race_id}/join", {"car": car}).status_code == 303
        game = f"gp{race_id}"
        self.mail.add_game(game, "fd", str(race_id), secret="zielflagge")
        for car, address in MAIL.items():
            self.mail.bind(game, address, car, "de" if car == "car3" else "en")
        self.games[race_id] = game
        self.races.start(race_id, now=NOW)
        return race_id

    def answer(self, race_id: int, car: str, decision: dict[str, Any], version: int) -> str:
        """``car`` answers: a browser driver through ``POST /act`` (the reply is what he
        receives), a mail driver through the play service as his mail would."""
        if car in WEB:
            people = self.people[car]
            people.page(f"/races/{race_id}")
            reply = people.submit(f"/races/{race_id}/act", {
                "car": car, "version": str(version), "decision": json.dumps(decision)},
                headers={"Accept": "application/json"})
            assert reply.status_code == 200, reply.text
            return reply.text
        self.races.apply(race_id, car, decision, version, holder=holder_of(MAIL[car]),
                         now=NOW)
        return ""

    def received(self, race_id: int, hidden: str) -> dict[str, Any]:
        """Everything every reader but ``hidden``'s driver receives now."""
        got: dict[str, Any] = {}
        for who, people in self.people.items():
            if who == hidden:
                continue
            for path in ("", "/parts", "/state.json", "/view.json", "/question.json"):
                if path == "/question.json" and who not in WEB:
                    continue
                page = people.get(f"/races/{race_id}{path}")
                got[f"{who} {path or 'page'}"] = (page.status_code, _CSRF.sub("", page.text))
        adapter = self.mail.adapters["fd"]
        assert isinstance(adapter, FdAdapter)
        game = self.mail.game(self.games[race_id])
        for mail in adapter.tick(self.mail, game, NOW):
            if mail.recipient != MAIL.get(hidden):
                subject = _CODE.sub("[code]", mail.subject)  # each world draws its own codes
                got[f"mail {mail.recipient} {subject}"] = (
                    mail.text, [(a.filename, a.data) for a in mail.attachments])
        return got


@pytest.fixture
def worlds(tmp_path: Path) -> Iterator[tuple[World, World]]:
    made: list[World] = []
    try:
        for name in ("a", "b"):
            url = f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
            server = LiveServer(make_settings(url)).__enter__()
            mail = MailService.open(url, MailSettings(sender="rennleitung@example.org"))
            people = {car: signed_up(server, person) for car, person in WEB.items()}
            people["orga"] = signed_up(server, "Orga")
            people["visitor"] = client(server)
            organiser = _holder(server, "Orga")
            world = World(server, mail, people, organiser)
            mail.adapters["fd"] = FdAdapter(world.races, png=False)
            made.append(world)
        yield made[0], made[1]
    finally:
        for world in made:
            world.server.__exit__()
            world.mail.engine.dispose()


def _holder(server: LiveServer, name: str) -> str:
    found = server.app.state.accounts.by_login(name)
    assert found is not None
    holder: str = found[0].holder
    return holder


@dataclass(frozen=True)
class Window:
    """A simultaneous question: the version it opened at and its cars in the order asked."""

    opened: int
    cars: tuple[str, ...]
    kind: str


def reference(races: RaceService, race_id: int) -> tuple[list[tuple[str, dict[str, Any]]],
                                                         list[Window]]:
    """The race played to the flag with every driver answering as the simple bot would: its
    decisions and its windows of simultaneous questions."""
    bot = make_bot("simple")
    decisions: list[tuple[str, dict[str, Any]]] = []
    windows: list[Window] = []
    while races.info(race_id).state is RaceState.RUNNING:
        seen = races.view(race_id, Reader.spectator())
        race = races.race(race_id)  # the test's own bot needs the engine's race
        car = seen.asked[0]
        ask = eng.question_of(race, car)
        assert ask is not None
        if len(seen.asked) > 1 and not race.open_answers():
            windows.append(Window(seen.version, seen.asked, ask.kind.value))
        data = eng.decision_to_json(race, bot.decide(race, ask))
        holder = holder_of(MAIL[car]) if car in MAIL else None
        races.apply(race_id, car, data, seen.version, holder=holder, now=NOW)
        decisions.append((car, data))
    return decisions, windows


def other_answer(races: RaceService, race_id: int, car: str, given: dict[str, Any]
                 ) -> dict[str, Any] | None:
    """A legal answer of ``car`` to its open question other than ``given`` (None if none)."""
    asked = races.view(race_id, Reader.seat(car)).question()
    assert asked is not None
    return next((o for o in asked.options if o != given), None)


def test_no_reader_receives_another_seats_secret_before_the_reveal(
        worlds: tuple[World, World]) -> None:
    first, second = worlds
    ref_a, ref_b = first.new_race(), second.new_race()
    assert ref_a == ref_b
    decisions, windows = reference(first.races, ref_a)
    chosen = [w for w in windows if w.kind == "setup"][:1]
    chosen += [w for w in windows if w.kind == "bid"][:BID_WINDOWS]
    assert [w.kind for w in chosen] == ["setup"] + ["bid"] * BID_WINDOWS, windows
    checked = 0
    for window in chosen:
        race_a, race_b = first.new_race(), second.new_race()
        assert race_a == race_b
        for seq, (car, data) in enumerate(decisions[:window.opened]):
            for world in worlds:  # quickly, through the service, to the window's start
                holder = holder_of(MAIL[car]) if car in MAIL else None
                world.races.apply(race_a, car, data, seq, holder=holder, now=NOW)
        secret_car = window.cars[0]
        given = decisions[window.opened][1]
        changed = other_answer(second.races, race_b, secret_car, given)
        assert changed is not None, window
        first.answer(race_a, secret_car, given, window.opened)
        second.answer(race_b, secret_car, changed, window.opened)
        assert (first.races.view(race_a, Reader.seat(secret_car)).answered
                != second.races.view(race_b, Reader.seat(secret_car)).answered)
        replies: dict[str, tuple[str, str]] = {}
        for n, car in enumerate(window.cars):
            version = window.opened + n
            if n:
                data = decisions[version][1]
                replies[car] = (first.answer(race_a, car, data, version),
                                second.answer(race_b, car, data, version))
            if n == len(window.cars) - 1:
                break  # that answer revealed the secret
            seen_a = first.received(race_a, secret_car)
            seen_b = second.received(race_b, secret_car)
            assert seen_a.keys() == seen_b.keys()
            for key in seen_a:
                assert seen_a[key] == seen_b[key], (window, version, key,
                                                    _diff(seen_a[key], seen_b[key]))
            for car_replied, (a, b) in replies.items():
                assert a == b, (window, version, car_replied)
            checked += len(seen_a)
        # after the reveal the secret shows: the same readers now see the two worlds differ
        after_a = first.received(race_a, secret_car)
        after_b = second.received(race_b, secret_car)
        assert any(after_a[k] != after_b.get(k) for k in after_a), window
    assert checked > 50


_CODE = re.compile(r"\[[Cc]ode [0-9a-f]{10}\]")


def _diff(a: Any, b: Any) -> str:
    """The lines where two things received differ."""
    lines = difflib.unified_diff(str(a).split("\\n"), str(b).split("\\n"), lineterm="", n=1)
    return "\n".join(list(lines)[:30])
