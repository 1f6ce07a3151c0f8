"""The `rennleitung` console script: one Typer app with a sub-app per concept.

Each sub-app lives in its own module (``cli/track.py``, ``cli/turbo.py``, …) and is registered
in ``SUBCOMMANDS``; the modules are imported lazily so one broken extra cannot break the rest.
"""

from __future__ import annotations

import importlib

import typer

from rennleitung import __version__

app = typer.Typer(
    name="rennleitung",
    help="Rennleitung / race control: Formula Dé, leagues and TURBO 2000.",
    no_args_is_help=True,
    add_completion=False,
)

# (command name, module under rennleitung.cli, attribute holding the Typer sub-app)
SUBCOMMANDS: tuple[tuple[str, str, str], ...] = (
    ("track", "track", "app"),
    ("moves", "moves", "app"),
    ("position", "position", "app"),
    ("rules", "rules", "app"),
    ("race", "race", "app"),
    ("turbo", "turbo", "app"),
    ("league", "league", "app"),
    ("blitz", "blitz", "app"),
    ("serve", "serve", "app"),
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rennleitung {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Version / Version."
    ),
) -> None:
    """Rennleitung: Formula Dé, Ligen und TURBO 2000 / race control."""


@app.command("main")
def main_job() -> None:
    """Die Hauptaufgabe von `make run` / the main job of `make run`."""
    from rennleitung.cli.mainjob import run_main_job

    run_main_job()


def _register() -> None:
    for name, module_name, attribute in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"rennleitung.cli.{module_name}")
        except ModuleNotFoundError as error:
            if error.name == f"rennleitung.cli.{module_name}":
                continue  # not built yet
            raise
        app.add_typer(getattr(module, attribute), name=name)


_register()


def run() -> None:
    """Entry point of the console script."""
    app()
