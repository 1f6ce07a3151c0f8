"""How driver ratings change: after each race, by training, at the year's end, by accidents.

April 2000 §5 (race results, +2 per year), §4.4 (Stock Car), §1 (training). Ratings are tenths.
"""

from __future__ import annotations

from rennleitung.turbo2000.config import GameConfig

PLACED = "plaziert"
QUALIFIED = "qualifiziert"
NOT_QUALIFIED = "nicht qualifiziert"


def race_gain(outcome: str, place: int, series: str, config: GameConfig) -> int:
    """Gain in tenths for one race. ``place`` counts from 1 among placed cars."""
    if outcome == NOT_QUALIFIED:
        return 0
    if series == "stockcar":
        if outcome == PLACED and place <= config.stockcar_best:
            return config.stockcar_best_gain
        return config.stockcar_placed_gain if outcome == PLACED else config.stockcar_qualified_gain
    if outcome == QUALIFIED:
        return config.qualified_gain
    if place <= len(config.place_gains):
        return config.place_gains[place - 1]
    return config.placed_gain
