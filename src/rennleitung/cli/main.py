"""The `rennleitung` console script: one Typer app with a sub-app per concept.

Each sub-app lives in its own module (``cli/track.py``, ``cli/turbo.py``, …) and is registered
in ``SUBCOMMANDS``. A module is imported only when its command runs (or ``--help`` lists them),
so `rennleitung --version` and `rennleitung moves …` start without the database, web and mail
libraries (benchmarks/startup.py measures it), and one broken extra cannot break the rest.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
from typer.core import TyperGroup, TyperOption


class _LazyGroup(TyperGroup):
    """The top-level group: sub-apps from ``SUBCOMMANDS`` are built on first use."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        return names + [name for name, _, _ in SUBCOMMANDS if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        for name, module_name, attribute in SUBCOMMANDS:
            if name != cmd_name:
                continue
            try:
                module = importlib.import_module(f"rennleitung.cli.{module_name}")
            except ModuleNotFoundError as error:
                if error.name == f"rennleitung.cli.{module_name}":
                    return None  # not built yet
                raise
            group = typer.main.get_group(getattr(module, attribute))
            group.name = name
            _add_lang(group)
            self.commands[name] = group
            return group
        return None

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from rennleitung.cli.common import reset_lang

        reset_lang()
        return super().main(*args, **kwargs)


def _lang_option() -> TyperOption:
    from rennleitung.cli.common import LANG_ENV, choose_lang

    return TyperOption(
        param_decls=["--lang"],
        envvar=LANG_ENV,
        callback=lambda _ctx, _param, value: _checked_lang(choose_lang, value),
        expose_value=False,
        is_eager=True,
        help="de, en oder/or both (Vorgabe/default: RENNLEITUNG_LANG, sonst/else locale).",
    )


def _checked_lang(choose: Any, value: str | None) -> Any:
    try:
        return choose(value)
    except ValueError:
        raise typer.BadParameter("de, en, both") from None


def _add_lang(command: Any) -> None:
    """Give every command of a sub-app a ``--lang`` option (those without one of their own)."""
    for child in getattr(command, "commands", {}).values():
        _add_lang(child)
    if getattr(command, "commands", None) is None and not any(
        "--lang" in getattr(param, "opts", ()) for param in command.params
    ):
        command.params.append(_lang_option())


app = typer.Typer(
    cls=_LazyGroup,
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
    ("mail", "mail", "app"),
    ("serve", "serve", "app"),
    ("db", "db", "app"),
)


def _version_callback(value: bool) -> None:
    if value:
        from rennleitung import __version__

        typer.echo(f"rennleitung {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True,
        help="Version zeigen / show the version."
    ),
) -> None:
    """Rennleitung: Formula Dé, Ligen und TURBO 2000 / race control."""


@app.command("main")
def main_job(
    seed: str | None = typer.Option(
        None, "--seed", help="Würfel-Seed, wiederholt ein Rennen / dice seed, repeats a race"
    ),
) -> None:
    """Ein Bot-Rennen im Terminal (`make demo`) / a bot race in the terminal (`make demo`)."""
    from rennleitung.cli.mainjob import run_main_job

    run_main_job(seed)


def run() -> None:
    """Entry point of the console script: the language defaults from the locale."""
    import os

    if not os.environ.get("RENNLEITUNG_LANG"):
        from rennleitung.cli.common import lang_from_locale

        os.environ["RENNLEITUNG_LANG"] = lang_from_locale().value
    app()
