"""Soak test: many seeded bot races under every preset, each replayed and verified.

Prints how many races failed (an exception, a broken invariant, a replay that differs, a record
that does not verify); the target is none. ``--races N`` (default 1000).

    .venv/bin/python benchmarks/soak.py --races 1000
"""

from __future__ import annotations

import argparse
import time
import traceback
from collections import Counter

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_run import bot_entries, drive
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.record import race_digest, record_from_data, record_of
from rennleitung.formula_de.replay import verify
from rennleitung.formula_de.ruleset import PRESETS

PRESET_NAMES = tuple(PRESETS)
BOT_MIXES = (("simple",), ("strong",), ("simple", "strong"))


def invariants(race: Race) -> None:
    spaces = Counter(s.space for s in race.cars.values() if s.status.on_track)
    if any(n > 1 for n in spaces.values()):
        raise AssertionError("two cars on one space")
    for car, state in race.cars.items():
        if state.status in (CarStatus.OUT, CarStatus.WRECK) and race.info[car].retirement is None:
            raise AssertionError(f"{car} retired without a cause")


def one(n: int) -> None:
    ruleset = PRESET_NAMES[n % len(PRESET_NAMES)]
    bots = BOT_MIXES[(n // len(PRESET_NAMES)) % len(BOT_MIXES)]
    cars = PRESETS[ruleset].players or 2 + n % 9
    seed = f"soak-{n}"
    config = RaceConfig("monaco", ruleset, bot_entries(cars), laps=1 + n % 3)
    race = Race.create(config, seed)
    drive(
        race,
        {e.id: make_bot(bots[i % len(bots)]) for i, e in enumerate(config.entries)},
        invariants,
    )
    for car in race.grid_order:
        info = race.info[car]
        for done in info.passes:
            if not (done.made >= done.required or done.penalty or done.eliminated or done.neutral):
                raise AssertionError(f"{car} left corner {done.corner} without its stops")
    data = record_of(race, seed)
    verdict = verify(record_from_data(data))
    if not verdict.honest:
        raise AssertionError("; ".join(verdict.problems))
    if data["summary"]["digest"] != race_digest(race):
        raise AssertionError("digest")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=1000)
    args = parser.parse_args()
    failed = 0
    start = time.perf_counter()
    for n in range(args.races):
        try:
            one(n)
        except Exception:
            failed += 1
            print(f"race {n} failed:")
            traceback.print_exc()
    elapsed = time.perf_counter() - start
    print(f"{args.races} races, {failed} failed, {elapsed:.0f} s")


if __name__ == "__main__":
    main()
