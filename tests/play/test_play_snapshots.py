"""The store keeps the race at every round boundary (``play_snapshots``): a race is rebuilt from
its latest snapshot and the decisions after it, and is then the race a replay of all its
decisions gives (same events, rolls, decisions and questions)."""

from __future__ import annotations

from sqlalchemy import func, select

from rennleitung.formula_de.record import record_from_data
from rennleitung.formula_de.replay import verify
from rennleitung.play import RaceService, RaceState
from rennleitung.play import engine as eng
from rennleitung.store.race_tables import PlaySnapshotRow
from tests.play.support import SEED, play_on, small_spec, started


def _snapshots(service: RaceService, race_id: int) -> list[tuple[int, int]]:
    with service.engine.connect() as connection:
        rows = connection.execute(
            select(PlaySnapshotRow.round, PlaySnapshotRow.version)
            .where(PlaySnapshotRow.race_id == race_id)
            .order_by(PlaySnapshotRow.round)
        )
        return [(int(r), int(v)) for r, v in rows]


def _same(rebuilt: eng.Race, service: RaceService, race_id: int) -> None:
    """``rebuilt`` is the race a replay of every stored decision gives."""
    replayed = eng.replay(
        eng.new_race(rebuilt.config, SEED), rebuilt.decisions
    )
    assert rebuilt.events == replayed.events
    assert rebuilt.dice.history == replayed.dice.history
    assert rebuilt.version == replayed.version
    assert rebuilt.questions() == replayed.questions()
    assert rebuilt.finished == replayed.finished


def test_a_race_is_rebuilt_from_its_latest_snapshot_as_a_replay_would_give_it(
    service: RaceService,
) -> None:
    race_id = started(service, small_spec(persons=2, bots=2))
    play_on(service, race_id, steps=40)
    race = service.race(race_id)
    snapshots = _snapshots(service, race_id)
    assert [r for r, _ in snapshots] == list(range(race.round))  # every boundary passed
    fresh = RaceService(service.engine)
    rebuilt = fresh.race(race_id)
    assert rebuilt is not race
    _same(rebuilt, service, race_id)
    play_on(fresh, race_id)  # on to the flag from the rebuilt race
    assert fresh.info(race_id).state is RaceState.FINISHED
    again = RaceService(service.engine).race(race_id)
    _same(again, service, race_id)
    assert [r for r, _ in _snapshots(service, race_id)] == list(range(again.round + 1))
    verdict = verify(record_from_data(fresh.record(race_id)))
    assert verdict.honest, verdict.problems


def test_two_services_on_one_store_keep_each_boundary_once(service: RaceService) -> None:
    """A service that catches up with decisions another stored does not store their
    snapshots again."""
    race_id = started(service, small_spec(persons=2, bots=1))
    other = RaceService(service.engine)
    for _ in range(30):
        play_on(service, race_id, steps=2)
        play_on(other, race_id, steps=3)
    with service.engine.connect() as connection:
        count = connection.scalar(
            select(func.count()).select_from(PlaySnapshotRow).where(
                PlaySnapshotRow.race_id == race_id
            )
        )
    rounds = [r for r, _ in _snapshots(service, race_id)]
    assert count == len(rounds) == len(set(rounds)) and rounds == list(range(len(rounds)))
    _same(RaceService(service.engine).race(race_id), service, race_id)
