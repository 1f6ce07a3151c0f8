"""The move finder pauses Python's cyclic garbage collector while it searches (issue 25) and
always gives it back as it found it: on, off, or after a refused request."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from rennleitung.formula_de import movegen
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.movement import MoveRequest

from .movement_cases import random_request


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The collector's passes started while the test runs (by generation), with the collector
    on at the start, at the interpreter's default thresholds (a server started earlier in the
    same test process raises them: web/collector.py), and both as they were afterwards."""
    was = gc.isenabled()
    thresholds = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    started: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.enable()
    gc.callbacks.append(note)
    yield started
    gc.callbacks.remove(note)
    gc.set_threshold(*thresholds)
    if was:
        gc.enable()
    else:
        gc.disable()


def _wide_requests() -> list[MoveRequest]:
    rng = random.Random(5)
    return [random_request(rng, builtin_track("oval"), 28) for _ in range(60)]


def test_far_fewer_collector_passes_and_it_is_on_again_after(passes: list[int]) -> None:
    """The unpaused search (``_generate_moves``) on the same wide requests starts passes; the
    query starts none of its own (at most the one its allocations left due when it ends)."""
    requests = _wide_requests()
    track = builtin_track("oval")
    for request in requests:
        movegen._generate_moves(track, request, None)
    unpaused = len(passes)
    passes.clear()
    for request in requests:
        movegen.generate_moves(track, request)
        movegen.generate_moves_for_rolls(track, request, [4, 9])
    assert unpaused >= 5
    assert len(passes) <= unpaused // 3
    assert gc.isenabled()


def test_a_collector_paused_by_the_caller_stays_paused(passes: list[int]) -> None:
    gc.disable()
    request = _wide_requests()[0]
    movegen.generate_moves(builtin_track("oval"), request)
    movegen.generate_moves_for_rolls(builtin_track("oval"), request, [4, 9])
    assert not gc.isenabled()


def test_the_collector_is_on_again_after_a_failing_query(passes: list[int]) -> None:
    with pytest.raises(AttributeError):
        movegen.generate_moves(builtin_track("oval"), None)  # type: ignore[arg-type]
    assert gc.isenabled()
