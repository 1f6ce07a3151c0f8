"""Fuzzing every input kind at scale (issue 10): 10,000 mutated files per kind by default.

Prints per kind: clean refusals, accepted, tracebacks, hangs (interrupted, or slower than one
second), and the slowest case. Target: 0 tracebacks and 0 hangs. The first few tracebacks and
hangs are listed with their place, and their inputs are kept under ``--keep`` for a test.
Usage: python benchmarks/fuzz.py [--cases N] [--kind NAME] [--keep DIR]
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.inputs.fuzzing import SLOW_S, cases, kinds, run_case, warm  # noqa: E402

MEMORY_LIMIT = 3 * 1024**3
"""Address space of this process: a case that eats memory fails instead of the machine."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--kind", action="append", default=[])
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    header = (f"{'kind':<20} {'refused':>8} {'accepted':>8} {'traceb.':>8} {'hangs':>6} "
              f"{'slowest':>8}")
    print(f"{options.cases} cases per kind, seed {options.seed}")
    print(header)
    total = collections.Counter()
    problems: list[str] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds():
            if options.kind and kind.name not in options.kind:
                continue
            folder = Path(tmp) / kind.name.replace(" ", "_")
            warm(kind, folder)
            counts: collections.Counter[str] = collections.Counter()
            slowest = 0.0
            for n, data in enumerate(cases(kind, options.cases, options.seed)):
                outcome = run_case(kind, data, folder / str(n % 4))
                result = outcome.result
                if result in ("refused", "accepted") and outcome.seconds > SLOW_S:
                    result = "hang"
                    outcome.detail = f"{outcome.seconds:.2f} s"
                counts[result] += 1
                slowest = max(slowest, outcome.seconds)
                if result in ("traceback", "hang"):
                    problems.append(f"{kind.name} #{n}: {result}: {outcome.detail}")
                    if options.keep is not None:
                        options.keep.mkdir(parents=True, exist_ok=True)
                        name = f"{kind.name.replace(' ', '_')}-{n}-{kind.file_name}"
                        (options.keep / name).write_bytes(data)
            total.update(counts)
            print(f"{kind.name:<20} {counts['refused']:>8} {counts['accepted']:>8} "
                  f"{counts['traceback']:>8} {counts['hang']:>6} {slowest:7.2f}s", flush=True)
    print(f"{'all':<20} {total['refused']:>8} {total['accepted']:>8} "
          f"{total['traceback']:>8} {total['hang']:>6}   in {time.perf_counter() - started:.0f} s")
    for line in problems[:20]:
        print("  " + line)


if __name__ == "__main__":
    main()
