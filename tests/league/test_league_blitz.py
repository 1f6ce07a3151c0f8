"""FD Blitz: the chess clocks with simulated time, and a best-of-three match."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_match import BlitzMatch
from rennleitung.league.chess_clock import ChessClock


def clock() -> ChessClock:
    return ChessClock(("Ada", "Bob"), limit_s=60.0).start("Ada", now=100.0)


def test_clock_runs_only_for_the_player_on_the_move() -> None:
    c = clock().press("Ada", now=110.0)  # Ada used 10 s
    assert c.remaining("Ada", 150.0) == 50.0
    assert c.remaining("Bob", 150.0) == 20.0  # Bob on the move since 110
    assert c.on_move(150.0) == "Bob"
    c = c.press("Bob", now=150.0)
    assert c.remaining("Bob", 190.0) == 20.0  # Ada on the move, 50 s left until 200
    assert c.remaining("Bob", 210.0) == 10.0  # Ada flagged at 200, Bob runs again
    assert c.on_move(150.0) == "Ada"


def test_first_flag_stops_that_car_and_the_other_drives_on_alone() -> None:
    c = clock().press("Ada", now=150.0)  # Ada used 50 s, 10 left
    c = c.press("Bob", now=160.0)  # Bob used 10 s, 50 left; Ada on the move at 160
    # Ada's flag falls at 170; the server only looks at 175: Bob's clock started at 170.
    assert c.time_up("Ada", 175.0)
    assert not c.time_up("Bob", 175.0)
    assert c.remaining("Bob", 175.0) == 45.0
    assert c.on_move(175.0) == "Bob"
    # Bob moves alone: pressing keeps his own clock running.
    c = c.press("Bob", now=180.0)
    assert c.on_move(181.0) == "Bob"
    assert c.remaining("Bob", 200.0) == 20.0
    assert c.time_up("Bob", 220.0)
    assert c.on_move(220.0) is None


def test_a_late_look_settles_both_flags() -> None:
    c = clock()  # Ada runs from 100 with 60 s; Bob has 60 s
    assert c.on_move(1000.0) is None
    assert c.time_up("Ada", 1000.0) and c.time_up("Bob", 1000.0)


def test_clock_refuses_wrong_player_and_backwards_time() -> None:
    with pytest.raises(RennleitungError) as error:
        clock().press("Bob", now=101.0)
    assert error.value.where == "blitz, player"
    with pytest.raises(RennleitungError) as error:
        clock().press("Ada", now=99.0)
    assert error.value.where == "blitz, now"
    with pytest.raises(RennleitungError) as error:
        clock().remaining("Eve", 101.0)
    assert "Eve" in error.value.de and "Eve" in error.value.en
    with pytest.raises(RennleitungError):
        clock().start("Ada", 101.0)
    with pytest.raises(RennleitungError) as error:
        ChessClock(("Ada", "Bob"), limit_s=0).start("Ada", 0.0)
    assert error.value.where == "blitz, limit"


def test_match_starts_and_best_of_three() -> None:
    dice = random.Random(5)
    match = BlitzMatch(("Ada", "Bob"))
    first = match.next_start(dice)
    assert (first.run, first.pole, first.second, first.first_to_move) == (1, "Ada", "Bob", "Ada")
    match = match.with_run(first, {"Ada": 30, "Bob": 40})  # both clocks out, Bob farther
    second = match.next_start(dice)
    assert (second.run, second.pole, second.second) == (2, "Bob", "Ada")
    match = match.with_run(second, {"Ada": 50, "Bob": 12}, finished_first="Ada")
    assert match.winner is None
    third = match.next_start(dice)
    assert third.run == 3 and third.side_by_side
    rolls = dict(third.die_rolls)
    assert third.first_to_move == max(rolls, key=lambda p: rolls[p])
    match = match.with_run(third, {"Ada": 20, "Bob": 25})
    assert match.winner == "Bob" and match.wins("Bob") == 2 and match.wins("Ada") == 1
    with pytest.raises(RennleitungError):
        match.next_start(dice)
    with pytest.raises(RennleitungError):
        match.with_run(third, {"Ada": 1, "Bob": 2})


def test_equal_distance_is_driven_again_with_the_same_start() -> None:
    dice = random.Random(1)
    match = BlitzMatch(("Ada", "Bob"))
    start = match.next_start(dice)
    match = match.with_run(start, {"Ada": 30, "Bob": 30})
    assert match.runs[-1].winner is None
    assert match.next_start(dice) == start
    assert match.next_run_number() == 1


def test_match_refuses_bad_input() -> None:
    with pytest.raises(RennleitungError):
        BlitzMatch(("Ada", "Ada"))
    match = BlitzMatch(("Ada", "Bob"))
    start = match.next_start(random.Random(0))
    with pytest.raises(RennleitungError) as error:
        match.with_run(start, {"Ada": 1})
    assert error.value.where == "blitz, distance"
    with pytest.raises(RennleitungError) as error:
        match.with_run(start, {"Ada": 1, "Bob": 2}, finished_first="Eve")
    assert error.value.where == "blitz, finished_first"


@given(
    limit=st.integers(min_value=1, max_value=300),
    presses=st.lists(st.integers(min_value=0, max_value=120), max_size=30),
    look=st.integers(min_value=0, max_value=2000),
)
def test_clock_time_adds_up_whatever_the_presses(
    limit: int, presses: list[int], look: int
) -> None:
    """Both clocks together never use more than the time that passed, never more than their
    limit, and exactly that time as long as one of them is still running."""
    start = 1000.0
    c = ChessClock(("Ada", "Bob"), float(limit)).start("Ada", start)
    now = start
    for gap in presses:
        now += gap
        mover = c.on_move(now)
        if mover is None:
            break
        c = c.press(mover, now)
    moment = now + look
    remaining = {p: c.remaining(p, moment) for p in ("Ada", "Bob")}
    used = sum(limit - left for left in remaining.values())
    assert all(0 <= left <= limit for left in remaining.values())
    if c.on_move(moment) is None:
        assert used == 2 * limit <= moment - start
    else:
        assert used == moment - start
