"""What `make run` does: grows with the project (track render now, a bot race later)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from rennleitung.cli.track import summary_table
from rennleitung.formula_de.builtin_tracks import DEFAULT_TRACK, builtin_track
from rennleitung.render.board_svg import render_board

BOARD_FILE = Path("board.svg")


def run_main_job() -> None:
    """Render the default track to ``board.svg`` and print its summary."""
    console = Console(highlight=False)
    track = builtin_track(DEFAULT_TRACK)
    BOARD_FILE.write_text(render_board(track), encoding="utf-8")
    console.print(summary_table([track]))
    console.print(
        f"[bold]{BOARD_FILE}[/bold] geschrieben / written: {track.title}, "
        f"{len(track.spaces)} Felder / spaces"
    )
