"""The eternal WM list and the winner of the game (April 2000 §20).

Points a team won before it left (§19) stay in the list: they were won in races that happened.
A team that has left earns nothing more (see ``races``) and cannot win the game, so the winner is
the active team with the most points; teams level on points share the win. [reconstructed]
"""

from __future__ import annotations

from rennleitung.turbo2000.model import GameState


def wm_table(state: GameState) -> list[tuple[int, str, int]]:
    """Eternal WM list: (place, team, points), most points first, then by name."""
    ordered = sorted(state.wm_points.items(), key=lambda item: (-item[1], item[0]))
    return [(index, name, points) for index, (name, points) in enumerate(ordered, start=1)]


def still_scoring(state: GameState, team: str) -> bool:
    """Only a team still in the game earns WM points and prizes as a maker."""
    known = state.teams.get(team)
    return known is not None and known.active


def winners(state: GameState) -> tuple[list[str], int]:
    """The active teams with the most WM points, and those points."""
    points = {name: state.wm_points.get(name, 0) for name, team in state.teams.items()
              if team.active}
    if not points:
        return [], 0
    best = max(points.values())
    return sorted(name for name, value in points.items() if value == best), best
