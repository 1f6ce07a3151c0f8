"""Fuzzing every input kind: a mutated or random file is refused with the project's own error
or accepted, never a traceback and never a hang (benchmarks/fuzz.py runs 10,000 per kind and
also reports cases slower than one second)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.inputs.fuzzing import Kind, kinds, mutate, run_case, warm

KINDS = {kind.name: kind for kind in kinds()}
CASES = 150
"""Per kind and test; both tests together give a few hundred cases per kind."""

FUZZ = settings(
    max_examples=CASES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def folder() -> Path:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_seeds_are_accepted(name: str, folder: Path) -> None:
    """The harness reads the shipped examples like the program: each seed loads cleanly."""
    kind = KINDS[name]
    for n, seed in enumerate(kind.seeds):
        outcome = run_case(kind, seed, folder / "seeds" / name / str(n))
        assert outcome.result == "accepted", outcome.detail


def _check(kind: Kind, data: bytes, folder: Path) -> None:
    outcome = run_case(kind, data, folder)
    assert outcome.result in ("refused", "accepted"), (outcome.detail, data[:300])
    if outcome.result == "refused":
        assert outcome.detail.strip(), "a refusal says why"


@pytest.mark.parametrize("name", sorted(KINDS))
@given(seed=st.integers(0, 2**32))
@FUZZ
def test_mutated_examples_are_refused_or_accepted(name: str, seed: int, folder: Path) -> None:
    kind = KINDS[name]
    rng = random.Random(seed)
    data = mutate(rng.choice(kind.seeds), rng, kind.structured)
    _check(kind, data, folder / "mutated" / name.replace(" ", "_"))


@pytest.mark.parametrize("name", sorted(KINDS))
@given(noise=st.binary(max_size=400), at=st.integers(0, 10**6), seed=st.integers(0, 2**16))
@FUZZ
def test_random_bytes_spliced_into_examples(
    name: str, noise: bytes, at: int, seed: int, folder: Path
) -> None:
    kind = KINDS[name]
    base = kind.seeds[seed % len(kind.seeds)]
    cut = at % (len(base) + 1)
    data = base[:cut] + noise + base[cut + len(noise) // 2 :]
    _check(kind, data, folder / "noise" / name.replace(" ", "_"))


def test_warm_loads_every_kind(folder: Path) -> None:
    for kind in KINDS.values():
        warm(kind, folder / "warm" / kind.name.replace(" ", "_"))


NESTED = [b"[" * 5000, b'{"a": ' * 3000, b"[1e999]", b'{"x": NaN}', b"9" * 5000]
"""Inputs a byte mutation almost never makes: nesting past the parser's recursion limit, numbers
out of range, a number of 5,000 digits."""


@pytest.mark.parametrize("name", sorted(KINDS))
def test_deep_nesting_and_huge_numbers_are_refused(name: str, folder: Path) -> None:
    kind = KINDS[name]
    for n, data in enumerate(NESTED):
        _check(kind, data, folder / "nested" / name.replace(" ", "_") / str(n))
