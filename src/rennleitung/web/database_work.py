"""Where an answer's database work runs: on SQLite in the event loop's own thread, on
PostgreSQL in a worker thread (issue 25, target 3; docs/web.md "One process near its framework").

Python runs one thread at a time. A worker thread gives up the interpreter at every SQLite call
(about ten per answer), and when the event loop is busy taking in the next requests, each of
those hand-overs is a switch between two threads and back: measured flat out on one process,
an answer cost 2.2 ms of processor time in a worker thread and 1.45 ms in the loop's thread,
for the same work. On SQLite the calls are short and local, so nothing is gained by letting the
loop run while they do; the answer runs where the request arrived. On PostgreSQL a statement
waits for a server, and the loop should serve others meanwhile: a worker thread, as before.

Everything an answer's request waits for must run the same way: a worker thread waits up to
Python's switch interval (5 ms) for the interpreter at every SQLite call while the loop is busy,
so a read left in a thread (the person's account, ``context.page``) held such requests for two
seconds under full load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import Request
from starlette.concurrency import run_in_threadpool

Result = TypeVar("Result")


def in_loop(request: Request) -> bool:
    """Whether this server's database work runs in the event loop's thread (SQLite)."""
    return bool(request.app.state.engine.dialect.name == "sqlite")


async def database_work(request: Request, work: Callable[[], Result]) -> Result:
    """``work()`` in the event loop's thread on SQLite, else in a worker thread."""
    if in_loop(request):
        return work()
    return await run_in_threadpool(work)
