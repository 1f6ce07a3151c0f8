"""Records name the rules version they were played under; ``verify`` names the fixes since."""

from __future__ import annotations

from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import record_from_data, record_of
from rennleitung.formula_de.replay import verify
from rennleitung.formula_de.rules_version import CHANGES, RULES_VERSION, changes_since


def test_versions_run_from_two_without_gaps() -> None:
    assert [c.version for c in CHANGES] == list(range(2, RULES_VERSION + 1))
    assert changes_since(RULES_VERSION) == ()
    assert changes_since(1) == CHANGES


def test_a_record_names_its_rules_version_and_an_old_departing_one_names_the_fixes() -> None:
    race = run_bot_race("monaco", "dresden-2006", 2, 1, "v", "simple")
    data = record_of(race, "v")
    assert data["rules_version"] == RULES_VERSION
    assert verify(record_from_data(data)).honest
    old = {**data, "rules_version": 1, "summary": {**data["summary"], "digest": "0" * 64}}
    problems = verify(record_from_data(old)).problems
    assert "played under rules version 1" in problems[-1]
    assert CHANGES[0].rule in problems[-1] and CHANGES[-1].en in problems[-1]
    missing = {k: v for k, v in data.items() if k != "rules_version"}
    assert record_from_data(missing).rules_version == 1  # made before the field existed
    newer = verify(record_from_data({**data, "rules_version": RULES_VERSION + 1})).problems
    assert newer and "this program knows up to" in newer[0]
