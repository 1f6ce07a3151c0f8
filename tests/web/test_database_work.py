"""Where an answer's database work runs (web/database_work.py, issue 25 target 3): on SQLite in
the event loop's own thread, on PostgreSQL in a worker thread. Seen through the service's
notices, which are published in the thread that applied the answer, right after its commit."""

from __future__ import annotations

import json
import threading

from rennleitung.play.model import Notice
from tests.web.conftest import LiveServer, signed_up


def test_an_answer_runs_in_the_loop_thread_on_sqlite_and_in_a_worker_on_postgresql(
    server: LiveServer,
) -> None:
    anna = signed_up(server, "Anna")
    anna.page("/races/new")
    made = anna.submit("/races/new", {"track": "monaco", "ruleset": "dresden-2006",
                                      "people": "1", "bots": "1", "laps": "1", "bot": "simple",
                                      "drive": "1"})
    assert made.status_code == 303, made.text
    race = made.headers["location"]
    state = anna.get(f"{race}/state.json").json()
    assert anna.submit(f"{race}/start", {"version": str(state["version"])}).status_code == 303
    threads: list[threading.Thread] = []

    def heard(_notice: Notice) -> None:
        threads.append(threading.current_thread())

    server.app.state.races.subscribe(heard)
    asked = anna.get(f"{race}/question.json").json()
    assert asked["question"] is not None, asked
    answer = anna.submit(f"{race}/act", {"car": asked["car"], "version": str(asked["version"]),
                                         "decision": json.dumps(asked["question"]["options"][0])},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200, answer.text
    assert threads, "the answer published no notice"
    on_sqlite = server.app.state.engine.dialect.name == "sqlite"
    # uvicorn's event loop runs in the LiveServer's thread
    assert all((t is server.thread) == on_sqlite for t in threads), (on_sqlite, threads)
