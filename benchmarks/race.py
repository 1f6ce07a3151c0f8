"""Speed of whole races and the strength of the bots (issue 4).

Whole 3-lap races, 10 cars, ``monaco``, ``dresden-2006``: races per second with simple bots and
with strong bots (targets on one core: at least 3 and 0.5), the median time of one strong-bot
decision (target: at most 2 ms) and of one simple-bot decision, and the strong bot against the
simple one in mixed fields (win share and average finishing position). Prints the figures;
asserts nothing about time.

    .venv/bin/python benchmarks/race.py [--races N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Ask, AskKind, Decision
from rennleitung.formula_de.race_run import bot_entries, drive, run_bot_race
from rennleitung.formula_de.race_setup import RaceConfig

TRACK, RULESET, CARS, LAPS = "monaco", "dresden-2006", 10, 3


class Timed:
    """A bot wrapper that times every decision (by kind)."""

    def __init__(self, bot: Bot, times: dict[AskKind, list[float]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def decide(self, race: Race, ask: Ask) -> Decision:
        start = time.perf_counter()
        decision = self.bot.decide(race, ask)
        self.times.setdefault(ask.kind, []).append(time.perf_counter() - start)
        return decision


def races_per_second(bots: str, races: int) -> float:
    start = time.perf_counter()
    for seed in range(races):
        run_bot_race(TRACK, RULESET, CARS, LAPS, f"bench-{bots}-{seed}", bots)
    return races / (time.perf_counter() - start)


def decisions(bot: str, races: int) -> dict[AskKind, list[float]]:
    """Time every decision of ``bot`` in whole races of ten such bots."""
    times: dict[AskKind, list[float]] = {}
    for seed in range(races):
        config = RaceConfig(TRACK, RULESET, bot_entries(CARS), LAPS)
        race = Race.create(config, f"timing-{seed}")
        drive(race, {e.id: Timed(make_bot(bot), times) for e in config.entries})
    return times


def print_decisions(bot: str, races: int, target: str) -> None:
    times = decisions(bot, races)
    every = [t for ts in times.values() for t in ts]
    print(
        f"{bot} decision: median {statistics.median(every) * 1000:.3f} ms over {len(every)} "
        f"decisions ({target})"
    )
    for kind, ts in sorted(times.items()):
        print(
            f"  {kind.value:6} median {statistics.median(ts) * 1000:.3f} ms, "
            f"max {max(ts) * 1000:.1f} ms, n={len(ts)}"
        )


def duel(races: int) -> tuple[float, float, float, float]:
    """Half strong, half simple: win share and average finishing position of each."""
    wins = {"strong": 0, "simple": 0}
    places: dict[str, list[int]] = {"strong": [], "simple": []}
    for seed in range(races):
        bots = ("strong", "simple") if seed % 2 else ("simple", "strong")
        race = run_bot_race(TRACK, RULESET, CARS, LAPS, f"duel-{seed}", bots)
        kind = {e.id: bots[n % 2] for n, e in enumerate(bot_entries(CARS))}
        for placing in race.classification():
            places[kind[placing.car]].append(placing.position)
            if placing.position == 1 and placing.status == "finished":
                wins[kind[placing.car]] += 1
    return (
        wins["strong"] / races,
        wins["simple"] / races,
        statistics.mean(places["strong"]),
        statistics.mean(places["simple"]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=20)
    args = parser.parse_args()
    n = args.races
    print(f"{n} races, {CARS} cars, {LAPS} laps, {TRACK}, {RULESET}")
    print(f"simple bots: {races_per_second('simple', n):.2f} races/s (target >= 3)")
    print(f"strong bots: {races_per_second('strong', n):.2f} races/s (target >= 0.5)")
    print_decisions("strong", max(n // 2, 1), "target <= 2 ms")
    print_decisions("simple", max(n // 2, 1), "aim: well under 0.05 ms")
    strong_wins, simple_wins, strong_place, simple_place = duel(n)
    print(
        f"strong vs simple (5 each): wins {strong_wins:.0%} vs {simple_wins:.0%}, "
        f"average position {strong_place:.2f} vs {simple_place:.2f}"
    )


if __name__ == "__main__":
    main()
