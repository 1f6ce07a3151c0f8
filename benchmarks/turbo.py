"""Speed of one TURBO 2000 evaluation with 100 bot teams (target: under 1 second).

The game is played for a few rounds first so the measured round has factories, trade lines,
contracts and full grids. Prints the figures; asserts nothing about time.
"""

from __future__ import annotations

import statistics
import time

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.pipeline import evaluate_round
from rennleitung.turbo2000.simulation import bot_round, bot_teams

TEAMS = 100
WARM_UP_ROUNDS = 4
MEASURED_ROUNDS = 3
SEED = "bench"


def main() -> None:
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
