"""The evaluation of one round: a pure function from (state N, sheets, seed) to state N+1, a log of
every step and die, the public results sheet and one report per team. Steps in the order of the
reconstruction brief; nothing here reads or writes files.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.contracts import run_contracts
from rennleitung.turbo2000.departure import run_departures
from rennleitung.turbo2000.document import Document, as_text
from rennleitung.turbo2000.eliminations import run_eliminations
from rennleitung.turbo2000.errors import Problem, TurboError
from rennleitung.turbo2000.factories import new_factory_ratings, run_factories
from rennleitung.turbo2000.intake import take_in
from rennleitung.turbo2000.market import run_market
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.money import settle_round_money
from rennleitung.turbo2000.races import run_races
from rennleitung.turbo2000.reports import history_point, results_document, team_document
from rennleitung.turbo2000.season import close_round
from rennleitung.turbo2000.sheet import parse_sheet
from rennleitung.turbo2000.team_data import as_json, team_data
from rennleitung.turbo2000.training import run_training
from rennleitung.turbo2000.turn import Turn, round_random


@dataclass(frozen=True)
class RoundOutcome:
    """Everything one evaluation produces; the CLI stores each piece as its own file."""

    state: GameState
    log: tuple[str, ...]
    results_sheet: str
    team_reports: dict[str, str]
    rejections: dict[str, tuple[Problem, ...]]
    """Every order that was not carried out, by team (the same texts as in the reports)."""
    results_document: Document
    team_documents: dict[str, Document]
    """The same reports as sections and tables, for the HTML pages."""
    tally: dict[str, int]
    """Counts for the balance study: sections, risk-table rows, Formel N races and caps."""
    team_json: dict[str, str] = field(default_factory=dict)
    """The machine-readable report of each team (``team_data``), as JSON text."""
    team_reports_en: dict[str, str] = field(default_factory=dict)
    """Each team's report in English only, for a team playing in English (issue 24)."""
    team_documents_en: dict[str, Document] = field(default_factory=dict)
    """The English reports as documents, for their HTML pages (``reports/TEAM.en.html``)."""
    results_document_en: Document | None = None
    """The results sheet in English only (``rennanzeiger.en.txt`` and ``.en.html``)."""


def evaluate_round(state: GameState, sheets: Sequence[str], seed: str,
                   config: GameConfig, reports: bool = True) -> RoundOutcome:
    """Evaluate ``state.round``; ``sheets`` in the order received. The input is not changed.

    ``reports=False`` leaves the results sheet and the team reports empty (the state, log,
    rejections and tally are the same): the balance benchmark plays thousands of rounds nobody
    reads, and writing the reports was almost half the time of a round."""
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
    turn.state.history.append(history_point(turn.state, evaluated))
    rejections = {team: tuple(problems) for team, problems in turn.rejections.items()}
    if not reports:
        return RoundOutcome(turn.state, tuple(turn.log), "", {}, rejections,
                            Document("", ()), {}, dict(turn.tally))
    documents = {team.name: team_document(turn, team.name, evaluated)
                 for team in turn.state.teams.values() if team.active or team.name in leaving}
    english = {name: team_document(turn, name, evaluated, "en") for name in documents}
    results = results_document(turn, evaluated)
    return RoundOutcome(turn.state, tuple(turn.log), as_text(results),
                        {name: as_text(doc) for name, doc in documents.items()}, rejections,
                        results, documents, dict(turn.tally),
                        {name: as_json(team_data(turn, name, evaluated)) for name in documents},
                        {name: as_text(doc) for name, doc in english.items()},
                        english, results_document(turn, evaluated, "en"))


def preview_problems(text: str, state: GameState, config: GameConfig) -> list[Problem]:
    """What the evaluation would refuse of this sheet if no other team sent anything.

    ``turbo check --game`` shows these after the sheet's own problems: a driver bid for by
    another team or a trade that others answer can still turn out differently.
    """
    sheet = parse_sheet(text, config)
    if sheet.team not in state.teams or state.finished:
        return []
    outcome = evaluate_round(state, [text], "preview", config)
    own = set(sheet.problems)
    return [p for p in outcome.rejections.get(sheet.team, ()) if p not in own]
