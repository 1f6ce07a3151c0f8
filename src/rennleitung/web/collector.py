"""Short pauses of Python's cycle collector in the server.

Every running race lives in memory (``RaceService``), and each answer leaves a few hundred new
objects behind. With the interpreter's defaults the collector ran a full pass about once a
second under load, each one walking every object of the process (the libraries' own 130,000
included) with all threads stopped: 40 to 130 ms in which no answer moved, the largest share of
the slowest answers (docs/web.md, "Speed"). So the server, once started, moves what it has
imported and built so far out of the collector's sight (it lives as long as the process), and
lets the young generation grow larger before a pass. Races are still collected: a race
dropped from memory is garbage like any other.
"""

from __future__ import annotations

import gc

YOUNG_OBJECTS = 10_000
"""Allocations before the youngest generation is collected (the interpreter's default: 700).
Passes become rarer and each one is still short: measured 10 ms at most."""
OLD_PASSES = 100
"""Passes of the middle generation before a full one is considered (default: 10)."""


def settle_collector() -> None:
    """Collect once, freeze what survives (modules, routes, templates, tables) and set the
    thresholds above; called once a server process has started."""
    gc.collect()
    gc.freeze()
    _young, middle, _old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, OLD_PASSES)
