"""Races run here carry the running order after each round: validation, laps most led, chart."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from league_builders import race, roster

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import DRESDEN_SEASON_2006
from rennleitung.league.lap_leaders import laps_most_led_from_rounds
from rennleitung.league.race_result import RaceResult, RaceSource, RoundOrder
from rennleitung.league.race_result_codec import race_result_from_json, race_result_to_json
from rennleitung.league.season import League
from rennleitung.render.league_html import league_page
from rennleitung.render.league_lap_chart import ROW, TOP, lap_chart_svg

ROUNDS = (
    RoundOrder(1, ("Ben", "Anna", "Clara")),
    RoundOrder(1, ("Anna", "Ben", "Clara")),
    RoundOrder(2, ("Anna", "Ben", "Clara")),
    RoundOrder(3, ("Ben", "Anna")),  # Clara out
    RoundOrder(3, ("Ben", "Anna")),
)


def engine_race() -> RaceResult:
    # Lap 1: Ben 1 round, Anna 1 round (tie: both); lap 2: Anna; lap 3: Ben.
    result = race(1, ["Ben", "Anna", "Clara"], retired={"Clara": 2},
                  laps_most_led={"Anna": 2, "Ben": 2})
    return replace(result, rounds=ROUNDS, source=RaceSource.ENGINE)


def teams() -> League:
    return League("s", roster(DRESDEN_SEASON_2006, {"R": ["Anna", "Ben"], "B": ["Clara"]}))


def test_laps_most_led_follow_from_the_rounds() -> None:
    assert laps_most_led_from_rounds(ROUNDS) == {"Anna": 2, "Ben": 2}
    assert teams().with_race(engine_race()).races[0].rounds == ROUNDS


@pytest.mark.parametrize(
    ("rounds", "where"),
    [
        ((RoundOrder(1, ("Ben", "Zoe")),), "race 1, rounds"),
        ((RoundOrder(1, ("Ben", "Ben")),), "race 1, rounds"),
        ((RoundOrder(2, ("Ben",)), RoundOrder(1, ("Ben",))), "race 1, rounds"),
        ((RoundOrder(4, ("Ben",)),), "race 1, rounds"),
        ((RoundOrder(1, ("Anna",)),), "race 1, Ben, laps_most_led"),
    ],
)
def test_bad_rounds_are_refused(rounds: tuple[RoundOrder, ...], where: str) -> None:
    with pytest.raises(RennleitungError) as error:
        teams().with_race(replace(engine_race(), rounds=rounds))
    assert error.value.where == where


def test_rounds_survive_json() -> None:
    text = json.dumps(race_result_to_json(engine_race()))
    assert race_result_from_json(json.loads(text)) == engine_race()


def test_lap_chart_draws_each_car_at_its_place() -> None:
    svg = lap_chart_svg(ROUNDS, "Race 1")
    assert svg.count('class="car"') == 3
    clara = re.search(r'data-car="Clara"[^>]*points="([^"]+)"', svg)
    assert clara is not None
    ys = [float(p.split(",")[1]) for p in clara.group(1).split()]
    assert ys == [TOP + ROW * 2.5] * 3  # third in the three rounds she was running
    assert svg.count(">L") == 3  # laps 1, 2, 3 marked once each


def test_page_has_a_lap_chart_only_for_races_run_here() -> None:
    league = teams().with_race(engine_race()).with_race(race(2, ["Anna", "Ben", "Clara"]))
    page = league_page(league, "en")
    assert 'id="lap_chart-1"' in page and 'id="lap_chart-2"' not in page
