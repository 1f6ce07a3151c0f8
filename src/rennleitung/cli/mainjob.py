"""What `make run` does: grows with the project (track render now, a bot race later)."""

from __future__ import annotations

from rich.console import Console


def run_main_job() -> None:
    """Run the main job and print what it did."""
    console = Console()
    console.print("[bold]rennleitung[/bold]: nothing to run yet / noch nichts zu tun.")
