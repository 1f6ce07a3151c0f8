"""`rennleitung league` end to end on a real SQLite file: create, enter, show, refuse."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()


def league(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["league", *args, "--db", str(db)])
    return result.exit_code, result.stdout, result.stderr


def setup_open(tmp_path: Path) -> Path:
    db = tmp_path / "league.sqlite3"
    assert league(db, "create", "Open", "--kind", "open")[0] == 0
    assert league(db, "add-team", "Open", "Elbe")[0] == 0
    assert league(db, "add-team", "Open", "Solo")[0] == 0
    for name, team, city, profile in (
        ("Anna", "Elbe", "Dresden", "theoretiker"),
        ("Ben", "Elbe", "Leipzig", "normalo"),
        ("Carl", "Solo", "Leipzig", "regengott"),
    ):
        code, _, err = league(db, "add-driver", "Open", name, "--team", team, "--city", city,
                              "--profile", profile)
        assert code == 0, err
    return db


def test_open_from_qualifying_to_standings(tmp_path: Path) -> None:
    db = setup_open(tmp_path)
    laps = tmp_path / "q.csv"
    laps.write_text("driver,rolls,penalty_points,errors,lap_time\n"
                    "Anna,40,1,0,3:10\nBen,38,0,1,2:55\n", encoding="utf-8")
    code, out, err = league(db, "enter-qualifying", "Open", "1", str(laps), "--seed", "5")
    assert code == 0, err
    assert "Anna, Ben, Carl" in out  # box choice by driver in grid order
    result = tmp_path / "r.csv"
    result.write_text("driver,grid,position,laps,status,laps_most_led,karma\n"
                      "Anna,1,2,,,1,twenty\nBen,2,1,,,2,\nCarl,3,3,1,retired,,\n",
                      encoding="utf-8")
    code, out, err = league(db, "enter-race", "Open", str(result), "--race", "1")
    assert code == 0, err
    code, out, _ = league(db, "standings", "Open", "--json")
    table = json.loads(out)
    # Ben 1000 + 99 (second in qualifying), Anna 800 + 100 (pole), Carl 0 (one lap, drawn)
    assert [(r["driver"], r["points"]) for r in table] == [
        ("Ben", 1099), ("Anna", 900), ("Carl", 0)
    ]
    code, out, _ = league(db, "standings", "Open", "--table", "cities", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    # whole points without ".0" (issue 26), half points with their decimal
    assert [(r["city"], r["score"]) for r in rows] == [("Dresden", "900"),
                                                        ("Leipzig", "549.5")]
    code, out, _ = league(db, "standings", "Open", "--table", "karma", "--json", "--lang", "en")
    anna = [r for r in json.loads(out) if r["driver"] == "Anna"]
    assert anna[-1]["balance"] == 30 + 1 + 8 + 3
    assert {r["reason"] for r in anna} >= {"rolled a 20", "most laps led"}
    code, out, _ = league(db, "standings", "Open", "--table", "constructors", "--lang", "de")
    assert code == 0 and "Konstrukteure" in out and "1999" in out
    page = tmp_path / "open.html"
    code, _, _ = league(db, "html", "Open", "--out", str(page))
    html = page.read_text(encoding="utf-8")
    assert code == 0 and "<svg" in html and 'data-driver="Ben"' in html
    assert "Städtewertung / City ranking" in html


def test_refusals_are_bilingual_and_exit_non_zero(tmp_path: Path) -> None:
    db = setup_open(tmp_path)
    code, _, err = league(db, "add-driver", "Open", "Dora", "--team", "Elbe", "--city", "X")
    assert code == 1 and "höchstens 2" in err and "at most 2" in err
    code, _, err = league(db, "add-driver", "Open", "Dora", "--team", "Solo")
    assert code == 1 and "city" in err and "Stadt" in err
    code, _, err = league(db, "add-driver", "Open", "Dora", "--team", "Solo", "--city", "X",
                          "--profile", "raser")
    assert code == 1 and "profile" in err
    code, _, err = league(db, "create", "Cup", "--kind", "cup")
    assert code == 1 and "kind" in err
    code, _, err = league(db, "standings", "Nirgendwo")
    assert code == 1 and "unbekannte Liga" in err and "unknown league" in err
    result = tmp_path / "r.csv"
    result.write_text("driver,grid,position\nAnna,1,1\nZoe,2,2\n", encoding="utf-8")
    code, _, err = league(db, "enter-race", "Open", str(result), "--race", "1")
    assert code == 1 and "Zoe" in err and "race 1, driver" in err
    code, _, err = league(db, "enter-race", "Open", str(result))
    assert code == 1 and "--race" in err
    code, _, err = league(db, "enter-race", "Open", str(tmp_path / "missing.csv"), "--race", "1")
    assert code == 1 and "missing.csv" in err
    bad_json = tmp_path / "r.json"
    bad_json.write_text("{", encoding="utf-8")
    code, _, err = league(db, "enter-race", "Open", str(bad_json))
    assert code == 1 and "JSON" in err


def test_season_json_race_drops_and_grid(tmp_path: Path) -> None:
    db = tmp_path / "season.sqlite3"
    league(db, "create", "Saison", "--kind", "saison")
    league(db, "add-team", "Saison", "Rot")
    league(db, "add-driver", "Saison", "Anna", "--team", "Rot")
    league(db, "add-driver", "Saison", "Ben", "--team", "Rot")
    race = {
        "race": 1,
        "drivers": [
            {"driver": "Ben", "grid": 1, "position": 1, "laps_completed": 3,
             "status": "finished", "driven_by": "Anna"},
            {"driver": "Anna", "grid": 2, "position": 2, "laps_completed": 3,
             "status": "finished"},
        ],
    }
    path = tmp_path / "race1.json"
    path.write_text(json.dumps(race), encoding="utf-8")
    code, _, err = league(db, "enter-race", "Saison", str(path))
    assert code == 0, err
    code, _, err = league(db, "drops", "Saison", "Anna", "1")
    assert code == 0, err
    code, out, _ = league(db, "standings", "Saison", "--json")
    assert [(r["driver"], r["points"], r["r1"]) for r in json.loads(out)] == [
        ("Ben", 10, "10"), ("Anna", 0, "(8)")
    ]
    code, _, err = league(db, "grid", "Saison", "2")
    assert code == 1 and "no qualifying for race 2" in err
    code, _, err = league(db, "delete-race", "Saison", "2")
    assert code == 1 and "only the last race" in err
    code, _, err = league(db, "delete-race", "Saison", "1")
    assert code == 0, err
    code, out, _ = league(db, "standings", "Saison", "--json")
    assert [r["points"] for r in json.loads(out)] == [0, 0]
    code, out, _ = league(db, "list")
    assert "Saison\tseason" in out


def test_database_from_the_environment_variable(tmp_path: Path) -> None:
    db = tmp_path / "from-env.sqlite3"
    env = {"RENNLEITUNG_DB": str(db)}
    result = runner.invoke(app, ["league", "create", "Env", "--kind", "open"], env=env)
    assert result.exit_code == 0, result.stderr
    assert db.is_file()
    listed = runner.invoke(app, ["league", "list"], env=env)
    assert listed.stdout == "Env\topen\n"


def test_help_lists_the_league_and_blitz_commands() -> None:
    league_help = runner.invoke(app, ["league", "--help"]).stdout
    for command in ("create", "add-team", "add-driver", "enter-race", "enter-qualifying",
                    "standings", "html", "drops", "grid", "delete-race"):
        assert command in league_help
    blitz_help = runner.invoke(app, ["blitz", "--help"]).stdout
    for command in ("new", "start", "press", "status", "result"):
        assert command in blitz_help
