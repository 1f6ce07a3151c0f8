"""A record's digest covers every field that shapes the race, and a record carries its track.

Issue 21: ``race verify`` said "honest" after a record's team, qualifying weather or rules
version was edited (record version 2 hashed the events only), and a race on a track of one's
own wrote a record that ``race verify`` and ``race replay`` refused ("unknown track"). Record
version 3 hashes a header (configuration, rules version, track file) before the events and
carries the track file; older records verify as before, with a note saying what their digest
leaves out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de.record import (
    RECORD_VERSION,
    RecordError,
    events_digest,
    record_from_data,
)
from rennleitung.formula_de.replay import replay, verify

runner = CliRunner()
SHORT = Path(__file__).parents[2] / "src/rennleitung/formula_de/tracks/short.toml"
CHANGED = {
    "de": "Konfiguration, Regelversion oder Streckendatei passen nicht zum Digest",
    "en": "the configuration, rules version or track file do not match the digest",
}


def run(*args: str, lang: str = "en") -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "300", "RENNLEITUNG_LANG": lang})


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("record") / "race.json"
    result = run("race", "simulate", "--track", "short", "--cars", "3", "--laps", "1",
                 "--seed", "11", "--record", str(path))
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: dict[str, Any], name: str = "race.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def edited(record: dict[str, Any], change: str) -> dict[str, Any]:
    data = json.loads(json.dumps(record))
    entries = data["config"]["entries"]
    if change == "team":
        entries[2]["team"] = "Ferrari"  # one more team: changes nothing on the track
    elif change == "qualifying_weather":
        data["config"]["qualifying_weather"] = "rain"
    elif change == "rules_version":
        data["rules_version"] -= 1
    elif change == "karma":
        entries[0]["karma"] = 99
    elif change == "name":
        entries[0]["name"] = "Vettel"
        data["summary"]["classification"] = [
            {**row, "driver": "Vettel"} if row["car"] == entries[0]["id"] else row
            for row in data["summary"]["classification"]
        ]
    return data


def test_a_new_record_is_version_3_and_verifies(record: dict[str, Any]) -> None:
    assert record["record_version"] == RECORD_VERSION == 3
    assert {"digest", "config_digest"} <= set(record["summary"])
    verdict = verify(record_from_data(record))
    assert verdict.honest and not verdict.notes, verdict.problems


@pytest.mark.parametrize("change", ["team", "qualifying_weather", "rules_version", "karma",
                                    "name"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_edited_field_is_not_honest(
    tmp_path: Path, record: dict[str, Any], change: str, lang: str
) -> None:
    path = write(tmp_path, edited(record, change))
    result = run("race", "verify", str(path), lang=lang)
    assert result.exit_code == 1, result.output
    assert CHANGED[lang] in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_the_digest_alone_covers_the_header(record: dict[str, Any]) -> None:
    """Removing the config digest, or rewriting it to match, still leaves the digest."""
    data = edited(record, "team")
    del data["summary"]["config_digest"]
    problems = verify(record_from_data(data)).problems
    assert "summary.config_digest fehlt / summary.config_digest missing" in problems
    assert any("the events differ" in p for p in problems)


def test_lowering_the_record_version_does_not_hide_an_edit(record: dict[str, Any]) -> None:
    data = edited(record, "team")
    data["record_version"] = 2
    del data["summary"]["config_digest"]
    assert not verify(record_from_data(data)).honest


@pytest.mark.parametrize(("lang", "note"), [
    ("de", "Protokollversion 2: der Digest deckt nur die Ereignisse"),
    ("en", "record version 2: its digest covers the events only"),
])
def test_a_version_2_record_still_verifies_with_a_note(
    tmp_path: Path, record: dict[str, Any], lang: str, note: str
) -> None:
    """A record as written before version 3: the data events alone are hashed."""
    data = json.loads(json.dumps(record))
    data["record_version"] = 2
    del data["summary"]["config_digest"]
    data["summary"]["digest"] = events_digest(replay(record_from_data(data)).events, 2)
    verdict = verify(record_from_data(data))
    assert verdict.honest and len(verdict.notes) == 1, verdict.problems
    result = run("race", "verify", str(write(tmp_path, data)), lang=lang)
    assert result.exit_code == 0 and note in " ".join(result.output.split())


@pytest.mark.parametrize(("karma", "lang", "words"), [
    ("30", "en", "karma: a whole number from 0 to 100000 expected"),
    (True, "de", "Karma: eine ganze Zahl von 0 bis 100000 erwartet"),
    (-1, "en", "karma: a whole number"),
])
def test_a_karma_that_is_not_a_whole_number_is_refused(
    tmp_path: Path, record: dict[str, Any], karma: Any, lang: str, words: str
) -> None:
    data = json.loads(json.dumps(record))
    data["config"]["entries"][1]["karma"] = karma
    result = run("race", "verify", str(write(tmp_path, data)), lang=lang)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert words in result.output and "config.entries[1].karma" in result.output


@pytest.mark.parametrize(("field", "value", "where"), [
    ("team", 5, "config.entries[0].team"),
    ("profile", "wild", "config.entries[0].profile"),
    ("id", None, "config.entries[0].id"),
])
def test_entry_fields_are_checked_by_name(record: dict[str, Any], field: str, value: Any,
                                          where: str) -> None:
    data = json.loads(json.dumps(record))
    data["config"]["entries"][0][field] = value
    with pytest.raises(RecordError) as caught:
        record_from_data(data)
    assert caught.value.where == where


# --- a track of one's own -------------------------------------------------------------------


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("own")
    track = folder / "mine.toml"
    track.write_text(SHORT.read_text(encoding="utf-8").replace('name = "short"',
                                                               'name = "mine"'), "utf-8")
    path = folder / "race.json"
    result = run("race", "simulate", "--track", str(track), "--cars", "2", "--laps", "1",
                 "--seed", "5", "--record", str(path))
    assert result.exit_code == 0, result.output
    track.unlink()  # the record must not need the file
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_record_on_ones_own_track_verifies_and_replays_without_the_file(
    tmp_path: Path, own: dict[str, Any], lang: str
) -> None:
    assert own["config"]["track"] == "mine" and 'name = "mine"' in own["track_file"]
    path = write(tmp_path, own)
    verified = run("race", "verify", str(path), lang=lang)
    assert verified.exit_code == 0, verified.output
    replayed = run("race", "replay", str(path), lang=lang)
    assert replayed.exit_code == 0, replayed.output


def test_a_built_in_track_is_named_not_carried(record: dict[str, Any]) -> None:
    assert "track_file" not in record


def test_an_edited_track_file_is_not_honest(own: dict[str, Any]) -> None:
    data = json.loads(json.dumps(own))
    data["track_file"] = data["track_file"].replace("rain = 4", "rain = 5")
    assert any(CHANGED["en"] in p for p in verify(record_from_data(data)).problems)


def test_a_carried_track_is_checked(tmp_path: Path, own: dict[str, Any]) -> None:
    data = json.loads(json.dumps(own))
    data["track_file"] = data["track_file"].replace("flag = [5, 3]", "flag = [9, 9]")
    result = run("race", "verify", str(write(tmp_path, data)))
    assert result.exit_code == 1 and "track_file" in result.output
    assert "track refused, 1 error" in result.output and "segment[2].flag" in result.output


def test_a_track_raced_under_a_built_in_name_is_carried() -> None:
    """A board raced as "short" whose text is not the shipped one is written into the record."""
    from rennleitung.formula_de.race_run import run_bot_race
    from rennleitung.formula_de.record import record_of
    from rennleitung.formula_de.trackcheck import checked_track

    text = SHORT.read_text(encoding="utf-8").replace("rain = 4", "rain = 6")
    race = run_bot_race("short", "dresden-2006", 2, 1, "9", board=checked_track(text, "short"))
    data = record_of(race, "9")
    assert data["track_file"] == text
    assert verify(record_from_data(json.loads(json.dumps(data)))).honest
