"""Which gears a driver may choose, and what skipping gears costs.

Dresden "Auto" and Masters 6-2, 13: one gear up, the same, or one down are free; shifting down
further costs points from the ``skip_gear_costs`` table (1 fuel; + 1 brakes; + 1 engine) and is
impossible without a fuel point (Dresden "Verschleiß": the last fuel point ends skipping) or from
6th straight to 1st. Up is never more than one gear at a time.
"""

from __future__ import annotations

from rennleitung.formula_de.car import Wear, WearArea
from rennleitung.formula_de.ruleset import Ruleset

TOP_GEAR = 6


def gears_skipped(current: int, gear: int) -> int:
    """Gears jumped over on a downshift from ``current`` to ``gear`` (0 when free)."""
    return max(current - gear - 1, 0)


def skip_cost(ruleset: Ruleset, current: int, gear: int) -> dict[WearArea, int]:
    """Wear points the downshift costs (Masters 13-1, 13-2)."""
    return ruleset.skip_cost(gears_skipped(current, gear))


def legal_gears(
    ruleset: Ruleset, current: int, wear: Wear, max_gear: int | None = None
) -> tuple[int, ...]:
    """Every gear the driver may pick for the next roll."""
    found = []
    for gear in range(1, TOP_GEAR + 1):
        if gear > current + 1 or (max_gear is not None and gear > max_gear):
            continue
        if current == TOP_GEAR and gear == 1:
            continue  # Dresden "Verschleiß"; Masters 6-1-2: never 6th to 1st
        skipped = gears_skipped(current, gear)
        if skipped > len(ruleset.skip_gear_costs):
            continue
        if skipped and wear[WearArea.FUEL] < 1:
            continue
        cost = ruleset.skip_cost(skipped)
        if all(wear[area] >= points for area, points in cost.items()):
            found.append(gear)
    if not found and max_gear is not None:
        return (min(max_gear, max(current, 1)),)
    return tuple(found)
