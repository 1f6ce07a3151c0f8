"""Properties: no sheet text crashes the parser or the evaluation, and a round keeps the books."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import evaluate_round
from rennleitung.turbo2000.sheet import parse_sheet
from rennleitung.turbo2000.simulation import bot_round, bot_teams

from .helpers import CONFIG

KEYWORDS = ["Rennen F1:", "Rennen DRAG:", "Training:", "an alle:", "an Bot02:", "an Turbo:",
            "Errichtung:", "Bau W:", "Bau R:", "Entwicklung M:", "Elimination:", "Vertrag:",
            "Abstimmung:", "Kontakt:", "Ausstieg", "Einstieg", "Runde:", "Rennstall:", "Biete",
            "Kaufe", "Suche", "Verkaufe", "zu", "ab"]
TOKENS = ["Lauda", "Piquet", "Turbo-W10", "Turbo-M10", "Turbo-R10", "Bot01-R10", "W1+",
          "Honda-M[5-7]", "4 Turbo-R15-", "d=1", "e=2", "d=9", "Q=30", "A=20/20/20", "A=x",
          "1.000", "500.000", "999", "0", "-5", "Bot01-W-Fabrik", "Folgejahr", "Blankovertrag",
          "ja", "nein", "Modernisierung", "Elimination", ":", "[", "]"]

line = st.builds(lambda head, words: " ".join([head, *words]), st.sampled_from(KEYWORDS),
                 st.lists(st.sampled_from(TOKENS), max_size=8))
sheet_text = st.lists(line, max_size=15).map(
    lambda lines: "\n".join(["Rennstall: Bot01", "Passwort: bot01", "Runde: 1", *lines]))


@given(st.text(max_size=400))
def test_parser_never_raises_on_any_text(text: str) -> None:
    sheet = parse_sheet(text, CONFIG)
    lines = len(text.splitlines())
    assert all(0 <= problem.line <= lines for problem in sheet.problems)


def _start() -> GameState:
    strategies = bot_teams(4)
    state = new_game([(name, name.lower()) for name in sorted(strategies)], CONFIG)
    return evaluate_round(state, bot_round(state, strategies, "p", CONFIG), "p", CONFIG).state


START = _start()


def _check_invariants(state: GameState) -> None:
    for team in state.teams.values():
        assert all(count > 0 for count in team.stock.values())
    kinds = [(f.owner, f.kind) for f in state.factories]
    assert len(kinds) == len(set(kinds))
    for factory in state.factories:
        assert all(0 <= digit <= CONFIG.development_digit_max for digit in factory.digits)
    for driver in state.drivers.values():
        assert driver.team is None or driver.team in state.teams


@settings(max_examples=60, deadline=None)
@given(sheet_text, st.text(max_size=10))
def test_any_sheet_evaluates_and_keeps_the_state_sound(text: str, seed: str) -> None:
    sheet = text.replace("Runde: 1", f"Runde: {START.round}")
    outcome = evaluate_round(START, [sheet], seed, CONFIG)
    _check_invariants(outcome.state)
    assert outcome.state.round == START.round + 1
    assert "Bot01" in outcome.team_reports or not outcome.state.teams["Bot01"].active
