"""The race's clock beyond the time per decision (issue 23): each driver's time bank, the bot
driving a seat after missed decisions until its driver is back, and a quiet race closed or
handed to the bots. Time moves only when the test moves it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.play import Actor, RaceService, RaceState
from rennleitung.play.engine import decision_to_json, questions
from rennleitung.play.model import AbandonAction, ClockWhat, PlayError, Seat
from rennleitung.play.views import Reader
from tests.play.support import START, Clock, play_on, small_spec, started


def answer(service: RaceService, race_id: int, car: str) -> None:
    """``car``'s driver answers his open question as the simple bot would."""
    race = service.race(race_id)
    ask = next(q for q in questions(race) if q.car == car)
    decision = decision_to_json(race, make_bot("simple").decide(race, ask))
    service.apply(race_id, car, decision, service.version(race_id), holder=f"acc-{car}")


def seat(service: RaceService, race_id: int, car: str) -> Seat:
    return service.info(race_id).seat(car)


def asked(service: RaceService, race_id: int) -> set[str]:
    return {q.car for q in questions(service.race(race_id))}


def test_the_bank_is_used_after_the_limit_and_before_the_bot(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60, bank_seconds=100))
    assert seat(service, race_id, "car1").bank_left == 100
    # the setups, asked of both at once: due after the limit and the whole bank
    assert seat(service, race_id, "car1").deadline_at == START + timedelta(seconds=160)
    clock.advance(90)  # 30 s beyond the limit: they come off car1's bank
    answer(service, race_id, "car1")
    assert seat(service, race_id, "car1").bank_left == 70
    assert seat(service, race_id, "car2").bank_left == 100  # still thinking: nothing taken yet
    clock.advance(69.5)  # car2 is 159.5 s into his setup: on his bank, not yet out of it
    assert service.run_due_deadlines() == []
    answer(service, race_id, "car2")
    assert seat(service, race_id, "car2").bank_left == 0  # 99.5 s over, rounded up
    # car1's next question: the limit and the 70 s left; at 129 s nothing is due, at 130 the
    # bot decides, the bank is spent and the miss counted
    while "car1" not in asked(service, race_id):
        answer(service, race_id, sorted(asked(service, race_id))[0])
    mine = seat(service, race_id, "car1")
    assert mine.deadline_at == clock.now + timedelta(seconds=130)
    assert service.run_due_deadlines(clock.now + timedelta(seconds=129)) == []
    clock.advance(130)
    assert [t.car for t in service.run_due_deadlines()] == ["car1"]
    after = seat(service, race_id, "car1")
    assert (after.bank_left, after.misses, after.away) == (0, 1, False)
    # every reader sees the banks
    seen = service.view(race_id, Reader.spectator()).to_json()
    banks = {s["car"]: s["bank_left"] for s in seen["seats"]}
    assert banks["car1"] == 0 and seen["clock"]["bank_seconds"] == 100


def test_an_answer_within_the_limit_keeps_the_bank_and_ends_a_run_of_misses(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60, bank_seconds=30,
                                          bot_after_misses=3))
    answer(service, race_id, "car2")
    clock.advance(91)
    service.run_due_deadlines()
    assert (seat(service, race_id, "car1").misses, seat(service, race_id, "car1").bank_left) \
        == (1, 0)
    while "car1" not in asked(service, race_id):
        answer(service, race_id, sorted(asked(service, race_id))[0])
    clock.advance(59)
    answer(service, race_id, "car1")
    assert (seat(service, race_id, "car1").misses, seat(service, race_id, "car1").bank_left) \
        == (0, 0)


def miss_until_away(service: RaceService, clock: Clock, race_id: int) -> int:
    """car2's driver answers at once, car1's lets his time run out until the bot takes over;
    returns the misses it took."""
    for _ in range(60):
        if seat(service, race_id, "car1").away:
            return seat(service, race_id, "car1").misses
        now_asked = asked(service, race_id)
        if "car2" in now_asked:
            answer(service, race_id, "car2")
            continue
        assert now_asked == {"car1"}
        clock.advance(61)
        assert [t.car for t in service.run_due_deadlines()] == ["car1"]
    raise AssertionError("the bot never took the seat over")


def test_after_the_organisers_misses_the_bot_drives_until_the_driver_is_back(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60, bot_after_misses=2))
    assert miss_until_away(service, clock, race_id) == 2
    away = seat(service, race_id, "car1")
    assert away.away_since == clock.now and away.deadline_at is None
    logged = service.info(race_id).clock_log
    assert [(e.what, e.car, e.misses) for e in logged] == [(ClockWhat.AWAY, "car1", 2)]
    # the bot now answers car1's questions at once, as the seat's bot, while car2 plays on
    version = service.version(race_id)
    for _ in range(4):
        answer(service, race_id, "car2")
        assert "car1" not in asked(service, race_id)
    by_car1 = {d.actor for d in service.decisions(race_id)[version:] if d.car == "car1"}
    assert by_car1 == {Actor.BOT}
    # his own answer is refused while he is away, naming the way back
    with pytest.raises(PlayError, match="I am back"):
        service.apply(race_id, "car1", {"kind": "halt"}, None, holder="acc-car1")
    seen = service.view(race_id, Reader.spectator()).to_json()
    assert next(s for s in seen["seats"] if s["car"] == "car1")["away"] is True
    assert seen["clock_log"][0]["what"] == "away"
    # back: his next question is his again, with the full time
    with pytest.raises(PlayError):
        service.back(race_id, "a-stranger")
    service.back(race_id, "acc-car1")
    back = seat(service, race_id, "car1")
    assert (back.away, back.misses) == (False, 0)
    assert [e.what for e in service.info(race_id).clock_log] == [ClockWhat.AWAY, ClockWhat.BACK]
    while "car1" not in asked(service, race_id):
        answer(service, race_id, "car2")
    assert seat(service, race_id, "car1").deadline_at == clock.now + timedelta(seconds=60)
    answer(service, race_id, "car1")
    assert service.decisions(race_id)[-1].actor in (Actor.PERSON, Actor.BOT)
    assert any(d.car == "car1" and d.actor is Actor.PERSON
               for d in service.decisions(race_id)[version:])


def test_zero_misses_means_the_bot_never_takes_over(service: RaceService, clock: Clock) -> None:
    race_id = started(service, small_spec(decision_seconds=60))
    for _ in range(4):
        answer(service, race_id, "car2") if "car2" in asked(service, race_id) else None
        clock.advance(61)
        service.run_due_deadlines()
    assert seat(service, race_id, "car1").misses >= 3
    assert not seat(service, race_id, "car1").away


def test_a_quiet_race_is_closed_after_the_organisers_period(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(abandon_seconds=3600))
    assert service.info(race_id).abandon_at == START + timedelta(hours=1)
    clock.advance(3599)
    assert service.run_due_abandons() == []
    play_on(service, race_id, steps=1)  # a decision: the hour starts again
    clock.advance(3599)
    assert service.run_due_abandons() == []
    clock.advance(2)
    assert service.run_due_abandons() == [race_id]
    info = service.info(race_id)
    assert info.state is RaceState.CLOSED and info.seed is not None
    assert [(e.what, e.seconds) for e in info.clock_log] == [(ClockWhat.CLOSED, 3600)]
    assert service.run_due_abandons() == []  # once


def test_a_quiet_race_given_to_the_bots_runs_on_without_its_drivers(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(abandon_seconds=7200,
                                          abandon_action=AbandonAction.BOTS))
    play_on(service, race_id, steps=2)
    version = service.version(race_id)
    clock.advance(7201)
    service.run_due()
    info = service.info(race_id)
    assert info.state is RaceState.FINISHED  # every seat's bot drove it to the flag
    assert {d.actor for d in service.decisions(race_id)[version:]} == {Actor.BOT}
    assert [e.what for e in info.clock_log] == [ClockWhat.BOTS]
    assert all(s.away for s in info.seats if s.kind.value == "person")


def test_a_race_with_no_abandon_period_waits(service: RaceService, clock: Clock) -> None:
    race_id = started(service, small_spec())
    clock.advance(90 * 24 * 3600)
    assert service.run_due_abandons() == []
    assert service.info(race_id).state is RaceState.RUNNING


@pytest.mark.parametrize(("changes", "field"), [
    ({"bank_seconds": 60}, "bank_seconds"),  # no time per decision
    ({"bot_after_misses": 2}, "bot_after_misses"),
    ({"decision_seconds": 60, "bank_seconds": 0}, "bank_seconds"),
    ({"decision_seconds": 60, "bot_after_misses": 51}, "bot_after_misses"),
    ({"abandon_seconds": 30}, "abandon_seconds"),
])
def test_clock_settings_out_of_place_are_refused_naming_the_field(
    service: RaceService, changes: dict[str, int], field: str
) -> None:
    with pytest.raises(PlayError) as refused:
        service.create_race(small_spec(**changes))
    assert refused.value.where == field and refused.value.de and refused.value.en
