"""The history's "changed" column: a correction told as the values that differ."""

from __future__ import annotations

from rennleitung.render.json_changes import changes


def test_a_corrected_race_names_the_drivers_whose_rows_changed() -> None:
    before = {"race": 3, "drivers": [
        {"driver": "Anna", "position": 1, "laps": 3},
        {"driver": "Bert", "position": 2, "laps": 3},
        {"driver": "Cora", "position": 3, "laps": 2},
    ]}
    after = {"race": 3, "drivers": [
        {"driver": "Bert", "position": 1, "laps": 3},
        {"driver": "Anna", "position": 2, "laps": 3},
        {"driver": "Cora", "position": 3, "laps": 2},
    ]}
    assert changes(before, after) == [
        "drivers Anna position: 1 → 2",
        "drivers Bert position: 2 → 1",
    ]


def test_added_removed_and_whole_values() -> None:
    assert changes(None, {"name": "Süd"}) == ["=: – → {\"name\":\"Süd\"}"]
    assert changes({"name": "Nord", "city": "Dresden"}, {"name": "Nord"}) == [
        "city: Dresden → –"]
    assert changes("Nord", "Nordlicht") == ["=: Nord → Nordlicht"]
    assert changes({"a": [1, 2]}, {"a": [1, 3]}) == ["a 2: 2 → 3"]
    assert changes({"a": [1]}, {"a": [1, 2]}) == ["a: [1] → [1,2]"]
    assert changes({"x": 1}, {"x": 1}) == []
