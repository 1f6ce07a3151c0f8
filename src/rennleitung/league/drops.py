"""Drop results ("Rennen": two "Streichresultate" per driver in the season).

A driver may name the races he drops; any drop not named falls on his lowest results. During
the season the rule is read as "the best (races − drops) results count": drops not named only
take effect once more races have been held than will count in the end. Named drops apply at
once. At the end of the season this is exactly "two races do not count".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueFormat


def dropped_races(
    fmt: LeagueFormat,
    points_by_race: Mapping[int, int],
    held_races: Collection[int],
    named: Collection[int] = (),
) -> frozenset[int]:
    """The races whose points do not count for this driver.

    ``points_by_race`` has the driver's points per held race (absent: 0 or missing).
    Ties among the lowest results drop the earlier race; the total is the same either way.
    """
    check_named_drops(fmt, named)
    named_held = {race for race in named if race in held_races}
    in_effect = max(0, len(held_races) - (fmt.races - fmt.drop_results))
    still_to_drop = max(0, in_effect - len(named_held))
    candidates = sorted(
        (race for race in held_races if race not in named_held),
        key=lambda race: (points_by_race.get(race, 0), race),
    )
    return frozenset(named_held | set(candidates[:still_to_drop]))


def check_named_drops(fmt: LeagueFormat, named: Collection[int]) -> None:
    """Named drops: at most the format's number, distinct, each a race of the league."""
    races = list(named)
    if len(races) > fmt.drop_results:
        raise RennleitungError(
            f"höchstens {fmt.drop_results} Streichresultate erlaubt, genannt: {sorted(races)}",
            f"at most {fmt.drop_results} drop results allowed, named: {sorted(races)}",
            "drops",
        )
    if len(set(races)) != len(races):
        raise RennleitungError(
            f"ein Rennen ist doppelt gestrichen: {sorted(races)}",
            f"a race is dropped twice: {sorted(races)}",
            "drops",
        )
    for race in races:
        if not 1 <= race <= fmt.races:
            raise RennleitungError(
                f"Rennen {race} gibt es nicht (1 bis {fmt.races})",
                f"there is no race {race} (1 to {fmt.races})",
                "drops",
            )
