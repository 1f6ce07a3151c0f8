"""The search over states (movesearch.py) finds exactly the walks of a walk-by-walk search.

The reference below is the generator's search before issue 25, written plainly: it visits a
layer's walks in order, tries each space's arrows in order, keeps the first path that reaches a
walk and drops dominated walks. The state search must give the same walks with the same paths,
lane changes and laps in the same order at every depth, so that every option, its
representative path and the canonical order stay as they were (golden races unchanged).
"""

from __future__ import annotations

import random

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.movegen import Query, walk_forward
from rennleitung.formula_de.movement import Elimination
from rennleitung.formula_de.movesearch import Node, Walk

from .movement_cases import TRACKS, random_request

CROSSED = 3


def _reference_undominated(layer: dict[Walk, Node]) -> list[Node]:
    groups: dict[tuple[object, ...], list[Walk]] = {}
    for walk in layer:
        if walk.run_crossed:
            groups.setdefault((*walk[:CROSSED], *walk[CROSSED + 1 :]), []).append(walk)
    dropped = {
        walk
        for walks in groups.values()
        for walk in walks
        if any(other.run_crossed < walk.run_crossed for other in walks)
    }
    return [node for walk, node in layer.items() if walk not in dropped]


def _reference_layers(
    query: Query, root: Node, steps: int, slipstream: bool
) -> tuple[list[list[Node]], list[tuple[tuple[int, ...], Elimination]]]:
    layers = [[root]]
    eliminations = []
    for _ in range(steps):
        layer: dict[Walk, Node] = {}
        for node in layers[-1]:
            if node.walk.in_box:
                continue
            for nxt, change, lap in query.tables.edges[node.walk.space]:
                if nxt in query.occupied:
                    continue
                result = query.step(node.walk, nxt, slipstream)
                if isinstance(result, Elimination):
                    eliminations.append(((*node.path, nxt), result))
                elif result is not None and result not in layer:
                    layer[result] = Node(
                        result, (*node.path, nxt), node.changes + change, node.laps + lap
                    )
        if not layer:
            break
        layers.append(_reference_undominated(layer) if query.hazards else list(layer.values()))
    return layers, eliminations


def _first_per_end(
    eliminations: list[tuple[tuple[int, ...], Elimination]],
) -> dict[tuple[int, Elimination], tuple[int, ...]]:
    """The first elimination path per (end, reason): the only one that makes an option."""
    first: dict[tuple[int, Elimination], tuple[int, ...]] = {}
    for path, reason in eliminations:
        first.setdefault((path[-1], reason), path)
    return first


def _assert_same(query: Query, root: Node, steps: int, slipstream: bool) -> list[list[Node]]:
    found, eliminations = walk_forward(query, [root], steps, slipstream)
    layers, expected = _reference_layers(query, root, steps, slipstream)
    assert len(found) == len(layers), query.request
    for depth, layer in enumerate(layers):
        assert found[depth] == layer, (query.request, depth)
    assert _first_per_end(eliminations) == _first_per_end(expected), query.request
    return layers


@pytest.mark.parametrize("track_name", TRACKS)
def test_state_search_finds_the_walks_of_the_walk_by_walk_search(track_name: str) -> None:
    """Long rolls from random positions, and slipstreams (three steps without the straight
    rule, late braking into corners) from the walks the roll ends in, tallies and all."""
    track = builtin_track(track_name)
    rng = random.Random(f"state-search:{track_name}")
    for _ in range(40):
        request = random_request(rng, track, 24)
        query = Query(track, request)
        root = query.root()
        if root.walk.in_box:
            continue
        layers = _assert_same(query, root, request.distance, slipstream=False)
        for end in layers[-1][:: max(1, len(layers[-1]) // 5)]:
            if not end.walk.in_box:
                walk = end.walk._replace(slips=end.walk.slips + 1)
                _assert_same(query, end._replace(walk=walk), 3, slipstream=True)
