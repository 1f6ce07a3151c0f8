"""Formula Dé orders by mail, read against the race's real questions: what a bot decides,
written as a player would write it in German or English, reads back to the same decision."""

from __future__ import annotations

from dataclasses import replace

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    Ask,
    AskKind,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_run import bot_entries
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.mail.fd_orders import order_text, parse_orders


def test_every_bot_decision_reads_back_from_its_mail_text() -> None:
    config = RaceConfig(track="monaco", ruleset="dresden-2006", entries=bot_entries(3), laps=1)
    race = Race.create(config, "mail")
    bot = make_bot("strong")
    kinds: set[AskKind] = set()
    steps = 0
    while race.pending is not None and steps < 2000:
        ask = race.pending
        decision = bot.decide(race, ask)
        data = decision_to_data(race.track, decision)
        language = ("de", "en")[steps % 2]
        text = order_text(data, language)
        parsed, problems = parse_orders(f"# Zug\n\n{text}\n", ask, race.track)
        assert not problems, (ask.kind, text, [p.en for p in problems])
        assert parsed == data or (ask.kind is AskKind.SETUP and parsed is not None)
        assert parsed is not None
        race.apply(decision_from_data(race.track, parsed))
        kinds.add(ask.kind)
        steps += 1
    assert race.finished
    assert {AskKind.TURN, AskKind.MOVE} <= kinds


def _turn_ask() -> tuple[Race, Ask]:
    config = RaceConfig(track="monaco", ruleset="masters-2002", entries=bot_entries(2), laps=1)
    race = Race.create(config, "x")
    bot = make_bot("simple")
    while race.pending is not None and race.pending.kind is not AskKind.TURN:
        race.apply(bot.decide(race, race.pending))
    assert race.pending is not None
    return race, race.pending


def test_errors_name_the_line_in_both_languages() -> None:
    race, ask = _turn_ask()
    _data, problems = parse_orders("Gang 2\nKarma +1\nwas auch immer", ask, race.track)
    assert [(p.line, p.text("de")) for p in problems][:2] == [
        (3, "Zeile 3: nicht verstanden: 'was auch immer'"),
        (2, "Zeile 2: passt nicht zur Frage: gefragt ist Gangwahl")]
    assert problems[0].text("en") == "line 3: not understood: 'was auch immer'"
    _data, missing = parse_orders("Boost", ask, race.track)
    assert missing[0].text("en") == "mail: gear missing (e.g. \"gear 4\")"


def test_a_gear_the_car_cannot_take_lists_the_possible_ones() -> None:
    race, ask = _turn_ask()
    narrow = replace(ask, gears=(1, 2))
    _data, problems = parse_orders("gear 5", narrow, race.track)
    assert problems[0].text("en") == "line 1: gear 5 is not possible, possible: 1, 2"
    data, ok = parse_orders("Gang 2\nBoost\nBox: 8 Punkte, weiche Reifen", narrow, race.track)
    assert not ok
    assert data == {"kind": "turn", "gear": 2, "boost": True,
                    "pit": {"tyre": "soft", "fuel": 8, "repairs": [], "long": False}}


def test_destination_takes_the_cheapest_way_and_unknown_spaces_are_named() -> None:
    race, ask = _turn_ask()
    race.apply(decision_from_data(race.track, {"kind": "turn", "gear": ask.gears[0]}))
    move = race.pending
    assert move is not None and move.kind is AskKind.MOVE
    target = race.track.name_of(max(move.moves, key=lambda o: len(o.path)).end)
    data, problems = parse_orders(f"Ziel {target}", move, race.track)
    assert not problems and data is not None and data["path"][-1] == target
    _none, bad = parse_orders("to Q999", move, race.track)
    assert bad[0].text("en") == "line 1: there is no space Q999 on this track"
