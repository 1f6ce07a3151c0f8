"""Small builders for TURBO 2000 tests: a game, a hired driver, parts in stock, a sheet."""

from __future__ import annotations

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.model import GameState, Part
from rennleitung.turbo2000.notation import parse_part
from rennleitung.turbo2000.pipeline import RoundOutcome, evaluate_round

CONFIG = GameConfig()


def game(*names: str, config: GameConfig = CONFIG) -> GameState:
    return new_game([(name, name.lower()) for name in names], config)


def hire(state: GameState, driver: str, team: str, rating: int = 100, salary: int = 10_000
         ) -> None:
    state.drivers[driver].team = team
    state.drivers[driver].salary = salary
    state.drivers[driver].rating = rating


def stock(state: GameState, team: str, *parts: str) -> None:
    """Put parts like "2 Turbo-W11" or "Honda-M12" into a team's stock."""
    for text in parts:
        count, _, name = text.partition(" ") if " " in text else ("1", "", text)
        spec = parse_part(name)
        assert spec is not None and spec.maker is not None
        state.teams[team].add(Part(spec.maker, spec.kind, spec.rating), int(count))


def sheet(state: GameState, team: str, *lines: str) -> str:
    return "\n".join([f"Rennstall: {team}", f"Passwort: {team.lower()}",
                      f"Runde: {state.round}", *lines]) + "\n"


def run(state: GameState, *sheets: str, seed: str = "t", config: GameConfig = CONFIG
        ) -> RoundOutcome:
    return evaluate_round(state, list(sheets), seed, config)


def notes(outcome: RoundOutcome, team: str) -> str:
    return outcome.team_reports[team]
