"""The steady bot: the strong bot's machinery, but every die is played as if it showed its mean.

It sketches each move like the strong bot and scores it with the same move score, weighing one
face per gear (the rounded mean) instead of every face with its probability: blind to the risk
of a high roll before a corner. Kept as a yardstick between the simple and the strong bot.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.formula_de.bots.base import DEFAULT, Strategy
from rennleitung.formula_de.bots.strong import StrongBot


@dataclass
class SteadyBot(StrongBot):
    """The sketch alone (no exact second look) and the shared setup."""

    name: str = "steady"
    mean_only: bool = True
    exact: int = 0
    strategy: Strategy = DEFAULT
