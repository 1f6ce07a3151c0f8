"""The standing order ``Wenn zu viel: bremsen, Spur halten`` / ``if too many: brake, keep lane``:
read with the gear, refused elsewhere or misspelt (naming the line), and used on a real race's
move question when the roll is too many."""

from __future__ import annotations

import json

from sqlalchemy import select

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.movement import Elimination, MoveOption
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import AskKind, decision_from_data, decision_to_data
from rennleitung.formula_de.race_questions import MoveQuestion
from rennleitung.formula_de.race_run import bot_entries
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.mail.fd_game import holder_of
from rennleitung.mail.fd_orders import STANDING, option_cost, order_text, parse_orders
from rennleitung.mail.fd_standing import brake_keep_lane, too_many
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play import Actor, RaceState
from rennleitung.play.engine import question_of
from rennleitung.store.mail_tables import MailInRow

from .conftest import SmtpServer, body_of, plain_mail
from .test_mail_fd import PLAYERS, Clock, _race


def _race_at(kind: AskKind) -> Race:
    config = RaceConfig(track="monaco", ruleset="dresden-2006", entries=bot_entries(3), laps=1)
    race = Race.create(config, "standing")
    bot = make_bot("simple")
    while race.pending is not None and race.pending.kind is not kind:
        race.apply(bot.decide(race, race.pending))
    return race


def test_the_order_is_read_with_the_gear_in_both_languages() -> None:
    race = _race_at(AskKind.TURN)
    ask = race.pending
    assert ask is not None
    gear = ask.gears[0]
    for text in (f"Gang {gear}\nWenn zu viel: bremsen, Spur halten",
                 f"gear {gear}\nif too many: keep lane and brake.",
                 f"Gang {gear}\nfalls zu viele: Spur halten und bremsen"):
        data, problems = parse_orders(text, ask, race.track)
        assert not problems, [p.en for p in problems]
        assert data is not None and data[STANDING] == "brake_keep_lane"
        assert order_text(data, "de").endswith("Wenn zu viel: bremsen, Spur halten")
    data, _ = parse_orders(f"Gang {gear}", ask, race.track)
    assert data is not None and STANDING not in data


def test_a_misspelt_or_misplaced_order_names_its_line() -> None:
    race = _race_at(AskKind.TURN)
    ask = race.pending
    assert ask is not None
    _, problems = parse_orders(f"Gang {ask.gears[0]}\n\nWenn zu viel: links überholen", ask,
                               race.track)
    assert [p.text("de") for p in problems] == [
        "Zeile 3: Dauerauftrag nicht verstanden; möglich ist nur \"Wenn zu viel: bremsen, "
        "Spur halten\""]
    race.apply(make_bot("simple").decide(race, ask))
    move = race.pending
    assert move is not None and move.kind is AskKind.MOVE
    _, problems = parse_orders("if too many: brake, keep lane", move, race.track)
    assert [p.text("en") for p in problems] == [
        "line 1: does not fit the question: asked is the move"]


def test_too_many_and_the_move_it_takes() -> None:
    free = MoveOption(1, (2, 3, 4))
    overshoot = MoveOption(1, (2, 5, 6), tyres=1, lane_changes=1)
    braked_across = MoveOption(1, (2, 5), brakes=1, lane_changes=1)
    braked_hard = MoveOption(1, (2,), brakes=2)
    braked = MoveOption(1, (2, 3), brakes=1)
    out = MoveOption(1, (2, 3, 4, 7), tyres=2, eliminated=Elimination.TYRES_OVERSHOOT)
    assert not too_many((free, overshoot, braked))
    assert brake_keep_lane((free, overshoot, braked)) is None  # the player chooses
    across = MoveOption(1, (2, 5, 6), lane_changes=1)  # usable only by leaving the lane
    assert too_many((across, braked)) and brake_keep_lane((across, braked)) == braked
    options = (overshoot, braked_across, braked_hard, braked, out)
    assert too_many(options)
    assert brake_keep_lane(options) == braked  # in lane, least braking
    assert brake_keep_lane((overshoot, braked_across, out)) is None  # no lane to keep


def test_by_mail_the_order_answers_the_move_when_the_roll_is_too_many(
        service: MailService, smtp: SmtpServer) -> None:
    """Anna always asks for the highest gear with the standing order; the other questions are
    answered as the simple bot would. Every turn's answer says what became of the order, and
    where it was used, her move is the cheapest in her lane."""
    clock = Clock()
    races, race_id = _race(service, clock)
    bot = make_bot("simple")
    used = unused = 0
    for _step in range(3000):
        if races.info(race_id).state is not RaceState.RUNNING or used >= 2:
            break
        race = races.race(race_id)
        asked = [a for a in (question_of(race, c) for c in PLAYERS) if a is not None]
        assert asked, "with the bots answering at once, a person is always asked"
        ask = asked[0]
        address = PLAYERS[ask.car][0]
        if ask.car == "car1" and ask.kind is AskKind.TURN:
            text = f"Gang {max(ask.gears)}\nWenn zu viel: bremsen, Spur halten\n"
            code = next(b.token for b in service.bindings("gp") if b.seat == "car1")
            service.receive(plain_mail(address, f"Re: [v{race.version}] [Code {code}]", text),
                            "smtp")
            service.process_pending()
            with service.store.sessions.read() as session:
                row = session.scalars(select(MailInRow).order_by(MailInRow.id.desc())).first()
            assert row is not None and row.status == "processed", row.outcome if row else None
            outcome = json.loads(row.outcome)
            after = races.race(race_id)
            send_due(service, clock.now)
            answer = body_of(smtp.sink.to(address)[-1])
            if "standing_order" in outcome:
                used += 1
                assert "zu viel. Dauerauftrag angewendet" in answer
                assert "Wenn zu viel: bremsen, Spur halten" in answer  # the orders read back
                assert not isinstance(question_of(after, "car1"), MoveQuestion)
                mine = [d for d in races.decisions(race_id) if d.car == "car1"]
                assert mine[-1].decision["path"] == outcome["standing_order"]["path"]
            else:
                unused += 1
                assert "Dauerauftrag nicht gebraucht" in answer
                pending = question_of(after, "car1")
                if isinstance(pending, MoveQuestion):  # the roll was usable: Anna is asked
                    assert brake_keep_lane(pending.moves) is None
            continue
        decision = bot.decide(race, ask)
        races.apply(race_id, ask.car, decision_from_data(
            race.track, decision_to_data(race.track, decision)), None, Actor.PERSON,
            holder=holder_of(address))
    assert used >= 1 and unused >= 1, (used, unused)


def test_the_move_taken_is_the_cheapest_in_lane_on_real_questions() -> None:
    config = RaceConfig(track="monaco", ruleset="dresden-2006", entries=bot_entries(3), laps=1)
    race = Race.create(config, "standing-real")
    bot = make_bot("simple")
    seen = 0
    while race.pending is not None and seen < 5:
        ask = race.pending
        if isinstance(ask, MoveQuestion) and too_many(ask.moves):
            chosen = brake_keep_lane(ask.moves)
            kept = [o for o in ask.moves if o.lane_changes == 0 and o.eliminated is None]
            assert (chosen is None) == (not kept)
            if chosen is not None:
                assert option_cost(chosen) == min(option_cost(o) for o in kept)
                seen += 1
        if ask.kind is AskKind.TURN:  # the highest gear: rolls too many come soon
            decision = decision_from_data(race.track, {"kind": "turn", "gear": max(ask.gears)})
        else:
            decision = bot.decide(race, ask)
        race.apply(decision)
    assert seen >= 1
