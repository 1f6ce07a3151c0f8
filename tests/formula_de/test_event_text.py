"""Events are data; sentences come from ``event_text`` in one language at a time.

The German fixes each have a test ("1 Felder", "wählt hart Reifen", …); rewording every template
must not change a record's digest nor any verdict; a record of version 1 (sentences in its
events) still verifies, and a changed one still fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rennleitung.formula_de import event_text
from rennleitung.formula_de.event_text import (
    TEMPLATES,
    plan_text,
    render,
    render_data,
    render_qualifying,
)
from rennleitung.formula_de.events import Event, EventKind, JsonValue, make_event
from rennleitung.formula_de.qualifying import QualifyingEvent
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import (
    RECORD_VERSION,
    RecordError,
    events_digest,
    parse_record,
    race_digest,
    record_from_data,
    record_of,
)
from rennleitung.formula_de.replay import verify

RECORDS = Path(__file__).parent / "records"
OLD_RECORDS = sorted(RECORDS.glob("v1-*.json"))


def event(kind: EventKind, round_: int = 0, car: str = "a", **data: JsonValue) -> Event:
    return make_event(1, round_, kind, car, {"driver": "Alonso", **data})


MOVE = {"end": "A2", "path": ["A1", "A2"], "brakes": 0, "overshoot": 0, "stop_corner": 0,
        "blocked": 0, "pit": False}


@pytest.fixture(scope="module")
def race() -> Race:
    return run_bot_race("monaco", "dresden-2006", 6, 2, "23", "simple")


# --- German grammar ------------------------------------------------------------------------


def test_one_space_is_singular_many_are_plural() -> None:
    """Was "fährt 1 Felder"."""
    assert render(event(EventKind.MOVE, spaces=1, **MOVE), "de") == "Alonso fährt 1 Feld nach A2"
    assert render(event(EventKind.MOVE, spaces=4, **MOVE), "de") == (
        "Alonso fährt 4 Felder nach A2"
    )
    assert render(event(EventKind.MOVE, spaces=1, **MOVE), "en") == "Alonso moves 1 space to A2"


def test_the_tyre_adjective_is_declined() -> None:
    """Was "wählt hart Reifen" and "wählt Regenreifen Reifen"; the setup names the areas in
    German (was "das Setup tyres 5, brakes 4") and the reserve as a reserve (was "Box 1", the
    words of the pit box chosen next: "wählt Box 1")."""
    wear: dict[str, Any] = {"tyres": 5, "brakes": 4, "box": 1}
    said = {t: render(event(EventKind.SETUP, tyre=t, wear=wear), "de")
            for t in ("hard", "soft", "rain")}
    assert said["hard"] == (
        "Alonso wählt harte Reifen und verteilt die Punkte: Reifen 5, Bremsen 4, Boxreserve 1"
    )
    assert said["soft"].startswith("Alonso wählt weiche Reifen und")
    assert said["rain"].startswith("Alonso wählt Regenreifen und")
    assert render(event(EventKind.SETUP, tyre="hard", wear=wear), "en") == (
        "Alonso chooses hard tyres and shares out the points: tyres 5, brakes 4, box reserve 1"
    )


@pytest.mark.parametrize(("roll", "weather", "settled", "german", "english"), [
    ("sun", "sun", True, "Wetterwurf 11: Sonne bis zum Rennende",
     "Weather roll 11: sun for the rest of the race"),
    ("changeable", "sun", False, "Wetterwurf 11: wechselhaft, vorerst Sonne",
     "Weather roll 11: changeable, sun for now"),
    ("rain", "rain", False, "Wetterwurf 11: Regen, noch wechselhaft",
     "Weather roll 11: rain, still changeable"),
])
def test_a_weather_roll_says_each_word_once(
    roll: str, weather: str, settled: bool, german: str, english: str
) -> None:
    """Was "Wetterwurf 11: Sonne, es herrscht Sonne (fest)" and "weather roll 5: changeable,
    the weather is sun (changeable)"; a line without a round starts with a capital."""
    rolled = event(EventKind.WEATHER, result=11, roll=roll, weather=weather, settled=settled)
    assert (render(rolled, "de"), render(rolled, "en")) == (german, english)
    again = event(EventKind.WEATHER, 5, result=11, roll=roll, weather=weather, settled=settled)
    assert render(again, "en") == "Round 5: w" + english[1:]


def test_a_test_says_what_it_needed_and_whether_it_passed() -> None:
    """Was "Kollisionscheck mit dem schwarzen Würfel 7 gegen 1: gehalten"."""
    held = event(EventKind.TEST, 3, purpose="collision", result=7, modifier=0, limit=1,
                 lost=False)
    lost = event(EventKind.TEST, 3, purpose="road_holding", result=2, modifier=1, limit=4,
                 lost=True)
    assert render(held, "de") == (
        "Spielrunde 3: Alonso: Kollisionscheck, schwarzer Würfel 7, nötig über 1: bestanden"
    )
    assert render(lost, "en") == (
        "Round 3: Alonso: road-holding test, black die 2+1, needs more than 4: failed"
    )


def test_the_pit_lane_counts_in_the_dative() -> None:
    """Was "mit 1 Feldern"."""
    assert render(event(EventKind.PIT_OUT, spaces=1, gear=2), "de") == (
        "Alonso verlässt die Box mit 1 Feld im 2. Gang"
    )
    assert "mit 3 Feldern" in render(event(EventKind.PIT_OUT, spaces=3, gear=2), "de")


def test_skipped_gears_and_points_are_counted_in_words() -> None:
    """Was "überspringt 1 Gang/Gänge", "1 Punkte abzuarbeiten", "bleiben 1"."""
    one = render(event(EventKind.SKIP_COST, skipped=1, cost={"brakes": 1}), "de")
    two = render(event(EventKind.SKIP_COST, skipped=2, cost={"brakes": 1, "engine": 1}), "de")
    assert one == "Alonso überspringt 1 Gang und streicht 1 VP Bremsen"
    assert two == "Alonso überspringt 2 Gänge und streicht 1 VP Bremsen, 1 VP Motor"
    assert render(event(EventKind.SKIP_COST, skipped=1, cost={"brakes": 2}), "en") == (
        "Alonso skips 1 gear and crosses out 2 brakes points"
    )
    pit = event(EventKind.PIT_IN, box=2, points=1, plan={"tyre": "soft", "fuel": 2})
    assert render(pit, "de") == (
        "Alonso ist in Box 2: weiche Reifen, 2 VP Verbrauch; 1 Punkt abzuarbeiten"
    )
    work = event(EventKind.PIT_WORK, result=1, left=1)
    assert render(work, "de") == "Alonso arbeitet in der Box 1 Punkt ab, noch 1 übrig"
    wear = event(EventKind.WEAR, points=1, area="brakes", reason="braking", left=1)
    assert render(wear, "de") == "Alonso streicht 1 VP Bremsen (Bremsmanöver), noch 1 übrig"
    assert render(wear, "en") == "Alonso crosses out 1 brakes point (braking), 1 left"
    assert render(event(EventKind.SLIPSTREAM, count=1), "en") == "Alonso uses the slipstream once"


def test_one_language_at_a_time_with_the_round_in_front(race: Race) -> None:
    names = race.driver_names()
    rounds = [e for e in race.events if e.kind is EventKind.ROUND and e.round == 2]
    german = render(rounds[0], "de", names)
    english = render(rounds[0], "en", names)
    assert german.startswith("Spielrunde 2: Reihenfolge: ") and "order" not in german
    assert english.startswith("Round 2: order of play: ") and "Reihenfolge" not in english
    order = rounds[0].get("order")
    assert isinstance(order, list)
    assert german.endswith(", ".join(names[c] for c in order))


def test_every_event_of_a_race_renders_in_both_languages(race: Race) -> None:
    names = race.driver_names()
    kinds = {e.kind for e in race.events}
    assert len(kinds) >= 20
    for e in race.events:
        for lang in ("de", "en"):
            line = render(e, lang, names)
            assert line and not re.search(r"[{}_]|None", line), line  # no code left as is
            assert render_data(e.to_data(), lang, names) == line


def test_every_kind_has_a_german_and_an_english_template() -> None:
    assert set(TEMPLATES) == set(EventKind)
    assert all(de != en for de, en in TEMPLATES.values())


def test_plans_in_words() -> None:
    plan = {"tyre": None, "fuel": 0, "repairs": ["brakes"], "long": True}
    assert plan_text(plan, "de") == "Reparatur Bremsen, langer Stopp"
    assert plan_text(plan, "en") == "repair brakes, long stop"
    assert plan_text({}, "de") == "nichts"


# --- records: wording is not part of what is verified ------------------------------------


def test_events_hold_data_only(race: Race) -> None:
    for e in race.events:
        form = e.to_data()
        assert set(form) == {"seq", "round", "kind", "car", "data"}
        assert not any(k.endswith(("_de", "_en")) for k in form["data"])
        json.dumps(form)


def test_rewording_every_sentence_changes_no_digest_and_no_verdict(
    race: Race, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record of a race, and a record of version 1, verify with every template, every
    word and the round prefix replaced: verify does not depend on how events are worded."""
    data = record_of(race, "23")
    digest = race_digest(race)
    reworded = {kind: (f"X {kind}", f"Y {kind}") for kind in TEMPLATES}
    monkeypatch.setattr(event_text, "TEMPLATES", reworded)
    monkeypatch.setattr(event_text, "WORDS", {})
    monkeypatch.setattr(event_text, "ROUND_PREFIX", ("R{round} ", "R{round} "))
    later = race.events[100]
    assert later.round and render(later, "de") == f"R{later.round} X {later.kind}"
    assert race_digest(race) == digest == data["summary"]["digest"]
    assert events_digest(race.events) == events_digest(race.events, 2)
    assert verify(record_from_data(data)).honest
    for path in OLD_RECORDS:
        assert verify(parse_record(path.read_text("utf-8"))).honest, path


def test_new_records_carry_their_version(race: Race) -> None:
    data = record_of(race, "23")
    assert data["record_version"] == RECORD_VERSION == 3
    assert record_from_data(data).record_version == 3
    data["record_version"] = 4
    with pytest.raises(RecordError) as error:
        record_from_data(data)
    assert error.value.where == "record_version"


# --- records made before events were data ------------------------------------------------


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_a_record_of_version_1_still_verifies(path: Path) -> None:
    """Written by the program before 2026-12-01 (events with sentences, no record_version);
    its digest covers those sentences, rebuilt by ``events_v1``."""
    data = json.loads(path.read_text("utf-8"))
    assert "record_version" not in data
    record = record_from_data(data)
    assert record.record_version == 1
    verdict = verify(record)
    assert verdict.honest, verdict.problems
    assert verdict.events == data["summary"]["events"]


@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.stem)
def test_a_changed_record_of_version_1_still_fails(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    data["config"]["entries"][0]["name"] = "Somebody Else"  # the sentences name the driver
    data["summary"]["classification"] = [
        {k: v for k, v in row.items() if k != "driver"}
        for row in data["summary"]["classification"]
    ]
    problems = verify(record_from_data(data)).problems
    assert any("events differ" in p for p in problems), problems
    read_as_new = json.loads(path.read_text("utf-8"))
    read_as_new["record_version"] = 2  # a version-1 digest is not a version-2 digest
    assert not verify(record_from_data(read_as_new)).honest


def test_a_qualifying_lap_counts_in_words_too() -> None:
    """Was "fährt 1 Felder", "überschießt 1 Feld(er): 1 Strafpunkt(e)", "nach 1 Würfen"."""
    move = QualifyingEvent(1, "move", (("spaces", 1), ("end", "A2")))
    penalty = QualifyingEvent(2, "penalty", (("overshoot", 1), ("points", 1)))
    finish = QualifyingEvent(1, "finish", (("rolls", 1), ("penalty_points", 0)))
    roll = QualifyingEvent(3, "roll", (("gear", 2), ("result", 4), ("soft_bonus", True)))
    assert render_qualifying(move, "de") == "fährt 1 Feld nach A2"
    assert render_qualifying(penalty, "de") == "überschießt 1 Feld: 1 Strafpunkt"
    assert render_qualifying(penalty, "en") == "overshoots 1 space: 1 penalty point"
    assert render_qualifying(finish, "de") == "über die Linie nach 1 Wurf, 0 Strafpunkte"
    assert render_qualifying(roll, "de") == "Wurf 3: 2. Gang, 4 (+1 Weichreifen)"
    stop = QualifyingEvent(30, "abort", (("reason", "safety_stop"), ("rolls", 30)))
    assert render_qualifying(stop, "en") == "lap aborted after 30 rolls: safety limit"
