"""More rule scenarios: the rules that ``test_race_rules.py`` leaves without a deciding test.

Each test puts the cars where one rule decides the outcome and asserts that outcome as the rule
text gives it (Dresden house rules first, Masters 2002 where Dresden is silent; see
``shared/design/formula-de-rules.md``). The rule is named in each docstring. The helpers and the
Monaco facts come from ``test_race_rules``: corner 1 is A9–A11 (one stop), the last corner ends
at C147, the pit entry is C151, the line lies after A167.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rennleitung.formula_de.car import CarStatus, DriverProfile, Tyre, Weather
from rennleitung.formula_de.dice import RollPurpose, ScriptedDice
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BoxChoice,
    DecisionError,
    KarmaAction,
    KarmaChoice,
    PitPlan,
    SetupChoice,
    TurnChoice,
)
from rennleitung.formula_de.race_questions import Ask
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.ruleset import PreRaceOrder
from tests.formula_de.scene import Scene, scene
from tests.formula_de.test_race_rules import (
    MONACO,
    SETUP,
    SUN,
    go,
    kinds,
    pick,
    place,
    sp,
    staged,
    start,
)

RAIN = 1  # monaco weather table: 1-4 rain, 5-8 changeable, 9-20 sun
CHANGEABLE = 6


def race_of(
    rolls: list[int],
    entries: tuple[Entry, ...],
    *,
    ruleset: str = "dresden-2006",
    qualifying: tuple[str, ...] | None = None,
    qualifying_weather: Weather = Weather.SUN,
    tyre: Tyre = Tyre.HARD,
) -> Scene:
    """Like ``start`` but with entries of our own (profiles, teams) and the grid as given."""
    ids = tuple(e.id for e in entries)
    return scene(
        ids,
        rolls,
        ruleset=staged(ruleset),
        board=MONACO,
        tyre=tyre,
        entries=entries,
        qualifying=ids if qualifying is None else qualifying,
        qualifying_weather=qualifying_weather,
    )


def asking(race: Race, kind: AskKind) -> bool:
    """Whether the race waits for an answer of this kind (a call, so that mypy does not keep
    its narrowing of ``race.pending`` across ``apply``)."""
    ask = race.pending
    return ask is not None and ask.kind is kind


def waiting(race: Race) -> Ask | None:
    """``race.pending`` as a call (no narrowing kept across ``apply``)."""
    return race.pending


def status(race: Race, car: str) -> CarStatus:
    return race.cars[car].status


def checks_of(race: Race, car: str) -> list[tuple[int, int]]:
    """(result, limit) of every black-die test the car rolled, in order."""
    found = []
    for e in race.events:
        if e.kind is EventKind.TEST and e.car == car:
            result, limit = e.get("result"), e.get("limit")
            assert isinstance(result, int) and isinstance(limit, int)
            found.append((result, limit))
    return found


# --- setup: grid, weather, boxes (Dresden Rennen, Qualifizierung, Wetter; Masters 3-2, 4) -------


def test_grid_without_qualifying_lap_is_drawn_with_the_black_die() -> None:
    """Dresden Qualifizierung: qualified drivers take the front slots in their order; the rest
    are placed by the black die (higher roll further forward, rule decision "Qualifying")."""
    entries = (Entry("x"), Entry("q"), Entry("y"))
    race = race_of([5, 12, SUN], entries, qualifying=("q",)).opening()
    assert race.grid_order == ["q", "y", "x"]  # y rolled 12, x rolled 5
    draws = [r for r in race.dice.history if r.purpose == RollPurpose.GRID_DRAW]
    assert [r.result for r in draws] == [5, 12]
    assert [race.cars[c].space for c in ("q", "y", "x")] == list(MONACO.grid[:3])
    how = {e.car: e.get("how") for e in race.events if e.kind is EventKind.GRID}
    assert how == {"q": "qualifying", "y": "drawn", "x": "drawn"}


@pytest.mark.parametrize(
    ("roll", "qualifying", "current", "settled"),
    [
        (RAIN, Weather.SUN, Weather.RAIN, True),
        (SUN, Weather.RAIN, Weather.SUN, True),
        (CHANGEABLE, Weather.RAIN, Weather.RAIN, False),
        (CHANGEABLE, Weather.SUN, Weather.SUN, False),
    ],
)
def test_weather_at_the_start_sun_and_rain_hold_changeable_starts_as_in_qualifying(
    roll: int, qualifying: Weather, current: Weather, settled: bool
) -> None:
    """Dresden Wetter; Masters 3-2-1 to 3-2-4: the pole driver rolls against the track's table;
    sun or rain hold for the whole race, changeable starts as the qualifying weather was."""
    race = race_of([roll], (Entry("a"),), qualifying_weather=qualifying).opening()
    assert (race.weather.current, race.weather.settled) == (current, settled)
    weather = [r for r in race.dice.history if r.purpose == RollPurpose.WEATHER]
    assert [r.result for r in weather] == [roll]


def test_settled_weather_is_not_rolled_again_after_a_twenty_in_fifth() -> None:
    """Dresden Wetter: only changeable weather is rolled again after a 20 in 5th; rain rolled at
    the start holds for the whole race."""
    race = start([RAIN, 20, 10])
    place(race, "a", "A60", gear=4, wear=replace(SETUP, brakes=9))
    race = go(race)
    race.apply(TurnChoice(5))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.eliminated is None)
    assert [e.kind for e in race.events].count(EventKind.WEATHER) == 1
    assert race.weather.current is Weather.RAIN


def test_boxes_are_chosen_per_team_in_the_order_of_its_best_placed_driver() -> None:
    """Dresden Rennen: each team picks one box, starting with the team of the pole driver; the
    team mates share it (Masters 4-0-1: in grid order)."""
    entries = (
        Entry("c", team="red"),
        Entry("b", team="blue"),
        Entry("a", team="red"),
    )
    race = race_of([SUN, 10], entries).opening()  # grid c, b, a; c makes its start roll
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.BOX and ask.car == "c"
    race.apply(BoxChoice(5))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.BOX and ask.car == "b"
    assert 5 not in ask.boxes
    with pytest.raises(DecisionError):
        race.apply(BoxChoice(5))
    race.apply(BoxChoice(2))
    assert race.pending is not None and race.pending.kind is AskKind.TURN  # a is not asked
    assert {c: race.cars[c].box for c in "abc"} == {"a": 5, "b": 2, "c": 5}


def test_masters_pit_is_chosen_before_the_car_is_configured() -> None:
    """Masters 4-0-1: "Before each player configures his car, he must choose a pit", pole
    sitter first. (Dresden Rennen has the setups first, then the boxes.)"""
    config = RaceConfig(
        track="monaco", ruleset="masters-2002", entries=(Entry("a"),), qualifying=("a",)
    )
    race = Race(config, ScriptedDice([SUN]), track=MONACO)
    assert race.pending is not None and race.pending.kind is AskKind.BOX


@pytest.mark.parametrize(
    ("ruleset", "first", "then"),
    [
        ("masters-2002", AskKind.BOX, AskKind.SETUP),
        ("dresden-2006", AskKind.SETUP, AskKind.BOX),
        ("dresden-open", AskKind.SETUP, AskKind.BOX),
    ],
)
def test_the_order_of_setups_and_pits_comes_from_the_ruleset(
    ruleset: str, first: AskKind, then: AskKind
) -> None:
    """Masters 4-0-1: the pits in grid order (pole first), then the car configurations;
    Dresden Rennen: "Dann stellt jeder Fahrer sich ein Setup ... zusammen ... Jede Mannschaft
    wählt ... eine Box". The ruleset field ``pre_race_order`` says which."""
    config = RaceConfig(
        track="monaco", ruleset=ruleset, entries=(Entry("a"), Entry("b")), qualifying=("a", "b")
    )
    race = Race(config, ScriptedDice([SUN, 10]), track=MONACO)  # 10: a's start roll
    asked = []
    while (ask := waiting(race)) is not None and ask.kind in (AskKind.SETUP, AskKind.BOX):
        asked.append((ask.kind, ask.car))
        if ask.kind is AskKind.BOX:
            race.apply(BoxChoice(ask.boxes[0]))
        else:
            race.apply(SetupChoice(SETUP, Tyre.HARD))
    assert asked == [(first, "a"), (first, "b"), (then, "a"), (then, "b")]
    done = [e.kind for e in race.events if e.kind in (EventKind.SETUP, EventKind.BOX)]
    assert done == [EventKind(first.value)] * 2 + [EventKind(then.value)] * 2
    assert {c: race.cars[c].box for c in "ab"} == {"a": 1, "b": 2}
    assert all(race.cars[c].wear == SETUP for c in "ab")
    assert race.round == 1
    expected = PreRaceOrder.BOXES_FIRST if first is AskKind.BOX else PreRaceOrder.SETUPS_FIRST
    assert race.ruleset.pre_race_order is expected


# --- gears (Dresden Auto, Verschleiß; Masters 6-1, 13) --------------------------------------------


@pytest.mark.parametrize(
    ("gear", "roll", "fuel", "brakes", "engine", "marked"),
    [
        (3, 4, 3, 4, 3, False),  # one gear skipped: 1 fuel
        (2, 2, 3, 3, 3, False),  # two: 1 fuel + 1 brakes
        (1, 1, 3, 3, 2, True),  # three: 1 fuel + 1 brakes + 1 engine, start space dangerous
    ],
)
def test_skipping_gears_from_fifth_costs_fuel_then_brakes_then_engine(
    gear: int, roll: int, fuel: int, brakes: int, engine: int, marked: bool
) -> None:
    """Dresden Verschleiß; Masters 13-1, 13-2: skipping one, two or three gears down costs
    1 fuel, + 1 brakes, + 1 engine; Masters 13-3: three skipped gears mark the start space."""
    race = start([SUN, roll])
    place(race, "a", "A14", gear=5)
    race = go(race)
    race.apply(TurnChoice(gear))
    wear = race.cars["a"].wear
    assert (wear.fuel, wear.brakes, wear.engine) == (fuel, brakes, engine)
    assert (sp("A14") in race.dangerous) is marked
    assert race.cars["a"].gear == gear


def test_never_from_sixth_straight_to_first() -> None:
    """Dresden Verschleiß; Masters 6-1-2: "Es ist nicht möglich vom 6. in den 1. Gang
    herunterzuschalten", although the car could pay for the skip."""
    race = start([SUN])
    place(race, "a", "A14", gear=6, wear=replace(SETUP, brakes=9))
    race = go(race)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.gears == (2, 3, 4, 5, 6)
    with pytest.raises(DecisionError):
        race.apply(TurnChoice(1))
    assert race.cars["a"].wear == replace(SETUP, brakes=9)  # nothing paid


def test_skipping_the_last_engine_point_is_an_engine_failure() -> None:
    """Dresden Verschleiß: three skipped gears cost an engine point; crossing out the last one
    is "Motorschaden" (the car rolls out, Dresden Ausfälle)."""
    race = start([SUN, 8, 4, 2, 1])
    place(race, "a", "A14", gear=5, crossings=2, wear=replace(SETUP, engine=1))
    race = go(race)
    race.apply(TurnChoice(1))
    assert race.cars["a"].wear.engine == 0
    assert race.info["a"].retirement is Retirement.ENGINE
    rolls = [e for e in race.events if e.kind is EventKind.ROLL and e.round == 1]
    assert rolls == []  # failed on the downshift, before the roll
    assert sp("A14") in race.dangerous


def test_masters_over_revving_away_the_last_engine_point_gives_no_inertia() -> None:
    """Masters 16-0-3-1: "If for any reason the car is in 4th gear or less (over-revving with
    loss of the last engine, or spinout), the inertia rule doesn't apply"."""
    race = start([SUN, 8], cars=("a",), ruleset="masters-2002")
    place(race, "a", "A14", gear=5, crossings=2, wear=replace(SETUP, engine=1))
    race = go(race)
    race.apply(TurnChoice(1))  # 5th to 1st: three skipped gears, the last engine point
    assert race.info["a"].retirement is Retirement.ENGINE
    assert EventKind.ROLLING_OUT not in kinds(race, "a")
    assert [e for e in race.events if e.kind is EventKind.ROLL] == []  # no move in 4th


@pytest.mark.parametrize(("old", "new", "rolling"), [(6, 2, [1]), (5, 1, [])])
def test_dresden_over_revving_away_the_last_engine_point_rolls_out_below_the_new_gear(
    old: int, new: int, rolling: list[int]
) -> None:
    """Dresden Ausfälle: after an engine failure the car "rollt in den darauffolgenden Runden
    im nächstniedrigeren Gang aus bis der 1. Gang erreicht ist". A failure on the downshift
    (three gears skipped, the last engine point) leaves the car in the gear it shifted into, so
    it rolls out from the gear below that one (decision in race.md): from 2nd one move in 1st,
    from 1st none (as Masters 16-0-3-1)."""
    race = start([SUN, 2, 2, 2, 2, 2])
    place(race, "a", "A14", gear=old, crossings=2, wear=replace(SETUP, engine=1))
    race = go(race)
    race.apply(TurnChoice(new))
    assert race.finished and race.info["a"].retirement is Retirement.ENGINE
    assert [e.get("gear") for e in race.events if e.kind is EventKind.ROLLING_OUT] == rolling
    assert [e.round for e in race.events if e.kind is EventKind.ROLL] == [2] * len(rolling)
    assert sp("A14") in race.dangerous


# --- karma (Dresden Karmapool) ------------------------------------------------------------------


def _tested_on_a_dangerous_space(karma: int, tests: tuple[int, ...]) -> Race:
    """Car a with ``karma`` rolls 2 in 1st gear onto the dangerous space A3 (its road-holding
    test, limit 4, and any re-roll take the black-die results ``tests``)."""
    race = start([SUN, 2, *tests])
    place(race, "a", "A1", gear=1)
    race.set("a", karma=karma)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A3") in o.dangerous)
    return race


def test_karma_re_roll_replaces_a_failed_test_for_forty() -> None:
    """Dresden Karmapool: 40 karma repeat one's own event roll; the new roll counts."""
    race = _tested_on_a_dangerous_space(karma=45, tests=(3, 15))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA and ask.car == "a"
    assert KarmaAction.REROLL in ask.karma_actions
    race.apply(KarmaChoice(KarmaAction.REROLL))
    assert checks_of(race, "a") == [(3, 4), (15, 4)]
    assert race.cars["a"].wear.road_holding == 2  # the re-roll held
    assert race.info["a"].karma == 5


def test_one_karma_plus_one_per_roll_and_again_after_a_re_roll() -> None:
    """Dresden "Karmapool", decision "Karma +1" (docs/formula_de/race.md): at most one +1 per
    roll, and only when it changes the outcome; after a re-roll the new roll may be raised by one
    again. The engine followed this before issue 22; this scene proves it: the road-holding test
    fails on 3 (limit 4), where +1 would not save it, so only the re-roll is offered; the re-roll
    fails on 4, and now +1 is offered, bought, and the test is held with no further question."""
    race = _tested_on_a_dangerous_space(karma=60, tests=(3, 4))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA
    assert ask.karma_actions == (KarmaAction.NONE, KarmaAction.REROLL)
    race.apply(KarmaChoice(KarmaAction.REROLL))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA
    assert ask.karma_actions == (KarmaAction.NONE, KarmaAction.PLUS_ONE)
    race.apply(KarmaChoice(KarmaAction.PLUS_ONE))
    assert race.pending is None or race.pending.kind is not AskKind.KARMA
    tests = [e for e in race.events if e.kind is EventKind.TEST and e.car == "a"]
    assert [(e.get("result"), e.get("modifier"), e.get("lost")) for e in tests] == [
        (3, 0, True),
        (4, 0, True),
        (4, 1, False),  # the +1 shown on the re-roll's result
    ]
    assert race.cars["a"].wear.road_holding == 2 and race.info["a"].karma == 0


def test_a_failed_re_roll_still_costs_the_point() -> None:
    """Dresden Karmapool: the re-roll replaces the first roll, for better or worse."""
    race = _tested_on_a_dangerous_space(karma=40, tests=(3, 2))
    race.apply(KarmaChoice(KarmaAction.REROLL))
    assert race.pending is None or race.pending.kind is not AskKind.KARMA  # 0 karma left
    assert race.cars["a"].wear.road_holding == 1
    assert race.info["a"].karma == 0


def test_no_re_roll_below_forty_karma() -> None:
    """Dresden Karmapool: a re-roll costs 40 karma; with 39 it cannot be bought."""
    race = _tested_on_a_dangerous_space(karma=39, tests=(4,))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.KARMA
    assert KarmaAction.PLUS_ONE in ask.karma_actions  # 20 karma: still affordable
    assert KarmaAction.REROLL not in ask.karma_actions
    with pytest.raises(DecisionError):
        race.apply(KarmaChoice(KarmaAction.REROLL))
    race.apply(KarmaChoice())
    assert race.cars["a"].wear.road_holding == 1 and race.info["a"].karma == 39


# --- collisions: rain and wrecks raise the odds (Dresden Verschleiß, Ausfälle; Masters 14) ------


def _stalled_ahead(weather_roll: int, b_roll: int, a_roll: int) -> Race:
    """b spun on A5 and stalls again on its restart roll; a ends on A4 right behind it."""
    race = start([weather_roll, 1, 2, b_roll, a_roll], cars=("a", "b"))
    place(race, "b", "A5", gear=0, status=CarStatus.SPUN)
    race.set("b", needs_start=True)
    place(race, "a", "A2", gear=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: sp("A5") in o.contacts)
    while race.pending is not None and race.pending.kind is AskKind.KARMA:
        race.apply(KarmaChoice())
    return race


@pytest.mark.parametrize(("weather_roll", "limit", "body"), [(SUN, 1, 3), (RAIN, 2, 2)])
def test_rain_raises_the_collision_odds_to_one_or_two(
    weather_roll: int, limit: int, body: int
) -> None:
    """Dresden Verschleiß: a collision check is lost on a 1, in rain (+1) on a 1 or 2
    (Masters 14-1). b rolls 2: held in the sun, lost in the rain."""
    race = _stalled_ahead(weather_roll, b_roll=2, a_roll=9)
    assert checks_of(race, "b") == [(2, limit)]
    assert checks_of(race, "a") == [(9, limit)]
    assert race.cars["b"].wear.body == body
    assert (sp("A5") in race.dangerous) is (body == 2)


@pytest.mark.parametrize(("weather_roll", "limit", "body"), [(SUN, 2, 3), (RAIN, 3, 2)])
def test_a_wreck_in_the_rain_is_lost_on_one_to_three(
    weather_roll: int, limit: int, body: int
) -> None:
    """Dresden Ausfälle: collision checks with a wreck are raised by one, "bei Sonne=2,
    Regen=3" (Masters 14-3). a rolls 3 next to the wreck: held in the sun, lost in the rain."""
    race = start([weather_roll, 2, 3], cars=("a", "w"))
    place(race, "w", "A5", status=CarStatus.WRECK)
    race.set("w", retirement=Retirement.BODY)
    place(race, "a", "A2", gear=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: sp("A5") in o.contacts)
    while race.pending is not None and race.pending.kind is AskKind.KARMA:
        race.apply(KarmaChoice())
    assert checks_of(race, "a") == [(3, limit)]
    assert checks_of(race, "w") == []  # the wreck does not roll
    assert race.cars["a"].wear.body == body


# --- Theoretiker and Praktiker out of the box and after a spin (Dresden Fahrerprofile) --------


@pytest.mark.parametrize(
    ("profile", "spaces"),
    [(DriverProfile.NORMAL, 1), (DriverProfile.THEORIST, 0), (DriverProfile.PRACTITIONER, 2)],
)
def test_profile_launch_out_of_the_box(profile: DriverProfile, spaces: int) -> None:
    """Dresden Fahrerprofile: the Theoretiker loses a space "aus der Box", the Praktiker gains
    one "beim Start nach dem Boxenstopp"; both keep their profile in the pit lane (Dresden
    Boxenstopp). The work roll 7 against 6 points leaves 1 space to drive out."""
    race = race_of([SUN, 6, 7], (Entry("a", profile=profile),))
    place(race, "a", "C151", gear=3, crossings=2, wear=replace(SETUP, fuel=1, tyres=2))
    race = go(race)
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.SOFT, fuel=2)))
    pick(race, lambda o: o.pit)
    box = MONACO.boxes[0]
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.brakes == 0 and o.spaces_moved == spaces)
    work = next(e for e in race.events if e.kind is EventKind.PIT_WORK)
    assert (work.round, work.get("result"), work.get("left")) == (2, 7, 0)
    out = next(e for e in race.events if e.kind is EventKind.PIT_OUT)
    assert out.get("spaces") == spaces
    moved = [e.get("spaces") for e in race.events if e.kind is EventKind.MOVE][1:]
    assert moved == ([spaces] if spaces else [])
    assert (race.cars["a"].space == box) is (spaces == 0)


def _spun(profile: DriverProfile, rolls: list[int]) -> Race:
    """The car spins on its last tyre point in corner 1 (round 1) and restarts in round 2."""
    race = race_of([SUN, 4, *rolls], (Entry("a", profile=profile),))
    place(race, "a", "A8", gear=2, wear=replace(SETUP, tyres=1, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spin)
    assert [e.round for e in race.events if e.kind is EventKind.SPIN] == [1]
    return race


@pytest.mark.parametrize(
    ("profile", "launch", "spaces"),
    [
        (DriverProfile.NORMAL, True, 2),
        (DriverProfile.THEORIST, True, 1),
        (DriverProfile.PRACTITIONER, True, 3),
        (DriverProfile.PRACTITIONER, False, 2),
    ],
)
def test_profile_launch_after_a_spin(profile: DriverProfile, launch: bool, spaces: int) -> None:
    """Dresden Fahrerprofile: after a spin ("nach Drehern") the Theoretiker loses a space and
    the Praktiker may take one more; the restart roll comes first (Dresden Ausfälle)."""
    race = _spun(profile, [12, 2])
    spun_at = race.cars["a"].space
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.gears == (1,)
    assert ask.launch_optional is (profile is DriverProfile.PRACTITIONER)
    race.apply(TurnChoice(1, launch=launch))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spaces_moved == spaces)
    restart = [e for e in race.events if e.kind is EventKind.START_ROLL]
    assert [(e.round, e.get("result")) for e in restart] == [(2, 12)]
    move = [e for e in race.events if e.kind is EventKind.MOVE][-1]
    assert move.round == 2 and move.get("spaces") == spaces
    assert race.cars["a"].space != spun_at


def test_praktiker_launch_is_spent_on_the_first_move_only() -> None:
    """Dresden Fahrerprofile: the extra space belongs to the start, not to every move."""
    race = race_of([SUN, 10, 2, 2], (Entry("p", profile=DriverProfile.PRACTITIONER),))
    race = go(race)
    race.apply(TurnChoice(1, launch=True))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spaces_moved == 3)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and not ask.launch_optional
    race.apply(TurnChoice(1))
    ask = race.pending
    if ask is not None and ask.kind is AskKind.MOVE:
        assert max(o.spaces_moved for o in ask.moves) == 2
        pick(race, lambda o: o.spaces_moved == 2)
    moves = [e.get("spaces") for e in race.events if e.kind is EventKind.MOVE]
    assert moves == [3, 2]


def test_praktiker_may_decline_the_extra_space_out_of_the_box() -> None:
    """Dresden Fahrerprofile: the Praktiker gets an extra space "den er benutzen darf" (may
    use) at the start, after the pit stop and after spins, so driving out of the box with only
    the space left over must not cost brakes."""
    race = race_of([SUN, 6, 7], (Entry("a", profile=DriverProfile.PRACTITIONER),))
    place(race, "a", "C151", gear=3, crossings=2, wear=replace(SETUP, fuel=1, tyres=2))
    race = go(race)
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.SOFT, fuel=2)))
    pick(race, lambda o: o.pit)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE  # 1 space left over, +1 Praktiker
    assert any(o.spaces_moved == 1 and o.brakes == 0 for o in ask.moves)
    assert any(o.spaces_moved == 2 and o.brakes == 0 for o in ask.moves)  # or he uses it
    assert not any(o.spaces_moved == 1 and o.brakes for o in ask.moves)  # each path once


def test_praktiker_with_nothing_left_over_may_stay_in_the_box_or_drive_one_space() -> None:
    """Dresden Fahrerprofile, Boxenstopp: 5 into the box leaves 7 points, the work roll 7
    meets them exactly, so nothing is left over; the Praktiker may drive out his one extra
    space, or not."""
    race = race_of([SUN, 5, 7, 2], (Entry("a", profile=DriverProfile.PRACTITIONER),))
    place(race, "a", "C151", gear=3, crossings=2, wear=replace(SETUP, fuel=1, tyres=2))
    race = go(race)
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.SOFT, fuel=2)))
    pick(race, lambda o: o.pit)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE and ask.roll == 0
    assert {(o.spaces_moved, o.brakes) for o in ask.moves} == {(0, 0), (1, 0)}
    pick(race, lambda o: o.spaces_moved == 0)
    assert race.cars["a"].space == MONACO.boxes[0]
    assert [e.round for e in race.events if e.kind is EventKind.MOVE] == [1]  # none out
    assert race.cars["a"].wear.brakes == SETUP.brakes
    ask = race.pending  # round 3: an ordinary turn, the launch is spent
    assert ask is not None and ask.kind is AskKind.TURN and not ask.launch_optional


# --- tyres and rain (Dresden Reifen; Masters 8) -----------------------------------------------


@pytest.mark.parametrize(("tyre", "spaces"), [(Tyre.HARD, 7), (Tyre.RAIN, 5)])
def test_the_tyres_chosen_at_the_start_decide_the_slide_in_the_rain(
    tyre: Tyre, spaces: int
) -> None:
    """Dresden Reifen: in the rain a corner stop slides on 3 spaces on hard tyres, 1 on rain
    tyres. Roll 4 from A5 either ends short of corner 1 (B8, C8) or stops on A9 and slides."""
    race = race_of([RAIN, 4], (Entry("a"),), tyre=tyre)
    place(race, "a", "A5", gear=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    assert race.cars["a"].tyre is tyre
    race.apply(TurnChoice(2))
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.MOVE
    assert {o.spaces_moved for o in ask.moves} == {4, spaces}  # stop short of the corner or slide
    assert all(o.tyres == 0 for o in ask.moves if o.corner_stops)


@pytest.mark.parametrize(
    ("weather_roll", "tyre", "cost"),
    [(SUN, Tyre.HARD, 1), (SUN, Tyre.RAIN, 2), (SUN, Tyre.SOFT, 2)],
)
def test_overshooting_in_the_sun_costs_more_on_rain_and_soft_tyres(
    weather_roll: int, tyre: Tyre, cost: int
) -> None:
    """Dresden Reifen: per space overshot hard tyres lose 1 point, soft tyres 2 (first and
    second lap of the set), rain tyres 2 in the sun. Roll 4 from A8 ends on A12, one space past
    corner 1 with its stop missing."""
    race = race_of([weather_roll, 4], (Entry("a"),), tyre=tyre)
    place(race, "a", "A8", gear=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.overshoot == 1)
    assert race.cars["a"].wear.tyres == SETUP.tyres - cost


@pytest.mark.parametrize(("weather_roll", "offered"), [(SUN, True), (RAIN, False)])
def test_the_soft_tyre_bonus_only_in_the_sun(weather_roll: int, offered: bool) -> None:
    """Dresden Reifen: soft tyres may move +1 on the set's first lap, "nur bei Sonne"."""
    race = race_of([weather_roll, 10], (Entry("a"),), tyre=Tyre.SOFT)
    race = go(race)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.TURN and ask.soft_bonus is offered
    if not offered:
        with pytest.raises(DecisionError):
            race.apply(TurnChoice(1, soft_bonus=True))


# --- the finish and the classification (Dresden Rennen; Masters 21) ----------------------------


def test_the_race_goes_on_until_every_running_car_has_crossed_the_line() -> None:
    """Dresden Rennen: "Es gewinnt, wer als erster die Ziellinie überquert. Das Rennen ist
    beendet, wenn alle noch im Spiel befindlichen Fahrer über die Ziellinie gefahren sind"
    (Masters 21-1-1, 21-1-3)."""
    race = start([SUN, 8, 4, 8], cars=("a", "b"))
    place(race, "a", "A160", gear=3, crossings=3)
    place(race, "b", "A156", gear=3, crossings=3)
    race = go(race)
    race.apply(TurnChoice(3))  # a: 8 spaces over the line
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 1)
    assert race.finish_order == ["a"]
    assert not race.finished
    ask = race.pending
    assert ask is not None and ask.car == "b" and ask.kind is AskKind.TURN
    race.apply(TurnChoice(3))  # b: 4 spaces, still short of the line
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 0 and o.brakes == 0)
    assert not race.finished and race.round == 2
    race.apply(TurnChoice(3))  # b: 8 more, over the line
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 1)
    assert waiting(race) is None
    table = [(p.car, p.position, p.status, p.laps, p.points) for p in race.classification()]
    assert table == [("a", 1, "finished", 3, 10), ("b", 2, "finished", 3, 8)]


def test_a_lapped_car_finishes_the_next_time_it_crosses_the_line_after_the_winner() -> None:
    """Dresden Rennen ("Das Rennen ist beendet, wenn alle noch im Spiel befindlichen Fahrer über
    die Ziellinie gefahren sind"), Masters 21-1-3, decision "The end of the race for lapped
    cars" (issue 22): a wins; c, a lap down, finishes when it next crosses the line, with the
    two laps it has completed, and scores (two complete laps). It used to drive on for the lap
    it was down."""
    race = start([SUN, 8, 8], cars=("a", "c"))
    place(race, "a", "A162", gear=3, crossings=3)
    place(race, "c", "A160", gear=3, crossings=2)
    race = go(race)
    race.apply(TurnChoice(3))  # a: 8 spaces over the line, the winner
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 1)
    assert race.finish_order == ["a"]
    ask = race.pending
    assert ask is not None and ask.car == "c" and ask.kind is AskKind.TURN
    race.apply(TurnChoice(3))  # c: 8 spaces over the line
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 1)
    assert race.finished
    table = [(p.car, p.position, p.status, p.laps, p.points) for p in race.classification()]
    assert table == [("a", 1, "finished", 3, 10), ("c", 2, "finished", 2, 8)]


def test_lapped_finishers_rank_behind_the_cars_with_more_laps_and_need_two_laps_for_points() -> (
    None
):
    """Dresden Rennen (points only from two complete laps) with the decision above: d, two
    laps down, crosses the line right after the winner a and finishes with one lap, two rounds
    before b (on a's lap) crosses; b is ranked ahead of d, and d scores nothing."""
    race = start([SUN, *([8] * 5)], cars=("a", "b", "d"))
    place(race, "a", "A162", gear=3, crossings=3)
    place(race, "b", "A150", gear=3, crossings=3)
    place(race, "d", "A160", gear=3, crossings=1)
    race = go(race)
    while race.pending is not None:
        race.apply(TurnChoice(3))
        while asking(race, AskKind.MOVE):
            pick(race, lambda o: o.spaces_moved == 8)
    assert race.finish_order == ["a", "d", "b"]
    table = [(p.car, p.status, p.laps, p.points) for p in race.classification()]
    assert table == [
        ("a", "finished", 3, 10),
        ("b", "finished", 3, 8),
        ("d", "finished", 1, 0),
    ]


def test_classification_lists_laps_completed_and_the_reason_of_every_retirement() -> None:
    """Dresden Rennen: points 10-8-6-… only for drivers with at least two complete laps;
    Masters 2-0-3: the race sheet records the reason of every retirement. a finishes; b (two
    laps done) loses its last road-holding point; c (one lap done) runs out of fuel. a has
    lapped c, so c, just behind a on the track, plays before b (Masters 6-2-6)."""
    race = start([SUN, 8, 2, 2, 3, 1], cars=("a", "b", "c"))
    place(race, "a", "A160", gear=3, crossings=3)
    place(race, "b", "A20", gear=1, crossings=3, wear=replace(SETUP, road_holding=1))
    place(race, "c", "C147", gear=2, crossings=2, corner_stops=1, wear=replace(SETUP, fuel=0))
    race.danger("A22")
    race = go(race)
    assert race.pending is not None and race.pending.car == "a"
    race.apply(TurnChoice(3))
    while asking(race, AskKind.MOVE):
        pick(race, lambda o: o.laps == 1)
    assert race.pending is not None and race.pending.car == "c"
    race.apply(TurnChoice(2))  # c: leaves the last corner without fuel
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.fuel == 1)
    race.apply(TurnChoice(2))  # b: onto the dangerous A22, the test rolls 3
    pick(race, lambda o: sp("A22") in o.dangerous)
    while waiting(race) is not None:  # c rolls out in 1st next round
        race.apply(race.legal_decisions()[0])
    table = [
        (p.car, p.position, p.status, p.laps, p.points, p.reason_en, p.rule)
        for p in race.classification()
    ]
    assert table == [
        ("a", 1, "finished", 3, 10, "", ""),
        ("b", 2, "retired", 2, 8, "road holding", Retirement.ROAD_HOLDING.rule),
        ("c", 3, "retired", 1, 0, "ran out of fuel", Retirement.FUEL.rule),
    ]
    assert "Masters 20-5" in Retirement.ROAD_HOLDING.rule
    assert "Dresden Verschleiß" in Retirement.FUEL.rule


# --- tests after the move (Dresden Verschleiß; Masters 16, 17) ----------------------------------


def test_one_road_holding_test_per_dangerous_space_entered_not_for_the_start_space() -> None:
    """Dresden Verschleiß, Masters 17-0-2 and the decision "Road-holding tests": every dangerous
    space the move enters costs a test, the one it ends on included, the one it starts on not."""
    race = start([SUN, 2, 10, 3])
    place(race, "a", "A1", gear=1)
    race.danger("A1", "A2", "A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: o.path == (sp("A2"), sp("A3")))
    assert checks_of(race, "a") == [(10, 4), (3, 4)]
    assert race.cars["a"].wear.road_holding == 1  # the second test was lost


def test_a_thirty_in_sixth_makes_every_car_in_fifth_or_sixth_test_its_engine() -> None:
    """Dresden Verschleiß; Masters 16-0-1: after a 30 in 6th every car in 5th or 6th tests its
    engine, in track order, the roller first as he leads; a car in 4th does not."""
    race = start([SUN, 30, 10, 3], cars=("a", "b", "c"))
    place(race, "a", "A149", gear=5, crossings=2, wear=replace(SETUP, brakes=9))
    place(race, "b", "A125", gear=5, crossings=2)
    place(race, "c", "A95", gear=4, crossings=2)
    race = go(race)
    race.apply(TurnChoice(6))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.eliminated is None)
    engine = [e for e in race.events if e.get("purpose") == RollPurpose.ENGINE]
    assert [(e.car, e.get("result")) for e in engine] == [("a", 10), ("b", 3)]
    assert (race.cars["a"].wear.engine, race.cars["b"].wear.engine) == (3, 2)
    assert race.cars["b"].space in race.dangerous


# --- karma income at the end of the race (Dresden Karmapool) --------------------------------------


def test_karma_income_points_places_gained_and_most_rounds_led() -> None:
    """Dresden Karmapool: at the end, 1 karma per championship point, 3 per place gained from
    grid to flag, 3 for the most rounds led in a lap. b starts 2nd, leads at the end of round 1
    and wins: 30 + 10 + 3 + 3; a finishes 2nd from pole: 30 + 8. (Round 1 ends with a right
    behind b: both pass a collision test with 15.)"""
    race = start([SUN, 4, 4, 15, 15, 8, 8], cars=("a", "b"))  # grid: a, b
    place(race, "a", "A156", gear=3, crossings=3)
    place(race, "b", "A157", gear=3, crossings=3)
    race = go(race)
    for car, laps in (("b", 0), ("a", 0), ("b", 1), ("a", 1)):
        assert race.pending is not None and race.pending.car == car
        race.apply(TurnChoice(3))
        while asking(race, AskKind.MOVE):
            pick(race, lambda o, laps=laps: o.laps == laps and o.brakes == 0)
    assert race.finished and race.finish_order == ["b", "a"]
    assert (race.info["b"].karma, race.info["a"].karma) == (46, 38)


# --- wrecks (Dresden Ausfälle) --------------------------------------------------------------------


def test_a_dresden_wreck_stays_until_the_last_running_car_has_passed_it() -> None:
    """Dresden Ausfälle: "Alle Wracks bleiben solange auf der Strecke, bis alle anderen Fahrer
    diese passiert haben". a is past the wreck on A20 from the start; it goes only at the end of
    the round in which b passes it."""
    race = start([SUN, 2, 2, 2, 8], cars=("a", "b", "w"))
    place(race, "w", "A20", status=CarStatus.WRECK)
    race.set("w", retirement=Retirement.BODY)
    place(race, "a", "A56", gear=2)
    place(race, "b", "A12", gear=2)
    race = go(race)
    race.apply(TurnChoice(2))  # a
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.brakes == 0)
    race.apply(TurnChoice(2))  # b, still short of the wreck
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.brakes == 0)
    assert race.round == 2 and status(race, "w") is CarStatus.WRECK
    race.apply(TurnChoice(2))  # a
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.brakes == 0)
    race.apply(TurnChoice(3))  # b: 8 spaces, past the wreck
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spaces_moved == 8 and MONACO.spaces[o.end].height > 20)
    assert status(race, "w") is CarStatus.OUT
    removed = [e.round for e in race.events if e.kind is EventKind.WRECK_REMOVED]
    assert removed == [2]


# --- pit announcement (Dresden Boxenstopp) --------------------------------------------------------


def test_the_last_pit_announcement_counts() -> None:
    """Dresden Boxenstopp: "Es können mehrere Ansagen gemacht werden, die letzte gilt". The soft
    tyres announced first are replaced by rain tyres and a fuel point announced next turn."""
    race = start([SUN, 2, 6, 12])  # 12: the work roll in the box next round
    place(race, "a", "C147", gear=2, crossings=2, corner_stops=1)
    race = go(race)
    race.apply(TurnChoice(2, pit=PitPlan(tyre=Tyre.SOFT)))
    if asking(race, AskKind.MOVE):
        # unbraked along lane C, the pit side (the options come in the canonical order)
        pick(race, lambda o: not o.pit and o.brakes == 0 and o.end == race.track.space("C149"))
    assert race.cars["a"].wear.fuel == 3  # paid on leaving the last corner
    race.apply(TurnChoice(3, pit=PitPlan(tyre=Tyre.RAIN, fuel=1)))
    pick(race, lambda o: o.pit)
    car = race.cars["a"]
    assert (car.tyre, car.wear.fuel) == (Tyre.RAIN, 4)
    pit_in = next(e for e in race.events if e.kind is EventKind.PIT_IN)
    assert pit_in.get("points") == 6  # max(1 × 4, 6), announced: no +5


# --- more start, collision, engine and weather cases ---------------------------------------------


@pytest.mark.parametrize("ruleset", ["dresden-2006", "masters-2002"])
def test_a_super_start_after_a_spin_allows_first_or_second_gear_next(ruleset: str) -> None:
    """Dresden Ausfälle ("wie Rennstart") and Startwurf; Masters 10-4-6: a 20 on the restart
    roll moves 4 spaces at once, next turn in 1st or 2nd (Masters: 2nd only after the start)."""
    race = race_of([SUN, 4, 20], (Entry("a"),), ruleset=ruleset)
    place(race, "a", "A8", gear=2, wear=replace(SETUP, tyres=1, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spin)
    assert race.pending is not None and race.pending.gears == (1,)
    race.apply(TurnChoice(1))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.spaces_moved == 4)
    assert EventKind.SUPER_START in kinds(race, "a")
    ask = waiting(race)
    assert ask is not None and ask.gears == (1, 2)


def test_masters_a_stalled_car_aggravates_the_collision_test() -> None:
    """Masters 9-1-2, 14-3: a collision test with a stalled car is lost on 1–2 in the sun (the
    Dresden presets raise the odds only for wrecks and rain, see the rain test above)."""
    race = start([SUN, 1, 2, 2, 9], cars=("a", "b"), ruleset="masters-2002")
    place(race, "b", "A5", gear=0, status=CarStatus.SPUN)
    race.set("b", needs_start=True)
    place(race, "a", "A2", gear=1)
    race = go(race)
    race.apply(TurnChoice(2))
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: sp("A5") in o.contacts)
    assert checks_of(race, "b") == [(2, 2)]
    assert race.cars["b"].wear.body == 2


def test_a_car_rolling_out_without_fuel_in_fifth_still_tests_its_engine() -> None:
    """Dresden Verschleiß: after a 20 in 5th "alle sich im 5. oder 6. Gang befindlichen Fahrer"
    test their engines. b has no fuel and rolls out, from 6th down into 5th, ahead of a; its
    engine is intact, so it must test too."""
    race = start([SUN, 11, 20, 10, 10, 10, 10, 10], cars=("a", "b"))
    place(race, "b", "A149", gear=6, crossings=2, status=CarStatus.ROLLING_OUT)
    race.set("b", wear=replace(SETUP, fuel=0))
    race.set("b", rolling_out=Retirement.FUEL)
    place(race, "a", "A60", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    while race.pending is not None and race.pending.car == "b":  # b rolls out in 5th
        pick(race, lambda o: o.brakes == 0)
    assert race.cars["b"].gear == 5
    race.apply(TurnChoice(5))  # a rolls 20
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.eliminated is None)
    engine = [e.car for e in race.events if e.get("purpose") == RollPurpose.ENGINE]
    assert engine == ["b", "a"]


def test_a_car_rolling_on_with_a_failed_engine_takes_no_engine_test() -> None:
    """Dresden Ausfälle, Verschleiß: a car whose engine has failed rolls on in ever lower gears
    (here from 6th into 5th, ahead of a) but has no engine left to test after a 20 in 5th."""
    race = start([SUN, 11, 20, 10, 10], cars=("a", "b"))
    place(race, "b", "A149", gear=6, crossings=2, status=CarStatus.ROLLING_OUT)
    race.set("b", rolling_out=Retirement.ENGINE)
    race.set("b", retirement=Retirement.ENGINE)
    place(race, "a", "A60", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    assert race.cars["b"].gear == 5  # rolled on straight ahead, no question asked
    race.apply(TurnChoice(5))  # a rolls 20
    if asking(race, AskKind.MOVE):
        pick(race, lambda o: o.eliminated is None)
    engine = [e.car for e in race.events if e.get("purpose") == RollPurpose.ENGINE]
    assert engine == ["a"]


def test_every_twenty_in_fifth_brings_its_own_weather_roll() -> None:
    """Masters 3-2-4: "Every time a driver get a 20 in 5th gear or a 30 in 6th, he will roll
    the black die at the end of the table round"; Dresden Wetter: changeable weather is rolled
    again "nach jedem Wurf einer 20 (5. Gang)". Two such rolls in a round: two weather rolls,
    and two rains in a row settle the weather."""
    race = start([CHANGEABLE, 20, 15, 20, 15, 15, RAIN, RAIN], cars=("a", "b"))
    place(race, "b", "A149", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    place(race, "a", "A60", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    for car in ("b", "a"):
        assert race.pending is not None and race.pending.car == car
        race.apply(TurnChoice(5))
        while asking(race, AskKind.MOVE):
            pick(race, lambda o: o.eliminated is None)
    weather = [r.result for r in race.dice.history if r.purpose == RollPurpose.WEATHER]
    assert weather == [CHANGEABLE, RAIN, RAIN]
    assert race.weather.current is Weather.RAIN and race.weather.settled


def test_no_more_weather_rolls_in_the_round_once_the_weather_is_settled() -> None:
    """Dresden Wetter; Masters 3-2-6: "Wird zweimal hintereinander Sonne oder Regen gewürfelt
    ändert sich das Wetter danach nicht mehr": three 20s in 5th, but after rain, rain the third
    roll is not made."""
    rolls = [CHANGEABLE, 20, 15, 20, 15, 15, 20, 15, 15, 15, RAIN, RAIN]
    race = start(rolls, cars=("a", "b", "c"))
    place(race, "c", "A160", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    place(race, "b", "A88", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    place(race, "a", "A52", gear=4, crossings=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    for car in ("c", "b", "a"):
        assert race.pending is not None and race.pending.car == car
        race.apply(TurnChoice(5))
        while asking(race, AskKind.MOVE):
            pick(race, lambda o: o.eliminated is None)
    weather = [r.result for r in race.dice.history if r.purpose == RollPurpose.WEATHER]
    assert weather == [CHANGEABLE, RAIN, RAIN]
    assert race.weather.settled and race.dice.remaining == 0


def test_a_car_without_fuel_that_reaches_its_box_is_saved() -> None:
    """Dresden Verschleiß: a car without fuel rolls out one gear lower each round; "wer sich so
    nicht in seine Box oder ins Ziel retten kann scheidet aus", so reaching the box and
    refuelling saves it."""
    race = start([SUN, 7, 4, 10], cars=("a",))
    place(race, "a", "C147", gear=4, crossings=2, corner_stops=1, wear=replace(SETUP, fuel=0))
    race = go(race)
    race.apply(TurnChoice(4, pit=PitPlan(tyre=Tyre.HARD, fuel=2)))
    pick(race, lambda o: o.end == sp("P3") and o.brakes == 0)  # 7 spaces into the pit lane
    assert race.info["a"].rolling_out is Retirement.FUEL  # the lap's fuel point was missing
    ask = race.pending  # next round: rolling out in 3rd, rolled 4
    assert ask is not None and ask.kind is AskKind.MOVE and ask.roll == 4
    rolling = [e for e in race.events if e.kind is EventKind.ROLLING_OUT]
    assert [(e.round, e.get("gear")) for e in rolling] == [(2, 3)]
    pick(race, lambda o: o.pit)
    assert EventKind.PIT_IN in kinds(race, "a")
    info = race.info["a"]
    assert (info.rolling_out, info.retirement) == (None, None)
    assert race.cars["a"].wear.fuel == 2


def test_a_twenty_rolled_while_rolling_out_in_fifth_makes_the_cars_in_fifth_test() -> None:
    """Dresden Verschleiß: "Wirft ein Fahrer eine 20 (5. Gang)", every car in 5th or 6th tests
    its engine. b, rolling out without fuel from 6th into 5th, rolls the 20 itself; b and a (in
    5th behind it) test their engines."""
    race = start([SUN, 20, 10, 10, 10, 10, 10, 10], cars=("a", "b"))
    place(race, "b", "A149", gear=6, crossings=2, status=CarStatus.ROLLING_OUT)
    race.set("b", wear=replace(SETUP, fuel=0))
    race.set("b", rolling_out=Retirement.FUEL)
    place(race, "a", "A60", gear=5, crossings=2, wear=replace(SETUP, brakes=9))
    race = go(race)
    while race.pending is not None and race.pending.car == "b":  # b rolls out in 5th: 20
        pick(race, lambda o: o.eliminated is None)
    assert race.cars["b"].gear == 5
    engine = [e.car for e in race.events if e.get("purpose") == RollPurpose.ENGINE]
    assert engine == ["b", "a"]
