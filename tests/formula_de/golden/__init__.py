"""Golden races as data: each race is a decision list with the event log it must replay to.

``races/NAME.json`` (format ``rennleitung-golden/1``) holds the configuration, the seed, the
decisions in the order they were made (one per line) and a few figures the log does not show
(the roll count, the digest of the events in record version 1, the classification).
``races/NAME.events.jsonl`` is the committed event log: one event per line, its English sentence
first, then its data (``Event.to_data`` without ``seq``, which the line number gives). A rule
change therefore shows in a diff as the events it changes, each with its sentence.

``bots`` and ``about`` say how the decisions were made and why the race is here. To re-record
after a deliberate change: ``python -m tests.formula_de.golden --rerecord`` (docs/CONTRIBUTING.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.events import Event
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import decision_from_data, decision_to_data
from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import (
    RaceRecord,
    config_from_data,
    config_to_data,
    events_digest,
)
from rennleitung.formula_de.replay import replay as replay_record

GOLDEN_FORMAT = "rennleitung-golden/1"
RACES = Path(__file__).parent / "races"


@dataclass(frozen=True)
class Golden:
    """One golden race as read from its data file."""

    name: str
    data: dict[str, Any]

    @property
    def path(self) -> Path:
        return RACES / f"{self.name}.json"

    @property
    def log_path(self) -> Path:
        return RACES / f"{self.name}.events.jsonl"

    def decision_lines(self) -> list[str]:
        """The committed decisions, one JSON line each (the form ``write`` gives them)."""
        return [json.dumps(d, ensure_ascii=False) for d in self.data["decisions"]]

    def logged(self) -> list[str]:
        """The committed event log, one line per event."""
        return self.log_path.read_text(encoding="utf-8").splitlines()


def names() -> list[str]:
    """The golden races, by file name."""
    return sorted(p.name.removesuffix(".json") for p in RACES.glob("*.json"))


def load(name: str) -> Golden:
    data = json.loads((RACES / f"{name}.json").read_text(encoding="utf-8"))
    if data.get("format") != GOLDEN_FORMAT:
        raise ValueError(f"{name}.json: not a {GOLDEN_FORMAT} file")
    return Golden(name, data)


def record(golden: Golden) -> RaceRecord:
    """The golden race as a race record without a summary: what ``replay`` needs."""
    config = config_from_data(golden.data["config"])
    track = builtin_track(config.track)
    decisions = tuple(
        (str(item["car"]), decision_from_data(track, item, f"decisions[{n}]"))
        for n, item in enumerate(golden.data["decisions"])
    )
    seed = str(golden.data["seed"])
    return RaceRecord(config, commit(seed), decisions, seed, {})


def replay(golden: Golden) -> Race:
    """The race rebuilt from the seed and the decision list (no bot decides anything)."""
    return replay_record(record(golden))


def bot_race(golden: Golden) -> Race:
    """The race the file's bots make from its configuration and seed (how the decisions were
    made, and how ``--rerecord --from-bots`` makes them anew)."""
    config = config_from_data(golden.data["config"])
    return run_bot_race(
        config.track,
        config.ruleset,
        len(config.entries),
        config.laps,
        golden.data["seed"],
        golden.data["bots"],
        max_rounds=config.max_rounds,
    )


def log_line(event: Event, names: dict[str, str]) -> str:
    """One line of the event log: the sentence, then the data (the line number is ``seq``)."""
    data = event.to_data()
    del data["seq"]
    return json.dumps({"en": render(event, "en", names), **data}, ensure_ascii=False)


def log_of(race: Race) -> list[str]:
    names = race.driver_names()
    return [log_line(event, names) for event in race.events]


def figures_of(race: Race) -> dict[str, Any]:
    """What the golden file claims beyond the log."""
    return {
        "rolls": len(race.dice.history),
        "digest_v1": events_digest(race.events, 1, race.driver_names()),
        "classification": [[p.car, p.status, p.laps] for p in race.classification()],
    }


def first_difference(want: Sequence[str], have: Sequence[str], what: str = "event") -> str | None:
    """None when the two logs agree, else which line differs first, both versions shown."""
    for n, (a, b) in enumerate(zip(want, have, strict=False)):
        if a != b:
            return (
                f"{what} {n + 1} (line {n + 1}) differs first:\n"
                f"  committed: {a}\n  replayed:  {b}"
            )
    if len(want) != len(have):
        longer, side = (want, "committed") if len(want) > len(have) else (have, "replayed")
        return (
            f"the {side} log is longer: {len(want)} committed, {len(have)} replayed {what}s; "
            f"the first extra {what} ({min(len(want), len(have)) + 1}): "
            f"{longer[min(len(want), len(have))]}"
        )
    return None


def decision_lines(race: Race) -> list[str]:
    """The race's decisions in the file's form, one JSON object per line."""
    return [
        json.dumps({"car": car, **decision_to_data(race.track, d)}, ensure_ascii=False)
        for car, d in race.decisions
    ]


def write(golden: Golden, race: Race) -> None:
    """Write the data file and the log of ``race`` (the decisions one per line)."""
    data = golden.data
    head = {
        "format": GOLDEN_FORMAT,
        "about": data["about"],
        "bots": data["bots"],
        "seed": data["seed"],
        "config": config_to_data(race.config),
        "figures": figures_of(race),
    }
    lines = ["{"]
    for key, value in head.items():
        lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    decisions = decision_lines(race)
    lines.append(' "decisions": [')
    lines.extend(f"  {line}," for line in decisions[:-1])
    lines.extend(f"  {line}" for line in decisions[-1:])
    lines.append(" ]")
    lines.append("}")
    golden.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    golden.log_path.write_text("\n".join(log_of(race)) + "\n", encoding="utf-8")
