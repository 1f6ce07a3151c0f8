"""A new game: teams, the pool of free drivers at rating 10.0, and round 1's announcements."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.driver_names import driver_names
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.factories import new_factory_ratings
from rennleitung.turbo2000.model import Driver, GameState, Team
from rennleitung.turbo2000.season import announcements_for


def check_team_name(name: str, config: GameConfig) -> None:
    """June 1996: at most 13 letters and digits; the maker name "Turbo" is the game master's."""
    if not re.fullmatch(r"[A-Za-z0-9]+", name) or len(name) > config.team_name_max_length:
        raise TurboError(
            f"Name '{name}': höchstens {config.team_name_max_length} Buchstaben und Ziffern",
            f"name '{name}': at most {config.team_name_max_length} letters and digits",
            where="--teams")
    if name.lower() == config.reserved_maker.lower():
        raise TurboError(f"'{name}' ist dem Spielleiter vorbehalten",
                         f"'{name}' is reserved for the game master", where="--teams")


MAX_TEAMS = 100
"""Teams of one game (a postal game had a dozen; the evaluation stays quick far beyond)."""


def new_game(teams: Sequence[tuple[str, str]], config: GameConfig) -> GameState:
    """State of round 1 for teams given as (name, password); a game needs at least one team
    (``--teams ,`` made a game nobody plays) and at most ``MAX_TEAMS``."""
    if not 1 <= len(teams) <= MAX_TEAMS:
        raise TurboError(
            f"eine Partie braucht 1 bis {MAX_TEAMS} Rennställe, nicht {len(teams)}",
            f"a game needs 1 to {MAX_TEAMS} teams, not {len(teams)}",
            where="--teams",
        )
    seen: set[str] = set()
    for name, _ in teams:
        check_team_name(name, config)
        if name.lower() in seen:
            raise TurboError(f"Rennstall '{name}' doppelt", f"team '{name}' twice",
                             where="--teams")
        seen.add(name.lower())
    state = GameState(
        round=1,
        teams={name: Team(name, password, config.start_money) for name, password in teams},
        drivers={name: Driver(name, config.start_driver_rating) for name in
                 driver_names(config.start_drivers_per_team * len(teams))},
        factories=[],
        announcements=[],
        new_factory_rating={},
        wm_points={name: 0 for name, _ in teams},
    )
    state.new_factory_rating = new_factory_ratings(state, config)
    state.announcements = announcements_for(1, state, config)
    return state
