"""The constructors' championship ("Saison", "Open": the team with the most points).

Decision: drop results do not apply here. Dresden makes the drops a choice each pilot makes for
his own total ("jeder Pilot" in "Rennen"); a team's score is every point its drivers scored,
race and qualifying points alike, including a car driven by the team-mate. A driver who changed
team (``transfers.py``) scores each race for the team he drove for in that race. Ties: countback
over the places the team's cars took, then a shared rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.league.countback import countback_key
from rennleitung.league.driver_standings import deepest_place
from rennleitung.league.race_scores import race_scores
from rennleitung.league.ranking import ranked
from rennleitung.league.season import League


@dataclass(frozen=True)
class TeamStanding:
    """One line of the constructors' table."""

    rank: int
    team: str
    drivers: tuple[str, ...]
    points: int
    points_by_race: tuple[tuple[int, int], ...]
    """(race number, team points in that race) for every held race."""
    places: tuple[int, ...]


def constructor_standings(league: League) -> tuple[TeamStanding, ...]:
    """The constructors' table, leader first."""
    lines = []
    for team in league.roster.teams:
        members = league.roster.ever_members(team)
        by_race = dict.fromkeys(league.held_races(), 0)
        places: list[int] = []
        for member in members:
            for score in race_scores(league, member):
                if league.roster.team_in_race(member, score.race) != team:
                    continue
                by_race[score.race] += score.points
                if score.position is not None:
                    places.append(score.position)
        lines.append(
            TeamStanding(0, team, members, sum(by_race.values()), tuple(by_race.items()),
                         tuple(places))
        )
    depth = deepest_place(league)
    ordered = ranked(
        lines,
        key=lambda line: (-line.points, *countback_key(line.places, depth)),
        name=lambda line: line.team,
    )
    return tuple(
        TeamStanding(rank, t.team, t.drivers, t.points, t.points_by_race, t.places)
        for rank, t in ordered
    )
