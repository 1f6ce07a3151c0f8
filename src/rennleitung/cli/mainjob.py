"""What `make demo` does: a 10-bot race on the default track, shown as it goes.

The race is the same as `rennleitung race simulate --track monaco --cars 10 --laps 3`, with strong
and simple bots taking turns; afterwards the final board (cars, wrecks, dangerous spaces) is
written to ``board.svg`` and the race record to ``race.json``, so the race can be replayed and
verified (`rennleitung race verify race.json`).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from rennleitung.cli.common import pick
from rennleitung.cli.race import classification_table, running_order
from rennleitung.formula_de.builtin_tracks import DEFAULT_TRACK
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import record_of, record_to_json
from rennleitung.render.position_svg import render_position

BOARD_FILE = Path("board.svg")
RECORD_FILE = Path("race.json")
CARS = 10
LAPS = 3
BOTS = ("strong", "simple")


def _standings(race: Race) -> Table:
    """The running order after the latest round, leader first."""
    table = Table(title=pick(f"Spielrunde {race.round}", f"round {race.round}"))
    table.add_column("#")
    table.add_column(pick("Fahrer", "driver"))
    table.add_column(pick("Runden", "laps"))
    table.add_column(pick("Feld", "space"))
    order = running_order(race)
    position = race.to_position()
    by_id = {car.id: car for car in position.cars}
    for place, car in enumerate(order, start=1):
        state = by_id.get(car)
        space = position.track.name_of(state.space) if state else "–"
        status = (f" ({pick(state.status.label_de, state.status.label_en)})"
                  if state and state.status.value != "running" else "")
        table.add_row(
            str(place), escape(race.driver(car)) + status, str(race.laps_done(car)), space
        )
    return table


def run_main_job(seed: str | None = None) -> None:
    """Run the race, show it live, then print the classification and write the files. The same
    ``seed`` runs the same race again (`make demo SEED=…`)."""
    console = Console(highlight=False)
    seed = seed or secrets.token_hex(16)
    console.print(pick(f"[bold]rennleitung[/bold]: {CARS} Bots, {DEFAULT_TRACK}, {LAPS} Runden, "
                       f"Seed {seed}",
                       f"[bold]rennleitung[/bold]: {CARS} bots, {DEFAULT_TRACK}, {LAPS} laps, "
                       f"seed {seed}"))
    with Live(console=console, refresh_per_second=8, transient=True) as live:

        shown = [0]  # the round last drawn: the table changes once per round, not per decision

        def show(race: Race) -> None:
            if race.cars and race.round != shown[0]:
                shown[0] = race.round
                live.update(_standings(race))

        race = run_bot_race(DEFAULT_TRACK, "dresden-2006", CARS, LAPS, seed, BOTS, progress=show)
    console.print(classification_table(race))
    BOARD_FILE.write_text(render_position(race.to_position(), order=running_order(race)),
                          encoding="utf-8")
    RECORD_FILE.write_text(record_to_json(record_of(race, seed)), encoding="utf-8")
    files = f"[bold]{BOARD_FILE}[/bold]", f"[bold]{RECORD_FILE}[/bold]"
    console.print(pick(
        f"{race.round} Spielrunden, {len(race.events)} Ereignisse; {files[0]} und {files[1]} "
        "geschrieben",
        f"{race.round} rounds, {len(race.events)} events; {files[0]} and {files[1]} written"))
