"""Golden races: committed decision lists must replay to exactly their committed event logs.

The races are data (``tests/formula_de/golden/races/``, described in ``golden/__init__.py``):
a decision list per race and its event log, one event per line. A change in the rules or the
event data changes the log, and the failure names the first event that differs; a change in the
bots changes the decisions. When a change is intended, re-record
(``python -m tests.formula_de.golden --rerecord``, docs/CONTRIBUTING.md) and read the diff.
The figures beside the log: the roll count, the classification and the digest of the events in
the form of record version 1, with sentences (the digest such records hold; it must never change
with wording, ``events_v1``).
"""

from __future__ import annotations

import pytest

from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import record_from_data, record_of
from rennleitung.formula_de.replay import verify
from tests.formula_de import golden

GOLDEN = golden.names()


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_race_replays_to_its_event_log(name: str) -> None:
    """Masters and Dresden as a whole: every event of the replayed decisions, in order."""
    race_data = golden.load(name)
    race = golden.replay(race_data)
    difference = golden.first_difference(race_data.logged(), golden.log_of(race))
    if difference:
        pytest.fail(f"{name}: {difference}", pytrace=False)
    assert golden.figures_of(race) == race_data.data["figures"]
    assert race.finished
    assert verify(record_from_data(record_of(race, race_data.data["seed"]))).honest


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_bots_still_make_the_decisions(name: str) -> None:
    """The bots named in the file, on its configuration and seed, decide exactly its list."""
    race_data = golden.load(name)
    race = golden.bot_race(race_data)
    difference = golden.first_difference(
        race_data.decision_lines(), golden.decision_lines(race), "decision"
    )
    if difference:
        pytest.fail(f"{name}: {difference}", pytrace=False)


def test_the_golden_races_cover_every_preset_but_blitz() -> None:
    """Three rulesets, one file each (fd-blitz has its own race tests)."""
    rulesets = {golden.load(n).data["config"]["ruleset"] for n in GOLDEN}
    assert rulesets == {"dresden-2006", "masters-2002", "dresden-open"}


MASTERS_OPENING = [
    "Round 1: order of play: Montoya, Alonso, Räikkönen, Schumacher",
    "Round 1: Montoya makes the start roll: 2 (normal)",
    "Round 1: Montoya shifts into gear 1 and rolls 2",
    "Round 1: Montoya moves 2 spaces to A2",
    "Round 1: Alonso makes the start roll: 8 (normal)",
    "Round 1: Alonso shifts into gear 1 and rolls 2",
]


def test_golden_opening_reads_like_a_race_report() -> None:
    race = run_bot_race("monaco", "masters-2002", 4, 1, "golden-2", "strong")
    names = race.driver_names()
    assert [render(e, "en", names) for e in race.events[14:20]] == MASTERS_OPENING
    assert render(race.events[16], "de", names) == (
        "Spielrunde 1: Montoya schaltet in den 1. Gang und würfelt 2"
    )


@pytest.mark.parametrize(
    ("ruleset", "seed", "first"),
    [("masters-2002", "golden-2", "box"), ("dresden-2006", "r", "setup")],
)
def test_records_keep_the_pre_race_order_and_verify(ruleset: str, seed: str, first: str) -> None:
    """Race records hold the decisions in the order asked: ``masters-2002`` the pits first
    (Masters 4-0-1), the Dresden presets the setups first (Dresden Rennen); both replay."""
    race = run_bot_race("monaco", ruleset, 3, 1, seed, "simple")
    data = record_of(race, seed)
    kinds = [d["kind"] for d in data["decisions"][:6]]
    second = "setup" if first == "box" else "box"
    assert kinds == [first] * 3 + [second] * 3
    assert verify(record_from_data(data)).honest
