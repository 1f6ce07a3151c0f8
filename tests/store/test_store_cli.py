"""The organiser's commands against both databases: the same answers from SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "league" / "examples"
runner = CliRunner()


def test_example_season_through_the_cli(database_url: str) -> None:
    def league(*args: str) -> str:
        result = runner.invoke(app, ["league", *args, "--db", database_url])
        assert result.exit_code == 0, result.stderr
        return result.stdout

    league("create", "S", "--kind", "season")
    league("add-team", "S", "Elbe")
    league("add-team", "S", "Pirna")
    for name, team, profile in (("Anna", "Elbe", "theoretiker"), ("Ben", "Elbe", "praktiker"),
                                ("Clara", "Pirna", "regengott"), ("Dirk", "Pirna", "normalo")):
        league("add-driver", "S", name, "--team", team, "--profile", profile)
    league("enter-qualifying", "S", "1", str(EXAMPLES / "quali1.csv"), "--seed", "2006")
    league("enter-race", "S", str(EXAMPLES / "race1.csv"), "--race", "1")
    league("enter-race", "S", str(EXAMPLES / "race2.json"))
    table = json.loads(league("standings", "S", "--json"))
    assert [(r["rank"], r["driver"], r["points"]) for r in table] == [
        (1, "Clara", 14), (1, "Dirk", 14), (3, "Ben", 10), (4, "Anna", 10)
    ]
    refused = runner.invoke(app, ["league", "enter-race", "S", str(EXAMPLES / "race2.json"),
                                  "--db", database_url])
    assert refused.exit_code == 1 and "race 2 has already been entered" in refused.stderr
