"""Two processes on one database apply the same answer at the same moment: it is applied once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.play import Applied, RaceService, SeatKind
from rennleitung.play.engine import StaleVersion
from tests.play.support import person_answer, play_on, play_until_turns, started


def test_the_same_decision_from_two_services_at_once_is_applied_once(database_url: str) -> None:
    setup = RaceService.open(database_url)
    race_id = started(setup)
    play_on(setup, race_id, steps=3)
    car, answer, version = person_answer(setup, race_id)
    services = [RaceService.open(database_url) for _ in range(2)]
    for service in services:
        service.race(race_id)  # both hold the race in memory at the same version
    barrier = threading.Barrier(2)
    outcomes: list[Applied | RennleitungError] = []

    def send(service: RaceService) -> None:
        barrier.wait()
        try:
            outcomes.append(service.apply(race_id, car, answer, version))
        except RennleitungError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=send, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        applied = [o for o in outcomes if isinstance(o, Applied)]
        refused = [o for o in outcomes if isinstance(o, RennleitungError)]
        assert len(applied) == 1 and len(refused) == 1
        assert refused[0].where.startswith(("version", "database"))
        stored = setup.decisions(race_id)
        mine = [d for d in stored if d.seq == version + 1]
        assert len(mine) == 1 and mine[0].car == car and mine[0].decision == answer
        assert [d.seq for d in stored] == list(range(1, applied[0].version + 1))
        # both services continue from the one stored history
        for service in services:
            assert len(service.race(race_id).decisions) == applied[0].version
        play_on(services[1], race_id, steps=2)
        play_on(services[0], race_id, steps=2)
        assert len(setup.decisions(race_id)) == setup.version(race_id)
    finally:
        for service in (setup, *services):
            service.engine.dispose()


class _Meanwhile(Mapping[str, Any]):
    """An answer in JSON form that, the first time the service reads it (inside its step,
    after the race was read and before it is written), lets another process change the race."""

    def __init__(self, data: dict[str, Any], meanwhile: Callable[[], None]) -> None:
        self.data = data
        self.meanwhile: Callable[[], None] | None = meanwhile

    def __getitem__(self, key: str) -> Any:
        if self.meanwhile is not None:
            act, self.meanwhile = self.meanwhile, None
            act()
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_a_change_by_another_process_mid_step_makes_the_step_run_again(
        database_url: str) -> None:
    """Service A reads the race and works on an answer; service B (another process) seats a
    bot for the other person in between. A's write finds the race moved, does its step again on
    the stored state and stores its answer once, after B's change; nothing is lost."""
    setup = RaceService.open(database_url)
    race_id = started(setup)
    play_on(setup, race_id, steps=3)
    car, answer, version = person_answer(setup, race_id)
    a, b = RaceService.open(database_url), RaceService.open(database_url)
    other = next(s.car for s in setup.info(race_id).seats
                 if s.kind is SeatKind.PERSON and s.car != car)
    try:
        changed: list[int] = []
        applied = a.apply(race_id, car, _Meanwhile(answer, lambda: changed.append(b.assign(
            race_id, other, kind=SeatKind.BOT, bot="simple").version)), version)
        assert changed == [version], "B changed the race in the middle of A's step"
        stored = setup.decisions(race_id)
        mine = [d for d in stored if d.seq == version + 1]
        assert len(mine) == 1 and mine[0].car == car and mine[0].decision == answer
        assert setup.info(race_id).seat(other).kind is SeatKind.BOT  # B's change kept
        assert [d.seq for d in stored] == list(range(1, applied.version + 1))
        assert setup.version(race_id) == applied.version
        # the bot now in B's seat answered in A's step, as the stored seat says
        assert any(d.car == other and d.actor.value == "bot" for d in stored[version:])
    finally:
        for service in (setup, a, b):
            service.engine.dispose()


def test_a_race_another_process_moved_is_answered_on_its_stored_state(database_url: str) -> None:
    """Service A starts a step from the row and seats its own last step stored, without reading
    them again. When service B (another process) answered in between, an answer made against
    B's version is still taken by A (checked against the store, not against A's memory), an
    answer against A's older version is refused as stale, and every decision is stored once."""
    setup = RaceService.open(database_url)
    race_id = started(setup)
    play_until_turns(setup, race_id)  # one driver asked at a time
    a, b = RaceService.open(database_url), RaceService.open(database_url)
    try:
        car, answer, version = person_answer(setup, race_id)
        moved = a.apply(race_id, car, answer, version)  # A remembers what it stored
        car, answer, version = person_answer(b, race_id)
        assert version == moved.version
        by_b = b.apply(race_id, car, answer, version)  # B moves the race; A does not know
        car, answer, version = person_answer(setup, race_id)
        assert version == by_b.version
        with pytest.raises(StaleVersion):  # made against the version A last stored
            a.apply(race_id, car, answer, moved.version)
        by_a = a.apply(race_id, car, answer, version)  # made against B's version: taken
        stored = setup.decisions(race_id)
        assert [d.seq for d in stored] == list(range(1, by_a.version + 1))
        assert len(a.race(race_id).decisions) == by_a.version == setup.version(race_id)
        mine = [d for d in stored if d.seq == version + 1]
        assert len(mine) == 1 and mine[0].car == car and mine[0].decision == answer
        play_on(a, race_id, steps=2)  # and A goes on from the one stored history
        play_on(b, race_id, steps=2)
        assert len(setup.decisions(race_id)) == setup.version(race_id)
    finally:
        for service in (setup, a, b):
            service.engine.dispose()
