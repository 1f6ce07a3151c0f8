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
    """June 1996: at most 13 letters and digits (settings ``team_name_max_length``,
    ``team_name_letters_digits``); the maker name "Turbo" is the game master's."""
    pattern = r"[A-Za-z0-9]+" if config.team_name_letters_digits else r"[^\s:/,\-]+"
    if not re.fullmatch(pattern, name) or len(name) > config.team_name_max_length:
        what = ("Buchstaben und Ziffern", "letters and digits") \
            if config.team_name_letters_digits else ("Zeichen ohne Leerzeichen, ':', '/', ',', '-'",
                                                     "characters but spaces, ':', '/', ',', '-'")
        raise TurboError(
            f"Name '{name}': höchstens {config.team_name_max_length} {what[0]}",
            f"name '{name}': at most {config.team_name_max_length} {what[1]}",
            where="--teams")
    if name.lower() == config.reserved_maker.lower():
        raise TurboError(f"'{name}' ist dem Spielleiter vorbehalten",
                         f"'{name}' is reserved for the game master", where="--teams")


MAX_TEAMS = 100
"""Teams of one game (a postal game had a dozen; the evaluation stays quick far beyond)."""


def choose_names(teams: Sequence[tuple[str, str]], reserves: Sequence[str],
                 config: GameConfig) -> list[tuple[str, str]]:
    """June 1996: a team whose name an earlier team took plays under its reserve name
    (``reserves[i]`` for ``teams[i]``, "" for none; setting ``reserve_team_names``)."""
    chosen: list[tuple[str, str]] = []
    taken: set[str] = set()
    for index, (name, password) in enumerate(teams):
        reserve = reserves[index] if index < len(reserves) else ""
        if reserve and not config.reserve_team_names:
            raise TurboError("Reservenamen sind in dieser Partie nicht vorgesehen",
                             "reserve team names are not used in this game", where="--teams")
        if name.lower() in taken and reserve:
            check_team_name(reserve, config)
            name = reserve
        if name.lower() in taken:
            raise TurboError(f"Rennstall '{name}' doppelt", f"team '{name}' twice",
                             where="--teams")
        taken.add(name.lower())
        chosen.append((name, password))
    return chosen


def new_game(teams: Sequence[tuple[str, str]], config: GameConfig,
             reserves: Sequence[str] = ()) -> GameState:
    """State of round 1 for teams given as (name, password), with a reserve name each (June
    1996, ``choose_names``); a game needs at least one team (``--teams ,`` made a game nobody
    plays) and at most ``MAX_TEAMS``. The pool has ``start_drivers`` free drivers (0: three a
    team)."""
    if not 1 <= len(teams) <= MAX_TEAMS:
        raise TurboError(
            f"eine Partie braucht 1 bis {MAX_TEAMS} Rennställe, nicht {len(teams)}",
            f"a game needs 1 to {MAX_TEAMS} teams, not {len(teams)}",
            where="--teams",
        )
    for name, _ in teams:
        check_team_name(name, config)
    teams = choose_names(teams, reserves, config)
    pool = config.start_drivers or config.start_drivers_per_team * len(teams)
    state = GameState(
        round=1,
        teams={name: Team(name, password, config.start_money) for name, password in teams},
        drivers={name: Driver(name, config.start_driver_rating) for name in
                 driver_names(pool)},
        factories=[],
        announcements=[],
        new_factory_rating={},
        wm_points={name: 0 for name, _ in teams},
    )
    state.new_factory_rating = new_factory_ratings(state, config)
    state.announcements = announcements_for(1, state, config)
    return state
