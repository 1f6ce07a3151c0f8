"""The strong bot against the simple and the steady one over many seeded races (issue 4, "Bots").

Mixed fields of five strong bots and five of the other kind on ``monaco`` (``dresden-2006``,
10 cars, 3 laps), alternating who takes the odd grid slots. For each pairing it prints the
share of races each kind won (with a 95 % Wilson interval for the strong bots), the average
finishing position of each kind, and the share of races in which the strong bots placed
better on average. Races fan out over ``--jobs`` processes; the figures do not depend on it.

    .venv/bin/python benchmarks/bots.py [--races N] [--jobs J] [--against simple,steady]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from race import CARS, LAPS, RULESET, TRACK

from rennleitung.formula_de.race_run import bot_entries, run_bot_race

TARGET_WINS, TARGET_PLACES = 0.65, 1.5
"""What "clearly" means here: the strong bots win at least 65 % of the races against the
simple one and finish at least 1.5 places better on average."""


@dataclass(frozen=True)
class RaceResult:
    """Who won (``""``: nobody finished) and every car's position by bot name."""

    winner: str
    places: dict[str, list[int]]


def one_race(pair: tuple[str, str], seed: int) -> RaceResult:
    bots = pair if seed % 2 else (pair[1], pair[0])
    race = run_bot_race(TRACK, RULESET, CARS, LAPS, f"bots-{seed}", bots)
    kind = {e.id: bots[n % 2] for n, e in enumerate(bot_entries(CARS))}
    places: dict[str, list[int]] = {name: [] for name in pair}
    winner = ""
    for placing in race.classification():
        places[kind[placing.car]].append(placing.position)
        if placing.position == 1 and placing.status == "finished":
            winner = kind[placing.car]
    return RaceResult(winner, places)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a share (better than ±2σ for shares near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def duel(other: str, races: int, jobs: int) -> tuple[float, float]:
    """Print the figures of strong against ``other``; return strong's win share and lead."""
    pair = ("strong", other)
    seeds = range(races)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(one_race, [pair] * races, seeds))
    else:
        results = [one_race(pair, seed) for seed in seeds]
    wins = {name: sum(r.winner == name for r in results) for name in pair}
    places = {name: [p for r in results for p in r.places[name]] for name in pair}
    better = sum(
        statistics.mean(r.places["strong"]) < statistics.mean(r.places[other]) for r in results
    )
    low, high = wilson(wins["strong"], races)
    print(
        f"strong vs {other}: {races} races, {CARS} cars (5 each), {LAPS} laps, {TRACK}, {RULESET}"
    )
    for name in pair:
        print(
            f"  {name:6}: wins {wins[name] / races:.0%}"
            + (f" (95 % Wilson {low:.0%}–{high:.0%})" if name == "strong" else "")
            + f", average finishing position {statistics.mean(places[name]):.2f}"
        )
    print(f"  strong bots placed better on average in {better / races:.0%} of the races")
    lead = statistics.mean(places[other]) - statistics.mean(places["strong"])
    return wins["strong"] / races, lead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--against", default="simple,steady")
    args = parser.parse_args()
    for other in args.against.split(","):
        share, lead = duel(other, args.races, args.jobs)
        if other == "simple":
            clear = share >= TARGET_WINS and lead >= TARGET_PLACES
            print(
                f"  target (wins >= {TARGET_WINS:.0%}, >= {TARGET_PLACES} places better): "
                + ("met" if clear else "NOT met")
            )


if __name__ == "__main__":
    main()
