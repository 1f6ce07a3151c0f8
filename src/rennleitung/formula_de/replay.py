"""Replay and verify race records.

``replay`` rebuilds a race from its configuration, its seed and its decisions; the result is
bit-identical to the original (same events, same rolls). ``verify`` checks a finished record:
the revealed seed matches the commitment, every decision was legal when it was made, every roll
recomputed from the seed equals the recorded one, and the event log has the recorded digest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.commitment import verify as verify_commitment
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Halt
from rennleitung.formula_de.record import RaceRecord, RecordError, events_digest, rolls_data


def replay(record: RaceRecord, until: int | None = None) -> Race:
    """The race of ``record`` rebuilt from its seed; with ``until``, stopped as soon as at
    least that many events exist (events come in batches between decisions)."""
    if record.seed is None:
        raise RecordError(
            "der Seed ist noch nicht offengelegt", "the seed has not been revealed yet", "seed"
        )
    race = Race(record.config, Dice.from_seed(record.seed), commitment=record.commitment)
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
    try:
        race = replay(record)
    except RennleitungError as error:
        verdict.problems.append(str(error))
        return verdict
    verdict.rolls = len(race.dice.history)
    verdict.events = len(race.events)
    if not race.finished:
        verdict.problems.append("das Rennen endet nicht / the race does not end")
    summary = record.summary
    recorded = summary.get("rolls")
    if recorded is not None:
        actual = rolls_data(race.dice.history)
        if len(recorded) != len(actual):
            verdict.problems.append(
                f"{len(recorded)} Würfe im Protokoll, {len(actual)} nachgerechnet / "
                f"{len(recorded)} rolls recorded, {len(actual)} recomputed"
            )
        for n, (want, have) in enumerate(zip(recorded, actual, strict=False)):
            if list(want) != have:
                verdict.problems.append(
                    f"Wurf {n + 1}: Protokoll {want}, Seed ergibt {have} / "
                    f"roll {n + 1}: record says {want}, the seed gives {have}"
                )
                break
    if "digest" in summary and summary["digest"] != events_digest(race.events):
        verdict.problems.append(
            "die Ereignisse weichen vom Protokoll ab / the events differ from the record"
        )
    if "events" in summary and summary["events"] != len(race.events):
        verdict.problems.append(
            f"{summary['events']} Ereignisse im Protokoll, {len(race.events)} nachgespielt / "
            f"{summary['events']} events recorded, {len(race.events)} replayed"
        )
    return verdict
