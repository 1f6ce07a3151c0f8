"""`rennleitung position`: draw a position, with one car's options highlighted."""

from __future__ import annotations

from pathlib import Path

import typer

from rennleitung.cli.common import counted, fail, pick, read_position
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.moves import Choices, check_request, legal_moves
from rennleitung.inputs import write_text
from rennleitung.render.position_svg import render_position

app = typer.Typer(help="Stellungen / positions (rennleitung-position/1).", no_args_is_help=True)


@app.command("render")
def render(
    position_file: Path = typer.Argument(..., help="Stellung (JSON) / position file"),
    output: Path = typer.Option(..., "-o", "--output", help="SVG-Datei / SVG file"),
    car: str | None = typer.Option(None, "--car", help="Züge dieses Autos / options of this car"),
    roll: int | None = typer.Option(None, "--roll", help="Würfelergebnis / die result"),
    gear: int | None = typer.Option(None, "--gear", help="Gang / gear"),
    names: bool = typer.Option(False, "--names", help="Feldnamen / space names"),
) -> None:
    """Stellung als SVG zeichnen / draw the position as SVG."""
    try:
        position = read_position(position_file)
        options = []
        if car is not None:
            if roll is None:
                raise RennleitungError("--car braucht --roll", "--car needs --roll", "--roll")
            check_request(position, car, roll, Choices(gear=gear))
            options = legal_moves(position, car, roll, Choices(gear=gear))
    except RennleitungError as error:
        fail(error)
    try:
        write_text(output, render_position(position, options, names=names))
    except RennleitungError as error:
        fail(error)
    typer.echo(pick(f"{output}: {counted(len(options), 'Zug', 'Züge')} markiert",
                    f"{output}: {counted(len(options), 'option', 'options')} highlighted"))
