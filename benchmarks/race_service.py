"""Speed of the race service (issue 12, "Races are not stored").

A 10-car, 3-lap race on ``monaco`` under ``dresden-2006``, every seat a person's, played through
``RaceService`` on an SQLite file (persons answer as the simple bot would, chosen outside the
timing). Prints:

- applying one decision to a live race, database write and commit included: median and 90th
  percentile (target: median under 5 ms on SQLite), and the engine's share of it;
- rebuilding the finished race in a fresh service, as after a restart, both ways: from its
  latest snapshot (target: at most a tenth of the full replay's CPU time; the older logs are
  read only when someone reads them, printed apart) and, with the snapshots removed, by
  replaying every stored decision (target: under 300 ms), and the engine's replay alone.

Wall-clock and CPU time are both printed: on a machine shared with other work the wall clock
also counts the time spent waiting for a core. Asserts nothing about time. ``--pg URL`` runs
the same on PostgreSQL.

    .venv/bin/python benchmarks/race_service.py [--pg postgresql+psycopg://…]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race_run import DRIVER_NAMES
from rennleitung.play import RaceService, RaceSpec, RaceState, SeatKind, SeatSpec
from rennleitung.play import engine as eng
from rennleitung.store.race_tables import PlaySnapshotRow

TRACK, RULESET, CARS, LAPS = "monaco", "dresden-2006", 10, 3
APPLY_TARGET_MS, REBUILD_TARGET_MS = 5.0, 300.0
SNAPSHOT_SHARE = 0.1
"""A rebuild from the latest snapshot takes at most this share of the full replay (CPU)."""


def spec() -> RaceSpec:
    seats = tuple(
        SeatSpec(car=f"car{n}", driver=DRIVER_NAMES[n - 1], kind=SeatKind.PERSON)
        for n in range(1, CARS + 1)
    )
    return RaceSpec(track=TRACK, ruleset=RULESET, laps=LAPS, seats=seats)


def play(service: RaceService, seed: str) -> tuple[int, list[float], list[float], list[float]]:
    """A whole race through the service: the wall-clock and the CPU time of every apply, and
    the time of the engine's part of each."""
    race_id = service.create_race(spec(), seed=seed)
    for n in range(1, CARS + 1):
        service.join(race_id, f"acc{n}", car=f"car{n}")
    service.start(race_id)
    bot = make_bot("simple")
    applies: list[float] = []
    cpu: list[float] = []
    engine_part: list[float] = []
    race = service.race(race_id)
    version = eng.version(race)
    state = RaceState.RUNNING
    while state is RaceState.RUNNING:
        ask = eng.questions(race)[0]
        decision = bot.decide(race, ask)
        start, start_cpu = time.perf_counter(), time.thread_time()
        applied = service.apply(race_id, ask.car, decision, version, holder=f"acc{ask.car[3:]}")
        applies.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        version, state = applied.version, applied.state
        race = service.race(race_id)
    # the engine alone, the same decisions replayed on a bare race
    bare = service.race(race_id)
    replay = eng.new_race(bare.config, seed)
    for car, decision in bare.decisions:
        start = time.perf_counter()
        eng.apply(replay, car, decision)
        engine_part.append(time.perf_counter() - start)
    return race_id, applies, cpu, engine_part


def rebuild(
    url: str, race_id: int, times: int, logs: list[float] | None = None
) -> tuple[list[float], list[float]]:
    """Fresh services (nothing in memory) rebuilding the race from the store: wall-clock and
    CPU times; with ``logs``, also the time to read the whole event log afterwards (a race
    rebuilt from its snapshot reads its older events only then)."""
    taken: list[float] = []
    cpu: list[float] = []
    for _ in range(times):
        service = RaceService.open(url)
        start, start_cpu = time.perf_counter(), time.thread_time()
        race = service.race(race_id)
        taken.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        if logs is not None:
            start = time.perf_counter()
            len(race.events) + len(race.decisions) + len(race.dice.history)
            logs.append(time.perf_counter() - start)
        service.engine.dispose()
    return taken, cpu


def drop_snapshots(url: str, race_id: int) -> int:
    """Remove the race's snapshots, as for a race stored before they were kept: the next
    rebuild replays every decision. Returns how many there were."""
    service = RaceService.open(url)
    with service.engine.begin() as connection:
        gone = connection.execute(
            delete(PlaySnapshotRow).where(PlaySnapshotRow.race_id == race_id)
        ).rowcount
    service.engine.dispose()
    return int(gone)


def engine_replay(service: RaceService, race_id: int, seed: str, times: int) -> list[float]:
    race = service.race(race_id)
    taken: list[float] = []
    for _ in range(times):
        start = time.perf_counter()
        eng.replay(eng.new_race(race.config, seed), race.decisions)
        taken.append(time.perf_counter() - start)
    return taken


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def run(url: str, label: str) -> None:
    service = RaceService.open(url)
    seed = "benchmark-race-service"
    race_id, applies, cpu, engine_part = play(service, seed)
    decisions = len(applies)
    print(f"[{label}] {CARS} cars, {LAPS} laps, {TRACK}, {RULESET}: {decisions} decisions")
    applies.sort()
    print(
        f"  apply (live race + database write), median {ms(statistics.median(applies))} "
        f"(target < {APPLY_TARGET_MS:.0f} ms), p90 {ms(applies[int(len(applies) * 0.9)])}; "
        f"CPU time median {ms(statistics.median(cpu))}; "
        f"engine alone median {ms(statistics.median(engine_part))}"
    )
    logs: list[float] = []
    snap, snap_cpu = rebuild(url, race_id, 5, logs)
    kept = drop_snapshots(url, race_id)
    taken, taken_cpu = rebuild(url, race_id, 5)
    bare = engine_replay(service, race_id, seed, 3)
    print(
        f"  rebuild finished race from the store, replaying every decision: median "
        f"{ms(statistics.median(taken))} (target < {REBUILD_TARGET_MS:.0f} ms), CPU time "
        f"{ms(statistics.median(taken_cpu))}; engine replay alone {ms(statistics.median(bare))}"
    )
    share = statistics.median(snap_cpu) / statistics.median(taken_cpu)
    print(
        f"  rebuild finished race from its latest snapshot ({kept} kept): median "
        f"{ms(statistics.median(snap))}, CPU time {ms(statistics.median(snap_cpu))}, "
        f"{share:.1%} of the full replay (target <= {SNAPSHOT_SHARE:.0%}); reading its whole "
        f"logs afterwards {ms(statistics.median(logs))}"
    )
    service.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="also run on this PostgreSQL URL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", "SQLite")
    if args.pg:
        run(args.pg, "PostgreSQL")


if __name__ == "__main__":
    main()
