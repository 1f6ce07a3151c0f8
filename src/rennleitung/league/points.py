"""Championship points for one place ("Rennen": the two-laps rule).

Only the first eight score, and only if they completed at least two full laps: a car that
retired early keeps its classified place but takes no points.
"""

from __future__ import annotations

from rennleitung.league.formats import LeagueFormat


def race_points(fmt: LeagueFormat, position: int, laps_completed: int) -> int:
    """Points for a classified place, after the two-laps rule."""
    if laps_completed < fmt.min_laps_for_points:
        return 0
    if 1 <= position <= len(fmt.race_points):
        return fmt.race_points[position - 1]
    return 0


def qualifying_points(fmt: LeagueFormat, qualified_place: int | None) -> int:
    """Open qualifying points: pole scores the top value, each place behind one less.

    Only drivers placed by their own lap score; a grid slot from the black-die draw scores none
    (the "Open" "Qualifizierung" awards them to the qualified drivers).
    """
    if qualified_place is None or fmt.pole_qualifying_points <= 0:
        return 0
    return max(0, fmt.pole_qualifying_points - (qualified_place - 1))
