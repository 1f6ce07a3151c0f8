"""Two processes on one database apply the same answer at the same moment: it is applied once."""

from __future__ import annotations

import threading

from rennleitung.errors import RennleitungError
from rennleitung.play import Applied, RaceService
from tests.play.support import person_answer, play_on, started


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
