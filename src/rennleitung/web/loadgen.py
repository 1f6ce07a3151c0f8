"""Scripted drivers against a running server, for the benchmark and the crash test.

``prepare`` writes people and started races straight into the database (one person's seat and
bots per race) and mints each person's session cookie with the server's secret, so a run spends
its time on playing, not on argon2. ``drive`` plays every race over HTTP the way a browser's
forms do (question as JSON, answer with the version it was asked at) and records each answer the
server acknowledged, with its latency. Only loopback addresses are used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx

from rennleitung.play.model import RaceSpec, SeatKind, SeatSpec
from rennleitung.play.service import RaceService
from rennleitung.play.views import Reader
from rennleitung.store.accounts import AccountStore
from rennleitung.store.database import open_database
from rennleitung.web.security import SESSION_COOKIE, Session, SessionCodec


@dataclass(frozen=True, slots=True)
class Seat:
    """One scripted driver: his race, car, cookie and CSRF token."""

    race: int
    car: str
    cookie: str
    csrf: str


@dataclass(frozen=True, slots=True)
class Ack:
    """An answer the server acknowledged: the version it made and what was sent."""

    race: int
    car: str
    seq: int
    version: int
    decision: dict[str, Any]


@dataclass
class Stats:
    acks: list[Ack] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    page_latencies: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0


def prepare(url: str, secret: str, races: int, track: str = "oval", laps: int = 1,
            bots: tuple[str, ...] = ("simple", "simple"), tag: str = "",
            stagger: int = 0) -> list[Seat]:
    """``races`` started races, each with one scripted person and ``bots``. With ``stagger``,
    race n is played on first by ``n % (stagger + 1)`` of the person's answers (the first legal
    one, as the drivers answer), so the races are at different stages when the load begins, as
    on a server whose races started at different times; without it they all start together and
    move in step. A race on the oval lasts about 100 such answers."""
    engine = open_database(url)
    accounts = AccountStore(engine)
    service = RaceService(engine)
    codec = SessionCodec(secret)
    label = tag or secrets.token_hex(3)
    seats = []
    for n in range(races):
        user = accounts.create_user(f"driver-{label}-{n}", None, None)
        spec = RaceSpec(
            track=track, ruleset="dresden-2006", laps=laps, name=f"load {label} {n}",
            seats=(SeatSpec("car1", user.name, SeatKind.PERSON, "simple", user.holder),
                   *(SeatSpec(f"car{k + 2}", f"bot {k + 1}", SeatKind.BOT, bot)
                     for k, bot in enumerate(bots))),
        )
        race = service.create_race(spec)
        service.start(race)
        for _ in range(n % (stagger + 1)):
            _answer_first(service, race, "car1", user.holder)
        csrf, sid = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        accounts.start_session(user.id, sid)  # signed in as the sign-in form would
        seats.append(Seat(race, "car1", codec.dumps(Session(user.id, user.epoch, csrf, sid)),
                          csrf))
    engine.dispose()
    return seats


def _answer_first(service: RaceService, race_id: int, car: str, holder: str) -> None:
    """The person's open question answered with its first legal answer, as the scripted drivers
    answer (nothing if none is open)."""
    seen = service.view(race_id, Reader.seat(car))
    asked = seen.question()
    if asked is not None:
        service.apply(race_id, car, asked.options[0], seen.version, holder=holder)


class LoadError(Exception):
    """The server did not answer (refused, cut off, or an answer that is not HTTP)."""


IDLE = 3.0
"""Seconds after which a kept-alive connection is not reused (uvicorn closes them after 5)."""


class _Http:
    """A lean HTTP/1.1 client on one kept-alive loopback connection: a load generator built on
    a full client library spent about as much processor time per answer as the server, on the
    same two cores, and so measured itself. Enough for this server's answers (every one has a
    Content-Length); anything else is a ``LoadError``."""

    def __init__(self, base: str, cookie: str = "") -> None:
        hostport = base.removeprefix("http://").rstrip("/")
        host, _, port = hostport.partition(":")
        self.host, self.port = host, int(port or 80)
        self.head = f"Host: {hostport}\r\n" + (
            f"Cookie: {SESSION_COOKIE}={cookie}\r\n" if cookie else "")
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._used = 0.0

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: str = "") -> tuple[int, bytes]:
        try:
            if self._streams is not None and time.monotonic() - self._used > IDLE:
                self.close()  # the server may have closed it meanwhile: never reuse it then
            if self._streams is None:
                self._streams = await asyncio.open_connection(self.host, self.port)
            self._used = time.monotonic()
            reader, writer = self._streams
            length = f"Content-Length: {len(body)}\r\n" if method == "POST" else ""
            writer.write(f"{method} {path} HTTP/1.1\r\n{self.head}{headers}{length}\r\n"
                         .encode() + body)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            size = next((int(line.split(":", 1)[1]) for line in lines[1:]
                         if line.lower().startswith("content-length:")), None)
            if size is None:
                raise LoadError(f"no Content-Length in the answer to {method} {path}")
            return status, await reader.readexactly(size)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ValueError, IndexError) as error:
            self.close()
            raise LoadError(f"{method} {path}: {type(error).__name__}") from None

    async def get_json(self, path: str) -> Any:
        status, body = await self.request("GET", path)
        if status != 200:
            raise LoadError(f"GET {path}: HTTP {status}")
        return json.loads(body)

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


FORM = "Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n"


async def _drive_one(base: str, seat: Seat, stats: Stats, stop_at: float,
                     max_actions: int, every: float | None) -> None:
    """One driver: ask, answer with the first legal answer and the version asked at, again;
    with ``every``, one answer every ``every`` seconds (a paced driver), else flat out."""
    client = _Http(base, seat.cookie)
    try:
        done = 0
        due = time.monotonic() + (random.random() * every if every else 0.0)
        told: Any = None  # the question the last answer's reply brought ("next")
        while time.monotonic() < stop_at and done < max_actions:
            if every is not None:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                due = max(due + every, time.monotonic() - every)
            try:
                asked = told or await client.get_json(f"/races/{seat.race}/question.json")
            except (LoadError, ValueError):
                stats.errors += 1
                return
            told = None
            if asked["state"] != "running":
                return
            question = asked["question"]
            if question is None or not question.get("options"):
                await asyncio.sleep(0.02)
                continue
            decision = question["options"][0]
            form = urlencode({"csrf": seat.csrf, "car": seat.car,
                              "version": str(asked["version"]),
                              "decision": json.dumps(decision)}).encode()
            began = time.perf_counter()
            try:
                status, body = await client.request("POST", f"/races/{seat.race}/act", form,
                                                    FORM)
            except LoadError:
                stats.errors += 1
                return
            if status == 200:
                stats.latencies.append(time.perf_counter() - began)
                answer = json.loads(body)
                stats.acks.append(Ack(seat.race, seat.car, int(answer["seq"]),
                                      int(answer["version"]), decision))
                done += 1
                told = answer.get("next")
            else:
                stats.refused += 1
    finally:
        client.close()


async def _watch_pages(base: str, seats: list[Seat], stats: Stats, stop_at: float) -> None:
    """A spectator loading race pages one after another, timed."""
    client = _Http(base)
    try:
        n = 0
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            try:
                status, _page = await client.request("GET", f"/races/{seats[n % len(seats)].race}")
            except LoadError:
                return
            if status == 200:
                stats.page_latencies.append(time.perf_counter() - began)
            n += 1
            await asyncio.sleep(0.05)
    finally:
        client.close()


async def warm_up(bases: list[str], seats: list[Seat]) -> None:
    """Every driver asks his question once, untimed, through the process that will serve his
    race: each process then holds its races in memory, as a server that has been running does
    (a fresh process rebuilds a race from its stored decisions on first use)."""
    for n, seat in enumerate(seats):
        client = _Http(bases[n % len(bases)], seat.cookie)
        try:
            await client.get_json(f"/races/{seat.race}/question.json")
        finally:
            client.close()


async def drive(bases: list[str], seats: list[Seat], seconds: float,
                max_actions: int = 10**9, stats: Stats | None = None,
                rate: float | None = None) -> Stats:
    """Every seat plays through one of ``bases`` (round robin, so a race always meets the same
    process) until time or races run out; ``rate``: answers per second of all drivers
    together, spread evenly (None: as fast as the server answers). ``stats`` (filled as it
    goes) can be watched from another thread."""
    stats = Stats() if stats is None else stats
    stop_at = time.monotonic() + seconds
    every = len(seats) / rate if rate else None
    watcher = asyncio.create_task(_watch_pages(bases[0], seats, stats, stop_at))
    await asyncio.gather(*(_drive_one(bases[n % len(bases)], seat, stats, stop_at, max_actions,
                                      every)
                           for n, seat in enumerate(seats)))
    watcher.cancel()  # the spectator leaves with the last driver, not at the time limit
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    return stats


async def hammer(bases: list[str], clients: int, seconds: float, path: str = "/healthz") -> int:
    """``clients`` kept-alive connections (spread over ``bases``) asking ``path`` one request
    after another for ``seconds``: the requests answered with 200, for the rate of a request
    that does nothing (``GET /healthz``) next to the answers' on the same server."""
    stop_at = time.monotonic() + seconds
    answered = 0

    async def one(base: str) -> None:
        nonlocal answered
        client = _Http(base)
        try:
            while time.monotonic() < stop_at:
                try:
                    status, _body = await client.request("GET", path)
                except LoadError:
                    return
                answered += status == 200
        finally:
            client.close()

    await asyncio.gather(*(one(bases[n % len(bases)]) for n in range(clients)))
    return answered


async def fetch(base: str, path: str, cookie: str = "", headers: str = "",
                times: int = 1) -> list[tuple[float, int]]:
    """``GET path`` ``times`` times, one after another on one connection: the seconds and the
    bytes of each answer (a refusal is a ``LoadError``)."""
    client = _Http(base, cookie)
    found = []
    try:
        for _ in range(times):
            began = time.perf_counter()
            status, body = await client.request("GET", path, headers=headers)
            if status != 200:
                raise LoadError(f"GET {path}: HTTP {status}")
            found.append((time.perf_counter() - began, len(body)))
    finally:
        client.close()
    return found


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class ServerProcess:
    """``rennleitung serve`` in its own process on a loopback port."""

    def __init__(self, db_url: str, port: int, secret: str,
                 environ: Mapping[str, str] | None = None) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port = port
        self.command = [sys.executable, "-m", "rennleitung.web", "--host", "127.0.0.1",
                        "--port", str(port), "--db", db_url, "--no-demo"]
        self.env = {**os.environ, **(environ or {}), "RENNLEITUNG_SECRET": secret}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> ServerProcess:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        self.process = subprocess.Popen(self.command, env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=self.log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                error = self.log.read().decode(errors="replace")
                raise RuntimeError(f"server exited: {error[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

