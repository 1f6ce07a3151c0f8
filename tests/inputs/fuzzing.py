"""Mutation fuzzing of every input kind, shared by tests/inputs/test_fuzz.py (a few hundred
cases per kind) and benchmarks/fuzz.py (10,000 per kind).

Each kind has seeds (the shipped examples, or files built the way the program writes them) and
the loader the command line uses for such a file: bytes go into a file in a fresh folder and are
read back through ``rennleitung.inputs`` and the parser, so the whole reading path is covered.
A case ends in one of four outcomes: ``refused`` (the project's ``RennleitungError``),
``accepted``, ``traceback`` (any other exception) or ``hang`` (interrupted after ``STOP_S``;
the benchmark also counts cases slower than ``SLOW_S``).
"""

from __future__ import annotations

import json
import random
import re
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rennleitung.errors import RennleitungError

ROOT = Path(__file__).resolve().parents[2]
SLOW_S = 1.0
"""A case slower than this counts as a hang (the issue's bound)."""
STOP_S = 10
"""A case still running after this many seconds is interrupted (and counted as a hang)."""

TOKENS = (
    b"NaN", b"Infinity", b"-Infinity", b"nan", b"inf", b"1e999", b"-1", b"0", b"1000000",
    b"1" * 40, b"[" * 200, b"{" * 200, b'"' , b"\\", b"\x00", b"\xff\xfe", b"\xef\xbb\xbf",
    b"\xe4", b"\x81", b"[/x]", b"../../etc/passwd", b"/dev/zero", b"null", b"true", b"[]",
    b"{}", b'""', b"A1", b"\n[[segment]]\nstraight = 1000000\n", b",,,,", b"\r\n", b"\t",
    b"x" * 5000, b"12.000.000.000.000.000", "١٢".encode(), "１２".encode(), "٣".encode(),
)

WEIRD: tuple[Any, ...] = (
    None, True, 0, -1, -5, 7, 10**30, 1.5, 1e300, "", "x" * 20000, "[/x]", "../x.toml",
    "/etc/passwd", "/dev/zero", "monaco", "A1", [], {}, [1, 2], {"a": 1}, [[[[[[[[]]]]]]]],
    ["x"] * 200, "30", "١٢", "１２", 12 * 10**18, "Ferrari", ["a"] * 20,
)


class Hang(Exception):
    """Raised by the alarm when a case runs longer than ``STOP_S``."""


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (main thread, POSIX); a no-op elsewhere."""

    def ring(signum: int, frame: object) -> None:
        raise Hang()

    try:
        previous = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # not the main thread
        yield
        return
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- mutations --------------------------------------------------------------------------------


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return rng.choice(TOKENS)
    at = rng.randrange(len(data) + 1)
    choice = rng.randrange(10)
    if choice == 0:  # flip one byte
        at = min(at, len(data) - 1)
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if choice == 1:  # delete a span
        return data[:at] + data[at + rng.randrange(1, 40) :]
    if choice == 2:  # duplicate a span
        span = data[at : at + rng.randrange(1, 400)]
        return data[:at] + span * rng.randrange(2, 6) + data[at:]
    if choice == 3:  # truncate
        return data[:at]
    if choice == 4:  # another text encoding
        text = data.decode("utf-8", errors="replace")
        codec = rng.choice(("utf-16", "utf-16-le", "latin-1", "cp1252", "utf-8-sig", "utf-32"))
        return text.encode(codec, errors="replace")
    if choice in (5, 6):  # a number replaced by a strange one
        numbers = list(re.finditer(rb"-?\d+(\.\d+)?", data))
        if numbers:
            hit = rng.choice(numbers)
            weird = rng.choice((b"0", b"-1", b"-5", b"7", b"1e999", b"NaN", b"nan", b"inf",
                                b"10000000000000000000000000000000", b"1000000", b"0.0",
                                b"2.5", b'"3"', b"[3]", b"true"))
            return data[: hit.start()] + weird + data[hit.end() :]
    return data[:at] + rng.choice(TOKENS) + data[at:]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value[:50]):
            yield from _nodes(item, (*path, n))


_KEY = re.compile(rb'"([^"\\]{1,40})"\s*:')


def _duplicate_key(data: bytes, rng: random.Random) -> bytes | None:
    """A key written twice in its object, the copy first (readers keep different ones)."""
    keys = list(_KEY.finditer(data))
    if not keys:
        return None
    hit = rng.choice(keys)
    copy = b'"' + hit.group(1) + b'": ' + json.dumps(rng.choice(WEIRD)).encode() + b", "
    return data[: hit.start()] + copy + data[hit.start() :]


def _mutate_json(data: bytes, rng: random.Random) -> bytes | None:
    if rng.random() < 0.1:
        return _duplicate_key(data, rng)
    try:
        value = json.loads(data)
    except ValueError:
        return None
    paths = [p for p in _nodes(value) if p]
    if not paths:
        return None
    path = rng.choice(paths)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif action == 1 and isinstance(parent, list):
        parent.append(rng.choice(WEIRD) if rng.random() < 0.5 else parent[path[-1]])
    else:
        parent[path[-1]] = rng.choice(WEIRD)
    return json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()


def mutate(data: bytes, rng: random.Random, structured: bool) -> bytes:
    """One to three mutations of ``data``; JSON inputs also get structural ones."""
    for _ in range(rng.randrange(1, 4)):
        if structured and rng.random() < 0.6:
            changed = _mutate_json(data, rng)
            if changed is not None:
                data = changed
                continue
        data = _mutate_bytes(data, rng)
    return data


# --- the kinds --------------------------------------------------------------------------------


@dataclass
class Kind:
    """One input kind: its seeds, its file name and the loader the program uses for it."""

    name: str
    seeds: list[bytes]
    file_name: str
    load: Callable[[Path], object]
    structured: bool = True
    extra: dict[str, bytes] = field(default_factory=dict)
    """Other files the folder holds (a track file beside a position)."""


def _small_track() -> bytes:
    return (ROOT / "src/rennleitung/formula_de/tracks/short.toml").read_bytes()


def _load_position(path: Path) -> object:
    from rennleitung.cli.common import read_position
    from rennleitung.formula_de.dice import GEAR_DICE
    from rennleitung.formula_de.moves import Choices, check_request, legal_moves

    position = read_position(path)
    if position.cars:
        first = position.cars[0]
        roll = GEAR_DICE[first.gear].maximum if first.gear in GEAR_DICE else 5
        check_request(position, first.id, roll, Choices())
        legal_moves(position, first.id, roll, Choices())
    return position


def _load_track(path: Path) -> object:
    from rennleitung.cli.common import load_track
    from rennleitung.formula_de.trackcheck import check_track
    from rennleitung.inputs import read_text

    check_track(read_text(path), default_name=path.stem)
    return load_track(str(path))


def _load_record(path: Path) -> object:
    from rennleitung.formula_de.record import parse_record
    from rennleitung.formula_de.replay import verify
    from rennleitung.inputs import read_text

    return verify(parse_record(read_text(path)))


def _load_sheet(path: Path) -> object:
    from rennleitung.cli.turbo import decode_sheet
    from rennleitung.inputs import read_bytes
    from rennleitung.turbo2000.config import GameConfig
    from rennleitung.turbo2000.intake import check_sheet

    return check_sheet(decode_sheet(read_bytes(path), str(path)), None, GameConfig())


def _game_dir(path: Path) -> Any:
    from rennleitung.store.turbo_games import GameDir

    folder = path.parent
    (folder / "game.json").write_text('{"seed": "1"}', encoding="utf-8")
    return GameDir(folder)


def _load_turbo_config(path: Path) -> object:
    return _game_dir(path).config()


def _load_turbo_state(path: Path) -> object:
    game = _game_dir(path)
    (path.parent / "config.json").write_text("{}", encoding="utf-8")
    target = game.round_dir(1) / "state.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    path.replace(target)
    return game.state(1)


def _load_result_json(path: Path) -> object:
    from rennleitung.inputs import read_json
    from rennleitung.league.race_result_codec import race_result_from_json

    data = read_json(path)
    if not isinstance(data, dict):
        raise RennleitungError("JSON-Objekt erwartet", "JSON object expected", str(path))
    return race_result_from_json(data)


def _load_result_csv(path: Path) -> object:
    from rennleitung.cli.league import _read
    from rennleitung.league.race_result_codec import race_result_from_csv

    return race_result_from_csv(_read(path), 1, 3, "monaco")


def _load_quali_csv(path: Path) -> object:
    from rennleitung.cli.league import _read
    from rennleitung.league.race_result_codec import qualifying_laps_from_csv

    return qualifying_laps_from_csv(_read(path))


def _load_blitz(path: Path) -> object:
    from rennleitung.cli.blitz_file import load_session

    return load_session(path)


def _turbo_state_seed() -> bytes:
    from rennleitung.turbo2000.config import GameConfig
    from rennleitung.turbo2000.game import new_game
    from rennleitung.turbo2000.state_json import dump_state

    teams = [("Ferrari", "rot"), ("Honda", "weiss"), ("Lotus", "gruen")]
    return dump_state(new_game(teams, GameConfig())).encode()


def _record_seeds() -> list[bytes]:
    """A record on a built-in track and one on a track of one's own (it carries the file)."""
    from rennleitung.formula_de.race_run import run_bot_race
    from rennleitung.formula_de.record import record_of, record_to_json
    from rennleitung.formula_de.trackcheck import checked_track

    text = _small_track().decode().replace('name = "short"', 'name = "own"')
    seeds = []
    for track, board in (("short", None), ("own", checked_track(text, "own"))):
        race = run_bot_race(track, "dresden-2006", 2, 1, "fuzz", board=board)
        seeds.append(record_to_json(record_of(race, "fuzz")).encode())
    return seeds


def _blitz_seed() -> bytes:
    from rennleitung.league.blitz_codec import BlitzSession, session_to_json
    from rennleitung.league.blitz_match import BlitzMatch

    return json.dumps(session_to_json(BlitzSession(BlitzMatch(("anna", "bert")), 300, 7))).encode()


def _position_seeds() -> list[bytes]:
    seeds = [p.read_bytes() for p in sorted((ROOT / "examples/positions").glob("*.json"))]
    own = json.loads(seeds[0])
    own["track"] = "t.toml"
    own["cars"] = own["cars"][:2]
    for n, car in enumerate(own["cars"]):
        car["space"] = ("A3", "B5")[n]
    seeds.append(json.dumps(own, indent=1).encode())
    return seeds


def kinds() -> list[Kind]:
    """Every input kind with its seeds (built once per call; a second or so)."""
    docs = ROOT / "docs/league/examples"
    turbo = ROOT / "examples/turbo2000"
    tracks = sorted((ROOT / "src/rennleitung/formula_de/tracks").glob("*.toml"))
    return [
        Kind("position", _position_seeds(), "position.json", _load_position,
             extra={"t.toml": _small_track()}),
        Kind("track", [p.read_bytes() for p in tracks], "track.toml", _load_track,
             structured=False),
        Kind("race record", _record_seeds(), "race.json", _load_record),
        Kind("turbo sheet", [p.read_bytes() for p in sorted(turbo.glob("*.txt"))], "sheet.txt",
             _load_sheet, structured=False),
        Kind("turbo config", [(turbo / "config.json").read_bytes()], "config.json",
             _load_turbo_config),
        Kind("turbo state", [_turbo_state_seed()], "state.json", _load_turbo_state),
        Kind("league result json", [(docs / "race2.json").read_bytes()], "result.json",
             _load_result_json),
        Kind("league result csv", [(docs / "race1.csv").read_bytes()], "result.csv",
             _load_result_csv, structured=False),
        Kind("league quali csv", [(docs / "quali1.csv").read_bytes()], "quali.csv",
             _load_quali_csv, structured=False),
        Kind("blitz match", [_blitz_seed()], "match.json", _load_blitz),
    ]


# --- running ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """One case: ``refused``, ``accepted``, ``traceback`` or ``hang`` (interrupted after
    ``STOP_S``), with its time; benchmarks/fuzz.py also counts a case over ``SLOW_S`` as a hang
    (the tests do not time: a busy machine must not fail them)."""

    kind: str
    result: str
    seconds: float
    detail: str = ""


def run_case(kind: Kind, data: bytes, folder: Path) -> Outcome:
    """Write ``data`` (and the kind's extra files) into ``folder`` and load it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, extra in kind.extra.items():
        (folder / name).write_bytes(extra)
    path = folder / kind.file_name
    path.write_bytes(data)
    start = time.perf_counter()
    try:
        with alarm(STOP_S):
            kind.load(path)
        result, detail = "accepted", ""
    except RennleitungError as error:
        result, detail = "refused", str(error)[:300]
    except Hang:
        result, detail = "hang", "interrupted"
    except Exception as error:
        frames = traceback.extract_tb(error.__traceback__)
        place = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
        result, detail = "traceback", f"{type(error).__name__}: {str(error)[:200]} at {place}"
    return Outcome(kind.name, result, time.perf_counter() - start, detail)


def warm(kind: Kind, folder: Path) -> None:
    """Load each seed once, so imports made on first use are not counted as a slow case."""
    for n, seed in enumerate(kind.seeds):
        run_case(kind, seed, folder / f"warm{n}")


def cases(kind: Kind, count: int, seed: int) -> Iterator[bytes]:
    """``count`` mutated inputs of ``kind``, reproducible from ``seed``."""
    rng = random.Random(f"{kind.name}:{seed}")
    for _ in range(count):
        yield mutate(rng.choice(kind.seeds), rng, kind.structured)


__all__ = ["Kind", "Outcome", "cases", "kinds", "mutate", "run_case", "warm"]
