"""The server killed with SIGKILL in the middle of a load run and started again: no answer the
server acknowledged is missing, every race goes on from its stored decisions, and each, driven
to the flag, replays and verifies from its record. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Coroutine
from typing import Any

from rennleitung.formula_de.record import parse_record, record_to_json
from rennleitung.formula_de.replay import verify
from rennleitung.play.model import SeatKind
from rennleitung.play.service import RaceService
from rennleitung.store.database import open_database
from rennleitung.web.loadgen import ServerProcess, Stats, drive, prepare
from tests.web.conftest import free_port

RACES = 4


def test_sigkill_under_load_loses_nothing(database_url: str) -> None:
    secret = uuid.uuid4().hex
    seats = prepare(database_url, secret, RACES)
    server = ServerProcess(database_url, free_port(), secret).start()
    stats = Stats()
    failures: list[BaseException] = []

    def load() -> None:
        try:
            asyncio.run(drive([server.url], seats, 120, stats=stats))
        except BaseException as error:  # reported below, with the test's own assertions
            failures.append(error)

    runner = threading.Thread(target=load)
    try:
        runner.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(stats.acks) < 3 * RACES and runner.is_alive():
            time.sleep(0.05)
        server.kill()  # answers are flowing: killed in the middle of it
        runner.join(timeout=60)
    finally:
        server.stop()
    assert not failures, failures
    assert len(stats.acks) >= RACES, ("the load ran before the kill", len(stats.acks))
    assert stats.errors >= 1, "the kill cut requests short"

    restarted = ServerProcess(database_url, free_port(), secret).start()
    try:
        after = in_thread(drive([restarted.url], seats, 90, max_actions=2))
    finally:
        restarted.stop()
    assert {a.race for a in after.acks} == {s.race for s in seats}, (
        "every race goes on after the restart", after.errors, after.refused)

    engine = open_database(database_url)
    service = RaceService(engine)
    try:
        for ack in stats.acks + after.acks:
            stored = {d.seq: d for d in service.decisions(ack.race)}
            assert ack.seq in stored, f"acknowledged answer missing: race {ack.race} {ack.seq}"
            assert (stored[ack.seq].car, stored[ack.seq].decision) == (ack.car, ack.decision)
            assert len(stored) >= ack.version
        for seat in seats:
            service.assign(seat.race, seat.car, kind=SeatKind.BOT, bot="simple")
            info = service.info(seat.race)
            assert info.state.value == "finished"
            verdict = verify(parse_record(record_to_json(service.record(seat.race))))
            assert verdict.honest, verdict.problems
    finally:
        engine.dispose()


def in_thread(work: Coroutine[Any, Any, Stats]) -> Stats:
    """Run ``work`` on an event loop of its own thread (Playwright's sync API may hold one in
    the main thread when the browser tests ran first)."""
    done: list[Stats] = []
    runner = threading.Thread(target=lambda: done.append(asyncio.run(work)))
    runner.start()
    runner.join()
    assert done, "the load run failed"
    return done[0]
