"""Two organisers at the same moment: team limit and single entry hold on both databases."""

from __future__ import annotations

import threading
from pathlib import Path

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueKind
from rennleitung.league.race_result import DriverRaceResult, FinishStatus, RaceResult
from rennleitung.league.roster import Driver
from rennleitung.store.database import one_writer, open_database
from rennleitung.store.league_store import LeagueStore


def test_two_drivers_added_at_once_to_a_team_with_one_free_seat(database_url: str) -> None:
    setup = LeagueStore.open(database_url)
    setup.create_league("L", LeagueKind.SEASON)
    setup.add_team("L", "Rot")
    setup.add_driver("L", Driver("Anna", "Rot"))
    stores = [LeagueStore.open(database_url) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def add(store: LeagueStore, name: str) -> None:
        barrier.wait()
        try:
            store.add_driver("L", Driver(name, "Rot"))
            outcomes[name] = "added"
        except RennleitungError as error:
            outcomes[name] = error

    threads = [threading.Thread(target=add, args=(store, name))
               for store, name in zip(stores, ("Ben", "Bea"), strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert sorted(str(o) == "added" for o in outcomes.values()) == [False, True]
        refusal = next(o for o in outcomes.values() if isinstance(o, RennleitungError))
        assert refusal.where in {"team", "database"}
        members = setup.load("L").roster.members("Rot")
        assert len(members) == 2 and members[0] == "Anna"
        assert len(setup.karma_ledger("L")) == 2
    finally:
        for store in (setup, *stores):
            store.engine.dispose()


def test_the_same_race_entered_twice_at_once(database_url: str) -> None:
    setup = LeagueStore.open(database_url)
    setup.create_league("L", LeagueKind.SEASON)
    setup.add_team("L", "Rot")
    setup.add_driver("L", Driver("Anna", "Rot"))
    setup.add_driver("L", Driver("Ben", "Rot"))
    stores = [LeagueStore.open(database_url) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = []
    race = RaceResult(1, (
        DriverRaceResult("Anna", 1, 1, 3, FinishStatus.FINISHED),
        DriverRaceResult("Ben", 2, 2, 3, FinishStatus.FINISHED),
    ))

    def enter(store: LeagueStore) -> None:
        barrier.wait()
        try:
            store.enter_race("L", race)
            outcomes.append("entered")
        except RennleitungError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=enter, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert outcomes.count("entered") == 1 and len(outcomes) == 2
        refusal = next(o for o in outcomes if isinstance(o, RennleitungError))
        assert refusal.where in {"race", "database"}
        assert setup.load("L").held_races() == (1,)
        # 2 starts + Anna's 10 points + Ben's 8 points, booked once
        assert len(setup.karma_ledger("L")) == 4
    finally:
        for store in (setup, *stores):
            store.engine.dispose()


def test_the_writers_turn_is_taken_again_inside_and_in_turns_between_threads(
        tmp_path: Path) -> None:
    """On SQLite a thread holding the turn to write may take it again inside (the mail queue's
    write within another write must not wait for itself), and another thread waits until the
    outermost turn is given back."""
    engine = open_database(f"sqlite:///{tmp_path / 'turns.sqlite3'}")
    order: list[str] = []
    inside = threading.Event()

    def other() -> None:
        inside.wait(10)
        with one_writer(engine):
            order.append("other")

    thread = threading.Thread(target=other)
    thread.start()
    with one_writer(engine):
        with one_writer(engine):
            order.append("inner")
        inside.set()
        thread.join(timeout=0.3)  # still waiting: the outer turn is held
        order.append("outer")
    thread.join(timeout=10)
    assert order == ["inner", "outer", "other"]
    engine.dispose()
