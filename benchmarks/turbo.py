"""Speed of TURBO 2000: start-up of `rennleitung turbo check` (target: under 0.5 s) and one
evaluation with 100 bot teams (target: under 1 second).

The start-up is the wall time of the real console script checking a small sheet, median of a few
runs, next to a bare ``python -c pass`` and the import of ``rennleitung.cli.turbo`` alone, so a
loaded machine shows as such. For the evaluation the game is played for a few rounds first so the
measured round has factories, trade lines, contracts and full grids. Prints the figures; asserts
nothing about time. ``--startup`` measures only the start-up.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.pipeline import evaluate_round
from rennleitung.turbo2000.simulation import bot_round, bot_teams

TEAMS = 100
WARM_UP_ROUNDS = 4
MEASURED_ROUNDS = 3
SEED = "bench"


STARTUP_RUNS = 5


def _wall(command: list[str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of a command, output discarded.

    On a shared, loaded machine the CPU time is the fairer figure: wall time then includes the
    time spent waiting for a core."""
    walls, cpus = [], []
    for _ in range(STARTUP_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def startup() -> None:
    """How long `rennleitung turbo check SHEET` takes from start to answer."""
    script = Path(sys.executable).with_name("rennleitung")
    with tempfile.TemporaryDirectory() as folder:
        sheet = Path(folder) / "sheet.txt"
        sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\n"
                         "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 Q=20 "
                         "A=20/20/20\n", encoding="utf-8")
        bare = _wall([sys.executable, "-c", "pass"])
        module = _wall([sys.executable, "-c", "import rennleitung.cli.turbo"])
        check = _wall([str(script), "turbo", "check", str(sheet)])
    print(f"start-up, median of {STARTUP_RUNS} (wall / CPU): `rennleitung turbo check` "
          f"{check[0]:.3f} s / {check[1]:.3f} s (target < 0.5 s); import rennleitung.cli.turbo "
          f"{module[0]:.3f} s / {module[1]:.3f} s; bare python {bare[0]:.3f} s / {bare[1]:.3f} s; "
          f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    startup()
    if "--startup" in sys.argv[1:]:
        return
    config = GameConfig()
    strategies = bot_teams(TEAMS)
    state = new_game([(name, name.lower()) for name in sorted(strategies)], config)
    for _ in range(WARM_UP_ROUNDS):
        state = evaluate_round(state, bot_round(state, strategies, SEED, config), SEED,
                               config).state
    evaluation_times, sheet_times = [], []
    for _ in range(MEASURED_ROUNDS):
        start = time.perf_counter()
        sheets = bot_round(state, strategies, SEED, config)
        sheet_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        outcome = evaluate_round(state, sheets, SEED, config)
        evaluation_times.append(time.perf_counter() - start)
        lines = sum(sheet.count("\n") for sheet in sheets)
        print(f"round {state.round}: {len(sheets)} sheets, {lines} lines, "
              f"{len(outcome.log)} log lines, evaluation {evaluation_times[-1]:.3f} s")
        state = outcome.state
    print(f"one round, {TEAMS} teams: evaluation median {statistics.median(evaluation_times):.3f} s"
          f" (max {max(evaluation_times):.3f} s; target < 1 s); bots writing sheets "
          f"{statistics.median(sheet_times):.3f} s")


if __name__ == "__main__":
    main()
