"""The organiser's corrections and real-world files, end to end through `rennleitung league`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app

runner = CliRunner()


def league(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["league", *args, "--db", str(db)], env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def ok(db: Path, *args: str) -> str:
    code, out, err = league(db, *args)
    assert code == 0, err
    return out


def season(tmp_path: Path) -> Path:
    db = tmp_path / "league.sqlite3"
    ok(db, "create", "S")
    ok(db, "add-team", "S", "Rot")
    ok(db, "add-team", "S", "Blau")
    ok(db, "add-driver", "S", "Müller, Max", "--team", "Rot")
    ok(db, "add-driver", "S", "Anna", "--team", "Rot")
    ok(db, "add-driver", "S", "Jürgen", "--team", "Blau")
    return db


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def race_csv(tmp_path: Path, name: str, order: list[str]) -> Path:
    lines = ["driver,grid,position"] + [
        f'"{driver}",{place},{place}' for place, driver in enumerate(order, start=1)]
    return write(tmp_path / name, "\n".join(lines) + "\n")


def test_race_two_of_three_replaced_in_place_and_shown_in_the_history(tmp_path: Path) -> None:
    db = season(tmp_path)
    order = ["Müller, Max", "Anna", "Jürgen"]
    for number in (1, 2, 3):
        ok(db, "enter-race", "S", str(race_csv(tmp_path, f"r{number}.csv", order)),
           "--race", str(number))
    fixed = race_csv(tmp_path, "fixed.csv", ["Jürgen", "Anna", "Müller, Max"])
    out = ok(db, "replace-race", "S", "2", str(fixed), "--by", "Orga", "--lang", "de")
    assert "Rennen 2 ersetzt" in out
    table = json.loads(ok(db, "standings", "S", "--json"))
    points = {row["driver"]: row["points"] for row in table}
    assert points == {"Müller, Max": 10 + 6 + 10, "Anna": 8 + 8 + 8, "Jürgen": 6 + 10 + 6}
    karma = json.loads(ok(db, "standings", "S", "--table", "karma", "--json"))
    assert [row["balance"] for row in karma if row["driver"] == "Jürgen"][-1] == 30 + 6 + 10 + 6
    history = json.loads(ok(db, "history", "S", "--json"))
    assert [(h["action"], h["by"], h["subject"]) for h in history] == [
        ("replace-race", "Orga", "race 2")]
    assert history[0]["before"]["drivers"][0]["driver"] == "Müller, Max"
    shown = ok(db, "history", "S", "--lang", "de")
    assert "Rennen ersetzt" in shown and "Orga" in shown
    assert "drivers Müller, Max position: 1 → 3" in shown  # what changed, in words
    code, _, err = league(db, "delete-race", "S", "2")
    assert code == 1 and "replace-race" in err


def test_a_race_run_by_e_mail_is_marked_and_counts_like_any_other(tmp_path: Path) -> None:
    """Dresden 2006: one race of the season is run by e-mail (issue 26: it had no flag)."""
    db = season(tmp_path)
    order = ["Müller, Max", "Anna", "Jürgen"]
    ok(db, "enter-race", "S", str(race_csv(tmp_path, "r1.csv", order)), "--race", "1")
    ok(db, "enter-race", "S", str(race_csv(tmp_path, "r2.csv", order)), "--race", "2",
       "--by-mail")
    exported = json.loads(ok(db, "export", "S"))
    assert [r["source"] for r in exported["races"]] == ["table", "mail"]
    assert "run by e-mail" in ok(db, "race", "S", "2", "--lang", "en")
    assert "per E-Mail" not in ok(db, "race", "S", "1", "--lang", "de")
    points = {r["driver"]: r["points"] for r in json.loads(ok(db, "standings", "S", "--json"))}
    assert points["Müller, Max"] == 10 + 10
    copy = write(tmp_path / "export.json", json.dumps(exported))
    other = tmp_path / "other.sqlite3"
    ok(other, "import", str(copy))
    assert [r["source"] for r in json.loads(ok(other, "export", "S"))["races"]] == [
        "table", "mail"]


def test_windows_1252_file_is_read_with_a_note(tmp_path: Path) -> None:
    db = season(tmp_path)
    laps = write(tmp_path / "q.csv", "driver;rolls;lap_time\nJürgen;40;3:01\nAnna;41;3:00,5\n",
                 "cp1252")
    out = ok(db, "enter-qualifying", "S", "1", str(laps), "--seed", "3",
             "--starters", "Müller, Max,Anna,Jürgen")
    assert "Windows-1252" in out and "Jürgen" in out
    grid = ok(db, "grid", "S", "1")
    assert grid.index("Jürgen") < grid.index("Anna") < grid.index("Müller, Max")


def test_names_with_commas_and_did_not_start_from_csv(tmp_path: Path) -> None:
    db = season(tmp_path)
    laps = write(tmp_path / "q.csv", "driver,rolls,lap_time\nAnna,40,3:00\n")
    ok(db, "enter-qualifying", "S", "1", str(laps), "--seed", "1",
       "--starters", '"Müller, Max", Anna')
    race = write(tmp_path / "r.csv",
                 'driver,grid,position,status\nAnna,1,1,\n"Müller, Max",,,nicht-gestartet\n')
    ok(db, "enter-race", "S", str(race), "--race", "1")
    rows = json.loads(ok(db, "race", "S", "1", "--json"))
    assert [(r["driver"], r["status"]) for r in rows] == [
        ("Anna", "finished"), ("Müller, Max", "did-not-start")]
    shown = ok(db, "race", "S", "1", "--lang", "de")
    assert "nicht gestartet" in shown and "finished" not in shown


def test_json_race_file_options_are_applied_or_refused(tmp_path: Path) -> None:
    db = season(tmp_path)
    data = {"race": 1, "drivers": [
        {"driver": "Anna", "grid": 1, "position": 1, "laps_completed": 2,
         "status": "finished"}]}
    file = write(tmp_path / "r.json", json.dumps(data))
    code, _, err = league(db, "enter-race", "S", str(file), "--race", "2")
    assert code == 1 and "--race" in err and "contradicts" in err
    code, _, err = league(db, "enter-race", "S", str(file), "--laps", "2", "--track", "Monaco")
    assert code == 0, err
    exported = json.loads(ok(db, "export", "S"))
    assert exported["races"][0]["laps"] == 2 and exported["races"][0]["track"] == "Monaco"


def test_outputs_are_checked_before_the_work(tmp_path: Path) -> None:
    db = season(tmp_path)
    missing = tmp_path / "nowhere" / "page.html"
    code, _, err = league(db, "html", "S", "--out", str(missing))
    assert code == 1 and "--out" in err and "does not exist" in err
    code, _, err = league(db, "export", "S", "--out", str(tmp_path))
    assert code == 1 and "folder" in err


def test_spreadsheet_csv_for_german_excel(tmp_path: Path) -> None:
    db = season(tmp_path)
    ok(db, "enter-race", "S", str(race_csv(tmp_path, "r.csv", ["Anna", "Jürgen"])), "--race",
       "1")
    result = runner.invoke(app, ["league", "standings", "S", "--spreadsheet", "--db", str(db)])
    assert result.exit_code == 0
    data = result.stdout_bytes
    assert data.startswith(b"\xef\xbb\xbf")
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Platz;Fahrer;Team;")
    assert "Rennen 1" in lines[0]
    assert lines[1].split(";")[:2] == ["1", "Anna"]


def test_renames_removals_and_league_deletion(tmp_path: Path) -> None:
    db = season(tmp_path)
    ok(db, "rename-driver", "S", "Anna", "Anna-Lena")
    ok(db, "rename-team", "S", "Blau", "Scuderia Elbe")
    ok(db, "add-team", "S", "Leer")
    ok(db, "remove-team", "S", "Leer")
    ok(db, "remove-driver", "S", "Jürgen")
    ok(db, "rename", "S", "Saison 2006")
    exported = json.loads(ok(db, "export", "Saison 2006"))
    assert exported["teams"] == ["Rot", "Scuderia Elbe"]
    assert [d["name"] for d in exported["drivers"]] == ["Müller, Max", "Anna-Lena"]
    history = json.loads(ok(db, "history", "Saison 2006", "--json"))
    assert [h["action"] for h in history] == [
        "rename-driver", "rename-team", "remove-team", "remove-driver", "rename-league"]
    code, _, err = league(db, "delete", "Saison 2006")
    assert code == 1 and "--yes" in err
    ok(db, "delete", "Saison 2006", "--yes")
    assert ok(db, "list") == ""
