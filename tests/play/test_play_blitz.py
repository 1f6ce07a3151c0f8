"""FD Blitz matches on the server (issue 27; Dresden "FD Blitz"): the chess clock follows the
question from car to car, a flag that falls halts that car where it stands while the other
drives on, the farther car wins, a crossing of the line ends the heat, and the third heat
starts side by side. Time moves only when the test moves it."""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import make_bot
from rennleitung.play import RaceService, RaceState
from rennleitung.play.blitz import BlitzService
from rennleitung.play.engine import decision_to_json, questions
from rennleitung.play.model import PlayError
from tests.play.support import Clock

HOLDER = {"car1": "acc-ada", "car2": "acc-bob"}


@pytest.fixture
def blitz(service: RaceService) -> BlitzService:
    return BlitzService(service)


def match(blitz: BlitzService, minutes: float = 1.0, laps: int = 1) -> int:
    return blitz.create(("Ada", "Bob"), track="oval", minutes=minutes, laps=laps,
                        holders=("acc-ada", "acc-bob"), seed=7,
                        secret="blitz-tests")


def answer(blitz: BlitzService, race_id: int) -> str:
    """The first asked car's player answers as the simple bot would; returns the car."""
    race = blitz.races.race(race_id)
    ask = questions(race)[0]
    decision = decision_to_json(race, make_bot("simple").decide(race, ask))
    blitz.apply(race_id, ask.car, decision, blitz.races.version(race_id),
                holder=HOLDER[ask.car])
    return ask.car


def to_round_one(blitz: BlitzService, race_id: int) -> None:
    """Tyres and boxes (off the clock), until the first gear is asked."""
    while blitz.races.race(race_id).round < 1:
        answer(blitz, race_id)


def asked(blitz: BlitzService, race_id: int) -> set[str]:
    return {q.car for q in questions(blitz.races.race(race_id))}


def progress(blitz: BlitzService, race_id: int, car: str) -> float:
    return blitz.races.race(race_id).progress_of(car)


def left(blitz: BlitzService, match_id: int) -> tuple[float, float]:
    a, b = blitz.view(match_id).clocks
    return a.seconds_left, b.seconds_left


def test_the_clock_runs_only_for_the_player_asked(blitz: BlitzService, clock: Clock) -> None:
    match_id = match(blitz)
    race_id = blitz.start_heat(match_id, "acc-ada")
    race = blitz.races.race(race_id)
    assert race.config.qualifying == ("car1", "car2")  # heat 1: the first named on pole
    answer(blitz, race_id)
    clock.advance(30)  # the tyres asked of both at once are off the clock
    to_round_one(blitz, race_id)
    assert left(blitz, match_id) == (60.0, 60.0)
    assert asked(blitz, race_id) == {"car1"}
    clock.advance(4)
    answer(blitz, race_id)  # Ada's gear: her wear crossing and move are still hers
    clock.advance(3)
    assert left(blitz, match_id) == (53.0, 60.0)
    while asked(blitz, race_id) == {"car1"}:
        answer(blitz, race_id)
    clock.advance(10)
    assert left(blitz, match_id) == (53.0, 50.0)  # Bob's runs, Ada's stands
    view = blitz.view(match_id)
    assert [c.running for c in view.clocks] == [False, True]


def test_a_flag_halts_that_car_the_other_drives_on_and_the_farther_wins(
        blitz: BlitzService, clock: Clock) -> None:
    match_id = match(blitz)
    race_id = blitz.start_heat(match_id, "acc-bob")
    to_round_one(blitz, race_id)
    while asked(blitz, race_id) == {"car1"}:
        answer(blitz, race_id)  # Ada's first turn, at no cost of time
    while asked(blitz, race_id) == {"car2"}:
        answer(blitz, race_id)  # Bob's
    assert asked(blitz, race_id) == {"car1"}
    ada_at = progress(blitz, race_id, "car1")
    clock.advance(61)  # Ada thinks too long
    assert blitz.run_due() == [match_id]
    assert "car1" in blitz.races.race(race_id).halted  # no bot decided for her
    assert progress(blitz, race_id, "car1") == ada_at  # her car stays where it stands
    assert asked(blitz, race_id) == {"car2"}
    assert left(blitz, match_id) == (0.0, 59.0)  # Bob's clock runs from the moment her flag fell
    with pytest.raises(PlayError, match=r"time is up|abgelaufen"):
        blitz.apply(race_id, "car1", {"kind": "gear", "gear": 1}, blitz.races.version(race_id),
                    holder="acc-ada")
    bob_at = progress(blitz, race_id, "car2")
    for _ in range(6):
        answer(blitz, race_id)  # Bob drives on alone
    assert progress(blitz, race_id, "car2") > bob_at
    assert progress(blitz, race_id, "car1") == ada_at
    clock.advance(60)
    blitz.run_due()
    race = blitz.races.race(race_id)
    assert "car2" in race.halted and blitz.races.info(race_id).state is RaceState.FINISHED
    view = blitz.view(match_id)
    (heat,) = view.heats
    farther = "Bob" if progress(blitz, race_id, "car2") > ada_at else "Ada"
    assert heat.winner == farther == "Bob" and heat.finished_first is None
    assert view.race is None and view.next_heat == 2
    assert [c.wins for c in view.clocks] == [0, 1]
    assert blitz.session(match_id)["runs"][0]["winner"] == "Bob"  # the CLI's match file


def test_two_wins_take_the_match_and_the_third_heat_starts_side_by_side(
        blitz: BlitzService, clock: Clock) -> None:
    match_id = match(blitz)
    winners = []
    for heat in (1, 2, 3):
        race_id = blitz.start_heat(match_id, "acc-ada")
        config = blitz.races.race(race_id).config
        to_round_one(blitz, race_id)
        mover = next(iter(asked(blitz, race_id)))
        if heat == 2:
            assert config.qualifying == ("car2", "car1")  # Bob on pole
        if heat == 3:
            assert config.side_by_side  # both level with pole, the die chose who begins
            rolls = blitz.session(match_id)["current"]["die_rolls"]
            assert len(rolls) == 2 and mover == ("car1" if rolls[0][0] == "Ada" else "car2")
        while asked(blitz, race_id) == {mover}:
            answer(blitz, race_id)  # the first mover drives one turn, then both clocks run out
        clock.advance(61)
        blitz.run_due()
        clock.advance(61)
        blitz.run_due()
        view = blitz.view(match_id)
        assert len(view.heats) == heat and view.race is None
        winners.append(view.heats[-1].winner)
        if heat < 3 and view.winner is not None:
            break
    view = blitz.view(match_id)
    assert winners[:2] == ["Ada", "Bob"]  # each time the one on pole who moved is farther
    assert len(winners) == 3 and view.winner == winners[2]
    with pytest.raises(RennleitungError, match=r"decided|entschieden"):
        blitz.start_heat(match_id, "acc-ada")


def test_a_stranger_cannot_start_a_heat_and_a_place_is_joined_once(
        blitz: BlitzService) -> None:
    match_id = blitz.create(("Ada", "Bob"), track="oval", minutes=5, organiser="acc-org")
    with pytest.raises(PlayError, match=r"both places|beide"):
        blitz.start_heat(match_id, "acc-org")
    assert blitz.join(match_id, "acc-ada") == 0
    with pytest.raises(PlayError, match=r"already|schon"):
        blitz.join(match_id, "acc-ada")
    assert blitz.join(match_id, "acc-bob") == 1
    with pytest.raises(PlayError, match=r"only the players|nur"):
        blitz.start_heat(match_id, "acc-eve")
    with pytest.raises(PlayError, match="minutes"):
        blitz.create(("Ada", "Bob"), track="oval", minutes=0)


def test_the_first_over_the_line_wins_and_the_other_car_is_halted(
        blitz: BlitzService, clock: Clock) -> None:
    match_id = match(blitz, minutes=30)
    race_id = blitz.start_heat(match_id, "acc-ada")
    for _ in range(400):
        if blitz.view(match_id).race is None:
            break
        answer(blitz, race_id)
        clock.advance(2)
    race = blitz.races.race(race_id)
    (heat,) = blitz.view(match_id).heats
    assert heat.finished_first is not None and heat.winner == heat.finished_first
    loser = next(c for c in ("car1", "car2") if blitz.view(match_id).clocks[
        ("car1", "car2").index(c)].player != heat.winner)
    assert race.finish_order[:1] != [loser] and loser in race.halted
    assert blitz.races.info(race_id).state is RaceState.FINISHED


def test_an_answer_to_a_race_that_is_no_heat_goes_straight_to_the_race(
        blitz: BlitzService) -> None:
    from tests.play.support import person_answer, started

    race_id = started(blitz.races)
    car, decision, version = person_answer(blitz.races, race_id)
    applied = blitz.apply(race_id, car, decision, version, holder=f"acc-{car}")
    assert applied.version > version and blitz.match_of_race(race_id) is None
