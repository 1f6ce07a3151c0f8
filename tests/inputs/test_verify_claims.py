"""`race verify` checks every claim of a record's summary, and the claims are required."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import record_from_data, record_of
from rennleitung.formula_de.replay import verify


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return record_of(run_bot_race("short", "dresden-2006", 3, 1, "5"), "5")


def problems(data: dict[str, Any]) -> list[str]:
    return verify(record_from_data(copy.deepcopy(data))).problems


def test_an_untouched_record_is_honest(record: dict[str, Any]) -> None:
    assert problems(record) == []


def test_swapped_classification_is_altered(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    rows = data["summary"]["classification"]
    rows[0]["car"], rows[1]["car"] = rows[1]["car"], rows[0]["car"]
    assert any("classification place 1" in p for p in problems(data))


def test_edited_driver_name_is_found_without_the_digest(record: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    data["summary"]["classification"][0]["driver"] = "[/x] Nobody"
    del data["summary"]["digest"]
    found = problems(data)
    assert any("summary.digest missing" in p for p in found)
    assert any("driver [/x] Nobody recorded" in p for p in found)


@pytest.mark.parametrize("key", ["events", "digest", "rolls", "classification"])
def test_every_claim_is_required(record: dict[str, Any], key: str) -> None:
    data = copy.deepcopy(record)
    del data["summary"][key]
    assert f"summary.{key} missing" in " ".join(problems(data))


@pytest.mark.parametrize("value", [5, "x", [[1]], None])
def test_malformed_rolls_are_reported_not_raised(record: dict[str, Any], value: Any) -> None:
    data = copy.deepcopy(record)
    data["summary"]["rolls"] = value
    assert problems(data)
