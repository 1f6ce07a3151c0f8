"""The strong bot against the simple one over many seeded races (issue 4, "Bots").

Mixed fields of five strong and five simple bots on ``monaco`` (``dresden-2006``, 3 laps),
alternating who takes the odd grid slots: prints the win share and the average finishing
position of each bot, and the share of races in which the strong bots' average position is the
better one. The figures come from ``benchmarks/race.py``'s duel; this script runs more races.

    .venv/bin/python benchmarks/bots.py [--races N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from race import CARS, LAPS, RULESET, TRACK

from rennleitung.formula_de.race_run import bot_entries, run_bot_race


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=60)
    races = parser.parse_args().races
    wins = {"strong": 0, "simple": 0}
    places: dict[str, list[int]] = {"strong": [], "simple": []}
    strong_better = 0
    for seed in range(races):
        bots = ("strong", "simple") if seed % 2 else ("simple", "strong")
        race = run_bot_race(TRACK, RULESET, CARS, LAPS, f"bots-{seed}", bots)
        kind = {e.id: bots[n % 2] for n, e in enumerate(bot_entries(CARS))}
        this_race: dict[str, list[int]] = {"strong": [], "simple": []}
        for placing in race.classification():
            this_race[kind[placing.car]].append(placing.position)
            if placing.position == 1 and placing.status == "finished":
                wins[kind[placing.car]] += 1
        for name in places:
            places[name].extend(this_race[name])
        strong_better += statistics.mean(this_race["strong"]) < statistics.mean(this_race["simple"])
    print(f"{races} races, {CARS} cars (5 strong, 5 simple), {LAPS} laps, {TRACK}, {RULESET}")
    for name in ("strong", "simple"):
        print(
            f"{name:6}: wins {wins[name] / races:.0%}, "
            f"average finishing position {statistics.mean(places[name]):.2f}"
        )
    print(f"strong bots placed better on average in {strong_better / races:.0%} of the races")


if __name__ == "__main__":
    main()
