"""Ruleset presets: every one loads, each field is documented, and they differ where a rule says."""

import json
from dataclasses import FrozenInstanceError, fields

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import (
    BLITZ_SETUP,
    CarStatus,
    DriverProfile,
    Tyre,
    Wear,
    WearArea,
    Weather,
)
from rennleitung.formula_de.ruleset import (
    DRESDEN_2006,
    DRESDEN_OPEN,
    FD_BLITZ,
    MASTERS_2002,
    PRESETS,
    EngineFailure,
    PitSystem,
    Qualifying,
    Ruleset,
    StartOutcome,
    UnknownRulesetError,
    WreckRemoval,
    field_docs,
    get_ruleset,
    preset_names,
)

SETUP_22 = Wear(tyres=6, brakes=4, fuel=3, body=3, engine=3, road_holding=1, box=2)


def test_the_four_presets_load_by_name() -> None:
    assert preset_names() == ("masters-2002", "dresden-2006", "dresden-open", "fd-blitz")
    for name in preset_names():
        ruleset = get_ruleset(name)
        assert ruleset.name == name
        hash(ruleset)  # frozen and hashable, so engines can key caches by it
    assert get_ruleset(" Dresden-2006 ") is DRESDEN_2006


def test_unknown_ruleset_is_bilingual_and_lists_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        get_ruleset("dresden-2007")
    error = caught.value
    assert isinstance(error, RennleitungError)
    assert error.where == "ruleset"
    assert "unbekanntes Regelwerk" in error.de and "unknown ruleset" in error.en
    assert "fd-blitz" in error.de and "masters-2002" in error.en


def test_rulesets_are_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        DRESDEN_2006.laps = 5  # type: ignore[misc]


def test_every_field_has_a_rule_number_and_both_descriptions() -> None:
    docs = field_docs()
    assert [d.name for d in docs] == [f.name for f in fields(Ruleset)]
    for doc in docs:
        assert doc.rule and doc.de and doc.en, doc.name
        assert doc.has_default, doc.name
    ruled = [d for d in docs if d.rule != "—"]
    assert all(("Dresden" in d.rule) or ("Masters" in d.rule) for d in ruled)


def test_describe_and_to_dict_cover_every_field_as_json() -> None:
    for ruleset in PRESETS.values():
        rows = ruleset.describe()
        assert [r.name for r in rows] == [f.name for f in fields(Ruleset)]
        data = json.loads(json.dumps(ruleset.to_dict()))
        assert data["name"] == ruleset.name
        assert set(data) == {f.name for f in fields(Ruleset)}


def test_dresden_open_differs_only_in_the_open_rules() -> None:
    # Dresden "Open": points x100, qualifying with up to two runs and pole points, karma per
    # 100 points, three races, no drop results, a box per driver; the weather rolled again at
    # once after a 20 in 5th or 30 in 6th (Dresden Open "Wetter", issue 22).
    assert set(DRESDEN_OPEN.differences(DRESDEN_2006)) == {
        "box_per_driver",
        "weather_reroll_at_once",
        "qualifying_runs",
        "qualifying_pole_points",
        "points_table",
        "karma_points_per_karma",
        "season_races",
        "drop_results",
    }
    assert DRESDEN_OPEN.points_table == tuple(100 * p for p in DRESDEN_2006.points_table)


def test_blitz_is_dresden_with_the_blitz_changes() -> None:
    changed = set(FD_BLITZ.differences(DRESDEN_2006))
    assert {"fixed_setup", "players", "heats_to_win", "chess_clock", "qualifying"} <= changed
    # the driving rules themselves stay ("Ansonsten gelten alle normalen Regeln")
    for name in ("tyre_table", "blocked_table", "engine_failure", "pit_system", "karma"):
        assert name not in changed
    assert FD_BLITZ.fixed_setup == BLITZ_SETUP
    assert FD_BLITZ.players == 2 and FD_BLITZ.heats_to_win == 2 and FD_BLITZ.chess_clock
    assert FD_BLITZ.qualifying is Qualifying.ALTERNATE


def test_wreck_removal_per_preset() -> None:
    # Dresden "Ausfälle": wrecks stay until every car has passed; Masters 14-2, 20-3-2: removed
    # at the wrecked car's next turn.
    assert MASTERS_2002.wreck_removal is WreckRemoval.NEXT_TURN
    for preset in (DRESDEN_2006, DRESDEN_OPEN, FD_BLITZ):
        assert preset.wreck_removal is WreckRemoval.WHEN_PASSED
    assert "wreck_removal" in MASTERS_2002.differences(DRESDEN_2006)
    assert MASTERS_2002.to_dict()["wreck_removal"] == "next_turn"


def test_blitz_setup_validates_only_under_blitz() -> None:
    assert FD_BLITZ.validate_setup(BLITZ_SETUP) == BLITZ_SETUP
    with pytest.raises(RennleitungError) as caught:
        DRESDEN_2006.validate_setup(BLITZ_SETUP)
    assert caught.value.where == "setup.brakes"
    with pytest.raises(RennleitungError):
        FD_BLITZ.validate_setup(SETUP_22)
    for ruleset in (MASTERS_2002, DRESDEN_2006, DRESDEN_OPEN):
        assert ruleset.validate_setup(SETUP_22) == SETUP_22


def test_masters_differs_where_the_masters_rules_say() -> None:
    # 19-3/19-4 quick and long stops instead of Dresden's points
    assert MASTERS_2002.pit_system is PitSystem.QUICK_LONG
    assert DRESDEN_2006.pit_system is PitSystem.POINTS
    assert MASTERS_2002.quick_stop_success_max == 10
    # 16-0-3 inertia in 4th instead of rolling out
    assert MASTERS_2002.engine_failure is EngineFailure.INERTIA
    assert DRESDEN_2006.engine_failure is EngineFailure.ROLL_OUT
    # 9-2-1 plays 2nd after a super start; Dresden lets the driver pick 1st or 2nd
    assert MASTERS_2002.super_start_next_gears == (2,)
    assert DRESDEN_2006.super_start_next_gears == (1, 2)
    # 19-1-6 no gear limit in the pit lane; Dresden at most 4th
    assert MASTERS_2002.pit_lane_max_gear is None and DRESDEN_2006.pit_lane_max_gear == 4
    # 5-1-3: gas only pays for skipping gears; Dresden burns one fuel point per lap
    assert MASTERS_2002.fuel_per_lap == 0 and DRESDEN_2006.fuel_per_lap == 1
    # house extras exist only in Dresden
    assert not MASTERS_2002.karma and DRESDEN_2006.karma
    assert not MASTERS_2002.engine_boost and DRESDEN_2006.engine_boost
    assert MASTERS_2002.profiles_allowed == frozenset({DriverProfile.NORMAL})
    assert DRESDEN_2006.profiles_allowed == frozenset(DriverProfile)
    # 14-3 aggravates next to spun and stalled cars too; Dresden names wrecks only
    assert CarStatus.SPUN in MASTERS_2002.collision_aggravated_by
    assert DRESDEN_2006.collision_aggravated_by == frozenset({CarStatus.WRECK})


def test_masters_and_dresden_tyres() -> None:
    assert DRESDEN_2006.tyre(Tyre.SOFT).movement_malus(3) == -1
    assert MASTERS_2002.tyre(Tyre.SOFT).movement_malus(3) == 0
    assert DRESDEN_2006.tyre(Tyre.RAIN).overshoot_per_space(Weather.SUN, 3) == 2
    assert MASTERS_2002.tyre(Tyre.RAIN).overshoot_per_space(Weather.SUN, 3) == 3


def test_shared_numbers_agree_in_every_preset() -> None:
    for ruleset in PRESETS.values():
        assert ruleset.slipstream_min_gear == 4 and ruleset.slipstream_spaces == 3
        assert ruleset.engine_limit(rain=False) == 4 and ruleset.engine_limit(rain=True) == 3
        assert ruleset.road_holding_limit(rain=False) == 4
        assert ruleset.road_holding_limit(rain=True) == 5
        assert ruleset.collision_limit(rain=False, aggravated=False) == 1
        assert ruleset.collision_limit(rain=True, aggravated=True) == 3
        assert ruleset.laps == 3


def test_start_roll_table() -> None:
    outcomes = [DRESDEN_2006.start_outcome(r) for r in range(1, 21)]
    assert outcomes[0] is StartOutcome.STALL
    assert outcomes[19] is StartOutcome.SUPER_START
    assert set(outcomes[1:19]) == {StartOutcome.NORMAL}
    with pytest.raises(RennleitungError):
        DRESDEN_2006.start_outcome(21)


def test_skip_gear_costs() -> None:
    r = DRESDEN_2006
    assert r.skip_cost(0) == {}
    assert r.skip_cost(1) == {WearArea.FUEL: 1}
    assert r.skip_cost(2) == {WearArea.FUEL: 1, WearArea.BRAKES: 1}
    assert r.skip_cost(3) == {WearArea.FUEL: 1, WearArea.BRAKES: 1, WearArea.ENGINE: 1}
    with pytest.raises(RennleitungError) as caught:
        r.skip_cost(4)  # 6th to 1st
    assert caught.value.where == "Masters 13-2"


def test_blocked_lane_table() -> None:
    r = DRESDEN_2006
    assert [r.blocked_cost(n) for n in range(0, 8)] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (3, 1),
        (3, 2),
        (3, 3),
        None,
    ]


def test_engine_and_weather_triggers() -> None:
    r = DRESDEN_2006
    assert r.is_engine_trigger(5, 20) and r.is_engine_trigger(6, 30)
    assert not r.is_engine_trigger(6, 20) and not r.is_engine_trigger(4, 12)
    assert r.weather_reroll_trigger == r.engine_test_trigger


def test_points_tables() -> None:
    assert DRESDEN_2006.points_table == (10, 8, 6, 5, 4, 3, 2, 1)
    assert DRESDEN_2006.points_min_laps == 2 and DRESDEN_2006.drop_results == 2
    assert MASTERS_2002.points_table == ()


def test_every_rule_field_is_documented_in_the_docs() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "formula_de" / "rulesets.md").read_text("utf-8")
    for doc in field_docs():
        if doc.rule != "—":
            assert f"`{doc.name}`" in text, doc.name


@pytest.mark.parametrize(
    ("points", "fuel", "repairs"),
    [(4, 1, 0), (6, 1, 0), (8, 2, 0), (10, 2, 1), (12, 3, 1), (14, 3, 2), (16, 4, 2), (24, 6, 2)],
)
def test_pit_points_reproduce_the_dresden_combinations(
    points: int, fuel: int, repairs: int
) -> None:
    tyres = points >= 6  # every combination from 6 points on includes the tyre change
    assert DRESDEN_2006.pit_stop_points(fuel=fuel, tyres=tyres, repairs=repairs) == points
    late = DRESDEN_2006.pit_stop_points(fuel=fuel, tyres=tyres, repairs=repairs, announced=False)
    assert late == points + 5


def test_pit_points_limits() -> None:
    with pytest.raises(RennleitungError):
        DRESDEN_2006.pit_stop_points(repairs=3)
    with pytest.raises(RennleitungError) as caught:
        MASTERS_2002.pit_stop_points(fuel=1)
    assert caught.value.where == "masters-2002.pit_system"
