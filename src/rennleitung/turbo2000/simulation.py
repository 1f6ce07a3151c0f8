"""Whole games played by bot teams: the demo and the balance study use this.

Pure like the rest of the engine: every random choice of a bot comes from a generator seeded by
the game seed, the round and the team.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rennleitung.turbo2000.bots import STRATEGIES, Strategy, bot_sheet
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import RoundOutcome, evaluate_round
from rennleitung.turbo2000.standings import winners, wm_table


@dataclass(frozen=True)
class BotGame:
    """The end of a bot game: final state, the last round's outcome, each team's strategy."""

    state: GameState
    last: RoundOutcome | None
    strategies: dict[str, str]

    def winner(self) -> str:
        """Most WM points among active teams (equal points: the first name)."""
        names, _ = winners(self.state)
        return names[0] if names else wm_table(self.state)[0][1]


def bot_teams(count: int, strategies: Sequence[str] = ()) -> dict[str, str]:
    """Team names ("Bot01" …) with their strategies, cycling through the given or all ones."""
    names = list(strategies) or list(STRATEGIES)
    return {f"Bot{index + 1:02d}": names[index % len(names)] for index in range(count)}


def bot_round(state: GameState, strategies: dict[str, str], seed: str, config: GameConfig,
              table: Mapping[str, Strategy] = STRATEGIES) -> list[str]:
    """The sheets of every active bot team for ``state.round``; ``table`` names the strategies
    (the balance study's search seats strategies nobody wrote by hand)."""
    sheets = []
    for team in sorted(strategies):
        if state.teams[team].active:
            rng = random.Random(f"bot:{seed}:{state.round}:{team}")
            sheets.append(bot_sheet(state, team, table[strategies[team]], config, rng))
    return sheets


def play_bot_game(strategies: dict[str, str], years: int, seed: str, config: GameConfig
                  ) -> BotGame:
    """Play ``years`` racing years (or until the game ends by vote)."""
    state = new_game([(name, name.lower()) for name in sorted(strategies)], config)
    last = None
    for _ in range(years * config.rounds_per_year):
        if state.finished:
            break
        last = evaluate_round(state, bot_round(state, strategies, seed, config), seed, config)
        state = last.state
    return BotGame(state, last, dict(strategies))
