"""The web server under load (issue 13): 100 concurrent races on loopback, each with a scripted
HTTP driver and two bots, plus a spectator loading race pages.

Each set-up (one server process on SQLite, two on SQLite, one on PostgreSQL, two on PostgreSQL;
drivers spread over the processes, each race always on the same one) runs twice on fresh races:

- **flat out**: every driver answers as soon as he is asked; the rate is the most the server
  does. Latency here is mostly waiting in line (100 drivers, each always waiting for an answer:
  latency = 100 / rate), so it is printed but not judged;
- **paced at the target**: the drivers together offer 300 answers per second, evenly spread; the
  rate achieved and the latency at that load are what the targets speak of.

An answer is one driver's decision acknowledged by the server (``POST /races/N/act``); the bots'
decisions made in the same transaction are not counted. Latency is that request's; the page is
``GET /races/N`` by a spectator, timed separately. PostgreSQL comes from
``RENNLEITUNG_TEST_PG_URL`` (``scripts/services.sh``); without it those rows are left out and
said so. The load average is printed with each row: on a shared machine the figures are
indicative. Targets on a 2-core machine: at least 300 answers/s with p99 under 100 ms on
SQLite; a race page under 50 ms median.

After the table (SQLite only; issue 25 target 3 and issue 23):

- **GET /healthz**, flat out, on the very server of "SQLite, 1 process, flat out", right after
  its answers, with as many connections as drivers: the rate of a request that does nothing, and
  the answers' rate as a share of it (target: at least 30 %);
- **Monaco**: the paced run once more on Monaco (one process), beside the oval's; target: p99
  under 100 ms at 300 answers/s offered on both;
- **the race page** of a running race (Monaco, one person and nine bots, a dozen answers in) on
  a server with nothing else to do: median time and bytes for a spectator and for the driver
  whose turn it is, and of one live update (the changed parts the page fetches after each
  event of its stream; the event itself is one line); targets: page under 50 ms median, an
  update under 20 KB.

    .venv/bin/python benchmarks/server.py [--races 100] [--seconds 15] [--rate 300]
        [--bots simple,simple] [--only sqlite|postgresql] [--stagger N]
        [--one-process [--tracks oval,monaco] [--flat-only]]

With ``--one-process`` only issue 25's target 3 is measured, on one SQLite process, for the oval
and for Monaco (each on fresh races and a fresh server): flat out, then ``GET /healthz`` flat out
on that same server, and the answers' rate as a share of it; then 300 answers/s offered, with
the rate got, p50 and p99. Each row also gives the server's processor time per acknowledged
answer and per ``GET /healthz`` (read from ``/proc``: on a shared machine it moves less with the
other work than a rate does), the share as those times give it (``cpu sh``: healthz's time over
an answer's, what the rates' share would be if the server's processor alone decided them) and
the load average. The targets are judged on the rates, as issue 25 states them.

With ``--stagger N`` each set-up runs a third time, paced, on races that start up to N of the
person's answers apart (race n is played on by n mod (N+1) answers first): the load of a server
whose races began at different times, against the default's races that all move in step. The
targets are judged on the default runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text

from rennleitung.web.loadgen import (
    ServerProcess,
    Stats,
    drive,
    fetch,
    hammer,
    percentile,
    prepare,
    warm_up,
)

TARGET_RATE, TARGET_P99, TARGET_PAGE = 300.0, 0.100, 0.050
TARGET_SHARE = 0.30
"""Answers per second as a share of the same server's ``GET /healthz`` rate (issue 25)."""
TARGET_UPDATE = 20 * 1024
"""Bytes of one live update of the race page (issue 23)."""
PAGE_BOTS = ("simple",) * 9
PAGE_ANSWERS = 12
PAGE_TIMES = 10


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


def cpu_seconds(pid: int) -> float:
    """User and system processor seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Row:
    rate: float
    p50: float
    p99: float
    page: float
    refused: int
    errors: int
    healthz: float = float("nan")
    """``GET /healthz`` per second on the same servers right after the answers (if asked)."""
    cpu: float = float("nan")
    """The servers' processor seconds per acknowledged answer during the answers."""
    healthz_cpu: float = float("nan")
    """The servers' processor seconds per ``GET /healthz`` answered."""


def run(url: str, processes: int, races: int, seconds: float, bots: tuple[str, ...],
        rate: float | None, stagger: int = 0, track: str = "oval",
        healthz: float = 0.0) -> Row:
    """One run on fresh races against fresh server processes; with ``healthz`` (seconds), the
    same servers then answer ``GET /healthz`` flat out on as many connections as drivers."""
    secret = uuid.uuid4().hex
    seats = prepare(url, secret, races, track=track, bots=bots, stagger=stagger)
    servers = [ServerProcess(url, free_port(), secret).start() for _ in range(processes)]
    bases = [s.url for s in servers]
    try:
        asyncio.run(warm_up(bases, seats))
        pids = [s.process.pid for s in servers if s.process is not None]
        began = sum(cpu_seconds(pid) for pid in pids)
        stats: Stats = asyncio.run(drive(bases, seats, seconds, rate=rate))
        spent = sum(cpu_seconds(pid) for pid in pids) - began
        checks = check_cpu = float("nan")
        if healthz:
            began = sum(cpu_seconds(pid) for pid in pids)
            answered = asyncio.run(hammer(bases, len(seats), healthz))
            checks = answered / healthz
            check_cpu = (sum(cpu_seconds(pid) for pid in pids) - began) / max(answered, 1)
    finally:
        for server in servers:
            server.stop()
    page = statistics.median(stats.page_latencies) if stats.page_latencies else float("nan")
    return Row(len(stats.latencies) / seconds, percentile(stats.latencies, 0.5),
               percentile(stats.latencies, 0.99), page, stats.refused, stats.errors, checks,
               spent / len(stats.latencies) if stats.latencies else float("nan"), check_cpu)


@dataclass(frozen=True)
class PageRow:
    """Median seconds and bytes of one kind of page."""

    seconds: float
    size: int


def page_figures(url: str) -> dict[str, PageRow]:
    """The race page of running races (Monaco, one person and ``PAGE_BOTS``, ``PAGE_ANSWERS``
    answers in) on one server with nothing else to do: for a spectator, for the driver (his
    question open) and one live update (the parts ``app.js`` fetches after a stream event)."""
    secret = uuid.uuid4().hex
    seats = prepare(url, secret, 5, track="monaco", bots=PAGE_BOTS)
    server = ServerProcess(url, free_port(), secret).start()
    asks = {"page, spectator": ("", ""), "page, driver": ("{cookie}", ""),
            "live update, driver": ("{cookie}", "HX-Request: true\r\n")}
    found: dict[str, list[tuple[float, int]]] = {label: [] for label in asks}
    try:
        asyncio.run(warm_up([server.url], seats))
        asyncio.run(drive([server.url], seats, 120.0, max_actions=PAGE_ANSWERS))
        for seat in seats:
            for label, (cookie, headers) in asks.items():
                path = f"/races/{seat.race}" + ("/parts" if headers else "")
                found[label] += asyncio.run(fetch(
                    server.url, path, cookie.format(cookie=seat.cookie), headers, PAGE_TIMES))
    finally:
        server.stop()
    return {label: PageRow(statistics.median(t for t, _ in rows),
                           int(statistics.median(b for _, b in rows)))
            for label, rows in found.items()}


def show(label: str, row: Row) -> None:
    load = os.getloadavg()[0]
    print(f"{label:<34} {row.rate:9.0f} {row.p50 * 1000:8.1f} {row.p99 * 1000:8.1f} "
          f"{row.page * 1000:11.1f} {row.refused:7d} {row.errors:6d} {load:6.1f}", flush=True)


def setup(label: str, url: str, processes: int, options: argparse.Namespace,
          bots: tuple[str, ...], healthz: float = 0.0) -> tuple[Row, Row]:
    """The flat-out run and the paced run of one set-up; returns both. ``healthz``: seconds of
    ``GET /healthz`` on the flat-out run's servers after its answers."""
    flat = run(url, processes, options.races, options.seconds, bots, None, healthz=healthz)
    show(f"{label}, flat out", flat)
    paced = run(url, processes, options.races, options.seconds, bots, options.rate)
    show(f"{label}, {options.rate:.0f}/s offered", paced)
    if options.stagger:
        staggered = run(url, processes, options.races, options.seconds, bots, options.rate,
                        options.stagger)
        show(f"{label}, {options.rate:.0f}/s, staggered", staggered)
    return flat, paced


def extra(flat: Row, oval: Row, options: argparse.Namespace, bots: tuple[str, ...]) -> None:
    """The figures after the table: healthz and the share, Monaco paced, the race page."""
    share = flat.rate / flat.healthz if flat.healthz else float("nan")
    print(f"GET /healthz, SQLite, 1 process, flat out: {flat.healthz:.0f}/s on the same server; "
          f"answers {flat.rate:.0f}/s = {share:.0%} of it (target >= {TARGET_SHARE:.0%}): "
          f"{'met' if share >= TARGET_SHARE else 'NOT met'}")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        monaco = run(url, 1, options.races, options.seconds, bots, options.rate, track="monaco")
    show(f"SQLite, 1 process, Monaco, {options.rate:.0f}/s", monaco)
    met = all(r.rate >= 0.95 * options.rate and r.p99 < TARGET_P99 for r in (oval, monaco))
    print(f"p99 at {options.rate:.0f}/s offered, SQLite, 1 process: oval "
          f"{oval.p99 * 1000:.1f} ms, Monaco {monaco.p99 * 1000:.1f} ms (target < "
          f"{TARGET_P99 * 1000:.0f} ms at >= {TARGET_RATE:.0f}/s): {'met' if met else 'NOT met'}")
    with tempfile.TemporaryDirectory() as folder:
        pages = page_figures(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    for label, row in pages.items():
        print(f"race page of a running race (Monaco, 10 cars), {label}: median "
              f"{row.seconds * 1000:.1f} ms, {row.size} bytes", flush=True)
    slowest = max(pages["page, spectator"].seconds, pages["page, driver"].seconds)
    update = pages["live update, driver"].size
    print(f"targets, race page (< {TARGET_PAGE * 1000:.0f} ms median on the server, one update "
          f"< {TARGET_UPDATE // 1024} KB): "
          f"{'met' if slowest < TARGET_PAGE and update < TARGET_UPDATE else 'NOT met'}")


def one_process(options: argparse.Namespace, bots: tuple[str, ...]) -> None:
    """Issue 25, target 3, on one SQLite process, on the oval and on Monaco: the answers' rate
    as a share of ``GET /healthz`` on the same server in the same run, and p99 at
    ``--rate`` answers/s offered."""
    print(f"{'track, run':<22} {'answers/s':>9} {'p50 ms':>7} {'p99 ms':>8} {'cpu ms':>7} "
          f"{'healthz/s':>9} {'cpu ms':>6} {'share':>6} {'cpu sh':>6} {'refused':>7} "
          f"{'errors':>6} {'load':>5}")
    verdicts = []
    for track in options.tracks.split(","):
        for rate in (None, options.rate) if not options.flat_only else (None,):
            with tempfile.TemporaryDirectory() as folder:
                url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
                row = run(url, 1, options.races, options.seconds, bots, rate, track=track,
                          healthz=0.0 if rate else min(options.seconds, 5.0))
            share = row.rate / row.healthz if not rate else float("nan")
            label = f"{track}, " + (f"{rate:.0f}/s offered" if rate else "flat out")
            by_cpu = row.healthz_cpu / row.cpu  # the share if the server's processor decides
            health = (f"{row.healthz:9.0f} {row.healthz_cpu * 1000:6.2f} {share:6.0%} "
                      f"{by_cpu:6.0%}" if not rate else f"{'':9} {'':6} {'':6} {'':6}")
            print(f"{label:<22} {row.rate:9.0f} {row.p50 * 1000:7.1f} {row.p99 * 1000:8.1f} "
                  f"{row.cpu * 1000:7.2f} {health} {row.refused:7d} {row.errors:6d} "
                  f"{os.getloadavg()[0]:5.1f}", flush=True)
            if rate:
                verdicts.append((track, "p99", row.rate >= 0.95 * rate and row.p99 < TARGET_P99,
                                 f"{row.p99 * 1000:.1f} ms at {row.rate:.0f}/s"))
            else:
                verdicts.append((track, "share", share >= TARGET_SHARE,
                                 f"{share:.0%} (by processor time {by_cpu:.0%})"))
    for track, what, met, figure in verdicts:
        goal = (f">= {TARGET_SHARE:.0%} of healthz" if what == "share"
                else f"p99 < {TARGET_P99 * 1000:.0f} ms at >= 95 % of {options.rate:.0f}/s")
        print(f"target, {track}, {what} ({goal}): {figure}: {'met' if met else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=TARGET_RATE)
    parser.add_argument("--bots", default="simple,simple")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), default=None)
    parser.add_argument("--stagger", type=int, default=0,
                        help="also a paced run whose races start up to N answers apart")
    parser.add_argument("--one-process", action="store_true",
                        help="only issue 25's target 3: one SQLite process, oval and Monaco")
    parser.add_argument("--tracks", default="oval,monaco",
                        help="with --one-process: the tracks (default: oval,monaco)")
    parser.add_argument("--flat-only", action="store_true",
                        help="with --one-process: only the flat-out runs (the share)")
    options = parser.parse_args()
    bots = tuple(b for b in options.bots.split(",") if b)
    if options.one_process:
        print(f"{options.races} races, each 1 scripted driver + bots {','.join(bots)}, "
              f"{options.seconds:.0f} s per run, {os.cpu_count()} cores, one SQLite process")
        one_process(options, bots)
        return
    print(f"{options.races} races, each 1 scripted driver + bots {','.join(bots)}, "
          f"{options.seconds:.0f} s per run, {os.cpu_count()} cores")
    print(f"{'set-up':<34} {'answers/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'page p50 ms':>11} "
          f"{'refused':>7} {'errors':>6} {'load':>6}")
    verdicts = []
    single: tuple[Row, Row] | None = None
    if options.only != "postgresql":
        for processes in (1, 2):
            with tempfile.TemporaryDirectory() as folder:
                url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
                label = f"SQLite, {processes} process{'es' if processes > 1 else ''}"
                rows = setup(label, url, processes, options, bots,
                             healthz=min(options.seconds, 5.0) if processes == 1 else 0.0)
                single = single or rows
                verdicts.append((label, rows[1]))
    base = os.environ.get("RENNLEITUNG_TEST_PG_URL")
    if options.only == "sqlite":
        pass
    elif not base:
        print("PostgreSQL: RENNLEITUNG_TEST_PG_URL not set (sh scripts/services.sh), left out")
    else:
        for processes in (1, 2):
            url = pg_schema(base)
            try:
                label = f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}"
                setup(label, url, processes, options, bots)
            finally:
                drop_schema(base, url)
    for label, row in verdicts:
        met = (row.rate >= 0.95 * TARGET_RATE and row.p99 < TARGET_P99
               and row.page < TARGET_PAGE)
        print(f"targets, {label} (>= {TARGET_RATE:.0f}/s with p99 < {TARGET_P99 * 1000:.0f} ms, "
              f"page < {TARGET_PAGE * 1000:.0f} ms): {'met' if met else 'NOT met'}")
    if single is not None:
        extra(*single, options, bots)


if __name__ == "__main__":
    main()
