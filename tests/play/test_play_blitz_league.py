"""A league's server Blitz match enters the league's Blitz records when it is decided, exactly
once (issue 27): at the table (heats entered) and online (heats driven, flags settled)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rennleitung.league.blitz_records import BlitzSource
from rennleitung.league.formats import LeagueKind
from rennleitung.play import RaceService
from rennleitung.play.blitz import BlitzService
from rennleitung.store.league_store import LeagueStore
from tests.play.support import Clock
from tests.play.test_play_blitz import answer, asked, to_round_one


@pytest.fixture
def blitz(service: RaceService) -> BlitzService:
    LeagueStore(service.engine).create_league("Liga", LeagueKind.SEASON)
    return BlitzService(service)


def records(blitz: BlitzService) -> tuple[object, ...]:
    return LeagueStore(blitz.races.engine).load("Liga").blitz


def test_a_table_match_is_entered_when_decided_and_once(blitz: BlitzService) -> None:
    match_id = blitz.create(("Ada", "Bob"), track="oval", minutes=5, league="Liga",
                            mode="table", organiser="acc-org", seed=7)
    blitz.enter_heat(match_id, "Bob", "acc-org")
    blitz.enter_heat(match_id, "Ada", "acc-org")
    assert records(blitz) == ()  # 1:1, not decided
    blitz.enter_heat(match_id, "Bob", "acc-org")
    entered = LeagueStore(blitz.races.engine).load("Liga").blitz
    assert len(entered) == 1
    record = entered[0]
    assert (record.players, record.heat_winners, record.winner) == (
        ("Ada", "Bob"), ("Bob", "Ada", "Bob"), "Bob")
    assert (record.board, record.source, record.ref) == ("oval", BlitzSource.TABLE,
                                                         f"server:{match_id}")
    # a second process settling the same decision enters nothing more
    stored = blitz.store.match(match_id)
    undecided = {**stored.session, "runs": stored.session["runs"][:2]}
    BlitzService(blitz.races)._enter_if_decided(
        replace(stored, session=undecided), stored, blitz.races.now())
    assert len(records(blitz)) == 1
    # a match without a league keeps no record anywhere
    other = blitz.create(("Cem", "Dan"), track="oval", minutes=5, mode="table",
                         organiser="acc-org", seed=7)
    for winner in ("Cem", "Cem"):
        blitz.enter_heat(other, winner, "acc-org")
    assert len(records(blitz)) == 1


def test_an_online_match_is_entered_once_its_second_win_is_settled(
        blitz: BlitzService, clock: Clock) -> None:
    match_id = blitz.create(("Ada", "Bob"), track="oval", minutes=1, laps=1, league="Liga",
                            holders=("acc-ada", "acc-bob"), seed=7, secret="blitz-tests")
    while blitz.view(match_id).winner is None:
        race_id = blitz.start_heat(match_id, "acc-ada")
        to_round_one(blitz, race_id)
        mover = next(iter(asked(blitz, race_id)))
        while asked(blitz, race_id) == {mover}:
            answer(blitz, race_id)
        for _ in range(2):
            clock.advance(61)
            blitz.run_due()
    blitz.run_due()
    entered = records(blitz)
    view = blitz.view(match_id)
    assert len(entered) == 1
    assert entered[0].winner == view.winner and entered[0].source is BlitzSource.ONLINE
    assert len(entered[0].heat_winners) == len([h for h in view.heats if h.winner])
