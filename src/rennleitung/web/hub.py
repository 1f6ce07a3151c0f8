"""Live updates: which open streams hear of which race's new version.

A change made in this process reaches its watchers at once (the play service's notice); a change
made by another server process reaches them through the database, by one query a second for all
watched races together. Streams carry only the version; the page then fetches what changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import defaultdict
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from rennleitung.play.model import Notice, RaceChanged
from rennleitung.play.service import RaceService

log = logging.getLogger("rennleitung.web.hub")

POLL = 1.0
"""Seconds between version checks of the watched races: changes made by another server process
reach this process's watchers through the database."""


@dataclass
class Hub:
    """Fan-out of race versions to the streams open in this process: at once for changes made
    here (the service's notices), and for changes made by another server process through one
    query a second for all watched races together (``poll``), not one per stream."""

    loop: asyncio.AbstractEventLoop | None = None
    queues: dict[int, set[asyncio.Queue[int]]] = dataclasses.field(
        default_factory=lambda: defaultdict(set))
    watchers: dict[tuple[int, str], int] = dataclasses.field(
        default_factory=lambda: defaultdict(int))

    def notice(self, notice: Notice) -> None:
        """Wake the event loop only for a race with a stream open here. A stream opened while
        this runs misses nothing: it is registered before it reads the version it shows first,
        and the notice comes after the commit."""
        if (isinstance(notice, RaceChanged) and self.loop is not None
                and self.queues.get(notice.race_id)):
            self.loop.call_soon_threadsafe(self.tell, notice.race_id, notice.version)

    def tell(self, race_id: int, version: int) -> None:
        """Every stream of ``race_id`` hears ``version`` (in the event loop's thread)."""
        for queue in list(self.queues.get(race_id, ())):
            queue.put_nowait(version)

    async def poll(self, races: RaceService, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            watched = [race_id for race_id, queues in self.queues.items() if queues]
            if not watched:
                continue
            try:
                versions = await run_in_threadpool(races.versions, watched)
            except Exception:
                log.exception("version poll failed")
                continue
            for race_id, version in versions.items():
                self.tell(race_id, version)
