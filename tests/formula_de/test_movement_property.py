"""The fast generator against the brute-force reference on random legal positions.

The reference (movecheck.reference_moves) walks every path that cars and arrows allow and applies
the rules literally to each whole path; the generator works incrementally and folds equivalent
paths. Both must give the same set of (end, costs) for every request.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rennleitung.formula_de.movecheck import reference_moves
from rennleitung.formula_de.movegen import generate_moves

from .movement_cases import random_case


def _keys(options: list) -> set[tuple[object, ...]]:  # type: ignore[type-arg]
    return {o.cost_key() for o in options}


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_generator_equals_brute_force_up_to_eight(seed: int) -> None:
    track, request = random_case(seed, 8)
    assert _keys(generate_moves(track, request)) == _keys(reference_moves(track, request))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_generator_equals_brute_force_up_to_twelve(seed: int) -> None:
    """120 examples keep `make test` under 15 minutes; benchmarks/movegen_fuzz.py runs more."""
    track, request = random_case(seed, 12)
    assert _keys(generate_moves(track, request)) == _keys(reference_moves(track, request))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_generator_equals_brute_force_with_the_soft_bonus_in_traffic(seed: int) -> None:
    """Masters 18-3-1: the soft-tyre +1 before, between or after slipstreams. Every car may be
    slipstreamed here, so wakes are common enough for the +1 to matter."""
    track, request = random_case(seed, 10)
    request = dataclasses.replace(
        request, soft_bonus=True, gear=6, slipstream_gears=dict.fromkeys(request.occupants, 4)
    )
    assert _keys(generate_moves(track, request)) == _keys(reference_moves(track, request))


def test_every_generated_path_passes_the_literal_check() -> None:
    from rennleitung.formula_de.movecheck import check_move

    for seed in range(150):
        track, request = random_case(seed, 10)
        for option in generate_moves(track, request):
            if option.eliminated is None:
                assert check_move(track, request, option.path)
