"""Gear dice faces, seeded rolls, recorded purposes and the seed commitment."""

import random
from fractions import Fraction

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.commitment import commit, seed_text, verify
from rennleitung.formula_de.dice import (
    BLACK_DIE,
    GEAR_DICE,
    GEAR_PROBABILITIES,
    Dice,
    DiceRoll,
    RollPurpose,
    ScriptedDice,
    gear_die,
    gear_range,
)

# Rules notes §1: gear -> (min, max, mean); ranges as Masters 6-1-1.
NOTES = {
    1: (1, 2, Fraction(3, 2)),
    2: (2, 4, Fraction(10, 3)),
    3: (4, 8, Fraction(51, 8)),
    4: (7, 12, Fraction(19, 2)),
    5: (11, 20, Fraction(31, 2)),
    6: (21, 30, Fraction(51, 2)),
}


@pytest.mark.parametrize("gear", sorted(NOTES))
def test_gear_die_matches_the_notes(gear: int) -> None:
    low, high, mean = NOTES[gear]
    die = gear_die(gear)
    assert (die.minimum, die.maximum) == (low, high) == gear_range(gear)
    assert die.mean == mean


def test_face_counts_are_the_physical_dice() -> None:
    assert [len(GEAR_DICE[g].faces) for g in range(1, 7)] == [4, 6, 8, 12, 20, 30]
    assert GEAR_DICE[2].faces == (2, 3, 3, 4, 4, 4)
    assert GEAR_DICE[3].faces == (4, 5, 6, 6, 7, 7, 8, 8)
    assert BLACK_DIE.faces == tuple(range(1, 21))


def test_probability_tables_are_uneven_where_the_dice_are() -> None:
    assert GEAR_PROBABILITIES[2] == {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 2)}
    assert GEAR_PROBABILITIES[3][4] == Fraction(1, 8)
    assert GEAR_PROBABILITIES[3][8] == Fraction(1, 4)
    for table in GEAR_PROBABILITIES.values():
        assert sum(table.values()) == 1
    # the engine test trigger (20 in 5th, 30 in 6th) is exactly one in ten
    assert GEAR_PROBABILITIES[5][20] == GEAR_PROBABILITIES[6][30] == Fraction(1, 10)


@pytest.mark.parametrize("gear", [0, 7, -1])
def test_unknown_gear_is_a_bilingual_error(gear: int) -> None:
    with pytest.raises(RennleitungError) as caught:
        gear_range(gear)
    assert "Gang" in caught.value.de and "gear" in caught.value.en
    assert caught.value.where == "Masters 6-1-1"


def _play(dice: Dice) -> list[int]:
    results = [dice.gear(g).result for g in (1, 2, 3, 4, 5, 6)]
    results += [dice.black(RollPurpose.COLLISION).result for _ in range(10)]
    return results


def test_same_seed_same_rolls_and_different_seed_different_rolls() -> None:
    assert _play(Dice.from_seed("race-1")) == _play(Dice.from_seed("race-1"))
    assert _play(Dice.from_seed("race-1")) != _play(Dice.from_seed("race-2"))


def test_int_and_text_seed_are_the_same_seed() -> None:
    assert _play(Dice.from_seed(7)) == _play(Dice.from_seed("7"))


def test_global_random_is_neither_used_nor_disturbed() -> None:
    random.seed(99)
    expected = random.random()
    random.seed(99)
    dice = Dice(random.Random(1))
    _play(dice)
    assert random.random() == expected


def test_rolls_stay_on_the_faces() -> None:
    dice = Dice(random.Random(3))
    for gear in range(1, 7):
        seen = {dice.gear(gear).result for _ in range(400)}
        assert seen == set(GEAR_DICE[gear].faces)
    assert {dice.black("x").result for _ in range(600)} == set(range(1, 21))


def test_every_roll_is_recorded_with_die_and_purpose() -> None:
    dice = Dice.from_seed("abc")
    first = dice.black(RollPurpose.START)
    second = dice.gear(5)
    third = dice.black(RollPurpose.ENGINE)
    assert dice.history == (first, second, third)
    assert [(r.die, r.purpose) for r in dice.history] == [
        ("black", "start"),
        ("gear5", "gear"),
        ("black", "engine"),
    ]
    assert len(dice) == 3
    assert isinstance(first, DiceRoll) and 1 <= first.result <= 20
    assert 11 <= second.result <= 20


def test_history_is_a_snapshot() -> None:
    dice = Dice.from_seed(1)
    dice.black("start")
    before = dice.history
    dice.black("start")
    assert len(before) == 1 and len(dice.history) == 2


def test_commitment_verifies_the_right_seed_only() -> None:
    seed = "3f9a1c0e5b7d2468ace13579bdf02468"
    published = commit(seed)
    assert len(published) == 64 and int(published, 16) >= 0
    assert verify(seed, published)
    assert verify(seed, published.upper())
    assert not verify(seed + "0", published)
    assert not verify(seed, commit("another seed"))


def test_commitment_is_plain_sha256_of_the_seed_text() -> None:
    # sha256("7") — checkable with `printf %s 7 | sha256sum`
    assert commit(7) == "7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"
    assert commit("7") == commit(7)
    with pytest.raises(TypeError):
        seed_text(True)


def test_scripted_dice_show_the_script_and_record_it() -> None:
    dice = ScriptedDice([20, 2, 30])
    assert dice.black(RollPurpose.START).result == 20
    assert dice.gear(1).result == 2
    assert dice.remaining == 1
    assert dice.gear(6).result == 30
    assert [r.result for r in dice.history] == [20, 2, 30]


def test_scripted_dice_refuse_impossible_faces_and_running_dry() -> None:
    with pytest.raises(RennleitungError) as caught:
        ScriptedDice([3]).gear(1)
    assert caught.value.where == "roll 1" and "gear1" in caught.value.en
    dice = ScriptedDice([5])
    dice.black("x")
    with pytest.raises(RennleitungError):
        dice.black("x")
