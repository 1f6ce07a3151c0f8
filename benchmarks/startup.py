"""Start-up time of the command line (issue 10; `turbo check` for issue 15).

Runs each command several times as a fresh process and prints the median and the fastest wall
time. Targets: under 0.4 s for `rennleitung --version` and `rennleitung moves …`, under 0.5 s
for `rennleitung turbo check`. The figure also lists which heavy libraries a command imported
(none of SQLAlchemy, alembic, aiosmtpd, FastAPI should appear for these commands).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
HEAVY = ("sqlalchemy", "alembic", "aiosmtpd", "fastapi", "starlette", "psycopg", "jinja2")
COMMANDS: tuple[tuple[str, list[str], float], ...] = (
    ("--version", ["--version"], 0.4),
    (
        "moves",
        ["moves", str(ROOT / "examples/positions/monaco-midrace.json"), "--car", "alonso",
         "--roll", "9", "--json"],
        0.4,
    ),
    ("turbo check", ["turbo", "check", str(ROOT / "examples/turbo2000/ferrari-runde-1.txt")], 0.5),
)

SCRIPT = Path(sys.executable).with_name("rennleitung")

PROBE = """
import sys
sys.argv = ["rennleitung", *sys.argv[1:]]
from rennleitung.cli.main import app
try:
    app()
except SystemExit:
    pass
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(%r))
print("HEAVY", ",".join(heavy), file=sys.stderr)
"""


def timed(args: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run; on a busy machine the CPU time is
    what the command itself costs, the wall time also waits for the other processes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([str(SCRIPT), *args], capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def heavy_imports(args: list[str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE % (HEAVY,), *args],
                          capture_output=True, text=True, check=False)
    for line in done.stderr.splitlines():
        if line.startswith("HEAVY"):
            return line[6:] or "none"
    return "?"


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'command':<14} {'wall med':>9} {'fastest':>8} {'cpu med':>8} {'target':>7}  heavy")
    for label, args, target in COMMANDS:
        runs = [timed(args) for _ in range(RUNS)]
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        verdict = "ok" if wall < target else "ok on CPU, machine busy" if cpu < target else "SLOW"
        print(f"{label:<14} {wall:8.3f}s {min(w for w, _ in runs):7.3f}s {cpu:7.3f}s "
              f"{target:6.1f}s  {heavy_imports(args)}  {verdict}")


if __name__ == "__main__":
    main()
