"""The web server under load (issue 13): 100 concurrent races on loopback, each with a scripted
HTTP driver and two bots, plus a spectator loading race pages.

Three set-ups: one server process on SQLite, one on PostgreSQL, two processes on one PostgreSQL
(drivers spread over both). Prints answers per second (acknowledged by the server, the bots'
decisions in the same transaction not counted), median and 99th percentile latency of an answer,
and the median time of a race page. PostgreSQL comes from ``RENNLEITUNG_TEST_PG_URL``
(``scripts/services.sh``); without it those rows are left out and said so. Targets on a 2-core
machine: at least 300 answers/s with p99 under 100 ms on SQLite; a race page under 50 ms median.

    .venv/bin/python benchmarks/server.py [--races 100] [--seconds 20] [--bots simple,simple]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import tempfile
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from rennleitung.web.loadgen import ServerProcess, Stats, drive, percentile, prepare

TARGET_RATE, TARGET_P99, TARGET_PAGE = 300.0, 0.100, 0.050


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def pg_schema(base: str) -> str:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with create_engine(base).begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options=-csearch_path%3D{schema}"


def drop_schema(base: str, url: str) -> None:
    schema = url.rsplit("%3D", 1)[1]
    with create_engine(base).begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


def run(label: str, url: str, processes: int, races: int, seconds: float,
        bots: tuple[str, ...]) -> Stats:
    secret = uuid.uuid4().hex
    seats = prepare(url, secret, races, bots=bots, tag=label.replace(" ", ""))
    servers = [ServerProcess(url, free_port(), secret).start() for _ in range(processes)]
    try:
        stats = asyncio.run(drive([s.url for s in servers], seats, seconds))
    finally:
        for server in servers:
            server.stop()
    rate = len(stats.latencies) / seconds
    page = statistics.median(stats.page_latencies) if stats.page_latencies else float("nan")
    print(f"{label:<26} {rate:8.0f} {percentile(stats.latencies, 0.5) * 1000:9.1f} "
          f"{percentile(stats.latencies, 0.99) * 1000:9.1f} {page * 1000:10.1f} "
          f"{stats.refused:8d} {stats.errors:7d}", flush=True)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bots", default="simple,simple")
    options = parser.parse_args()
    bots = tuple(b for b in options.bots.split(",") if b)
    print(f"{options.races} races, each 1 scripted driver + bots {','.join(bots)}, "
          f"{options.seconds:.0f} s per set-up, {os.cpu_count()} cores")
    print(f"{'set-up':<26} {'answers/s':>8} {'p50 ms':>9} {'p99 ms':>9} {'page p50 ms':>10} "
          f"{'refused':>8} {'errors':>7}")
    with tempfile.TemporaryDirectory() as folder:
        sqlite = run("SQLite, 1 process", f"sqlite:///{Path(folder) / 'bench.sqlite3'}", 1,
                     options.races, options.seconds, bots)
    base = os.environ.get("RENNLEITUNG_TEST_PG_URL")
    if not base:
        print("PostgreSQL: RENNLEITUNG_TEST_PG_URL not set (sh scripts/services.sh), left out")
    else:
        for processes in (1, 2):
            url = pg_schema(base)
            try:
                run(f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}", url,
                    processes, options.races, options.seconds, bots)
            finally:
                drop_schema(base, url)
    rate = len(sqlite.latencies) / options.seconds
    p99 = percentile(sqlite.latencies, 0.99)
    page = statistics.median(sqlite.page_latencies) if sqlite.page_latencies else float("inf")
    verdict = "met" if rate >= TARGET_RATE and p99 < TARGET_P99 and page < TARGET_PAGE else \
        "NOT met"
    print(f"targets on SQLite (>= {TARGET_RATE:.0f}/s, p99 < {TARGET_P99 * 1000:.0f} ms, "
          f"page < {TARGET_PAGE * 1000:.0f} ms): {verdict}")


if __name__ == "__main__":
    main()
