"""The timed qualifying lap (Dresden "Qualifizierung", Masters 1) with scripted dice.

The short circuit: the car starts on B60, directly behind the line; corner 1 (one stop) is
B9–B12 in lane B, corner 2 (two stops) begins at B18.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from rennleitung.formula_de.car import DriverProfile, Tyre, Weather
from rennleitung.formula_de.dice import ScriptedDice
from rennleitung.formula_de.event_text import render_qualifying
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.qualifying import (
    GearChoice,
    PathChoice,
    QualifyingAskKind,
    QualifyingConfig,
    QualifyingError,
    TimedLap,
    legal_gears,
    qualifying_score,
    start_space,
)
from rennleitung.formula_de.qualifying_bot import QualifyingBot, drive_lap
from rennleitung.formula_de.ruleset import get_ruleset
from rennleitung.league.profiles import DriverProfile as LeagueProfile
from rennleitung.league.qualifying import qualifying_score as league_score
from rennleitung.league.qualifying_run import to_qualifying_lap

Pick = Callable[[Sequence[MoveOption], TimedLap], MoveOption]


def lane_b(moves: Sequence[MoveOption], lap: TimedLap) -> MoveOption:
    """The offered move that keeps to lane B, else the first that ends in lane B (the options
    come in the generator's canonical order, movement.md)."""
    name = lap.track.name_of
    ending = [m for m in moves if name(m.end).startswith("B")]
    keeping = [m for m in ending if all(name(s).startswith("B") for s in m.path)]
    return (keeping or ending)[0]


def drive(lap: TimedLap, gears: Sequence[int], pick: Pick = lane_b) -> TimedLap:
    for gear in gears:
        lap.apply(GearChoice(gear))
        ask = lap.pending
        if ask is not None and ask.kind is QualifyingAskKind.MOVE:
            lap.apply(PathChoice(pick(ask.moves, lap).path))
    return lap


def short_lap(rolls: Sequence[int], **config: object) -> TimedLap:
    return TimedLap(QualifyingConfig(track="short", **config), ScriptedDice(rolls))  # type: ignore[arg-type]


def test_start_directly_behind_the_line_in_the_middle_lane() -> None:
    lap = short_lap([])
    assert lap.track.name_of(lap.space) == "B60"
    assert lap.space == start_space(lap.track)
    assert lap.track.crosses_line(lap.space, lap.track.ahead_in_lane[lap.space])


def test_gears_any_downshift_free_but_never_sixth_to_first() -> None:
    assert legal_gears(0) == (1,)
    assert legal_gears(1) == (1, 2)
    assert legal_gears(3) == (1, 2, 3, 4)
    assert legal_gears(5) == (1, 2, 3, 4, 5, 6)
    assert legal_gears(6) == (2, 3, 4, 5, 6)


def test_first_roll_in_first_gear_and_a_refused_gear_changes_nothing() -> None:
    lap = short_lap([2])
    with pytest.raises(QualifyingError) as error:
        lap.apply(GearChoice(2))
    assert "Masters 6-1-2" in str(error.value) and "gear 2 not allowed" in str(error.value)
    assert lap.rolls == 0 and lap.space == start_space(lap.track)
    with pytest.raises(QualifyingError):
        lap.apply(PathChoice(()))  # a move before the roll


def test_crossing_the_start_line_does_not_end_the_lap() -> None:
    lap = drive(short_lap([2]), [1])
    assert lap.track.name_of(lap.space) == "B2"
    assert not lap.finished and lap.rolls == 1 and lap.roll_total == 2


def test_overshoot_costs_penalty_points_not_tyres() -> None:
    # 2, 4, then 8 in 3rd from B6 runs through corner 1 without its stop: 2 spaces beyond
    lap = drive(short_lap([2, 4, 8]), [1, 2, 3])
    assert lap.track.name_of(lap.space) == "B14"
    assert lap.penalty_points == 2
    assert lap.overshoots == ((3, 2, 2),)
    assert [e.kind for e in lap.events].count("penalty") == 1
    penalty = lap.events[-1]
    assert (penalty.get("overshoot"), penalty.get("points")) == (2, 2)
    assert render_qualifying(penalty, "en") == "overshoots 2 spaces: 2 penalty points"
    assert render_qualifying(penalty, "de") == "überschießt 2 Felder: 2 Strafpunkte"


def test_soft_tyres_double_the_penalty_points() -> None:
    lap = drive(short_lap([2, 4, 8], tyre=Tyre.SOFT), [1, 2, 3])
    assert lap.overshoot_factor == 2
    assert lap.penalty_points == 4
    assert lap.pending is not None and lap.pending.soft_bonus


def test_rain_tyres_in_the_dry_double_too_but_hard_in_rain_do_not() -> None:
    assert short_lap([], tyre=Tyre.RAIN, weather=Weather.SUN).overshoot_factor == 2
    assert short_lap([], tyre=Tyre.RAIN, weather=Weather.RAIN).overshoot_factor == 1
    assert short_lap([], tyre=Tyre.HARD, weather=Weather.RAIN).overshoot_factor == 1


def test_soft_bonus_only_on_soft_tyres_in_sunshine() -> None:
    lap = short_lap([2])
    with pytest.raises(QualifyingError) as error:
        lap.apply(GearChoice(1, soft_bonus=True))
    assert "Dresden Reifen" in str(error.value)
    soft = drive(short_lap([2], tyre=Tyre.SOFT), [])
    soft.apply(GearChoice(1, soft_bonus=True))
    ask = soft.pending
    assert ask is not None and all(len(m.path) == 3 for m in ask.moves)  # 2 + 1


def test_no_braking_every_offered_move_uses_the_full_roll() -> None:
    lap = short_lap([2, 4, 8])
    lap.apply(GearChoice(1))
    ask = lap.pending
    assert ask is not None
    assert all(m.brakes == 0 and len(m.path) == 2 for m in ask.moves)


def test_two_stops_missing_abort_the_lap() -> None:
    # to B17 before corner 2 (two stops), then 20 in 5th runs through it without a stop
    lap = drive(short_lap([2, 4, 4, 7, 20]), [1, 2, 3, 4])
    assert lap.track.name_of(lap.space) == "B17"
    lap.apply(GearChoice(5))
    ask = lap.pending
    assert ask is not None
    aborting = next(m for m in ask.moves if m.eliminated is not None)
    lap.apply(PathChoice(aborting.path))
    assert lap.finished and not lap.completed
    assert lap.abort is not None and "Masters 1-1-14" in lap.abort.rule
    assert "two or more corner stops missing" in lap.abort.en
    assert to_qualifying_lap(lap, "Anna", 90_000) is None
    with pytest.raises(QualifyingError):
        lap.score(90_000)


def test_heavy_tourer_rolling_one_in_first_stays_but_the_roll_counts() -> None:
    lap = short_lap([1], profile=DriverProfile.HEAVY_TOURER)
    lap.apply(GearChoice(1))
    assert lap.rolls == 1 and lap.track.name_of(lap.space) == "B60"
    assert lap.pending is not None and lap.pending.gears == (1, 2)


def test_the_lap_ends_with_the_move_over_the_line_and_scores() -> None:
    bot = drive_lap(TimedLap.create(QualifyingConfig(track="short"), "q-seed"))
    assert bot.completed
    assert bot.events[-1].kind == "finish"
    assert bot.track.spaces[bot.space].height < bot.track.lap_rows / 2  # past the line
    ruleset = get_ruleset("dresden-2006")
    # score = rolls + penalty + whole minutes (+ profile)
    assert bot.score(59_999) == bot.rolls + bot.penalty_points
    assert bot.score(60_000) == bot.rolls + bot.penalty_points + 1
    assert bot.score(125_000) == bot.rolls + bot.penalty_points + 2
    assert bot.score(125_000, errors=1) == bot.rolls + bot.penalty_points + 12
    assert qualifying_score(20, 3, 61_000, DriverProfile.THEORIST, ruleset) == 23
    assert qualifying_score(20, 3, 61_000, DriverProfile.PRACTITIONER, ruleset) == 25
    assert qualifying_score(20, 3, 61_000, DriverProfile.RAIN_GOD, ruleset) == 24


@pytest.mark.parametrize(
    ("engine", "league"),
    [
        (DriverProfile.NORMAL, LeagueProfile.NORMAL),
        (DriverProfile.THEORIST, LeagueProfile.THEORIST),
        (DriverProfile.PRACTITIONER, LeagueProfile.PRACTITIONER),
    ],
)
def test_engine_and_league_agree_on_the_score(engine: DriverProfile, league: LeagueProfile) -> None:
    lap = drive_lap(TimedLap.create(QualifyingConfig(track="short", profile=engine), 11))
    record = to_qualifying_lap(lap, "Anna", 131_500)
    assert record is not None
    assert (record.rolls, record.penalty_points, record.errors) == (
        lap.rolls,
        lap.penalty_points,
        0,
    )
    assert league_score(record, league) == lap.score(131_500)


def test_seeded_bot_laps_replay_and_avoid_aborting() -> None:
    def key(seed: int) -> tuple[int, int, int, bool]:
        lap = drive_lap(TimedLap.create(QualifyingConfig(track="short"), seed), QualifyingBot())
        return lap.rolls, lap.roll_total, lap.penalty_points, lap.completed

    assert [key(s) for s in range(6)] == [key(s) for s in range(6)]
    results = [key(s) for s in range(6)]
    assert all(done for *_, done in results)
    assert len({r[:3] for r in results}) > 1  # the dice do matter


def test_the_bot_prefers_stopping_to_overshooting() -> None:
    lap = short_lap([2, 4, 8])
    bot = QualifyingBot()
    drive(lap, [1, 2])
    lap.apply(GearChoice(3))
    ask = lap.pending
    assert ask is not None
    chosen = bot.decide(lap, ask)
    assert isinstance(chosen, PathChoice)
    best = next(m for m in ask.moves if m.path == chosen.path)
    assert best.overshoot == min(m.overshoot for m in ask.moves) == 1


def test_profiles_not_allowed_in_the_ruleset_are_refused() -> None:
    with pytest.raises(QualifyingError) as error:
        TimedLap(
            QualifyingConfig(track="short", ruleset="masters-2002", profile=DriverProfile.THEORIST),
            ScriptedDice([]),
        )
    assert "Fahrerprofile" in str(error.value)
