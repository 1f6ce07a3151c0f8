"""League tables at 80 columns: no name cut to "Scud…", the frame kept when there is room."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from rennleitung.cli.fit_table import fitted_table

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
