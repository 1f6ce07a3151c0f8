"""`rennleitung rules`: list, show (languages, JSON) and the error for an unknown name."""

import json

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de.ruleset import PRESETS, field_docs

runner = CliRunner()
WIDE = {"COLUMNS": "250"}


def test_list_names_every_preset() -> None:
    result = runner.invoke(app, ["rules", "list"], env=WIDE)
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output


def test_list_json() -> None:
    result = runner.invoke(app, ["rules", "list", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [row["name"] for row in data] == list(PRESETS)
    blitz = next(row for row in data if row["name"] == "fd-blitz")
    assert "fixed_setup" in blitz["differs_from_dresden_2006"]


def test_show_prints_every_field_with_rule_and_both_languages() -> None:
    result = runner.invoke(app, ["rules", "show", "masters-2002"], env=WIDE)
    assert result.exit_code == 0, result.output
    for doc in field_docs():
        assert doc.name in result.output
    assert "Masters 19-3, 19-4" in result.output
    assert "quick_long" in result.output
    assert "Art des Boxenstopps" in result.output and "kind of pit stop" in result.output


def test_show_in_one_language_leaves_the_other_out() -> None:
    german = runner.invoke(app, ["rules", "show", "dresden-2006", "--lang", "de"], env=WIDE)
    english = runner.invoke(app, ["rules", "show", "dresden-2006", "--lang", "en"], env=WIDE)
    assert german.exit_code == english.exit_code == 0
    assert "Art des Boxenstopps" in german.output and "kind of pit stop" not in german.output
    assert "kind of pit stop" in english.output and "Art des Boxenstopps" not in english.output


def test_show_json_has_value_rule_and_texts() -> None:
    result = runner.invoke(app, ["rules", "show", "fd-blitz", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    rows = {row["name"]: row for row in data["fields"]}
    assert data["name"] == "fd-blitz"
    assert len(rows) == len(field_docs())
    assert rows["fixed_setup"]["value"]["tyres"] == 6
    assert rows["fixed_setup"]["rule"] == "Dresden FD Blitz"
    assert rows["players"]["value"] == 2
    assert {"de", "en"} <= set(rows["chess_clock"])
    english_only = json.loads(
        runner.invoke(app, ["rules", "show", "fd-blitz", "--json", "--lang", "en"]).output
    )
    assert "de" not in english_only["fields"][0] and "en" in english_only["fields"][0]


def test_unknown_ruleset_fails_in_both_languages() -> None:
    result = runner.invoke(app, ["rules", "show", "formula-1"], env=WIDE)
    assert result.exit_code == 1
    assert "unbekanntes Regelwerk" in result.output
    assert "unknown ruleset" in result.output


def test_diff_lists_the_fields_that_differ() -> None:
    result = runner.invoke(app, ["rules", "diff", "masters-2002", "dresden-2006"], env=WIDE)
    assert result.exit_code == 0
    assert "engine_failure" in result.output and "inertia" in result.output
    assert "slipstream_min_gear" not in result.output
    assert "wreck_removal" in result.output and "Masters 14-2, 20-3-2" in result.output


def test_show_names_the_wreck_rule_in_both_languages() -> None:
    german = runner.invoke(app, ["rules", "show", "dresden-2006", "--lang", "de"], env=WIDE)
    english = runner.invoke(app, ["rules", "show", "masters-2002", "--lang", "en"], env=WIDE)
    assert "wreck_removal" in german.output and "when_passed" in german.output
    assert "bis alle anderen es passiert haben" in german.output
    assert "next_turn" in english.output and "has passed it (when_passed)" in english.output
    assert "Wrack bleibt liegen" not in english.output


@pytest.mark.parametrize(("lang", "wanted", "unwanted"), [
    ("de", ("Art des Boxenstopps", "hart: Sonne", "Beschreibung"),
     ("kind of pit stop", "hard: sun", "description", " / ")),
    ("en", ("kind of pit stop", "hard: sun", "description"),
     ("Art des Boxenstopps", "hart: Sonne", "Beschreibung", " / ")),
])
def test_show_follows_the_language_of_every_other_command(
    lang: str, wanted: tuple[str, ...], unwanted: tuple[str, ...]
) -> None:
    """Was both languages in every row and the title whatever RENNLEITUNG_LANG said (its own
    ``--lang`` defaulted to both), an 80-column table twice as long as needed."""
    result = runner.invoke(app, ["rules", "show", "dresden-2006"],
                           env={"RENNLEITUNG_LANG": lang, "COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for text in wanted:
        assert text in result.output, text
    for text in unwanted:
        assert text not in result.output, text
    data = json.loads(runner.invoke(app, ["rules", "show", "dresden-2006", "--json"],
                                    env={"RENNLEITUNG_LANG": lang}).output)
    assert {"de", "en"} <= set(data["fields"][0])  # JSON keeps both unless --lang is given
