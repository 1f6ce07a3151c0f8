"""Replay and verify race records.

``replay`` rebuilds a race from its configuration, its seed and its decisions; the result is
bit-identical to the original (same events, same rolls). ``verify`` checks a finished record:
the revealed seed matches the commitment, every decision was legal when it was made, and every
claim of the summary holds: each roll recomputed from the seed, the event count, the digest of
the event log and the classification with its driver names. The claims are required.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de import rules_version
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.commitment import seed_text
from rennleitung.formula_de.commitment import verify as verify_commitment
from rennleitung.formula_de.dice import DICE, Dice
from rennleitung.formula_de.events import Event
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Halt
from rennleitung.formula_de.race_state_json import state_from_data
from rennleitung.formula_de.record import (
    CLASSIFICATION_KEYS,
    RECORD_VERSION,
    RaceRecord,
    RecordError,
    classification_data,
    events_digest,
    header_digest,
    record_header,
    rolls_data,
)
from rennleitung.formula_de.rules_version import changes_since
from rennleitung.textinput import clip


def replay(record: RaceRecord, until: int | None = None) -> Race:
    """The race of ``record`` rebuilt from its seed; with ``until``, stopped as soon as at
    least that many events exist (events come in batches between decisions)."""
    if record.seed is None:
        raise RecordError(
            "der Seed ist noch nicht offengelegt", "the seed has not been revealed yet", "seed"
        )
    race = Race(
        record.config, Dice.from_seed(record.seed), track=record.track, commitment=record.commitment
    )
    for n, (car, decision) in enumerate(record.decisions):
        if until is not None and len(race.events) >= until:
            return race
        if race.finished:
            raise RecordError(
                f"Entscheidung von {car}, aber das Rennen ist vorbei",
                f"decision by {car}, but the race is over",
                f"decisions[{n}]",
            )
        try:
            if isinstance(decision, Halt):
                race.halt(car)  # any car, at this moment (Dresden FD Blitz)
            else:
                race.apply(decision, car=car)  # simultaneous answers in any order
        except RennleitungError as error:
            raise RecordError(error.de, error.en, f"decisions[{n}] ({error.where})") from None
    return race


@dataclass
class Verdict:
    """The outcome of ``verify``: honest when ``problems`` is empty."""

    problems: list[str] = field(default_factory=list)
    rolls: int = 0
    events: int = 0
    checked: list[str] = field(default_factory=list)
    """Which rounds were checked under which rules version, and how (one bilingual line each)."""
    notes: list[str] = field(default_factory=list)
    """What an honest verdict does not cover (an old record's digest leaves fields out)."""

    @property
    def honest(self) -> bool:
        return not self.problems


def verify(record: RaceRecord) -> Verdict:
    """Check a finished record roll by roll; every problem is one bilingual line."""
    verdict = Verdict()
    if record.seed is None:
        verdict.problems.append("Seed nicht offengelegt / seed not revealed")
        return verdict
    if not verify_commitment(record.seed, record.commitment):
        verdict.problems.append(
            "der Seed passt nicht zum Hash / the seed does not match the commitment"
        )
    if record.config.table:
        verdict.notes.append(TABLE_NOTE)
    current = rules_version.RULES_VERSION
    newest = max([record.rules_version, *(s.rules_version for s in record.rules)])
    if newest > current:
        verdict.problems.append(
            f"gespielt nach Regelversion {newest}, dieses Programm kennt nur bis "
            f"{current} / played under rules version {newest}, this program "
            f"knows up to {current}"
        )
        return verdict
    if len(record.rules) > 1:
        return _verify_stretches(record, verdict)
    header = (record_header(record.config, record.rules_version, record.track_file)
              if record.record_version >= 3 else "")
    try:
        race = replay(record)
    except RennleitungError as error:
        if header and record.summary.get("config_digest") not in (None, header_digest(header)):
            verdict.problems.append(HEADER_CHANGED)  # the likely cause of the departure
        verdict.problems.append(str(error))
        verdict.problems.extend(rolls_from_seed(record))
        _name_rule_changes(record, verdict)
        return verdict
    verdict.rolls = len(race.dice.history)
    verdict.events = len(race.events)
    if not race.finished:
        verdict.problems.append("das Rennen endet nicht / the race does not end")
    verdict.problems.extend(
        summary_problems(record.summary, race, record.record_version, header))
    _name_rule_changes(record, verdict)
    if record.record_version < 3:
        verdict.notes.append(OLD_DIGEST_NOTE.format(version=record.record_version))
    played = record.rules_version
    how_de, how_en = (
        ("nachgespielt", "replayed")
        if played == current
        else (f"nachgespielt nach Stand {current}", f"replayed under version {current}")
    )
    verdict.checked.append(
        f"Runden 0–{race.round}: Regelstand {played}, {how_de} / "
        f"rounds 0–{race.round}: rules version {played}, {how_en}"
    )
    return verdict


def rolls_from_seed(record: RaceRecord) -> list[str]:
    """Every recorded roll recomputed from the revealed seed alone, whatever rules the race was
    played under: the dice stream does not depend on the rules, only on which die was rolled."""
    rolls = record.summary.get("rolls")
    if record.seed is None or not isinstance(rolls, list):
        return []
    if record.config.table:
        return table_roll_problems(rolls)
    rng = random.Random(seed_text(record.seed))
    for n, roll in enumerate(rolls):
        die = DICE.get(roll[0]) if isinstance(roll, list) and roll else None
        if die is None or len(roll) < 3:
            return [f"Wurf {n + 1}: unlesbar {clip(roll)} / roll {n + 1}: unreadable {clip(roll)}"]
        result = die.faces[rng.randrange(len(die.faces))]
        if roll[2] != result:
            return [
                f"Wurf {n + 1}: Protokoll {clip(roll)}, Seed ergibt {result} / "
                f"roll {n + 1}: record says {clip(roll)}, the seed gives {result}"
            ]
    return []


TABLE_NOTE = (
    "die Würfel wurden am Tisch geworfen und eingegeben, nicht vom Server gezogen: jede Regel "
    "ist nachgespielt, jeder Wurf nur darauf geprüft, dass sein Würfel diese Seite hat / the "
    "dice were rolled at the table and entered, not drawn by the server: every rule is "
    "replayed, each roll only checked to be a face of its die"
)
"""Said with the verdict of a race played at the table (issue 29, ``RaceConfig.table``)."""


def table_roll_problems(rolls: list[Any]) -> list[str]:
    """A table race's rolls come from no seed: each must be a face of the die it names."""
    for n, roll in enumerate(rolls):
        die = DICE.get(roll[0]) if isinstance(roll, list) and roll else None
        if die is None or len(roll) < 3 or roll[2] not in die.faces:
            return [f"Wurf {n + 1}: unmöglich {clip(roll)} / roll {n + 1}: impossible {clip(roll)}"]
    return []


def _verify_stretches(record: RaceRecord, verdict: Verdict) -> Verdict:
    """A race played under more than one rules version (a rule fix while it ran): every roll
    from the seed; each stretch the current rules play replayed from the state it began from;
    the others named as not replayed."""
    current = rules_version.RULES_VERSION
    problems = verdict.problems
    problems.extend(rolls_from_seed(record))
    rolls = record.summary.get("rolls")
    verdict.rolls = len(rolls) if isinstance(rolls, list) else 0
    verdict.events = record.summary.get("events", 0) if isinstance(
        record.summary.get("events"), int
    ) else 0
    stretches = record.rules
    for n, stretch in enumerate(stretches):
        last = stretches[n + 1].from_round - 1 if n + 1 < len(stretches) else None
        span = f"{stretch.from_round}–{last if last is not None else '…'}"
        if stretch.rules_version != current or stretch.state is None or n == 0:
            verdict.checked.append(
                f"Runden {span}: Regelstand {stretch.rules_version} (dieses Programm spielt "
                f"{current}): Würfe aus dem Seed nachgerechnet, nicht nachgespielt / rounds "
                f"{span}: rules version {stretch.rules_version} (this program plays {current}): "
                "rolls recomputed from the seed, not replayed"
            )
            continue
        try:
            race = _replay_from(record, stretch.state)
        except RennleitungError as error:
            problems.append(f"Runden {span} / rounds {span}: {error}")
            continue
        begun = int(stretch.state["events"])
        events = race.events_since(begun)
        if stretch.digest is not None and events_digest(events) != stretch.digest:
            problems.append(
                f"die Ereignisse ab Runde {stretch.from_round} weichen vom Protokoll ab / the "
                f"events from round {stretch.from_round} on differ from the record"
            )
        if last is None:
            if not race.finished:
                problems.append("das Rennen endet nicht / the race does not end")
            problems.extend(_classification_problems(record.summary.get("classification"), race))
            last = race.round
        verdict.checked.append(
            f"Runden {stretch.from_round}–{last}: Regelstand {current}, nachgespielt ab dem "
            f"Stand nach Runde {stretch.from_round - 1} / rounds {stretch.from_round}–{last}: "
            f"rules version {current}, replayed from the state after round "
            f"{stretch.from_round - 1}"
        )
    return verdict


def _replay_from(record: RaceRecord, data: dict[str, Any]) -> Race:
    """The race of ``record`` from the state ``data`` on (its decisions after the state)."""
    board = record.track if record.track is not None else builtin_track(record.config.track)
    state = state_from_data(data, board)
    if state.version > len(record.decisions):
        raise RecordError("Stand nach dem letzten Zug", "state after the last decision", "rules")

    def earlier_events() -> list[Event]:
        raise RecordError(
            "ältere Ereignisse sind nicht nachgespielt", "older events are not replayed", "rules"
        )

    race = Race.resume(
        state,
        track=record.track,
        decisions=record.decisions[: state.version],
        events=earlier_events,
        rolls=lambda: [],
    )
    for n, (car, decision) in enumerate(record.decisions[state.version :], start=state.version):
        try:
            if isinstance(decision, Halt):
                race.halt(car)
            else:
                race.apply(decision, car=car)
        except RennleitungError as error:
            raise RecordError(error.de, error.en, f"decisions[{n}] ({error.where})") from None
    return race


OLD_DIGEST_NOTE = (
    "Protokollversion {version}: der Digest deckt nur die Ereignisse; Teams, Karma, "
    "Qualifikationswetter, Regelversion und Strecke wurden nicht geprüft / record version "
    "{version}: its digest covers the events only; teams, karma, qualifying weather, rules "
    "version and track were not checked"
)
"""Said with the verdict of a record from before version 3 (docs/formula_de/records.md)."""


def _name_rule_changes(record: RaceRecord, verdict: Verdict) -> None:
    """A record from an older rules version that departs: name the fixes made since, the
    likely reason (docs/formula_de/records.md, "Rules versions")."""
    changes = changes_since(record.rules_version)
    if not verdict.problems or not changes:
        return
    de = "; ".join(f"{c.version}: {c.rule} ({c.de})" for c in changes)
    en = "; ".join(f"{c.version}: {c.rule} ({c.en})" for c in changes)
    verdict.problems.append(
        f"gespielt nach Regelversion {record.rules_version}, heute gilt "
        f"{rules_version.RULES_VERSION}; seither geändert: {de} / played under rules version "
        f"{record.rules_version}, now {rules_version.RULES_VERSION}; changed since: {en}"
    )


HEADER_CHANGED = (
    "Konfiguration, Regelversion oder Streckendatei passen nicht zum Digest (Fahrer, Teams, "
    "Karma, Qualifikation und ihr Wetter, Runden …) / the configuration, rules version or "
    "track file do not match the digest (drivers, teams, karma, qualifying and its weather, "
    "laps, …)"
)
"""A record of version 3 whose header (``record.record_header``) was changed."""

SUMMARY_KEYS = ("events", "digest", "rolls", "classification")
"""What every finished record claims; a missing claim is reported (removing the digest must
not hide an edit). Record version 3 also claims ``config_digest``."""

def summary_problems(
    summary: dict[str, Any], race: Race, record_version: int = RECORD_VERSION,
    header: str = "",
) -> list[str]:
    """Each claim of a record's summary compared with the replayed ``race``: one bilingual line
    per difference. The digest is compared in the event form of ``record_version`` (from
    version 3 with the record's ``header`` first); no claim depends on how events are worded
    today."""
    keys = SUMMARY_KEYS + (("config_digest",) if record_version >= 3 else ())
    problems = [
        f"summary.{key} fehlt / summary.{key} missing" for key in keys if key not in summary
    ]
    header_changed = record_version >= 3 and summary.get("config_digest") not in (
        None, header_digest(header))
    if header_changed:
        problems.append(HEADER_CHANGED)
    recorded = summary.get("rolls")
    if "rolls" in summary:
        actual = rolls_data(race.dice.history)
        if not isinstance(recorded, list) or len(recorded) != len(actual):
            count = len(recorded) if isinstance(recorded, list) else "?"
            problems.append(
                f"{count} Würfe im Protokoll, {len(actual)} nachgerechnet / "
                f"{count} rolls recorded, {len(actual)} recomputed"
            )
        listed = recorded if isinstance(recorded, list) else []
        for n, (want, have) in enumerate(zip(listed, actual, strict=False)):
            if not isinstance(want, list) or not _same_roll(want, have):
                problems.append(
                    f"Wurf {n + 1}: Protokoll {clip(want)}, Seed ergibt {have} / "
                    f"roll {n + 1}: record says {clip(want)}, the seed gives {have}"
                )
                break
    digest = events_digest(race.events, record_version, race.driver_names(), header)
    if "digest" in summary and summary["digest"] != digest and not header_changed:
        problems.append(
            "die Ereignisse weichen vom Protokoll ab / the events differ from the record"
        )
    if "events" in summary and summary["events"] != len(race.events):
        problems.append(
            f"{clip(summary['events'])} Ereignisse im Protokoll, {len(race.events)} nachgespielt"
            f" / {clip(summary['events'])} events recorded, {len(race.events)} replayed"
        )
    if "classification" in summary:
        problems.extend(_classification_problems(summary["classification"], race))
    return problems


def _classification_problems(claimed: Any, race: Race) -> list[str]:
    replayed = classification_data(race, CLASSIFICATION_KEYS)
    if not isinstance(claimed, list) or len(claimed) != len(replayed):
        return [
            "die Wertung hat eine andere Länge als die nachgespielte / "
            "the classification differs in length from the replayed one"
        ]
    for n, (row, real) in enumerate(zip(claimed, replayed, strict=True)):
        if not isinstance(row, dict):
            return [f"summary.classification[{n}]: Objekt erwartet / object expected"]
        for key in CLASSIFICATION_KEYS:
            if key in row and row[key] != real[key]:
                return [
                    f"Wertung Platz {n + 1}: {key} {clip(row[key])} im Protokoll, nachgespielt "
                    f"{clip(real[key])} / classification place {n + 1}: {key} {clip(row[key])} "
                    f"recorded, {clip(real[key])} replayed"
                ]
    return []


def _same_roll(want: list[Any], have: list[Any]) -> bool:
    """A recorded roll against the replayed one; a record from before rules version 12 does not
    name the car, so only die, purpose and result are compared there."""
    return want == have or (len(want) == 3 and want == have[:3])
