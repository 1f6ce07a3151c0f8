"""League tables at 80 columns: no name cut to "Scud…", the frame kept when there is room."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from rennleitung.cli.fit_table import fitted_table
from rennleitung.cli.main import app

HEADERS = ["Platz", "Fahrer", "Team", "Stadt", "Punkte", "Punkte brutto", "Siege",
           "Streichresultate", "Rennen 1", "Rennen 2"]
ROWS = [["1", "Clara", "Team Pirna", "Pirna", "14", "14", "0", "", "8", "6"],
        ["3", "Ben", "Scuderia Elbe", "Dresden", "10", "10", "1", "3, 7", "0", "10"]]


def shown(width: int, headers: list[str], rows: list[list[str]]) -> str:
    out = StringIO()
    console = Console(file=out, width=width, color_system=None)
    console.print(fitted_table(console, "Dresden 2006: Fahrer", headers, rows))
    return out.getvalue()


def test_a_wide_table_is_compact_and_cuts_no_word() -> None:
    """The driver standings at 80 columns showed "Fahr…", "Scud…", "Dres…"."""
    text = shown(80, HEADERS, ROWS)
    assert "…" not in text
    for word in ("Scuderia", "Dresden", "Clara", "Pirna", "3, 7", "Fahrer"):
        assert word in text, word
    assert all(len(line) <= 80 for line in text.splitlines())
    row = next(line for line in text.splitlines() if line.startswith("3 "))
    assert row.split()[-2:] == ["0", "10"]  # the last race column is there


def test_a_table_that_fits_keeps_its_frame() -> None:
    text = shown(80, HEADERS[:4], [row[:4] for row in ROWS])
    assert "┏" in text and "Scuderia Elbe" in text


RACES = [f"Rennen {n}" for n in range(1, 11)]
OPEN_ROWS = [
    ["1", "Müller-Lüdenscheidt", "Scuderia Elbe", "Dresden", "10990", "11089", "4", "",
     "1099", "(1099)", "1098", "998", "1099", "899", "1099", "1000", "799", "1099"],
    ["2", "Ben", "Team Pirna", "Pirna", "9870", "9870", "3", "",
     "899", "1099", "(99)", "1099", "800", "1098", "1000", "1099", "1099", "900"],
]


def cells_by_row(text: str, names: list[str]) -> dict[str, list[str]]:
    """Each row's cells after its name, read off every part of a folded table."""
    found: dict[str, list[str]] = {name: [] for name in names}
    for line in text.splitlines():
        words = line.split()
        for name in names:
            if name in words:
                found[name].extend(words[words.index(name) + 1:])
    return found


def test_ten_races_of_four_digit_points_fold_and_cut_no_number() -> None:
    """At 80 columns the standings showed races 1-3 only and "1099" as "10" (issue 26)."""
    text = shown(80, HEADERS[:8] + RACES, OPEN_ROWS)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "(1/3)" in text and "(3/3)" in text  # folded into three tables
    rows = cells_by_row(text, ["Müller-Lüdenscheidt", "Ben"])
    number = re.compile(r"^\(?\d+\)?$")
    for row in OPEN_ROWS:
        assert [c for c in rows[row[1]] if number.match(c)] == [c for c in row[2:]
                                                                if number.match(c)]
    for word in ("Müller-Lüdenscheidt", "Scuderia", "Dresden"):
        assert word in text


def test_the_transfer_season_at_80_columns(tmp_path: Path) -> None:
    """The ten races of the fixture season, each column whole, through the command."""
    fixture = Path(__file__).parent / "league" / "fixtures" / "transfer_season"
    db = str(tmp_path / "s.sqlite3")
    runner = CliRunner()

    def league(*args: str) -> str:
        result = runner.invoke(app, ["league", *args, "--db", db, "--lang", "de"],
                               env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.stderr
        return result.stdout

    league("create", "S")
    for team, members in (("Nord", "Mo Ute"), ("Süd", "Kai"), ("Ost", "Lea Tim"),
                          ("West", "Pia Jan"), ("Mitte", "Eva")):
        league("add-team", "S", team)
        for name in members.split():
            league("add-driver", "S", name, "--team", team)
    for n in range(1, 11):
        league("enter-race", "S", str(fixture / f"race{n}.csv"), "--race", str(n))
    text = league("standings", "S", "--table", "constructors")
    assert all(len(line) <= 80 for line in text.splitlines())
    rows = cells_by_row(text, ["Ost", "Süd"])
    # Ost: 111 points, then races 1-10 (Lea + Tim); Süd: 56, Kai + Mo from race 6
    assert [c for c in rows["Ost"] if c.isdigit()] == [
        "111", "8", "18", "8", "7", "11", "11", "10", "18", "9", "11"]
    assert [c for c in rows["Süd"] if c.isdigit()] == [
        "56", "8", "1", "1", "4", "3", "5", "13", "7", "9", "5"]
