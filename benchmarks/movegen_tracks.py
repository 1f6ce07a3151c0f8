"""Move queries on every built-in track, measured against Monaco in the same run (issue 25).

Positions are sampled from seeded bot races (strong and simple bots, ten cars, one lap; every
``--every``-th turn question); for each sampled car every gear and every roll that gear's die can
show is one query (``movegen.generate_moves`` on ``moves.request_for``). Per track it prints the
median, the 99th percentile and the slowest query, and each as a ratio to Monaco's median in
this run. Target 1 of issue 25: on every track p99 <= 10x and slowest < 100x the Monaco median.
The machine is shared: compare the ratios, not the absolute times. Times are the process's CPU
time (``time.process_time``), which other processes on the machine disturb far less than the
wall clock; ``--wall`` measures the wall clock instead. The objects of the sampled races are
frozen out of the garbage collector before timing, so a collection pass over them is not
charged to whichever query happens to trigger it.

``--pure`` times the pure Python modules even where the compiled core is built (``make``
builds it; rennleitung.native); the first line says which one ran.

    .venv/bin/python benchmarks/movegen_tracks.py [--big] [--every N] [--races N] [--wall] [--pure]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

from rennleitung import native
from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.dice import gear_die
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.moves import MOVING, Choices, request_for
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_kinds import AskKind
from rennleitung.formula_de.race_run import run_bot_race

RULESET, CARS, LAPS = "dresden-2006", 10, 1
GEARS = range(1, 7)


def sampled_requests(track: str, bots: str, races: int, every: int) -> list[MoveRequest]:
    """Requests for every gear and roll at every ``every``-th turn question of the races."""
    requests: list[MoveRequest] = []
    seen = [0]

    def sample(race: Race) -> None:
        ask = race.pending
        if ask is None or ask.kind is not AskKind.TURN:
            return
        seen[0] += 1
        if seen[0] % every:
            return
        position = race.to_position(ask.car)
        car = position.car(ask.car)
        if car.status not in MOVING:
            return
        for gear in GEARS:
            for roll in sorted(set(gear_die(gear).faces)):
                requests.append(request_for(position, ask.car, roll, Choices(gear=gear)))

    for seed in range(races):
        run_bot_race(track, RULESET, CARS, LAPS, f"movegen-{bots}-{seed}", bots, sample)
    return requests


Generate = Callable[..., list[MoveOption]]


def requests_on(track: str, races: int, every: int) -> list[MoveRequest]:
    """The sampled requests of ``races`` races of strong and as many of simple bots."""
    return [r for bots in ("strong", "simple") for r in sampled_requests(track, bots, races, every)]


def timed_queries(
    track_name: str, requests: list[MoveRequest], wall: bool = False,
    generate: Generate = generate_moves,
) -> list[tuple[float, MoveRequest]]:
    """Each request with the time its query took, fastest first."""
    track = builtin_track(track_name)
    clock = time.perf_counter if wall else time.process_time
    gc.collect()
    gc.freeze()  # the sampled races and requests are scaffolding: no collector passes over them
    found = []
    for request in requests:
        start = clock()
        generate(track, request)
        found.append((clock() - start, request))
    return sorted(found, key=lambda item: item[0])


def timed(
    track_name: str, requests: list[MoveRequest], wall: bool = False,
    generate: Generate = generate_moves,
) -> list[float]:
    """The times of the queries, fastest first."""
    return [seconds for seconds, _ in timed_queries(track_name, requests, wall, generate)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", action="store_true", help="more races, every turn sampled")
    parser.add_argument("--every", type=int, default=0, help="sample every N-th turn question")
    parser.add_argument("--races", type=int, default=0, help="races per track and bot kind")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument("--pure", action="store_true", help="the pure Python modules")
    args = parser.parse_args()
    generate: Generate = generate_moves
    if args.pure:
        with native.pure_modules() as modules:
            generate = modules["movegen"].generate_moves
    print("core:", "pure Python" if args.pure or not native.compiled() else "compiled (mypyc)")
    every = args.every or (1 if args.big else 3)
    races = args.races or (4 if args.big else 2)
    tracks = builtin_track_names()
    print(f"{races} race(s) per track and bot kind ({CARS} cars, {LAPS} lap, {RULESET}), "
          f"every {every}. turn question, all gears and rolls")
    results: dict[str, list[float]] = {}
    for name in tracks:
        results[name] = timed(name, requests_on(name, races, every), args.wall, generate)
    base = statistics.median(results["monaco"])
    print(f"{'track':8} {'queries':>7} {'median':>10} {'p99':>10} {'slowest':>10}"
          f" {'med/M':>7} {'p99/M':>7} {'max/M':>8}  target")
    for name in tracks:
        times = results[name]
        median = statistics.median(times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        slowest = times[-1]
        ok = p99 <= 10 * base and slowest < 100 * base
        print(
            f"{name:8} {len(times):7} {median * 1e6:8.0f}µs {p99 * 1e6:8.0f}µs "
            f"{slowest * 1e6:8.0f}µs {median / base:7.2f} {p99 / base:7.1f} "
            f"{slowest / base:8.1f}  {'met' if ok else 'NOT met'}"
        )
    print("M = the Monaco median of this run; target: p99/M <= 10, max/M < 100 on every track")


if __name__ == "__main__":
    main()
