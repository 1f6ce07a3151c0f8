"""The order in which boxes are chosen ("Rennen").

Season: each team chooses one box, the team of the best-placed driver on the grid first.
Open: each driver chooses, in grid order.
"""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.league.formats import BoxChoiceBy
from rennleitung.league.roster import Roster


def box_choice_order(
    grid: Sequence[str], roster: Roster, race: int | None = None
) -> tuple[str, ...]:
    """Team names (season) or driver names (Open), first chooser first; the teams are those
    the drivers drive for in ``race`` (None: after every transfer)."""
    if roster.format.box_choice_by is BoxChoiceBy.DRIVER:
        return tuple(grid)
    teams = (roster.team_in_race(roster.driver(name, "grid").name, race) if race is not None
             else roster.current_team(roster.driver(name, "grid").name) for name in grid)
    return tuple(dict.fromkeys(teams))
