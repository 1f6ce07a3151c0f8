"""Bot teams write sheets the parser accepts, and a whole demo game ends with a winner."""

from __future__ import annotations

from rennleitung.turbo2000.bots import STRATEGIES
from rennleitung.turbo2000.sheet import parse_sheet
from rennleitung.turbo2000.simulation import bot_round, bot_teams, play_bot_game

from .helpers import CONFIG


def test_bot_sheets_have_no_problems_in_any_round() -> None:
    strategies = bot_teams(len(STRATEGIES) * 2)
    game = play_bot_game(strategies, 1, "bots", CONFIG)
    sheets = bot_round(game.state, strategies, "bots", CONFIG)
    assert len(sheets) == len(strategies)
    for text in sheets:
        assert parse_sheet(text, CONFIG).problems == []


def test_demo_game_plays_three_years_and_someone_scores() -> None:
    game = play_bot_game(bot_teams(8), 3, "1", CONFIG)
    assert game.state.round == 19
    assert sum(game.state.wm_points.values()) > 0
    assert game.winner() in game.strategies
    assert game.last is not None and "Rennanzeiger Runde 18" in game.last.results_sheet


def test_bots_hire_buy_and_race() -> None:
    game = play_bot_game(bot_teams(5), 1, "x", CONFIG)
    racing = [name for name, s in game.strategies.items() if STRATEGIES[s].races]
    for name in racing:
        assert any(d.team == name for d in game.state.drivers.values())
    assert any(f.owner for f in game.state.factories)


def test_same_seed_same_game_other_seed_other_game() -> None:
    from rennleitung.turbo2000.state_json import dump_state

    first = play_bot_game(bot_teams(5), 1, "7", CONFIG)
    again = play_bot_game(bot_teams(5), 1, "7", CONFIG)
    other = play_bot_game(bot_teams(5), 1, "8", CONFIG)
    assert dump_state(first.state) == dump_state(again.state)
    assert dump_state(first.state) != dump_state(other.state)


def test_full_throttle_and_tyre_supplier_bots_do_what_their_names_say() -> None:
    strategies = {"Bot01": "vollgas", "Bot02": "reifenlieferant", "Bot03": "ausgewogen"}
    from rennleitung.turbo2000.game import new_game

    start = new_game([(name, name.lower()) for name in sorted(strategies)], CONFIG)
    sheets = dict(zip(sorted(strategies), bot_round(start, strategies, "names", CONFIG),
                      strict=True))
    entries = parse_sheet(sheets["Bot01"], CONFIG).entries
    game = play_bot_game(strategies, 1, "names", CONFIG)
    assert entries and all((e.d, e.e) == (CONFIG.max_push, CONFIG.max_push) for e in entries)
    assert game.state.factory("Bot02", "R") is not None
    offers = [o for o in game.state.offers if o.team == "Bot02" and o.maker == "Bot02"]
    assert offers and all(o.price <= CONFIG.turbo_price["R"] for o in offers)
