"""Tables worked out once per track: tracks are immutable, so anything derived from one (and a
few plain arguments) can be kept for as long as the track lives.

The cache is keyed by the track's identity, not its value: hashing a whole track would cost
more than most of the tables it guards. Each entry keeps its track, so an id is never reused
while its entry stands.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from rennleitung.formula_de.track import Track

P = ParamSpec("P")
T = TypeVar("T")


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
        return value

    return cached
