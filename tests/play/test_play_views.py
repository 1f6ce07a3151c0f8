"""The views the race service hands to the faces: a seat sees its own car in full and its own
waiting answers, nobody else does; the organiser and the spectators see the public race; the
seed only after the flag; a question keeps the version it was opened at."""

from __future__ import annotations

import json

from rennleitung.play import RaceService, RaceState
from rennleitung.play.views import Reader, ReaderKind
from tests.play.support import person_answer, play_on, small_spec, started


def test_an_open_race_has_a_view_without_a_board(service: RaceService) -> None:
    race_id = service.create_race(small_spec(), seed="s")
    seen = service.view_for(race_id, None)
    assert not seen.started and seen.reader.kind is ReaderKind.SPECTATOR
    data = json.loads(json.dumps(seen.to_json()))
    assert data["state"] == "open" and data["seed"] is None and "cars" not in data


def test_a_setup_stays_with_its_driver_until_all_are_in(service: RaceService) -> None:
    race_id = started(service, small_spec(persons=3, bots=0))
    before = {r: service.view(race_id, r).to_json() for r in _readers()}
    car, answer, version = person_answer(service, race_id)
    assert answer["kind"] == "setup"
    service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    own = service.view(race_id, Reader.seat(car))
    assert own.answered == ({"car": car, **answer},)
    assert own.questions == ()  # answered: nothing more to ask of him for now
    for reader in _readers():
        if reader.car == car:
            continue
        now = service.view(race_id, reader).to_json()
        assert now["answered"] == [] and now["version"] == before[reader]["version"] + 1
        assert _public(now) == _public(before[reader])
        assert car not in now["asked"]
        if reader.car is not None:  # the others still have their setup question, opened at 0
            (question,) = service.view(race_id, reader).questions
            assert question.opened == version == 0 and question.question.kind.value == "setup"
    # the holder's view is his seat's; the organiser's (no seat) the organiser's
    assert service.view_for(race_id, f"acc-{car}").reader == Reader.seat(car)


def test_views_are_json_and_the_seed_shows_after_the_flag(service: RaceService) -> None:
    race_id = started(service)
    seen = service.view(race_id, Reader.seat("car1"))
    json.dumps(seen.to_json())
    assert seen.to_json()["seed"] is None and seen.position is not None
    play_on(service, race_id)
    assert service.info(race_id).state is RaceState.FINISHED
    done = service.view(race_id, Reader.spectator())
    assert done.finished and done.to_json()["seed"] and done.order[0].position == 1
    assert done.questions == () and done.asked == ()
    frame = service.replay_view(race_id, 3)
    assert frame.version == 3 and frame.reader.kind is ReaderKind.SPECTATOR


def test_a_view_at_a_version_reads_the_race_in_memory_only(service: RaceService) -> None:
    race_id = started(service)
    car, answer, version = person_answer(service, race_id)
    applied = service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    seen = service.view_at(race_id, applied.version, Reader.seat(car))
    assert seen is not None and seen.version == applied.version
    assert seen.to_json() == service.view(race_id, Reader.seat(car)).to_json()
    assert service.view_at(race_id, applied.version + 1, Reader.seat(car)) is None
    service.forget(race_id)
    assert service.view_at(race_id, applied.version, Reader.seat(car)) is None


def _readers() -> list[Reader]:
    return [Reader.seat("car1"), Reader.seat("car2"), Reader.seat("car3"),
            Reader.organiser(), Reader.spectator()]


def _public(data: dict[str, object]) -> dict[str, object]:
    """A view without what moves with every answer (the version, who is still asked, the
    reader's own questions)."""
    return {k: v for k, v in data.items() if k not in ("version", "asked", "questions")}
