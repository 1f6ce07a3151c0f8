"""`rennleitung moves`: every legal move of a car for a roll, and checking a proposed path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from rennleitung.cli.common import Lang, current_lang, fail, pick, read_position
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.moves import (
    Choices,
    check_path,
    check_request,
    legal_moves,
    option_to_data,
)
from rennleitung.formula_de.position import Position


class _DefaultList(TyperGroup):
    """`moves POSITION …` lists; `moves check POSITION …` checks: the first word decides."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["list", *args]
        parsed: list[str] = super().parse_args(ctx, args)
        return parsed


app = typer.Typer(
    cls=_DefaultList,
    help="Alle legalen Züge / every legal move (Masters 7, 10–12, 18, 19; Dresden).",
    no_args_is_help=True,
)

CAR = typer.Option(..., "--car", help="Auto-Id / car id")
ROLL = typer.Option(..., "--roll", help="Würfelergebnis / die result")
GEAR = typer.Option(None, "--gear", help="Gang (sonst der aktuelle) / gear (default: current)")
BOOST = typer.Option(False, "--boost", help="Motor-Boost / engine boost (Dresden)")
SOFT = typer.Option(False, "--soft", help="Weichreifen +1 / soft-tyre +1 (Dresden Reifen)")


def _choices(gear: int | None, boost: bool, soft: bool) -> Choices:
    return Choices(gear=gear, boost=boost, soft_bonus=soft)


COLUMNS = (
    ("Ziel", "end"),
    ("Weg", "path"),
    ("Br.", "brk"),
    ("Rf.", "tyr"),
    ("Stopp", "stop"),
    ("Gefahr", "danger"),
    ("Koll.", "coll."),
    ("WS", "slip"),
    ("Aus", "out"),
)
"""Column headings, short so the table fits 80 columns; the path column wraps, never cuts.
Br./brk = brake points, Rf./tyr = tyre points, WS/slip = slipstreams, Koll. = collision tests."""


def _table(position: Position, options: list[dict[str, object]]) -> Table:
    table = Table(title=pick("Züge", "moves"), pad_edge=False, collapse_padding=True)
    both = current_lang() is Lang.BOTH
    for n, (de, en) in enumerate(COLUMNS):
        table.add_column(f"{de}\n{en}" if both else pick(de, en), overflow="fold",
                         ratio=6 if n == 1 else None, no_wrap=n != 1 and n not in (5, 6))
    for o in options:
        path = o["path"]
        assert isinstance(path, list)
        table.add_row(
            str(o["end"]),
            " ".join(str(step) for step in path),
            str(o["brakes"]),
            str(o["tyres"]),
            str(o["stop_corner"] or ""),
            ",".join(o["dangerous"]) if isinstance(o["dangerous"], list) else "",
            ",".join(o["collisions"]) if isinstance(o["collisions"], list) else "",
            str(o["slipstreams"] or ""),
            str(o["elimination_rule"] or ""),
        )
    return table


@app.command("list")
def list_moves(
    position_file: Path = typer.Argument(..., help="Stellung (JSON) / position file"),
    car: str = CAR,
    roll: int = ROLL,
    gear: int | None = GEAR,
    boost: bool = BOOST,
    soft: bool = SOFT,
    as_json: bool = typer.Option(False, "--json", help="JSON ausgeben / print JSON"),
) -> None:
    """Alle Möglichkeiten, den Zug zu beenden / every way to end the move."""
    try:
        position = read_position(position_file)
        check_request(position, car, roll, _choices(gear, boost, soft))
        options = legal_moves(position, car, roll, _choices(gear, boost, soft))
    except RennleitungError as error:
        fail(error)
    data = [option_to_data(position, o) for o in options]
    data.sort(key=lambda o: (bool(o["eliminated"]), -int(str(o["spaces"])), str(o["end"])))
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    Console().print(_table(position, data))


@app.command("check")
def check(
    position_file: Path = typer.Argument(..., help="Stellung (JSON) / position file"),
    car: str = CAR,
    roll: int = ROLL,
    path: str = typer.Option(..., "--path", help="Felder, z.B. A3,B3,C4 / spaces, e.g. A3,B3,C4"),
    gear: int | None = GEAR,
    boost: bool = BOOST,
    soft: bool = SOFT,
    as_json: bool = typer.Option(False, "--json", help="JSON ausgeben / print JSON"),
) -> None:
    """Einen Zug prüfen / check one move: legal, or the first rule it breaks."""
    names = [p for p in path.replace(" ", "").split(",") if p]
    try:
        position = read_position(position_file)
        check_request(position, car, roll, _choices(gear, boost, soft))
        options = check_path(position, car, roll, names, _choices(gear, boost, soft))
    except RennleitungError as error:
        fail(error)
    data = [option_to_data(position, o) for o in options]
    if as_json:
        typer.echo(json.dumps({"legal": True, "options": data}, indent=2, ensure_ascii=False))
        return
    Console().print(f"[green]{pick('Zug erlaubt', 'legal move')}[/green]")
    Console().print(_table(position, data))
