"""Seats, tracks and stored races that no longer replay."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import delete, update

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track_text
from rennleitung.formula_de.record import record_from_data
from rennleitung.formula_de.replay import verify
from rennleitung.formula_de.rules_version import RULES_VERSION
from rennleitung.play import Actor, RaceService, RaceState, SeatKind
from rennleitung.play import engine as eng
from rennleitung.store.race_tables import PlayDecisionRow, PlayRaceRow, PlaySnapshotRow
from tests.play.support import SEED, person_answer, play_on, small_spec, started


def test_a_race_on_an_uploaded_track_is_rebuilt_from_the_stored_file(
    service: RaceService,
) -> None:
    spec = small_spec(track="hausstrecke", track_text=builtin_track_text("monaco"))
    race_id = started(service, spec)
    play_on(service, race_id, steps=8)
    info = service.info(race_id)
    assert info.custom_track and info.track == "hausstrecke"
    assert info.rules_version == RULES_VERSION
    fresh = RaceService(service.engine)
    assert fresh.race(race_id).track.name == service.race(race_id).track.name
    assert len(fresh.race(race_id).decisions) == info.version


def test_the_record_of_a_race_on_an_uploaded_track_carries_it_and_verifies(
    service: RaceService,
) -> None:
    """Issue 21: such a record was "unknown track" to race verify; now it carries the file,
    under the name the race was given (the file's own name is "short")."""
    text = builtin_track_text("short")
    spec = small_spec(persons=1, bots=1, track="hausstrecke", track_text=text)
    race_id = started(service, spec)
    play_on(service, race_id)
    data = service.record(race_id)
    assert data["config"]["track"] == "hausstrecke" and data["track_file"] == text
    verdict = verify(record_from_data(json.loads(json.dumps(data))))
    assert verdict.honest, verdict.problems


def test_a_broken_track_file_is_refused_at_creation(service: RaceService) -> None:
    with pytest.raises(RennleitungError) as refused:
        service.create_race(small_spec(track="kaputt", track_text="[track]\nname = 3\n"))
    assert refused.value.where
    assert service.races() == []


def test_the_organiser_gives_a_persons_seat_to_a_bot_mid_race(service: RaceService) -> None:
    race_id = started(service, small_spec(persons=2, bots=0))
    play_on(service, race_id, steps=4)
    asked = person_answer(service, race_id)[0]
    applied = service.assign(race_id, asked, kind=SeatKind.BOT, bot="steady")
    assert applied.stored and applied.stored[0].car == asked
    assert applied.stored[0].actor is Actor.BOT
    seat = service.info(race_id).seat(asked)
    assert (seat.kind, seat.bot, seat.holder, seat.deadline_at) == (
        SeatKind.BOT, "steady", None, None
    )
    play_on(service, race_id)
    assert service.info(race_id).state is RaceState.FINISHED


def test_a_finished_stored_race_gives_an_honest_record(service: RaceService) -> None:
    race_id = started(service, small_spec(persons=1, bots=1))
    play_on(service, race_id)
    record = record_from_data(json.loads(json.dumps(service.record(race_id))))
    verdict = verify(record)
    assert verdict.honest, verdict.problems
    assert record.seed == SEED


def test_a_stored_race_without_snapshots_whose_decision_no_longer_replays_is_asked_again(
    service: RaceService,
) -> None:
    """Under newer rules a running race stored before snapshots were kept goes back to its
    start; the first stored decision that no longer applies is asked again, with a notice
    naming the rules changed since (docs/formula_de/records.md)."""
    race_id = started(service)
    play_on(service, race_id, steps=10)
    with service.engine.begin() as connection:
        connection.execute(
            update(PlayDecisionRow)
            .where(PlayDecisionRow.race_id == race_id, PlayDecisionRow.seq == 2)
            .values(decision=json.dumps({"kind": "box", "box": 99}))
        )
        connection.execute(
            update(PlayRaceRow).where(PlayRaceRow.id == race_id).values(rules_version=1)
        )
        # a race stored before snapshots were kept replays from the start
        connection.execute(delete(PlaySnapshotRow).where(PlaySnapshotRow.race_id == race_id))
    fresh = RaceService(service.engine)
    race = fresh.race(race_id)
    info = fresh.info(race_id)
    (notice,) = info.notices
    assert notice.rules_from == 1 and notice.round == -1 and notice.dropped[0].seq == 2
    assert "Masters 8-4-1" in notice.text("en")  # the first fix since version 1
    assert eng.version(race) == notice.version and info.state is RaceState.RUNNING
    play_on(fresh, race_id)
    assert fresh.info(race_id).state is RaceState.FINISHED
