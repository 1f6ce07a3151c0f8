"""The compiled move finder (mypyc, ``rennleitung.native``) against its pure Python source.

Both run in this process: the compiled modules as every caller gets them, the sources imported
afresh beside them (``native.pure_modules``). On every movement case file, on random positions
on every track (long rolls, slipstreams, pit lane, rain) and for all faces of a die at once,
the options must be identical: the same options, fields and representative paths, in the same
order. ``make`` builds the compiled core; without it (or when it is older than the source) the
first test fails and says so, unless ``RENNLEITUNG_PURE_PYTHON=1`` asked for pure Python.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from types import ModuleType

import pytest

from rennleitung import native
from rennleitung.formula_de import movegen
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.moves import request_for

from .movement_cases import TRACKS, random_request
from .position_cases import choices_of, position_of, rolls

PURE_ASKED = os.environ.get(native.PURE_ENV) == "1"


@pytest.fixture(scope="module")
def pure() -> Iterator[ModuleType]:
    with native.pure_modules() as modules:
        yield modules["movegen"]


def test_the_compiled_core_runs() -> None:
    if PURE_ASKED:
        assert not native.compiled()
        return
    assert native.why_pure() is None, native.why_pure()
    assert native.compiled()
    assert not (movegen.__file__ or "").endswith(".py")


def test_the_pure_modules_are_the_sources(pure: ModuleType) -> None:
    assert (pure.__file__ or "").endswith("movegen.py")
    assert pure is not movegen or PURE_ASKED
    assert movegen.generate_moves is not pure.generate_moves


def test_identical_on_every_movement_case(pure: ModuleType) -> None:
    compared = 0
    for roll in rolls():
        position, car = position_of(roll.file)
        request = request_for(position, car, roll.data["roll"], choices_of(roll.data))
        track = position.track
        assert movegen.generate_moves(track, request) == pure.generate_moves(track, request), (
            roll.id
        )
        compared += 1
    assert compared > 50


@pytest.mark.parametrize("track_name", TRACKS)
def test_identical_on_random_positions(track_name: str, pure: ModuleType) -> None:
    track = builtin_track(track_name)
    rng = random.Random(f"compiled:{track_name}")
    for _ in range(120):
        request = random_request(rng, track, 20)
        compiled = movegen.generate_moves(track, request)
        assert compiled == pure.generate_moves(track, request), request
    faces = (4, 5, 6, 7, 8, 9, 10)
    for _ in range(15):
        request = random_request(rng, track, 2)
        compiled_all = movegen.generate_moves_for_rolls(track, request, faces)
        assert compiled_all == pure.generate_moves_for_rolls(track, request, faces), request
