"""Tables worked out once per track: tracks are immutable, so anything derived from one (and a
few plain arguments) can be kept for as long as the track lives.

The cache is keyed by the track's identity, not its value: hashing a whole track would cost
more than most of the tables it guards. Each entry keeps its track, so an id is never reused
while its entry stands. A server checks tracks that people upload, one new object each time, so
each cache holds at most ``MAX_ENTRIES`` entries and forgets the oldest first: a race in play
keeps using its entry, and one forgotten is built again on its next use.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from rennleitung.formula_de.track import Track

P = ParamSpec("P")
T = TypeVar("T")

MAX_ENTRIES = 64
"""Entries kept per cached function: more than the built-in tracks times the arguments used."""


def per_track(
    build: Callable[Concatenate[Track, P], T],
) -> Callable[Concatenate[Track, P], T]:
    """Decorate ``build(track, *args)`` so that it runs once per track and arguments (which
    must be hashable)."""
    store: dict[tuple[int, Hashable], tuple[Track, T]] = {}

    @wraps(build)
    def cached(track: Track, /, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (id(track), (args, tuple(sorted(kwargs.items()))))
        found = store.get(key)
        if found is not None and found[0] is track:
            return found[1]
        value = build(track, *args, **kwargs)
        store[key] = (track, value)
        if len(store) > MAX_ENTRIES:
            del store[next(iter(store))]  # the oldest entry (dicts keep insertion order)
        return value

    cached.entries = store.__len__  # type: ignore[attr-defined]

    return cached
