"""A driver changing team during the season: a transfer "from race N".

Dresden "Saison" scores the constructors' championship with the points a team's drivers score
for it; the rules do not forbid a driver changing team, and say nothing about how. Decision
(``docs/league/rules.md#transfers``): a transfer is entered once, names the new team and the
first race the driver drives for it, and every point of that race and later ones goes to the
new team; the points scored before stay with the old one. The driver's own points and karma are
his, whichever team he drives for. At most ``team_size`` drivers drive for one team in any race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Transfer:
    """``driver`` drives for ``team`` from race ``from_race`` on (until a later transfer)."""

    driver: str
    team: str
    from_race: int


def team_in_race(start_team: str, transfers: Sequence[Transfer], driver: str, race: int) -> str:
    """The team ``driver`` (who joined ``start_team``) drives for in ``race``."""
    team = start_team
    for transfer in sorted(transfers, key=lambda t: t.from_race):
        if transfer.driver == driver and transfer.from_race <= race:
            team = transfer.team
    return team
