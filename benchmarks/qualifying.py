"""What a qualifying session held here costs the server (issues 27, 29).

Nothing of a lap is stored but its decisions, so every page of a session rebuilds its laps
(``play/qualifying_sessions.py``). This script fills a session on a SQLite file: ``--drivers``
drivers (default 20, a full Dresden field) each drive a lap on ``--track`` (default monaco, the
longest) with the qualifying bot's decisions sent through ``QualifyingSessions.decide``, then
prints the median time of the session page's view (the standings every reader fetches every two
seconds) with the rebuilt laps kept and with none kept, of one lap's page and of a decision.

    .venv/bin/python benchmarks/qualifying.py [--drivers N] [--track T] [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rennleitung.formula_de.qualifying import GearChoice
from rennleitung.formula_de.qualifying_bot import QualifyingBot
from rennleitung.league.formats import LeagueKind
from rennleitung.league.roster import Driver
from rennleitung.play.qualifying_sessions import QualifyingSessions
from rennleitung.store.database import open_database

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=2)
        return self.now


def median_ms(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drivers", type=int, default=20)
    parser.add_argument("--track", default="monaco")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = open_database(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        sessions = QualifyingSessions(engine, Clock())
        store = sessions.leagues
        store.create_league("Bench", LeagueKind.SEASON)
        names = [f"Driver {n:02d}" for n in range(1, args.drivers + 1)]
        for n, name in enumerate(names):
            if n % 2 == 0:
                store.add_team("Bench", f"Team {n // 2 + 1}")
            store.add_driver("Bench", Driver(name, f"Team {n // 2 + 1}"))
        sid = sessions.open("Bench", 1, args.track, seed=7, opens_at=START,
                            closes_at=START + timedelta(days=1))
        bot = QualifyingBot()
        decisions = 0
        began = time.perf_counter()
        for name in names:
            holder = f"acc-{name}"
            sessions.hold(sid, name, holder)
            lap = sessions._replay(sessions.store.session(sid), store.load("Bench"),
                                   sessions._stored(sessions.store.session(sid), name, 1))
            while (ask := lap.pending) is not None:
                choice = bot.decide(lap, ask)
                data: dict[str, Any] = ({"gear": choice.gear, "soft": choice.soft_bonus}
                                        if isinstance(choice, GearChoice)
                                        else {"path": list(choice.path)})
                sessions.decide(sid, name, 1, data, holder)
                lap.apply(choice)
                decisions += 1
        filled = time.perf_counter() - began
        last = names[-1]
        view = median_ms(lambda: sessions.view(sid), args.repeat)

        def cold() -> None:
            sessions.forget()
            sessions.view(sid)

        rebuilt = median_ms(cold, args.repeat)
        lap_page = median_ms(lambda: sessions.lap_view(sid, last, 1, f"acc-{last}"), args.repeat)
        print(f"{args.drivers} laps on {args.track}, {decisions} decisions "
              f"({filled / decisions * 1000:.1f} ms a decision on average, with its lap's view)")
        print(f"session view (standings, polled every 2 s by every reader): {view:.1f} ms")
        print(f"the same with every lap rebuilt (a server just started): {rebuilt:.1f} ms")
        print(f"one lap's page: {lap_page:.1f} ms")
        engine.dispose()


if __name__ == "__main__":
    main()
