"""The evaluation of one round: a pure function from (state N, sheets, seed) to state N+1, a log of
every step and die, the public results sheet and one report per team. Steps in the order of the
reconstruction brief; nothing here reads or writes files.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.contracts import run_contracts
from rennleitung.turbo2000.departure import run_departures
from rennleitung.turbo2000.eliminations import run_eliminations
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.factories import new_factory_ratings, run_factories
from rennleitung.turbo2000.intake import take_in
from rennleitung.turbo2000.market import run_market
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.money import settle_round_money
from rennleitung.turbo2000.races import run_races
from rennleitung.turbo2000.reports import results_sheet, team_report
from rennleitung.turbo2000.season import close_round
from rennleitung.turbo2000.training import run_training
from rennleitung.turbo2000.turn import Turn, round_random


@dataclass(frozen=True)
class RoundOutcome:
    state: GameState
    log: tuple[str, ...]
    results_sheet: str
    team_reports: dict[str, str]


def evaluate_round(state: GameState, sheets: Sequence[str], seed: str,
                   config: GameConfig) -> RoundOutcome:
    """Evaluate ``state.round``; ``sheets`` in the order received. The input is not changed."""
    if state.finished:
        raise TurboError("Die Partie ist beendet", "the game is over", where=f"Runde {state.round}")
    evaluated = state.round
    turn = Turn(copy.deepcopy(state), config, round_random(seed, evaluated))
    take_in(turn, sheets)
    leaving = run_departures(turn)
    settle_round_money(turn)
    run_factories(turn)
    run_market(turn, leaving)
    run_contracts(turn)
    run_training(turn)
    run_races(turn)
    run_eliminations(turn)
    close_round(turn)
    turn.begin("9 Berichte")
    turn.state.new_factory_rating = new_factory_ratings(turn.state, config)
    reports = {team.name: team_report(turn, team.name, evaluated)
               for team in turn.state.teams.values() if team.active or team.name in leaving}
    return RoundOutcome(turn.state, tuple(turn.log), results_sheet(turn, evaluated), reports)
