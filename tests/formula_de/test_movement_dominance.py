"""Dropping dominated walks (movesearch.undominated) changes no option on long rolls.

Brute force cannot reach beyond 12 spaces here, so the generator with the pruning is compared
with itself without it on long rolls (up to 24 spaces, many dangerous spaces, the oval's wall),
and every path it keeps must pass the literal checker. It runs on the pure Python modules
(``native.pure_modules``): a compiled module's calls do not go through the attribute the test
patches; test_movement_compiled.py shows the compiled core answers the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest

from rennleitung import native
from rennleitung.formula_de import movesearch
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.movecheck import check_move

from .movement_cases import TRACKS, random_request


def _without_pruning(layer: movesearch.Layer) -> None:
    """Keep every walk."""


@pytest.fixture(scope="module")
def pure() -> Iterator[dict[str, ModuleType]]:
    with native.pure_modules() as modules:
        yield modules


@pytest.mark.parametrize("track_name", TRACKS)
def test_pruning_keeps_every_end_and_cost_on_long_rolls(track_name: str,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        pure: dict[str, ModuleType]) -> None:
    generate_moves = pure["movegen"].generate_moves
    track = builtin_track(track_name)
    rng = random.Random(f"dominance:{track_name}")
    pruned_somewhere = False
    for _ in range(60):
        request = random_request(rng, track, 24)
        pruned = generate_moves(track, request)
        with monkeypatch.context() as patched:
            patched.setattr(pure["movesearch"], "undominated", _without_pruning)
            full = generate_moves(track, request)
        assert {o.cost_key() for o in pruned} == {o.cost_key() for o in full}, request
        pruned_somewhere |= [o.path for o in pruned] != [o.path for o in full]
        for option in pruned:
            if option.eliminated is None:
                check_move(track, request, option.path)
    assert pruned_somewhere or track_name != "oval"
