"""Speed of the event words and digests (issue 12, "Events carry text, not data").

One 10-car, 3-lap ``dresden-2006`` race on ``monaco`` with simple bots: how long rendering its
whole event log takes in one language (the web log renders at most its last 80 events per
page), the event digest in the form of record version 2 and of version 1 (``race verify`` of an
old record rebuilds the sentences), and a driver's JSON view (which renders both languages).
Prints the figures; asserts nothing about time.

    .venv/bin/python benchmarks/events.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import events_digest


def median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    race = run_bot_race("monaco", "dresden-2006", 10, 3, "bench-events", "simple")
    names = race.driver_names()
    events = race.events
    n = len(events)
    for lang in ("de", "en"):
        ms = median_ms(lambda lang=lang: [render(e, lang, names) for e in events], args.repeat)
        print(f"render {n} events ({lang}): {ms:.1f} ms, {ms * 1000 / n:.1f} µs per event")
    ms = median_ms(lambda: [render(e, "de", names) for e in events[-80:]], args.repeat)
    print(f"render the web log's last 80 events: {ms:.2f} ms")
    for version in (2, 1):
        ms = median_ms(lambda v=version: events_digest(events, v, names), args.repeat)
        print(f"events_digest, record version {version}: {ms:.1f} ms")
    ms = median_ms(lambda: race.view("car1").to_json(), args.repeat)
    print(f"race.view(car).to_json() with {n} events: {ms:.1f} ms")


if __name__ == "__main__":
    main()
