"""The car model: wear points and setup validation, tyres, weather, profiles, status."""

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import (
    BLITZ_SETUP,
    PROFILE_EFFECTS,
    TYRES_DRESDEN,
    TYRES_MASTERS,
    CarError,
    CarStatus,
    DriverProfile,
    Tyre,
    Wear,
    WearArea,
    Weather,
    WeatherRoll,
    WeatherState,
)

GOOD = Wear(tyres=6, brakes=4, fuel=3, body=3, engine=3, road_holding=1, box=2)


def test_areas_have_english_values_and_german_labels() -> None:
    assert [a.value for a in WearArea] == [
        "tyres",
        "brakes",
        "fuel",
        "body",
        "engine",
        "road_holding",
    ]
    assert WearArea.FUEL.label_de == "Verbrauch"
    assert WearArea.FUEL.masters_name == "Gas"
    assert WearArea.ROAD_HOLDING.label_de == "Straßenlage"


def test_spend_returns_a_new_wear_and_leaves_the_old_one() -> None:
    after = GOOD.spend(WearArea.TYRES, 2)
    assert after.tyres == 4 and GOOD.tyres == 6
    assert after.total == GOOD.total - 2
    assert GOOD.spend(WearArea.BRAKES, 0) == GOOD


def test_spending_more_than_there_is_names_the_area() -> None:
    with pytest.raises(CarError) as caught:
        GOOD.spend(WearArea.ROAD_HOLDING, 2)
    assert caught.value.where == "wear.road_holding"
    assert "Straßenlage" in caught.value.de and "road holding" in caught.value.en


def test_repair_takes_points_from_the_box() -> None:
    repaired = GOOD.spend(WearArea.BODY, 2).repair(WearArea.BODY, 2)
    assert repaired.body == 3 and repaired.box == 0
    with pytest.raises(CarError):
        repaired.repair(WearArea.BODY, 1)


def test_negative_points_are_rejected() -> None:
    with pytest.raises(CarError) as caught:
        Wear(tyres=-1, brakes=1, fuel=1, body=1, engine=1, road_holding=1)
    assert caught.value.where == "wear.tyres"


def test_valid_setup_passes() -> None:
    assert GOOD.total == 22
    assert GOOD.validate_setup() is GOOD


@pytest.mark.parametrize(
    ("wear", "where", "de_word", "en_word"),
    [
        (
            Wear(tyres=8, brakes=0, fuel=4, body=4, engine=3, road_holding=1, box=2),
            "setup.brakes",
            "Bremsen",
            "brakes",
        ),
        (
            Wear(tyres=5, brakes=4, fuel=3, body=3, engine=3, road_holding=1, box=3),
            "setup.box",
            "Box",
            "box",
        ),
        (
            Wear(tyres=7, brakes=4, fuel=3, body=3, engine=3, road_holding=1, box=2),
            "setup.total",
            "22",
            "22",
        ),
    ],
)
def test_setup_errors_name_the_field_in_both_languages(
    wear: Wear, where: str, de_word: str, en_word: str
) -> None:
    with pytest.raises(RennleitungError) as caught:
        wear.validate_setup()
    error = caught.value
    assert error.where == where
    assert de_word in error.de and en_word in error.en
    assert error.message_de.startswith(where) and error.message_en.startswith(where)


def test_fixed_blitz_setup_overrides_the_minimum() -> None:
    assert BLITZ_SETUP.brakes == 0 and BLITZ_SETUP.road_holding == 0
    assert BLITZ_SETUP.validate_setup(fixed=BLITZ_SETUP) == BLITZ_SETUP
    with pytest.raises(CarError):
        BLITZ_SETUP.validate_setup()  # without the override the zeros are illegal
    with pytest.raises(CarError) as caught:
        GOOD.validate_setup(fixed=BLITZ_SETUP)
    assert caught.value.where == "setup.brakes"  # tyres match (6), brakes are the first miss


def test_wear_round_trips_through_a_mapping() -> None:
    assert Wear.from_mapping(GOOD.as_dict()) == GOOD
    with pytest.raises(CarError) as caught:
        Wear.from_mapping({**GOOD.as_dict(), "wings": 1})
    assert caught.value.where == "wear.wings"
    data = GOOD.as_dict()
    del data["engine"]
    with pytest.raises(CarError) as missing:
        Wear.from_mapping(data)
    assert missing.value.where == "wear.engine"


def test_dresden_tyre_table() -> None:
    soft, hard, rain = TYRES_DRESDEN[Tyre.SOFT], TYRES_DRESDEN[Tyre.HARD], TYRES_DRESDEN[Tyre.RAIN]
    assert [soft.overshoot_per_space(Weather.SUN, lap) for lap in (1, 2, 3, 4)] == [2, 2, 3, 3]
    assert hard.overshoot_per_space(Weather.RAIN, 3) == 1
    assert rain.overshoot_per_space(Weather.RAIN, 1) == 1
    assert rain.overshoot_per_space(Weather.SUN, 3) == 2
    assert (hard.rain_slide, soft.rain_slide, rain.rain_slide) == (3, 3, 1)
    # soft: optional +1 only on the set's first lap and only in sunshine; −1 on its third lap
    assert soft.movement_bonus(Weather.SUN, 1) == 1
    assert soft.movement_bonus(Weather.SUN, 2) == 0
    assert soft.movement_bonus(Weather.RAIN, 1) == 0
    assert soft.movement_malus(3) == -1 and soft.movement_malus(2) == 0
    assert hard.movement_bonus(Weather.SUN, 1) == 0


def test_masters_tyres_differ_on_the_third_lap() -> None:
    # Masters 8-5: no soft malus; rain tyres in the dry cost 3 on their third lap
    assert TYRES_MASTERS[Tyre.SOFT].movement_malus(3) == 0
    assert TYRES_MASTERS[Tyre.RAIN].overshoot_per_space(Weather.SUN, 3) == 3


def test_weather_sun_or_rain_at_the_start_holds_all_race() -> None:
    state = WeatherState.at_race_start(WeatherRoll.RAIN)
    assert state.current is Weather.RAIN and state.settled
    assert state.after_roll(WeatherRoll.SUN) == state


def test_changeable_weather_moves_until_the_same_result_twice() -> None:
    state = WeatherState.at_race_start(WeatherRoll.CHANGEABLE, qualifying=Weather.RAIN)
    assert state.current is Weather.RAIN and not state.settled
    state = state.after_roll(WeatherRoll.CHANGEABLE)
    assert state.current is Weather.RAIN and not state.settled
    state = state.after_roll(WeatherRoll.SUN)
    assert state.current is Weather.SUN and not state.settled
    state = state.after_roll(WeatherRoll.RAIN)
    assert state.current is Weather.RAIN and not state.settled
    state = state.after_roll(WeatherRoll.RAIN)
    assert state.current is Weather.RAIN and state.settled
    assert state.after_roll(WeatherRoll.SUN).current is Weather.RAIN


def test_changeable_in_between_breaks_the_pair() -> None:
    state = WeatherState.at_race_start(WeatherRoll.CHANGEABLE)
    for roll in (WeatherRoll.SUN, WeatherRoll.CHANGEABLE, WeatherRoll.SUN):
        state = state.after_roll(roll)
    assert state.current is Weather.SUN and not state.settled


def test_there_are_seven_profiles_including_the_normalo() -> None:
    assert len(DriverProfile) == 7
    assert DriverProfile.parse("Normalo") is DriverProfile.NORMAL
    assert DriverProfile.parse("leichter flitzer") is DriverProfile.LIGHT_SPRINTER
    assert DriverProfile.parse("rain_god") is DriverProfile.RAIN_GOD
    with pytest.raises(CarError) as caught:
        DriverProfile.parse("Rennfahrer")
    assert caught.value.where == "profile" and "Regengott" in caught.value.de


def test_profile_effects_table() -> None:
    e = PROFILE_EFFECTS
    assert e[DriverProfile.LIGHT_SPRINTER].movement == 1
    assert e[DriverProfile.LIGHT_SPRINTER].check_modifier == -1
    assert e[DriverProfile.HEAVY_TOURER].movement == -1
    assert e[DriverProfile.HEAVY_TOURER].check_modifier == 1
    assert e[DriverProfile.THEORIST].qualifying == -1 and e[DriverProfile.THEORIST].launch == -1
    assert not e[DriverProfile.THEORIST].launch_optional
    assert e[DriverProfile.PRACTITIONER].qualifying == 1
    assert e[DriverProfile.PRACTITIONER].launch == 1
    assert e[DriverProfile.PRACTITIONER].launch_optional
    assert e[DriverProfile.FAIR_WEATHER].corner_stop_sun == -1
    assert e[DriverProfile.FAIR_WEATHER].rain_slide == 1
    assert e[DriverProfile.RAIN_GOD].corner_stop_sun == 1
    assert e[DriverProfile.RAIN_GOD].rain_slide == -1
    assert DriverProfile.RAIN_GOD.effects is e[DriverProfile.RAIN_GOD]


def test_only_theorist_and_practitioner_act_in_the_pit_lane() -> None:
    acting = {p for p in DriverProfile if p.effects.in_pit_lane and p.effects != type(p.effects)()}
    assert acting == {DriverProfile.THEORIST, DriverProfile.PRACTITIONER}


def test_status_flags() -> None:
    assert len(CarStatus) == 8
    assert CarStatus.WRECK.on_track and not CarStatus.WRECK.racing
    assert not CarStatus.OUT.on_track
    assert CarStatus.SPUN.racing and CarStatus.IN_PIT.racing
    assert CarStatus.FINISHED.label_de == "im Ziel"


def test_in_the_pit_lane_only_theorist_and_practitioner_keep_their_effects() -> None:
    assert DriverProfile.LIGHT_SPRINTER.effects_at(in_pit_lane=True).movement == 0
    assert DriverProfile.LIGHT_SPRINTER.effects_at(in_pit_lane=False).movement == 1
    assert DriverProfile.PRACTITIONER.effects_at(in_pit_lane=True).launch == 1
    assert DriverProfile.THEORIST.effects_at(in_pit_lane=True).launch == -1
