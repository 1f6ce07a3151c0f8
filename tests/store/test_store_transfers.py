"""A season with a transfer (tests/league/fixtures/transfer_season, computed by hand in its
README) through the command line on both databases: the transfer entered once by command, or
named by the race file's ``team`` column, or entered after the season; the same tables."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

FIXTURE = Path(__file__).resolve().parents[1] / "league" / "fixtures" / "transfer_season"
runner = CliRunner()
TEAMS = {"Nord": ("Mo", "Ute"), "Süd": ("Kai",), "Ost": ("Lea", "Tim"), "West": ("Pia", "Jan"),
         "Mitte": ("Eva",)}
DRIVERS = [(1, "Lea", 61), (2, "Jan", 52), (3, "Eva", 48), (4, "Ute", 47), (5, "Pia", 42),
           (6, "Tim", 42), (7, "Mo", 36), (8, "Kai", 34)]
CONSTRUCTORS = [(1, "Ost", 111), (2, "West", 101), (3, "Nord", 70), (4, "Süd", 56),
                (5, "Mitte", 51)]


def cli(database_url: str) -> Callable[..., str]:
    def league(*args: str) -> str:
        result = runner.invoke(app, ["league", *args, "--db", database_url])
        assert result.exit_code == 0, result.stderr
        return result.stdout
    return league


def season(league: Callable[..., str], races: range) -> None:
    for number in races:
        league("enter-race", "S", str(FIXTURE / f"race{number}.csv"), "--race", str(number))


def registered(league: Callable[..., str]) -> None:
    league("create", "S", "--kind", "season")
    for team, members in TEAMS.items():
        league("add-team", "S", team)
        for name in members:
            league("add-driver", "S", name, "--team", team)


def check_tables(league: Callable[..., str]) -> None:
    drivers = json.loads(league("standings", "S", "--json"))
    assert [(r["rank"], r["driver"], r["points"]) for r in drivers] == DRIVERS
    assert next(r["team"] for r in drivers if r["driver"] == "Mo") == "Süd"
    teams = json.loads(league("standings", "S", "--table", "constructors", "--json"))
    assert [(r["rank"], r["team"], r["points"]) for r in teams] == CONSTRUCTORS
    by_team = {r["team"]: r for r in teams}
    assert by_team["Nord"]["r6"] == 10 and by_team["Süd"]["r6"] == 3 + 2  # Ute; Mo + Kai


def transfers_in_history(league: Callable[..., str]) -> list[dict[str, object]]:
    entries = json.loads(league("history", "S", "--json"))
    return [e["after"] for e in entries if e["action"] == "transfer"]


def test_transfer_entered_once_by_command(database_url: str) -> None:
    league = cli(database_url)
    registered(league)
    season(league, range(1, 6))
    out = league("transfer", "S", "Mo", "Süd", "--from-race", "6", "--by", "Orga")
    assert "Mo drives for Süd from race 6" in out
    season(league, range(6, 11))  # race 6 names Süd for Mo: agrees, nothing more entered
    check_tables(league)
    assert transfers_in_history(league) == [{"driver": "Mo", "team": "Süd", "from_race": 6}]
    assert "transfer: Mo drives for Süd from race 6" in league("roster", "S")


def test_transfer_named_by_the_race_file(database_url: str) -> None:
    league = cli(database_url)
    registered(league)
    season(league, range(1, 11))
    check_tables(league)
    assert transfers_in_history(league) == [{"driver": "Mo", "team": "Süd", "from_race": 6}]


def test_transfer_entered_after_the_season_moves_the_points(
    database_url: str, tmp_path: Path
) -> None:
    league = cli(database_url)
    registered(league)
    for number in range(1, 11):  # race 6 without its team column
        text = (FIXTURE / f"race{number}.csv").read_text(encoding="utf-8")
        if number == 6:
            text = "\n".join(line.rsplit(",", 1)[0] for line in text.splitlines()) + "\n"
        path = tmp_path / f"race{number}.csv"
        path.write_text(text, encoding="utf-8")
        league("enter-race", "S", str(path), "--race", str(number))
    teams = json.loads(league("standings", "S", "--table", "constructors", "--json"))
    # before the transfer every point of Mo counts for Nord: 90 and 36, Süd 5th
    assert {r["team"]: (r["rank"], r["points"]) for r in teams}["Nord"] == (3, 90)
    assert {r["team"]: (r["rank"], r["points"]) for r in teams}["Süd"] == (5, 36)
    league("transfer", "S", "Mo", "Süd", "--from-race", "6")
    check_tables(league)
    # and taken back again
    league("remove-transfer", "S", "Mo", "--from-race", "6")
    teams = json.loads(league("standings", "S", "--table", "constructors", "--json"))
    assert {r["team"]: r["points"] for r in teams}["Nord"] == 90
    actions = [e["action"] for e in json.loads(league("history", "S", "--json"))]
    assert actions == ["transfer", "remove-transfer"]


def test_refused_transfers_and_the_export(database_url: str, tmp_path: Path) -> None:
    league = cli(database_url)
    registered(league)
    season(league, range(1, 6))

    def refused(*args: str) -> str:
        result = runner.invoke(app, ["league", *args, "--db", database_url])
        assert result.exit_code == 1, result.stdout
        return result.stderr

    assert "team 'Ost' would have 3 drivers" in refused("transfer", "S", "Mo", "Ost",
                                                         "--from-race", "6")
    assert "already drives for Nord" in refused("transfer", "S", "Mo", "Nord", "--from-race",
                                                "6")
    assert "races 1 to 10" in refused("transfer", "S", "Mo", "Süd", "--from-race", "11")
    assert "unknown team 'Süden'" in refused("transfer", "S", "Mo", "Süden", "--from-race", "6")
    wrong = tmp_path / "race5.csv"
    wrong.write_text((FIXTURE / "race5.csv").read_text(encoding="utf-8").replace(
        "status\n", "status,team\n").replace("Mo,1,8,,", "Mo,1,8,,,Süd"), encoding="utf-8")
    error = refused("replace-race", "S", "5", str(wrong))
    assert "race 5, Mo, team" in error and "drives for Nord in race 5" in error
    season(league, range(6, 11))
    export = tmp_path / "s.json"
    league("export", "S", "--out", str(export))
    assert json.loads(export.read_text(encoding="utf-8"))["transfers"] == [
        {"driver": "Mo", "team": "Süd", "from_race": 6}]
    league("import", str(export), "--name", "S2")
    teams = json.loads(league("standings", "S2", "--table", "constructors", "--json"))
    assert [(r["rank"], r["team"], r["points"]) for r in teams] == CONSTRUCTORS
