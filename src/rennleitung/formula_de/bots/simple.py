"""The simple bot: plays every die as if it showed its average.

It uses the strong bot's sketch of a move but weighs one face per gear (the rounded mean)
instead of every face with its probability, so it is quicker and blind to the risk of a high
roll before a corner. Moves are chosen with the shared score (``evaluate.option_value``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.formula_de.bots.strong import StrongBot


@dataclass
class SimpleBot(StrongBot):
    name: str = "simple"
    mean_only: bool = True
    wear_scale: float = 1.0
