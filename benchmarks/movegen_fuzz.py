"""The long run of the move property: the fast generator against the brute-force reference on
many more random positions (up to twelve steps) than ``make test`` has time for.

``tests/formula_de/test_movement_property.py`` keeps 120 examples so the suite stays under 15
minutes; this script takes the breadth further. It prints the positions compared, the mismatches
and the rate, and exits 1 on the first mismatch, naming its seed.
Usage: python benchmarks/movegen_fuzz.py [--cases N] [--seed S] [--steps K]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.formula_de.movement_cases import random_case  # noqa: E402

from rennleitung.formula_de.movecheck import reference_moves  # noqa: E402
from rennleitung.formula_de.movegen import generate_moves  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=12)
    options = parser.parse_args()
    seeds = random.Random(options.seed)
    began = time.perf_counter()
    for done in range(options.cases):
        seed = seeds.randrange(2**32)
        track, request = random_case(seed, options.steps)
        fast = {o.cost_key() for o in generate_moves(track, request)}
        slow = {o.cost_key() for o in reference_moves(track, request)}
        if fast != slow:
            print(f"mismatch at case seed {seed} ({options.steps} steps) after {done} cases")
            sys.exit(1)
    spent = time.perf_counter() - began
    print(f"{options.cases} positions up to {options.steps} steps: 0 mismatches, "
          f"{options.cases / spent:.1f} positions/s")


if __name__ == "__main__":
    main()
