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
