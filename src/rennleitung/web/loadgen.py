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
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from rennleitung.play.model import RaceSpec, SeatKind, SeatSpec
from rennleitung.play.service import RaceService
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
            bots: tuple[str, ...] = ("simple", "simple"), tag: str = "") -> list[Seat]:
    """``races`` started races, each with one scripted person and ``bots``."""
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
        csrf = secrets.token_urlsafe(16)
        seats.append(Seat(race, "car1", codec.dumps(Session(user.id, user.epoch, csrf)), csrf))
    engine.dispose()
    return seats


async def _drive_one(base: str, seat: Seat, stats: Stats, stop_at: float,
                     max_actions: int) -> None:
    async with httpx.AsyncClient(base_url=base, cookies={SESSION_COOKIE: seat.cookie},
                                 timeout=30) as client:
        done = 0
        while time.monotonic() < stop_at and done < max_actions:
            try:
                asked = (await client.get(f"/races/{seat.race}/question.json")).json()
            except (httpx.HTTPError, ValueError):
                stats.errors += 1
                return
            if asked["state"] != "running":
                return
            question = asked["question"]
            if question is None or not question.get("options"):
                await asyncio.sleep(0.02)
                continue
            decision = question["options"][0]
            form = {"csrf": seat.csrf, "car": seat.car, "version": str(asked["version"]),
                    "decision": json.dumps(decision)}
            began = time.perf_counter()
            try:
                answer = await client.post(f"/races/{seat.race}/act", data=form,
                                           headers={"Accept": "application/json"})
            except httpx.HTTPError:
                stats.errors += 1
                return
            if answer.status_code == 200:
                stats.latencies.append(time.perf_counter() - began)
                body = answer.json()
                stats.acks.append(Ack(seat.race, seat.car, int(body["seq"]),
                                      int(body["version"]), decision))
                done += 1
            else:
                stats.refused += 1


async def _watch_pages(base: str, seats: list[Seat], stats: Stats, stop_at: float) -> None:
    """A spectator loading race pages one after another, timed."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        n = 0
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            try:
                page = await client.get(f"/races/{seats[n % len(seats)].race}")
            except httpx.HTTPError:
                return
            if page.status_code == 200:
                stats.page_latencies.append(time.perf_counter() - began)
            n += 1
            await asyncio.sleep(0.05)


async def drive(bases: list[str], seats: list[Seat], seconds: float,
                max_actions: int = 10**9, stats: Stats | None = None) -> Stats:
    """Every seat plays through one of ``bases`` (round robin) until time or races run out;
    ``stats`` (filled as it goes) can be watched from another thread."""
    stats = Stats() if stats is None else stats
    stop_at = time.monotonic() + seconds
    watcher = asyncio.create_task(_watch_pages(bases[0], seats, stats, stop_at))
    await asyncio.gather(*(_drive_one(bases[n % len(bases)], seat, stats, stop_at, max_actions)
                           for n, seat in enumerate(seats)))
    watcher.cancel()  # the spectator leaves with the last driver, not at the time limit
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    return stats


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

