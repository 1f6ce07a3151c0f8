"""What the slow move queries of one track are made of, against issue 25's target 1.

Target 1 asks every track's p99 move query to stay within 10x, and its slowest within 100x, the
Monaco median. `benchmarks/movegen_tracks.py` prints whether it is met; this script prints why
not, from the same kind of positions (seeded bot races, strong and simple, every gear and roll):

- the Monaco median and the track's p99 and slowest query, timed on the core that runs
  (compiled where built), CPU time, the sampled races frozen out of the collector;
- for the queries around the p99 (``--band`` of them) and the slowest ones: how many searches a
  query runs (the move, and one per slipstream from an end behind a car), how many states and
  walks they keep, how many states would be left if every walk forgot its straight run (start,
  length, hazards crossed, entry lane: the most a merging of run contexts could achieve), and
  how many options the answer holds;
- the floor: what building those options alone costs (each ``MoveOption`` made again from its
  own values, timed), and the states left without run contexts at the core's own time per
  state on the Monaco median, both as multiples of the Monaco median.

The counts come from the pure Python modules (a compiled module's calls do not go through module
attributes, so the search cannot be watched there); the options are the same either way
(``tests/formula_de/test_movement_compiled.py``). Asserts nothing; prints figures.

    .venv/bin/python benchmarks/movegen_anatomy.py [--track oval] [--races 3] [--band 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from movegen_tracks import requests_on, timed_queries

from rennleitung import native
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.track import Track

REPEATS = 5
"""Times each option list is built again; the fastest counts."""


@dataclass
class Anatomy:
    """What one query did (pure modules)."""

    searches: int = 0
    states: int = 0
    walks: int = 0
    without_runs: int = 0
    spaces: int = 0
    options: int = 0


def slowest_first(track: str, races: int) -> list[tuple[float, MoveRequest]]:
    """The track's sampled queries (every turn) with their CPU time on the core that runs."""
    return timed_queries(track, requests_on(track, races, 1))[::-1]


def watched(modules: dict[str, ModuleType], track: Track,
            request: MoveRequest) -> tuple[Anatomy, list[MoveOption]]:
    """Count what the pure search keeps for one query; its options with it."""
    movegen: Any = modules["movegen"]
    original: Callable[..., Any] = movegen.search
    seen = Anatomy()
    spaces: set[int] = set()

    def counting(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        seen.searches += 1
        for layer in found.layers:
            seen.states += len(layer)
            seen.walks += sum(len(w) if isinstance(w, dict) else 1 for w in layer.values())
            seen.without_runs += len({(s[0], s[5], s[6], s[7]) for s in layer})
            spaces.update(s[0] for s in layer)
        return found

    movegen.search = counting
    try:
        options: list[MoveOption] = movegen.generate_moves(track, request)
    finally:
        movegen.search = original
    seen.options = len(options)
    seen.spaces = len(spaces)
    return seen, options


def building(options: list[MoveOption]) -> float:
    """Seconds to make these options again from their own values (the fastest of a few)."""
    values = [tuple(option) for option in options]
    make = MoveOption._make
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for value in values:
            make(value)
        best = min(best, time.process_time() - start)
    return best


Row = tuple[float, Anatomy, float]
"""A query's CPU time on the core that runs, what it did (pure modules) and the seconds to build
its options again."""


def rows_for(modules: dict[str, ModuleType], track: Track,
             picked: list[tuple[float, MoveRequest]]) -> list[Row]:
    rows = []
    for seconds, request in picked:
        anatomy, options = watched(modules, track, request)
        rows.append((seconds, anatomy, building(options)))
    return rows


def show(label: str, rows: list[Row], median: float, state_cost: float) -> None:
    def mean(pick: Callable[[Row], float]) -> float:
        return statistics.fmean(pick(row) for row in rows)

    seconds = mean(lambda r: r[0])
    without = mean(lambda r: r[1].without_runs)
    build = mean(lambda r: r[2])
    print(f"{label:<14} {len(rows):4} {seconds * 1e3:7.2f} ms {seconds / median:5.0f}x "
          f"{mean(lambda r: r[1].searches):6.1f} {mean(lambda r: r[1].states):6.0f} "
          f"{without:7.0f} {mean(lambda r: r[1].spaces):6.0f} {mean(lambda r: r[1].walks):6.0f} "
          f"{mean(lambda r: r[1].options):7.0f} {build / median:7.1f}x "
          f"{(without * state_cost + build) / median:7.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--track", default="oval")
    parser.add_argument("--races", type=int, default=3, help="races per bot kind")
    parser.add_argument("--band", type=int, default=40, help="queries around the p99")
    args = parser.parse_args()
    print("core:", "compiled (mypyc)" if native.compiled() else "pure Python")
    monaco = builtin_track("monaco")
    monaco_times = slowest_first("monaco", args.races)
    median = statistics.median(t for t, _ in monaco_times)
    track = builtin_track(args.track)
    times = slowest_first(args.track, args.races)
    p99_at = len(times) // 100
    half, around = len(monaco_times) // 2, args.band // 2
    picks = {
        "Monaco median": (monaco, monaco_times[max(0, half - around): half + around]),
        "p99 band": (track, times[max(0, p99_at - around): p99_at + around]),
        "slowest": (track, times[: args.band // 4 or 1]),
    }
    with native.pure_modules() as modules:
        rows = {label: rows_for(modules, on, picked) for label, (on, picked) in picks.items()}
    middle = rows["Monaco median"]
    state_cost = sum(r[0] for r in middle) / max(sum(r[1].states for r in middle), 1)
    print(f"Monaco: {len(monaco_times)} queries, median {median * 1e6:.0f} µs, "
          f"{state_cost * 1e6:.2f} µs a kept state around it; {args.track}: {len(times)} queries, "
          f"p99 {times[p99_at][0] * 1e3:.2f} ms ({times[p99_at][0] / median:.0f}x), slowest "
          f"{times[0][0] * 1e3:.2f} ms ({times[0][0] / median:.0f}x)")
    print(f"{'queries':<14} {'n':>4} {'time':>10} {'/M':>6} {'search':>6} {'states':>6} "
          f"{'no runs':>7} {'spaces':>6} {'walks':>6} {'options':>7} {'build/M':>8} "
          f"{'floor/M':>8}")
    for label, picked_rows in rows.items():
        show(label, picked_rows, median, state_cost)
    print("M = the Monaco median; search = searches a query runs (the move and each "
          "slipstream); no runs = states if walks forgot their straight run; spaces = distinct "
          "spaces the searches stand on; build = making the answer's options again from their "
          "values; floor = no runs x the time a state costs around the Monaco median + build. "
          "Target 1: p99 <= 10x, slowest < 100x")


if __name__ == "__main__":
    main()
