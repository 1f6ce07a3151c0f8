"""The example files in docs/league/examples, run through the CLI and checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "league" / "examples"
LEAGUE = "Dresden 2006"
runner = CliRunner()


def league(db: Path, *args: str) -> str:
    result = runner.invoke(app, ["league", *args, "--db", str(db)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_walkthrough_of_the_example_season(tmp_path: Path) -> None:
    db = tmp_path / "example.sqlite3"
    league(db, "create", LEAGUE, "--kind", "season")
    league(db, "add-team", LEAGUE, "Scuderia Elbe")
    league(db, "add-team", LEAGUE, "Team Pirna")
    for name, team, profile, city in (
        ("Anna", "Scuderia Elbe", "theoretiker", "Dresden"),
        ("Ben", "Scuderia Elbe", "praktiker", "Dresden"),
        ("Clara", "Team Pirna", "regengott", "Pirna"),
        ("Dirk", "Team Pirna", "normalo", "Pirna"),
    ):
        league(db, "add-driver", LEAGUE, name, "--team", team, "--profile", profile,
               "--city", city)
    out = league(db, "enter-qualifying", LEAGUE, "1", str(EXAMPLES / "quali1.csv"),
                 "--seed", "2006", "--weather", "wechselhaft")
    # Clara 39+3+4 = 46 (Regengott: no change); Anna 44+2+3-1 = 48; Ben 41+0+10+2+1 = 54;
    # Dirk has no lap and is drawn to the back. Box choice: Clara's team first.
    assert "box choice: Team Pirna, Scuderia Elbe" in out
    assert "weather per run: sun" in out
    league(db, "enter-race", LEAGUE, str(EXAMPLES / "race1.csv"), "--race", "1")
    league(db, "enter-race", LEAGUE, str(EXAMPLES / "race2.json"))

    drivers = json.loads(league(db, "standings", LEAGUE, "--json"))
    # Race 1: Anna 10, Clara 8, Dirk 6, Ben 0 (one lap). Race 2: Ben 10 (car driven by Anna),
    # Dirk 8, Clara 6 (two laps, retired). Clara and Dirk: same places, shared rank.
    # Ben and Anna: one win each; Ben's 4th place puts him ahead.
    assert [(r["rank"], r["driver"], r["points"]) for r in drivers] == [
        (1, "Clara", 14), (1, "Dirk", 14), (3, "Ben", 10), (4, "Anna", 10)
    ]
    teams = json.loads(league(db, "standings", LEAGUE, "--table", "constructors", "--json"))
    assert [(r["team"], r["points"]) for r in teams] == [("Team Pirna", 28),
                                                         ("Scuderia Elbe", 20)]
    karma = json.loads(league(db, "standings", LEAGUE, "--table", "karma", "--json"))
    final = {row["driver"]: row["balance"] for row in karma}
    # Anna 30 +1 -20 +10 +3 +6; Ben 30 +10 +9; Clara 30 +8 +3 +6; Dirk 30 +1 +6 +3 -4 +8 +3
    assert final == {"Anna": 30, "Ben": 49, "Clara": 47, "Dirk": 47}


def test_race_table_of_the_example(tmp_path: Path) -> None:
    test_walkthrough_of_the_example_season(tmp_path)
    db = tmp_path / "example.sqlite3"
    rows = json.loads(league(db, "race", LEAGUE, "2", "--json"))
    assert [(r["position"], r["driver"], r["driven_by"], r["points"], r["amount"])
            for r in rows] == [
        (1, "Ben", "Anna", 10, 10 + 9),
        (2, "Dirk", None, 8, -4 + 8 + 3),
        (3, "Clara", None, 6, 6),
    ]
    result = runner.invoke(app, ["league", "race", LEAGUE, "3", "--db", str(db)])
    assert result.exit_code == 1 and "race 3 has not been entered" in result.stderr
    page = tmp_path / "p.html"
    league(db, "html", LEAGUE, "--out", str(page))
    html = page.read_text(encoding="utf-8")
    assert 'id="race-1"' in html and "4:05.900" in html  # Clara's pole lap in race 1
    dirk = json.loads(league(db, "standings", LEAGUE, "--table", "karma", "--json",
                             "--driver", "Dirk"))
    assert {row["driver"] for row in dirk} == {"Dirk"} and dirk[-1]["balance"] == 47
    result = runner.invoke(app, ["league", "standings", LEAGUE, "--driver", "Zoe",
                                 "--db", str(db)])
    assert result.exit_code == 1 and "--driver" in result.stderr


def test_export_and_import_through_the_cli(tmp_path: Path) -> None:
    test_walkthrough_of_the_example_season(tmp_path)
    db = tmp_path / "example.sqlite3"
    exported = tmp_path / "export.json"
    league(db, "export", LEAGUE, "--out", str(exported))
    other = tmp_path / "other.sqlite3"
    result = runner.invoke(app, ["league", "import", str(exported), "--db", str(other)])
    assert result.exit_code == 0, result.stderr
    assert league(other, "standings", LEAGUE, "--json") == league(db, "standings", LEAGUE,
                                                                  "--json")
    assert json.loads(league(other, "export", LEAGUE)) == json.loads(
        exported.read_text(encoding="utf-8")
    )
    again = runner.invoke(app, ["league", "import", str(exported), "--db", str(other)])
    assert again.exit_code == 1 and "already exists" in again.stderr
