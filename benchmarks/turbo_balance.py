"""Balance of the reconstructed TURBO 2000 rules: win shares of fixed bot strategies.

Each game seats two teams of every strategy (seats shuffled by the seed) and plays three racing
years; the winner has the most WM points (April 2000 §20). A healthy reconstruction lets no
single fixed strategy win almost every game. Prints the shares; asserts nothing.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import replace

from rennleitung.turbo2000.bots import STRATEGIES
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.simulation import play_bot_game

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
YEARS = 3
PER_STRATEGY = 2


def seating(seed: int) -> dict[str, str]:
    names = [name for name in STRATEGIES for _ in range(PER_STRATEGY)]
    random.Random(f"seats:{seed}").shuffle(names)
    return {f"Bot{index + 1:02d}": name for index, name in enumerate(names)}


VARIANTS: dict[str, GameConfig] = {
    "default (maker points = team points)": GameConfig(),
    "maker points halved": replace(GameConfig(), maker_wm_points=(5, 3, 2, 2, 1, 0)),
    "no maker points": replace(GameConfig(), maker_wm_points=()),
}
"""Settings a game master might choose; the study runs each the same way."""


def study(title: str, config: GameConfig) -> None:
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    start = time.perf_counter()
    for seed in range(GAMES):
        game = play_bot_game(seating(seed), YEARS, str(seed), config)
        wins[game.strategies[game.winner()]] += 1
        for team, value in game.state.wm_points.items():
            points[game.strategies[team]] += value
    elapsed = time.perf_counter() - start
    print(f"{title}: {GAMES} games, {len(STRATEGIES) * PER_STRATEGY} teams, {YEARS} years each "
          f"({elapsed:.1f} s)")
    print(f"{'strategy':<14} {'wins':>5} {'share':>7} {'mean WM points/team':>20}")
    for name in STRATEGIES:
        share = wins[name] / GAMES
        mean = points[name] / (GAMES * PER_STRATEGY)
        print(f"{name:<14} {wins[name]:>5} {share:>7.1%} {mean:>20.1f}")
    print()


def main() -> None:
    for title, config in VARIANTS.items():
        study(title, config)


if __name__ == "__main__":
    main()
