"""One scenario per rule: scripted dice, a car placed where the rule decides, and the outcome.

Cars are placed while the race still waits for the box choice (before round 1), so the first
turn starts from the placed state. Monaco facts used: corner 1 is A9–A11 (one stop), corner 10
(the last, one stop) ends at C147, the pit entry C151 → P1 → P2 → P3 → BOX1, the line after A167.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import CarStatus, DriverProfile, Tyre, Wear, WearArea, Weather
from rennleitung.formula_de.dice import RollPurpose, ScriptedDice
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race import CornerPass, Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BidChoice,
    BoxChoice,
    DecisionError,
    KarmaAction,
    KarmaChoice,
    MoveChoice,
    PitChoice,
    PitPlan,
    SetupChoice,
    TurnChoice,
)
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.ruleset import (
    EngineFailure,
    PreRaceOrder,
    Ruleset,
    WreckRemoval,
    get_ruleset,
)
from tests.formula_de.scene import Scene, scene

MONACO = builtin_track("monaco")
SUN = 10  # monaco weather table: 1-4 rain, 5-8 changeable, 9-20 sun
SETUP = Wear(tyres=5, brakes=4, fuel=4, body=3, engine=3, road_holding=2, box=1)


def sp(name: str) -> int:
    return MONACO.space(name)


def staged(ruleset: str) -> Ruleset:
    """The preset, with the setups asked before the boxes (``pre_race_order``) so that a
    scenario can place its cars while the box question is pending and the last answer starts
    round 1. ``masters-2002`` asks for the pits first (Masters 4-0-1, tested with the preset
    itself in ``test_race_rules_extra``); nothing between the two questions rolls a die or
    changes a car, so the race from round 1 on is the preset's."""
    return replace(get_ruleset(ruleset), pre_race_order=PreRaceOrder.SETUPS_FIRST)


def start(rolls: list[int], cars: tuple[str, ...] = ("a",), ruleset: str = "dresden-2006") -> Scene:
    """The scene of a race on Monaco with the weather roll first (``tests/formula_de/scene.py``):
    cars are placed in it before the race starts (``go``)."""
    return scene(cars, rolls, ruleset=staged(ruleset), board=MONACO)


def place(race: Scene, car: str, space: str, **changes: object) -> None:
    """Put a car somewhere with a state of our choosing (no start roll): fields of ``CarState``
    or ``CarInfo``; one line crossing unless ``crossings`` says otherwise."""
    race.place(car, space, **changes)


def go(race: Scene) -> Race:
    """The race of the scene: setups and boxes answered, round 1 begun."""
    return race.race()


def retirement(race: Race, car: str) -> Retirement | None:
    return race.info[car].retirement


def kinds(race: Race, car: str) -> list[EventKind]:
    return [e.kind for e in race.events if e.car == car]


def pick(race: Race, test: object) -> None:
    """Answer a move question with the first option that passes ``test``."""
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    option: MoveOption = next(o for o in ask.moves if test(o))  # type: ignore[operator]
    race.apply(MoveChoice(option.path))


# --- start (Dresden Startwurf; Masters 9) -------------------------------------------------------


def test_start_roll_one_stalls_and_the_next_round_starts_in_first_without_a_roll() -> None:
    race = start([SUN, 1, 2])
    race = go(race)
    assert EventKind.STALLED in kinds(race, "a")
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.gears == (1,)
    assert race.round == 2
    race.apply(TurnChoice(1))
    starts = [e for e in race.events if e.kind is EventKind.START_ROLL]
    assert len(starts) == 1  # Masters 9-1-1: no second start roll


@pytest.mark.parametrize(
    ("ruleset", "next_gears"), [("dresden-2006", (1, 2)), ("masters-2002", (2,))]
)
def test_start_roll_twenty_is_a_super_start_of_four_spaces(
    ruleset: str, next_gears: tuple[int, ...]
) -> None:
    race = start([SUN, 20], ruleset=ruleset)
    race = go(race)
    assert race.pending is not None and race.pending.gears == (1,)
    race.apply(TurnChoice(1))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == 4)
    assert EventKind.SUPER_START in kinds(race, "a")
    move = next(e for e in race.events if e.kind is EventKind.MOVE)
    assert move.get("spaces") == 4
    assert race.pending is not None and race.pending.gears == next_gears


def test_theoretiker_loses_a_space_at_the_start() -> None:
    config = RaceConfig(
        track="monaco",
        ruleset="dresden-2006",
        entries=(Entry(id="t", profile=DriverProfile.THEORIST),),
        qualifying=("t",),
    )
    race = Race(config, ScriptedDice([SUN, 10, 2]), track=MONACO)
    race.apply(SetupChoice(SETUP, Tyre.HARD))
    race.apply(BoxChoice(1))
    race.apply(TurnChoice(1))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        assert max(o.spaces_moved for o in race.pending.moves) == 1
        pick(race, lambda o: o.spaces_moved == 1)
    move = next(e for e in race.events if e.kind is EventKind.MOVE)
    assert move.get("spaces") == 1  # rolled 2, Theoretiker −1 (Dresden Fahrerprofile)


# --- decisions are checked ---------------------------------------------------------------------


def test_illegal_gear_is_refused_in_both_languages_with_the_rule() -> None:
    race = start([SUN, 10])
    race = go(race)
    with pytest.raises(DecisionError) as error:
        race.apply(TurnChoice(3))
    assert "Gang 3" in str(error.value) and "gear 3" in str(error.value)
    assert "Masters 6-2" in error.value.where
    assert race.pending is not None and race.pending.kind is AskKind.TURN  # unchanged


def test_setup_must_have_22_points() -> None:
    config = RaceConfig(track="monaco", ruleset="dresden-2006", entries=(Entry("a"),))
    race = Race(config, ScriptedDice([7, SUN]), track=MONACO)
    with pytest.raises(DecisionError) as error:
        race.apply(SetupChoice(replace(SETUP, box=2), Tyre.HARD))
    assert "22" in str(error.value)


def test_boost_not_with_the_last_engine_point() -> None:
    race = start([SUN])
    place(race, "a", "A14", gear=3, wear=replace(SETUP, engine=1))
    race = go(race)
    assert race.pending is not None and not race.pending.boost
    with pytest.raises(DecisionError):
        race.apply(TurnChoice(3, boost=True))


# --- the engine boost and skipped gears (Dresden Verschleiß; Masters 13) --------------------------


def test_engine_boost_adds_the_gear_and_marks_the_start_space() -> None:
    race = start([SUN, 5])
    place(race, "a", "A14", gear=3)
    race = go(race)
    race.apply(TurnChoice(3, boost=True))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == 8)
    assert race.cars["a"].wear.engine == 2
    assert sp("A14") in race.dangerous
    assert any(e.kind is EventKind.MOVE and e.get("spaces") == 8 for e in race.events)


def test_skipping_two_gears_costs_fuel_and_brakes() -> None:
    race = start([SUN, 2])
    place(race, "a", "A14", gear=5)
    race = go(race)
    assert race.pending is not None and race.pending.gears == (1, 2, 3, 4, 5, 6)
    race.apply(TurnChoice(2))
    wear = race.cars["a"].wear
    assert (wear.fuel, wear.brakes) == (3, 3)
    assert EventKind.SKIP_COST in kinds(race, "a")


# --- road holding and karma (Dresden Verschleiß, Karmapool; Masters 17) ------------------------


def test_road_holding_test_for_a_dangerous_space_entered() -> None:
    race = start([SUN, 2, 3])
    place(race, "a", "A1", gear=1)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A3") in o.dangerous)
    assert race.cars["a"].wear.road_holding == 1
    test = next(e for e in race.events if e.kind is EventKind.TEST)
    assert test.get("purpose") == RollPurpose.ROAD_HOLDING and test.get("limit") == 4


def test_karma_plus_one_saves_a_failed_test() -> None:
    race = start([SUN, 2, 4])
    place(race, "a", "A1", gear=1)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A3") in o.dangerous)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA
    assert KarmaAction.PLUS_ONE in ask.karma_actions
    race.apply(KarmaChoice(KarmaAction.PLUS_ONE))
    assert race.cars["a"].wear.road_holding == 2
    assert race.info["a"].karma == 10  # 30 − 20


# --- collisions (Dresden Verschleiß; Masters 14) ------------------------------------------------


def test_collision_the_other_car_rolls_first_and_a_lost_point_marks_its_space() -> None:
    # b is spun at A5 and stalls again on its restart roll; a ends next to it.
    race = start([SUN, 1, 2, 1, 9], cars=("a", "b"))
    place(race, "b", "A5", gear=0, status=CarStatus.SPUN)
    race.set("b", needs_start=True)
    place(race, "a", "A2", gear=1)
    race = go(race)
    assert race.pending is not None and race.pending.car == "a"
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: sp("A5") in o.contacts)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA and ask.car == "b"
    race.apply(KarmaChoice())
    tests = [e for e in race.events if e.kind is EventKind.TEST]
    assert [t.car for t in tests] == ["b", "a"]  # the causing car rolls last (Masters 14-4)
    assert race.cars["b"].wear.body == 2
    assert sp("A5") in race.dangerous


def test_collision_with_a_wreck_is_aggravated() -> None:
    race = start([SUN, 2, 2], cars=("a", "w"))
    place(race, "w", "A5", status=CarStatus.WRECK)
    race.set("w", retirement=Retirement.BODY)
    place(race, "a", "A2", gear=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: sp("A5") in o.contacts)
    test = next(e for e in race.events if e.kind is EventKind.TEST)
    assert test.car == "a" and test.get("limit") == 2  # sun 1, wreck +1 (Dresden Ausfälle)
    assert race.pending is not None and race.pending.kind is AskKind.KARMA
    race.apply(KarmaChoice())
    assert race.cars["a"].wear.body == 2


# --- engine (Dresden Verschleiß, Ausfälle; Masters 16) ------------------------------------------


def _twenty_in_fifth(race: Race) -> None:
    race.apply(TurnChoice(5))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.eliminated is None)


def test_a_twenty_in_fifth_makes_every_car_in_fifth_or_sixth_test_its_engine() -> None:
    race = start([SUN, 20, 3], cars=("a", "b"))
    place(race, "a", "A60", gear=4, wear=replace(SETUP, brakes=9))
    place(race, "b", "A20", gear=4)
    race = go(race)
    _twenty_in_fifth(race)
    engine = [e for e in race.events if e.get("purpose") == RollPurpose.ENGINE]
    assert [e.car for e in engine] == ["a"]  # b is in 4th
    assert race.cars["a"].wear.engine == 2
    assert race.cars["a"].space in race.dangerous


def test_dresden_engine_failure_rolls_out_one_gear_lower_each_round() -> None:
    race = start([SUN, 20, 1, 8, 4, 2, 1, *([10] * 10)])
    place(race, "a", "A14", gear=4, crossings=2, wear=replace(SETUP, engine=1, brakes=9))
    race = go(race)
    _twenty_in_fifth(race)
    assert race.info["a"].retirement is Retirement.ENGINE
    rolling = [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT]
    assert rolling == [4, 3, 2, 1]
    assert race.finished
    assert race.classification()[0].status == "retired"


def test_masters_engine_failure_is_one_inertia_move_in_fourth() -> None:
    race = start([SUN, 20, 1, 8, *([10] * 10)], ruleset="masters-2002")
    place(race, "a", "A14", gear=4, crossings=2, wear=replace(SETUP, engine=1, brakes=9))
    race = go(race)
    _twenty_in_fifth(race)
    rolling = [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT]
    assert rolling == [4]
    assert race.finished and race.info["a"].retirement is Retirement.ENGINE


# --- fuel (Dresden Verschleiß) ------------------------------------------------------------------


def test_no_fuel_at_the_last_corner_means_rolling_out_then_a_wreck() -> None:
    race = start([SUN, 2, 1, *([10] * 5)])
    place(race, "a", "C147", gear=2, crossings=2, corner_stops=1, wear=replace(SETUP, fuel=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.fuel == 1)
    assert race.info["a"].rolling_out is Retirement.FUEL
    while race.pending is not None:
        race.apply(race.legal_decisions()[0])
    assert race.info["a"].retirement is Retirement.FUEL
    assert [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT] == [1]


def test_a_car_that_runs_dry_is_a_wreck_without_a_dangerous_space() -> None:
    """Dresden "Verschleiß" ("bleibt als normales Wrack liegen"), decision "A car that runs
    dry" (issue 22): the car out of fuel stays as a wreck, but its space does not become
    dangerous (it used to get a sticker like an engine failure)."""
    race = start([SUN, 2, 1, *([10] * 5)])
    place(race, "a", "C147", gear=2, crossings=2, corner_stops=1, wear=replace(SETUP, fuel=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.fuel == 1)
    while race.pending is not None:
        race.apply(race.legal_decisions()[0])
    assert race.info["a"].retirement is Retirement.FUEL
    # a wreck, cleared at the end of the round as no car is behind it (Dresden Ausfälle)
    assert EventKind.WRECK_REMOVED in kinds(race, "a")
    assert race.cars["a"].space not in race.dangerous
    assert EventKind.DANGEROUS not in [e.kind for e in race.events]


def test_fuel_is_paid_when_leaving_the_last_corner() -> None:
    race = start([SUN, 2])
    place(race, "a", "C147", gear=2, corner_stops=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.fuel == 1)
    assert race.cars["a"].wear.fuel == 3


# --- tyres and spins (Dresden Verschleiß; Masters 10-4) ------------------------------------------


def test_the_last_tyre_point_spins_the_car_and_it_restarts_with_a_start_roll() -> None:
    race = start([SUN, 4, 12, 1])
    place(race, "a", "A8", gear=2, wear=replace(SETUP, tyres=1, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spin)
    assert EventKind.SPIN in kinds(race, "a")
    assert race.cars["a"].wear.tyres == 0
    assert race.pending is not None and race.pending.gears == (1,)
    restart = [e for e in race.events if e.kind is EventKind.START_ROLL]
    assert restart[-1].round == 2 and restart[-1].get("result") == 12


# --- pit stops (Dresden Boxenstopp; Masters 19) --------------------------------------------------


def test_dresden_pit_stop_points_are_worked_off_in_fourth_gear() -> None:
    race = start([SUN, 6, 7])
    place(race, "a", "C151", gear=3, crossings=2, wear=replace(SETUP, fuel=1, tyres=2))
    race = go(race)
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.SOFT, fuel=2)))
    pick(race, lambda o: o.pit)
    pit_in = next(e for e in race.events if e.kind is EventKind.PIT_IN)
    assert pit_in.get("points") == 6  # max(2 × 4, 6) = 8, minus 2 left over
    car = race.cars["a"]
    assert (car.wear.fuel, car.wear.tyres, car.tyre, car.tyre_laps) == (3, 5, Tyre.SOFT, 0)
    work = next(e for e in race.events if e.kind is EventKind.PIT_WORK)
    assert (work.get("result"), work.get("left")) == (7, 0)
    out = next(e for e in race.events if e.kind is EventKind.PIT_OUT)
    assert (out.get("spaces"), out.get("gear")) == (1, 4)  # rolled 7 against 6


@pytest.mark.parametrize(
    ("profile", "leftover"),
    [
        (DriverProfile.NORMAL, 2),
        (DriverProfile.LIGHT_SPRINTER, 3),
        (DriverProfile.HEAVY_TOURER, 1),
    ],
)
def test_a_profiles_plus_or_minus_one_on_the_roll_into_the_box_counts_towards_the_pit_points(
    profile: DriverProfile, leftover: int
) -> None:
    """Dresden "Boxenstopp" (in the pit lane only Theoretiker and Praktiker count) and the
    decision "Profiles on the roll into the box": the ±1 of a Leichter Flitzer or Schwerer
    Tourer belongs to a move that starts on the track, so what the roll leaves over on reaching
    the box (C151 → P1 → P2 → P3 → BOX1, four spaces of a 6) includes it. The engine followed
    this before issue 22; the scene proves it: the tyre change (6 points) less the leftover."""
    race = start([SUN, 6, 8, 8, 8])  # then the work in 4th (8 ≥ what is left)
    place(race, "a", "C151", gear=3, crossings=2, profile=profile)
    race = go(race)
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.HARD)))
    pick(race, lambda o: o.pit)
    pit_in = next(e for e in race.events if e.kind is EventKind.PIT_IN)
    assert pit_in.get("points") == 6 - leftover


def test_dresden_unannounced_pit_stop_costs_five_more() -> None:
    race = start([SUN, 4, 12])
    place(race, "a", "C151", gear=3, crossings=2)
    race = go(race)
    race.apply(TurnChoice(3))
    pick(race, lambda o: o.pit)
    assert race.pending is not None and race.pending.kind is AskKind.PIT
    race.apply(PitChoice(PitPlan(tyre=Tyre.HARD)))
    pit_in = next(e for e in race.events if e.kind is EventKind.PIT_IN)
    assert pit_in.get("points") == 11


def test_masters_quick_stop_leaves_with_half_the_roll() -> None:
    race = start([SUN, 4, 7], ruleset="masters-2002")
    place(race, "a", "C151", gear=3, crossings=2)
    race = go(race)
    race.apply(TurnChoice(3))
    pick(race, lambda o: o.pit)
    race.apply(PitChoice(PitPlan(tyre=Tyre.HARD)))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: True)
    out = next(e for e in race.events if e.kind is EventKind.PIT_OUT)
    assert out.get("spaces") == 4  # 7 / 2 rounded up (Masters 19-3-3)


def test_masters_long_stop_repairs_and_leaves_next_round_in_fourth_or_lower() -> None:
    race = start([SUN, 4], ruleset="masters-2002")
    place(race, "a", "C151", gear=3, crossings=2, wear=replace(SETUP, brakes=1))
    race = go(race)
    race.apply(TurnChoice(3))
    pick(race, lambda o: o.pit)
    race.apply(PitChoice(PitPlan(tyre=Tyre.RAIN, repairs=(WearArea.BRAKES,), long=True)))
    assert race.cars["a"].wear.brakes == 2 and race.cars["a"].wear.box == 0
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.gears == (1, 2, 3, 4)


def test_pit_plan_cannot_refuel_above_the_start() -> None:
    race = start([SUN])
    place(race, "a", "C151", gear=3, crossings=2)
    race = go(race)
    with pytest.raises(DecisionError) as error:
        race.apply(TurnChoice(3, pit=PitPlan(fuel=1)))
    assert "Dresden Boxenstopp" in error.value.where


# --- weather (Dresden Wetter) ---------------------------------------------------------------------


def test_changeable_weather_is_rolled_again_after_a_twenty_in_fifth() -> None:
    race = start([6, 20, 15, 2])
    place(race, "a", "A60", gear=4, wear=replace(SETUP, brakes=9))
    race = go(race)
    before = race.weather
    assert before.current is Weather.SUN and not before.settled
    _twenty_in_fifth(race)
    weather = [e for e in race.events if e.kind is EventKind.WEATHER]
    assert len(weather) == 2
    after = race.weather
    assert after.current is Weather.RAIN and not after.settled


@pytest.mark.parametrize(
    ("ruleset", "rolls", "before_the_move"),
    [("dresden-2006", [6, 20, 15, 2], False), ("dresden-open", [6, 20, 2, 15], True)],
)
def test_the_open_rolls_changeable_weather_again_right_after_the_twenty(
    ruleset: str, rolls: list[int], before_the_move: bool
) -> None:
    """Dresden Open "Wetter" ("nach jedem Wurf einer 20 … oder 30 … neu ermittelt", without
    the season's "am Ende der Spielrunde"), decision "Changeable weather in the Open" (issue
    22): in ``dresden-open`` the weather is rolled again right after the 20 in 5th, by the car
    that rolled it, before it moves; ``dresden-2006`` keeps the end of the round (then the
    engine test, 15, comes first). The Open used to wait for the end of the round too."""
    race = start(rolls, ruleset=ruleset)
    place(race, "a", "A60", gear=4, wear=replace(SETUP, brakes=9))
    race = go(race)
    _twenty_in_fifth(race)
    kinds_now = [e.kind for e in race.events]
    weather = max(n for n, k in enumerate(kinds_now) if k is EventKind.WEATHER)
    move = kinds_now.index(EventKind.MOVE)
    assert (weather < move) is before_the_move
    assert race.events[weather].car == "a"
    assert race.weather.current is Weather.RAIN


# --- finish, classification, karma (Masters 21; Dresden Rennen, Karmapool) ---------------------


def test_crossing_the_line_on_the_last_lap_finishes_and_ends_the_race() -> None:
    race = start([SUN, 8])
    place(race, "a", "A160", gear=3, crossings=3)
    race = go(race)
    race.apply(TurnChoice(3))
    while race.pending is not None:
        pick(race, lambda o: o.laps == 1)
    assert race.finished
    (placing,) = race.classification()
    assert (placing.status, placing.laps, placing.points) == ("finished", 3, 10)
    assert race.events[-1].kind is EventKind.END
    assert race.info["a"].karma > 30  # points and the lap led (Dresden Karmapool)


def test_order_of_play_is_the_leader_first() -> None:
    race = start([SUN, 3, 3], cars=("a", "b"))
    place(race, "a", "A20", gear=2)
    place(race, "b", "A40", gear=2)
    race = go(race)
    assert race.pending is not None and race.pending.car == "b"


def test_a_car_in_the_pit_lane_over_the_line_is_measured_on_its_new_lap() -> None:
    """The pit lane crosses the line at P15→P16; the crossing counts, so P17 is 1.5 rows into
    the new lap, one row ahead of A1 (0.5), yet it still plays after A1, which is past the
    last pit entry (Dresden Fahrregeln; Masters 19-5)."""
    race = start([SUN], cars=("track", "pit"))
    place(race, "pit", "P17", gear=4, crossings=2)
    place(race, "track", "A1", gear=4, crossings=2)
    race = go(race)
    assert race.laps_done("pit") == race.laps_done("track") == 1
    assert race.progress_of("pit") == race.progress_of("track") + 1
    assert [p.car for p in race.classification()] == ["pit", "track"]
    assert race.pending is not None and race.pending.car == "track"


# --- T-car (Dresden Ausfälle) and head to head (Dresden Kopf an Kopf) -----------------------------


def test_out_before_the_end_of_the_first_corner_restarts_in_the_t_car_from_the_box() -> None:
    race = start([SUN, 4, 1, 2])
    place(race, "a", "A5", gear=2, crossings=1, wear=replace(SETUP, road_holding=1))
    race.danger("A9")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A9") in o.dangerous)
    assert retirement(race, "a") is Retirement.ROAD_HOLDING
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.SETUP and ask.points == 20 and ask.t_car
    with pytest.raises(DecisionError):
        race.apply(SetupChoice(SETUP, Tyre.HARD))  # 22 points: too many for the T-car
    race.apply(SetupChoice(replace(SETUP, box=0, tyres=4), Tyre.HARD))
    car = race.cars["a"]
    assert car.status is CarStatus.RUNNING and car.space == MONACO.boxes[0]
    assert retirement(race, "a") is None
    assert race.pending is not None and race.pending.gears == (1,)
    assert EventKind.T_CAR in kinds(race, "a")


def test_head_to_head_the_higher_secret_bid_plays_first() -> None:
    race = start([SUN], cars=("a", "b"))
    place(race, "a", "A20", gear=4)
    place(race, "b", "C22", gear=2)
    race = go(race)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.BID and ask.rivals == ("b",)
    race.apply(BidChoice(0))
    race.apply(BidChoice(3))
    assert race.pending is not None and race.pending.car == "b"  # despite the lower gear
    assert race.info["b"].karma == 27
    assert EventKind.HEAD_TO_HEAD in [e.kind for e in race.events]


def test_without_bids_the_higher_gear_plays_first() -> None:
    race = start([SUN], cars=("a", "b"))
    place(race, "a", "A20", gear=2)
    place(race, "b", "C22", gear=4)
    race = go(race)
    race.apply(BidChoice(0))
    race.apply(BidChoice(0))
    assert race.pending is not None and race.pending.car == "b"
    assert race.info["a"].karma == race.info["b"].karma == 30


# --- interruption and restart (Dresden Neustart) ------------------------------------------------

CUT = ("A16", "B15", "B16", "C18")  # wrecks on these four spaces close the straight


def _wrecked(laps_done: int, front: tuple[tuple[str, str], ...] = (("a", "A5"),),
             extra_dice: tuple[int, ...] = (), keep_boundaries: bool = False) -> Race:
    """The cars of ``front`` (car, space) in gear 1 after ``laps_done`` laps, four wrecks on
    ``CUT`` closing the straight; the first car rolls a 3 in 2nd gear and drives it."""
    cars = (*(car for car, _ in front), "w1", "w2", "w3", "w4")
    race = start([SUN, 3, 10, *extra_dice], cars=cars)
    race.keep_boundaries = keep_boundaries
    for car, space in front:
        place(race, car, space, gear=1, crossings=1 + laps_done)
    for car, space in zip(cars[len(front):], CUT, strict=True):
        place(race, car, space, status=CarStatus.WRECK)
        race.set(car, retirement=Retirement.BODY)
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == 3)
    return race


def test_wrecks_blocking_the_track_stop_the_race_for_a_restart_in_a_tight_field() -> None:
    race = _wrecked(laps_done=1)
    assert EventKind.RESTART in [e.kind for e in race.events]
    assert all(race.cars[w].status is CarStatus.OUT for w in ("w1", "w2", "w3", "w4"))
    car = race.cars["a"]
    assert MONACO.straight_of[car.space] == MONACO.straight_of[sp("A18")]
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.gears == (1, 2, 3, 4)
    assert [p.corner for p in race.info["a"].passes if p.neutral] == [1]


def test_a_blockage_before_the_fourth_corner_restarts_from_the_grid() -> None:
    race = _wrecked(laps_done=0)
    assert race.cars["a"].space == MONACO.grid[0]
    while race.pending is not None and race.pending.kind is AskKind.SETUP:  # T-cars (Neustart)
        race.apply(SetupChoice(replace(SETUP, box=0, tyres=4), Tyre.HARD))
    assert any(e.kind is EventKind.START_ROLL and e.round == 2 for e in race.events)


def test_the_first_round_after_a_restart_is_played_in_race_order() -> None:
    """Dresden "Neustart" and "Fahrregeln" ("Eine Spielrunde startet beim Führenden"), decision
    "Order after a restart" (docs/formula_de/race.md): the leader a and the second car b stand
    level in gear 0 at the front of the restarted field; b has not moved before the stop and a
    has, so the old "arrived first" tie-break put b first, and the two were asked to bid head
    to head. The leader plays first, without bids."""
    race = _wrecked(1, front=(("a", "A5"), ("b", "A2")), extra_dice=(10,), keep_boundaries=True)
    assert EventKind.RESTART in [e.kind for e in race.events]
    a, b = race.cars["a"], race.cars["b"]
    assert MONACO.same_height(a.space, b.space) and a.gear == b.gear == 0
    # the field stands in race order: no head-to-head bids for this round (rule decision)
    assert race.pending is not None and race.pending.kind is AskKind.TURN
    rounds = [e for e in race.events if e.kind is EventKind.ROUND]
    assert rounds[-1].round == 2 and rounds[-1].get("order") == ["a", "b"]
    # the boundary before round 2 knows it follows a restart (RaceState.restart_round)
    state = race.take_boundaries()[-1]
    assert (state.round, state.restart_round) == (1, 2)
    again = Race.resume(
        state,
        track=MONACO,
        decisions=race.decisions[: state.version],
        events=race.events[: state.events],
        rolls=race.dice.history[: state.rolls],
    )
    assert again.pending is not None and (again.pending.kind, again.pending.car) == (
        AskKind.TURN,
        "a",
    )


# --- more collisions, wrecks, karma and profiles --------------------------------------------


def test_the_causing_car_loses_a_body_point_for_each_car_its_collision_eliminated() -> None:
    race = start([SUN, 1, 2, 1], cars=("a", "b"))
    place(race, "b", "A5", gear=0, crossings=2, status=CarStatus.SPUN, wear=replace(SETUP, body=1))
    race.set("b", needs_start=True)
    place(race, "a", "A2", gear=1, crossings=2)
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: sp("A5") in o.contacts)
    race.apply(KarmaChoice())  # b does not save itself
    assert race.info["b"].retirement is Retirement.BODY
    assert race.cars["a"].wear.body == 2  # Masters 14-4: without rolling
    assert [e.car for e in race.events if e.kind is EventKind.TEST] == ["b"]


@pytest.mark.parametrize(
    ("ruleset", "status"), [("masters-2002", "out"), ("dresden-2006", "wreck")]
)
def test_wrecks_go_at_their_next_turn_in_masters_and_stay_until_passed_in_dresden(
    ruleset: str, status: str
) -> None:
    race = start([SUN, 10, 2], cars=("a", "w"), ruleset=ruleset)
    place(race, "w", "A30", status=CarStatus.WRECK)
    race.set("w", retirement=Retirement.BODY)
    place(race, "a", "A2", gear=1)
    race = go(race)
    assert race.cars["w"].status.value == status


def test_wreck_removal_is_its_own_ruleset_field_not_the_engine_failure() -> None:
    """Dresden roll-out engine failure with Masters wreck removal (14-2, 20-3-2)."""
    ruleset = replace(get_ruleset("dresden-2006"), wreck_removal=WreckRemoval.NEXT_TURN)
    assert ruleset.engine_failure is EngineFailure.ROLL_OUT
    entries = (Entry("a", "A"), Entry("w", "W"))
    race = scene(("a", "w"), [SUN, 10, 2], ruleset=ruleset, board=MONACO, entries=entries)
    place(race, "w", "A30", status=CarStatus.WRECK)
    race.set("w", retirement=Retirement.BODY)
    place(race, "a", "A2", gear=1)
    race = go(race)
    assert race.cars["w"].status is CarStatus.OUT
    assert EventKind.WRECK_REMOVED in kinds(race, "w")


def test_a_natural_twenty_on_a_test_earns_karma() -> None:
    race = start([SUN, 2, 20])
    place(race, "a", "A1", gear=1)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A3") in o.dangerous)
    assert race.info["a"].karma == 31
    assert race.cars["a"].wear.road_holding == 2


@pytest.mark.parametrize(("launch", "spaces"), [(True, 3), (False, 2)])
def test_praktiker_may_take_one_more_space_at_the_start(launch: bool, spaces: int) -> None:
    config = RaceConfig(
        track="monaco",
        ruleset="dresden-2006",
        entries=(Entry(id="p", profile=DriverProfile.PRACTITIONER),),
        qualifying=("p",),
    )
    race = Race(config, ScriptedDice([SUN, 10, 2]), track=MONACO)
    race.apply(SetupChoice(SETUP, Tyre.HARD))
    race.apply(BoxChoice(1))
    assert race.pending is not None and race.pending.launch_optional
    race.apply(TurnChoice(1, launch=launch))
    if race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: o.spaces_moved == spaces)
    move = next(e for e in race.events if e.kind is EventKind.MOVE)
    assert move.get("spaces") == spaces


def test_rain_slides_a_corner_stop_three_spaces_on_hard_tyres() -> None:
    race = start([1, 4])  # monaco weather 1–4: rain
    place(race, "a", "A5", gear=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    assert race.weather.current is Weather.RAIN and race.weather.settled
    race.apply(TurnChoice(2))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    # the stop on A9 slides on by 3 (Dresden Reifen; Masters 8-1-2)
    assert any(o.spaces_moved == 7 for o in ask.moves)
    assert all(o.spaces_moved in (4, 7) for o in ask.moves)


def test_blocked_without_brakes_is_out_and_the_car_in_front_loses_a_body_point() -> None:
    race = start([SUN, 1, 1, 4, 10], cars=("m", "f", "s"))  # 10: s holds its collision test
    for car, space in (("f", "A4"), ("s", "B3")):
        place(race, car, space, gear=0, crossings=2, status=CarStatus.SPUN)
        race.set(car, needs_start=True)  # both stall again on their restart roll
    place(race, "m", "A3", gear=1, crossings=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    assert race.pending is not None and race.pending.car == "m"
    race.apply(TurnChoice(2))
    assert retirement(race, "m") is Retirement.BLOCKED  # Dresden Blockierte Spur
    # a wreck, cleared at the end of the round as no running car is behind it (Dresden Ausfälle)
    assert EventKind.WRECK_REMOVED in kinds(race, "m")
    assert race.cars["f"].wear.body == 2  # the car directly in front
    assert {sp("A3"), sp("A4")} <= race.dangerous  # Masters 20-2-2: two stickers


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    [
        ("dresden-2006", "Dresden Blockierte Spur; Masters 20-2"),
        ("masters-2002", "Masters 12-1-1, 20-2"),
    ],
)
def test_an_elimination_for_blocking_cites_the_rule_of_the_preset(ruleset: str, rule: str) -> None:
    """Masters 12-1-1, 20-2-1 (issue 22): under ``masters-2002`` a car that cannot pay its
    blocking cites the Masters rule, in the move it is offered, its retirement event and the
    classification; it used to cite "Dresden Blockierte Spur" there as in the Dresden presets."""
    race = start([SUN, 1, 1, 4, 10, 10], cars=("m", "f", "s"), ruleset=ruleset)
    for car, space in (("f", "A4"), ("s", "B3")):
        place(race, car, space, gear=0, crossings=2, status=CarStatus.SPUN)
        race.set(car, needs_start=True)  # both stall again on their restart roll
    place(race, "m", "A3", gear=1, crossings=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    assert race.pending is not None and race.pending.car == "m"
    race.apply(TurnChoice(2))
    assert retirement(race, "m") is Retirement.BLOCKED
    retired = next(e for e in race.events if e.kind is EventKind.RETIRED and e.car == "m")
    assert retired.get("rule") == rule
    (placing,) = [p for p in race.classification() if p.car == "m"]
    assert placing.rule == rule
    assert ("Dresden" in rule) is (ruleset != "masters-2002")


def test_masters_engine_failure_past_the_corner_before_last_may_still_reach_the_flag() -> None:
    race = start([SUN, 20, 1, 10, 8], cars=("b", "a"), ruleset="masters-2002")
    place(race, "b", "C155", gear=4, crossings=3)
    place(race, "a", "C150", gear=5, crossings=3, wear=replace(SETUP, engine=1))
    race.set("a", passes=[CornerPass(lap=2, corner=9, made=2, required=2, penalty=False)])
    race = go(race)
    race.apply(TurnChoice(5))  # b rolls 20 in 5th and finishes; a, in 5th, tests and fails
    while race.pending is not None and race.pending.kind is AskKind.MOVE:
        pick(race, lambda o: True)
    assert race.finished
    assert [p.status for p in race.classification()] == ["finished", "finished"]
    assert [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT] == [4, 4, 3]
    assert race.info["a"].retirement is None  # Masters 16-0-6
