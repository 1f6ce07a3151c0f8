"""Movement cases as data, like chess perft files: a position, a roll, the ends and costs.

A case file (``positions/*.json``, format ``rennleitung-movecase/1``, described in
``positions/README.md``) holds one position in the position notation (docs/formula_de/position.md),
the car that moves, and one or more rolls, each with the options it must give: every option is
projected onto the named ``fields`` of its ``moves --json`` form, and the set of projections must
equal ``expect`` (or contain it, ``"match": "at least"``). Paths may be listed with the options
``moves check`` must give for them, or with the rule it must refuse them by.

Each roll is answered three ways, and all three must give the expected set: the move generator
(movegen), the brute-force reference (movecheck.reference_moves, up to ``REFERENCE_LIMIT``
spaces) and the literal checker (movecheck.check_move) on every path either of the others found.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.formula_de.movecheck import IllegalMove, check_move, reference_moves
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.moves import Choices, option_to_data, request_for
from rennleitung.formula_de.position import Position, position_from_data
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

CASE_FORMAT = "rennleitung-movecase/1"
POSITIONS = Path(__file__).parent / "positions"
REFERENCE_LIMIT = 12
"""Rolls up to this distance are also enumerated by the brute-force reference."""

FIELDS = frozenset(
    {
        "end", "path", "spaces", "brakes", "tyres", "fuel", "lane_changes", "stop_corner",
        "corner_stops", "overshoot", "dangerous", "wall_tests", "collisions", "slipstreams",
        "blocked", "laps", "spin", "pit", "leftover", "body_loss", "eliminated",
    }
)  # fmt: skip
"""What a case may name: the keys of ``moves --json``; ``eliminated`` is the rule or null."""

OPTIONS = {
    "alive": lambda o: o.eliminated is None,
    "eliminated": lambda o: o.eliminated is not None,
    "all": lambda o: True,
}


@cache
def load_track(reference: str) -> Track:
    """A built-in track by name, else a track file beside the cases."""
    if reference in builtin_track_names():
        return builtin_track(reference)
    path = POSITIONS / reference
    return build_track(parse_track_file(path.read_text(encoding="utf-8"), default_name=path.stem))


@dataclass(frozen=True)
class Roll:
    """One roll of a case with what it must give."""

    file: str
    index: int
    data: Mapping[str, Any]

    @property
    def id(self) -> str:
        return f"{self.file}[{self.index}]"


def case_files() -> list[Path]:
    return sorted(POSITIONS.glob("*.json"))


def load_case(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("format") == CASE_FORMAT, f"{path.name}: not {CASE_FORMAT}"
    unknown = set(data) - {"format", "about", "position", "car", "rolls"}
    assert not unknown, f"{path.name}: unknown fields {sorted(unknown)}"
    return dict(data)


def rolls() -> list[Roll]:
    """Every roll of every case file."""
    return [
        Roll(path.stem, n, roll)
        for path in case_files()
        for n, roll in enumerate(load_case(path)["rolls"])
    ]


def position_of(file: str) -> tuple[Position, str]:
    data = load_case(POSITIONS / f"{file}.json")
    position = position_from_data(data["position"], load_track)
    return position, str(data.get("car") or position.to_move)


def choices_of(data: Mapping[str, Any]) -> Choices:
    return Choices(**data.get("choices", {}))


def project(position: Position, option: MoveOption, fields: Iterable[str]) -> tuple[Any, ...]:
    """The option as the tuple of the named fields (lists sorted where order is no cost)."""
    form = option_to_data(position, option)
    form["eliminated"] = form["elimination_rule"]
    values: list[Any] = []
    for name in fields:
        value = form[name]
        if isinstance(value, list):
            value = tuple(value) if name == "path" else tuple(sorted(value))
        values.append(value)
    return tuple(values)


def selected(position: Position, roll: Mapping[str, Any], options: Iterable[MoveOption]) -> set[
    tuple[Any, ...]
]:
    """The projections of the options the roll's ``options`` and ``where`` select."""
    keep = OPTIONS[roll.get("options", "alive")]
    where = roll.get("where", {})
    fields = roll["fields"]
    return {
        project(position, o, fields)
        for o in options
        if keep(o) and all(project(position, o, [k]) == (_canon(v),) for k, v in where.items())
    }


def _canon(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def expected(roll: Mapping[str, Any]) -> set[tuple[Any, ...]]:
    return {tuple(_canon(v) for v in row) for row in roll["expect"]}


def checked(track: Track, request: MoveRequest, paths: Iterable[tuple[int, ...]]) -> list[
    MoveOption
]:
    """Every option the literal checker gives for these paths (a refused path gives none)."""
    found: list[MoveOption] = []
    for steps in paths:
        with contextlib.suppress(IllegalMove):
            found.extend(check_move(track, request, steps))
    return found


def answers(position: Position, car: str, roll: Mapping[str, Any]) -> dict[str, list[MoveOption]]:
    """The options of the generator, the reference (when the roll is short enough) and the
    checker on every path those found."""
    request = request_for(position, car, roll["roll"], choices_of(roll))
    found = {"generator": generate_moves(position.track, request)}
    if request.distance <= REFERENCE_LIMIT:
        found["reference"] = reference_moves(position.track, request)
    paths = {o.path for options in found.values() for o in options}
    found["checker"] = checked(position.track, request, sorted(paths))
    return found
