"""Two servers on one database (each with its own app, race service and hub, as two processes
have): a watcher of a race on one of them hears about a change made through the other (the
hub's version poll, one query a second for all watched races), on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
import uuid

import httpx

from rennleitung.play.model import RaceSpec, SeatKind, SeatSpec
from tests.web.conftest import LiveServer, make_settings


def test_a_watcher_hears_a_change_made_by_another_process(database_url: str) -> None:
    secret = "shared-" + uuid.uuid4().hex
    with LiveServer(make_settings(database_url, secret=secret)) as first, \
            LiveServer(make_settings(database_url, secret=secret)) as second:
        spec = RaceSpec(track="oval", ruleset="dresden-2006", laps=1, seats=(
            SeatSpec("car1", "Anna", SeatKind.BOT), SeatSpec("car2", "Ben", SeatKind.BOT)))
        race_id = first.app.state.races.create_race(spec)
        heard: list[int] = []
        done = threading.Event()

        def watch() -> None:
            with httpx.Client(base_url=first.url, timeout=30) as client, \
                    client.stream("GET", f"/races/{race_id}/stream") as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        heard.append(int(line.removeprefix("data: ")))
                        if heard[-1] > 0 or done.is_set():
                            return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        deadline = time.monotonic() + 10
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [0], "the stream tells the version at once"
        applied = second.app.state.races.start(race_id)  # bots race to the flag in process 2
        assert applied.version > 0
        watcher.join(timeout=15)
        done.set()
        assert heard[-1] == applied.version, heard
