"""The console script answers --version and --help."""

from typing import Any

from typer.testing import CliRunner

from rennleitung import __version__
from rennleitung.cli.main import app

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "main" in result.output


def test_every_command_help_is_one_line() -> None:
    """A docstring broken over two lines came out of `league --help` broken mid-sentence
    ("replace race N in place,\\n every later …") at every width."""
    import typer

    top: Any = typer.main.get_command(app)
    context = top.context_class(top)
    for name in top.list_commands(context):
        command = top.get_command(context, name)
        assert command is not None, name
        children = getattr(command, "commands", {name: command})
        for child_name, child in children.items():
            assert "\n" not in (child.help or "").strip(), f"{name} {child_name}"


def _commands() -> list[list[str]]:
    """Every command's words: ``["turbo", "new"]``, ``["moves"]``, … (groups of groups too)."""
    import typer

    found: list[list[str]] = []

    def walk(command: Any, words: list[str]) -> None:
        context = command.context_class(command)
        for name in command.list_commands(context):
            child = command.get_command(context, name)
            found.append([*words, name])
            if hasattr(child, "list_commands"):
                walk(child, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


def test_every_command_answers_help_without_a_traceback() -> None:
    """`turbo new --help` died in rich's markup parser on the option text
    'Name[/Reserve][:Passwort]' ("closing tag '[/Reserve]' … doesn't match"): every help
    text is rendered here, and the literal brackets must come out as written."""
    commands = _commands()
    assert ["turbo", "new"] in commands and len(commands) > 30
    for words in commands:
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (words, result.output, result.exception)
    shown = runner.invoke(app, ["turbo", "new", "--help"], env={"COLUMNS": "200"}).output
    assert "Name[/Reserve][:Passwort]" in shown
