"""`rennleitung race`: simulate (JSON and table), record, verify, replay with a position."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de.position import parse_position

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def test_simulate_json_has_seed_classification_and_events(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    result = runner.invoke(
        app,
        [
            "race",
            "simulate",
            "--cars",
            "4",
            "--laps",
            "1",
            "--seed",
            "7",
            "--json",
            "--record",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seed"] == "7" and data["events"] > 10
    rows = data["classification"]
    assert [r["position"] for r in rows] == [1, 2, 3, 4]
    assert {"car", "position", "laps", "status"} <= set(rows[0])
    verified = runner.invoke(app, ["race", "verify", str(record)])
    assert verified.exit_code == 0, verified.output
    assert "honest" in verified.output


def test_verify_refuses_a_forged_record(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    runner.invoke(
        app,
        ["race", "simulate", "--cars", "2", "--laps", "1", "--seed", "3", "--record", str(record)],
    )
    data = json.loads(record.read_text())
    data["seed"] = "4"
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["race", "verify", str(record)])
    assert result.exit_code == 1
    assert "commitment" in result.output


def test_replay_writes_the_position(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    position = tmp_path / "pos.json"
    runner.invoke(
        app,
        [
            "race",
            "simulate",
            "--cars",
            "3",
            "--laps",
            "1",
            "--seed",
            "5",
            "--bots",
            "strong",
            "--record",
            str(record),
        ],
    )
    result = runner.invoke(
        app,
        [
            "race",
            "replay",
            str(record),
            "--until",
            "40",
            "--position",
            str(position),
            "--lang",
            "en",
        ],
        env=WIDE,
    )
    assert result.exit_code == 0, result.output
    assert "Round 1:" in result.output
    text = position.read_text()
    assert json.loads(text)["format"] == "rennleitung-position/1"
    assert len(parse_position(text).cars) == 3


def test_simulate_table_and_unknown_ruleset() -> None:
    result = runner.invoke(
        app, ["race", "simulate", "--cars", "2", "--laps", "1", "--seed", "1"], env=WIDE
    )
    assert result.exit_code == 0, result.output
    assert "classification" in result.output
    bad = runner.invoke(app, ["race", "simulate", "--ruleset", "nope", "--seed", "1"])
    assert bad.exit_code == 1
    assert "unknown ruleset" in bad.output


def test_replay_keeps_each_event_on_one_line_in_a_file(tmp_path: Path) -> None:
    """Into a pipe or a file, an event is one line even at 80 columns (it was cut into pieces
    that ``grep`` could not find whole)."""
    record = tmp_path / "race.json"
    runner.invoke(app, ["race", "simulate", "--cars", "3", "--laps", "1", "--seed", "5",
                        "--record", str(record)])
    result = runner.invoke(app, ["race", "replay", str(record), "--until", "20", "--lang", "en"],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 20
    assert all(line[:5].strip().isdigit() for line in lines)
    assert any(len(line) > 80 and "shares out the points" in line for line in lines)


def test_on_a_terminal_a_long_event_wraps_under_its_text() -> None:
    """At 80 columns a wrapped sentence went on under the event numbers."""
    from io import StringIO

    from rich.console import Console

    from rennleitung.cli.race import print_event_lines

    out = StringIO()
    console = Console(file=out, force_terminal=True, width=40, color_system=None)
    print_event_lines(console, [(9, "short"), (10, "a sentence long enough to wrap twice at forty "
                                                    "columns, as setups and order lists do")])
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines[0] == " 9 short"
    assert lines[1].startswith("10 a sentence")
    assert len(lines) >= 3 and all(line.startswith("   ") for line in lines[2:])


def test_simulate_into_a_file_starts_with_the_table() -> None:
    """Was an empty line first: the progress bar, invisible outside a terminal, left it."""
    result = runner.invoke(app, ["race", "simulate", "--cars", "3", "--laps", "1", "--seed", "5",
                                 "--lang", "en"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].strip() == "classification"


def test_an_error_s_line_is_named_in_the_chosen_language(tmp_path: Path) -> None:
    """Was "Zeile/line 1: not valid JSON" in English and in German."""
    broken = tmp_path / "broken.json"
    broken.write_text("not json\n", encoding="utf-8")
    german = runner.invoke(app, ["race", "verify", str(broken)], env={"RENNLEITUNG_LANG": "de"})
    english = runner.invoke(app, ["race", "verify", str(broken)], env={"RENNLEITUNG_LANG": "en"})
    assert german.exit_code == english.exit_code == 1
    assert "Zeile 1: kein gültiges JSON" in german.output and "line" not in german.output
    assert "line 1: not valid JSON" in english.output and "Zeile" not in english.output
