"""Race records: a race as JSON that anyone can replay and check.

Format ``rennleitung-race/1``: the configuration (track, ruleset, laps, entries, qualifying,
``side_by_side`` when set), the seed commitment published when the race was created, every
decision in order (who decided and what, moves by space names, a ``halt`` where a car was
stopped in FD Blitz), and at the end the revealed seed with a summary of the outcome (event
count, a digest of every event, the rolls). Only the configuration, the seed and the
decisions are needed to rebuild the race (``replay.py``); the summary lets ``verify`` say whether
a record is honest.

``record_version`` says what ``summary.digest`` covers: 3 (written since 2026-12-01, evening)
a header line with every field that shapes the race (configuration, rules version, the track
file of a track of one's own) and then the data events; 2 the data events alone; 1 (a record
without the field) the events with their German and English sentences, rebuilt by
``events_v1`` (``docs/formula_de/records.md``). A record of version 3 carries the text of a
track of one's own (``track_file``), so it replays without that file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile, Weather
from rennleitung.formula_de.dice import DiceRoll
from rennleitung.formula_de.events import Event
from rennleitung.formula_de.events_v1 import v1_form
from rennleitung.formula_de.race import Placing, Race
from rennleitung.formula_de.race_decisions import Decision, decision_from_data, decision_to_data
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.ruleset import PreRaceOrder, get_ruleset
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackcheck import checked_track
from rennleitung.textinput import clip, load_json

RECORD_FORMAT = "rennleitung-race/1"
"""The layout of a record (configuration, commitment, decisions, seed, summary); unchanged."""

RECORD_VERSION = 3
"""What the digest covers: 1 events with sentences, 2 data events only (events.md), 3 the
header (configuration, rules version, own track) and the data events."""

MAX_KARMA = 100_000
"""Karma an entry may start with (a season's pool stays far below)."""


class RecordError(RennleitungError):
    """A race record that cannot be read; ``where`` names the field."""


@dataclass(frozen=True)
class Stretch:
    """Rounds played under one rules version, from ``from_round`` on (0: the setup); a stretch
    after the first names the state it began from and the count and digest of its events."""

    from_round: int
    rules_version: int
    state: dict[str, Any] | None = None
    events: int | None = None
    digest: str | None = None


@dataclass(frozen=True)
class RaceRecord:
    """A parsed record. ``seed`` is None while the race runs (not yet revealed)."""

    config: RaceConfig
    commitment: str
    decisions: tuple[tuple[str, Decision], ...]
    seed: str | None
    summary: dict[str, Any]
    rules_version: int = 1
    rules: tuple[Stretch, ...] = ()
    """The rules version of each stretch of rounds (empty: all under ``rules_version``)."""
    track: Track | None = None
    """The board the record was read against (a track of one's own; None: built-in)."""
    record_version: int = 1
    """The form of the events ``summary.digest`` covers (``RECORD_VERSION``)."""
    track_file: str | None = None
    """The text of the track file the record carries (a track of one's own), else None."""


def events_digest(
    events: list[Event], version: int = 2, names: Mapping[str, str] | None = None,
    header: str = "",
) -> str:
    """sha256 over every event's JSON form: equal digests mean bit-identical event logs. The
    form is that of record version ``version``; version 1 needs ``names`` (car id -> driver
    name), as its order of play and bids were written with names. From version 3 the
    ``header`` line (``record_header``) comes first, so the digest covers it too."""
    digest = hashlib.sha256()
    if version >= 3:
        digest.update(header.encode())
        digest.update(b"\n")
    for event in events:
        form = event.to_data() if version >= 2 else v1_form(event, names or {})
        digest.update(json.dumps(form, sort_keys=True, ensure_ascii=False).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def record_header(config: RaceConfig, rules_version: int, track_file: str | None) -> str:
    """Everything besides seed and decisions that shapes a race or how it is shown, as one
    canonical JSON line: the configuration as it is read back (entries with teams, profiles
    and karma, qualifying and its weather, laps, …), the rules version and the text of a track
    of one's own. Record version 3 hashes it before the events (issue 21: a changed team,
    weather or rules version verified as honest)."""
    return json.dumps(
        {"config": config_to_data(config), "rules_version": rules_version,
         "track_file": track_file},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"),
    )


def header_digest(header: str) -> str:
    """``summary.config_digest``: the header alone, so ``verify`` can say that it changed."""
    return hashlib.sha256(header.encode()).hexdigest()


def own_track_file(track: Track, name: str) -> str | None:
    """The text a record carries for ``track``, which the configuration calls ``name``: None
    when ``name`` is a built-in board with that very text (or the text is unknown), the track
    file for any other (a file may be raced under a name of its own, or a built-in's name)."""
    from rennleitung.formula_de.builtin_tracks import builtin_track_names, builtin_track_text

    if not track.source:
        return None
    if name in builtin_track_names() and track.source == builtin_track_text(name):
        return None
    return track.source


def race_digest(race: Race, rules_version: int | None = None) -> str:
    """``summary.digest`` of ``race`` as ``record_of`` writes it (record version 3; by default
    under the rules version the race was played under last)."""
    version = race.rules[-1][1] if rules_version is None else rules_version
    header = record_header(race.config, version, own_track_file(race.track, race.config.track))
    return events_digest(race.events, RECORD_VERSION, header=header)


def rolls_data(rolls: tuple[DiceRoll, ...]) -> list[list[Any]]:
    """Each roll as ``[die, purpose, result, car]`` (records before rules version 12 hold the
    first three only)."""
    return [[r.die, r.purpose, r.result, r.car] for r in rolls]


def config_to_data(config: RaceConfig) -> dict[str, Any]:
    return {
        "track": config.track,
        "ruleset": config.ruleset,
        "laps": config.laps,
        "entries": [
            {
                "id": e.id,
                "name": e.name,
                "team": e.team,
                "profile": e.profile.value,
                **({"karma": e.karma} if e.karma is not None else {}),
            }
            for e in config.entries
        ],
        "qualifying": list(config.qualifying),
        "qualifying_weather": config.qualifying_weather.value,
        "max_rounds": config.max_rounds,
        **({"side_by_side": True} if config.side_by_side else {}),
        **({"table": True} if config.table else {}),
        "pre_race_order": (
            config.pre_race_order or get_ruleset(config.ruleset).pre_race_order
        ).value,
    }


def _text(entry: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    value = entry.get(key, None if required else "")
    if not isinstance(value, str):
        raise RecordError("Text erwartet", "text expected", f"{where}.{key}")
    return value


def _entry(entry: Any, where: str) -> Entry:
    """One entry of a record, each field checked (a karma given as text was a traceback)."""
    if not isinstance(entry, dict):
        raise RecordError("Objekt erwartet", "object expected", where)
    karma = entry.get("karma")
    if karma is not None and (
        not isinstance(karma, int) or isinstance(karma, bool) or not 0 <= karma <= MAX_KARMA
    ):
        raise RecordError(
            f"Karma: eine ganze Zahl von 0 bis {MAX_KARMA} erwartet, nicht {clip(karma, 30)}",
            f"karma: a whole number from 0 to {MAX_KARMA} expected, not {clip(karma, 30)}",
            f"{where}.karma (Dresden Karmapool)",
        )
    profile = entry.get("profile", "normal")
    try:
        chosen = DriverProfile(profile)
    except ValueError:
        names = ", ".join(p.value for p in DriverProfile)
        raise RecordError(
            f"unbekanntes Fahrerprofil {clip(profile, 30)} (möglich: {names})",
            f"unknown driver profile {clip(profile, 30)} (possible: {names})",
            f"{where}.profile",
        ) from None
    return Entry(
        id=_text(entry, "id", where, required=True),
        name=_text(entry, "name", where),
        team=_text(entry, "team", where),
        profile=chosen,
        karma=karma,
    )


def config_from_data(data: Any) -> RaceConfig:
    if not isinstance(data, dict):
        raise RecordError("Objekt erwartet", "object expected", "config")
    raw_entries = data.get("entries")
    if not isinstance(raw_entries, list):
        raise RecordError("Liste erwartet", "list expected", "config.entries")
    entries = tuple(_entry(e, f"config.entries[{n}]") for n, e in enumerate(raw_entries))
    qualifying = data.get("qualifying", [])
    if not isinstance(qualifying, list) or not all(isinstance(q, str) for q in qualifying):
        raise RecordError("Liste von Fahrer-Ids erwartet", "list of driver ids expected",
                          "config.qualifying")
    try:
        return RaceConfig(
            track=str(data["track"]),
            ruleset=str(data["ruleset"]),
            entries=entries,
            laps=int(data.get("laps", 0)),
            qualifying=tuple(qualifying),
            qualifying_weather=Weather(data.get("qualifying_weather", "sun")),
            max_rounds=int(data.get("max_rounds", 400)),
            side_by_side=bool(data.get("side_by_side", False)),
            pre_race_order=_pre_race_order(data),
            table=data.get("table", False) is True,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(
            f"ungültige Konfiguration: {error}", f"invalid configuration: {error}", "config"
        ) from None


def _pre_race_order(data: dict[str, Any]) -> PreRaceOrder | None:
    """The order of setups and box choice a record was made in; None when it is the ruleset's.
    Records from before 2026-11-29 lack the field: every race then asked the setups first."""
    order = PreRaceOrder(data.get("pre_race_order", PreRaceOrder.SETUPS_FIRST.value))
    return None if order is get_ruleset(str(data["ruleset"])).pre_race_order else order


CLASSIFICATION_KEYS = ("car", "driver", "position", "laps", "status")
"""The part of a placing a record's summary claims (and ``race verify`` compares)."""


def placing_data(placing: Placing) -> dict[str, Any]:
    """A placing as JSON: the one form of a classification row (``race simulate --json``; a
    record's summary keeps ``CLASSIFICATION_KEYS`` of it). Empty reasons are null."""
    return {
        "car": placing.car,
        "driver": placing.driver,
        "position": placing.position,
        "laps": placing.laps,
        "status": placing.status,
        "grid": placing.grid,
        "points": placing.points,
        "rule": placing.rule or None,
        "reason_de": placing.reason_de or None,
        "reason_en": placing.reason_en or None,
    }


def classification_data(race: Race, keys: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The race's classification as JSON rows, each with only ``keys`` if given."""
    rows = [placing_data(p) for p in race.classification()]
    return rows if keys is None else [{k: row[k] for k in keys} for row in rows]


def record_of(
    race: Race, seed: int | str | None = None, starts: Mapping[int, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The record of ``race`` as JSON data; the seed is revealed only once the race is over.
    ``starts`` holds, by first round, the state (JSON form) each stretch of rounds under newer
    rules began from (``Race.rules``); with it, each stretch carries its state and the count
    and digest of its events, so ``verify`` can replay the stretches the current rules play."""
    revealed = str(seed) if seed is not None and race.finished else None
    track_file = own_track_file(race.track, race.config.track)
    header = record_header(race.config, race.rules[-1][1], track_file)
    summary: dict[str, Any] = {
        "events": len(race.events),
        "digest": events_digest(race.events, RECORD_VERSION, header=header),
        "config_digest": header_digest(header),
        "rolls": rolls_data(race.dice.history),
        "classification": classification_data(race, CLASSIFICATION_KEYS),
    }
    return {
        "format": RECORD_FORMAT,
        "record_version": RECORD_VERSION,
        "rules_version": race.rules[-1][1],
        "rules": _stretches(race, starts or {}),
        "config": config_to_data(race.config),
        **({"track_file": track_file} if track_file is not None else {}),
        "commitment": race.commitment,
        "decisions": [
            {"car": car, **decision_to_data(race.track, decision)}
            for car, decision in race.decisions
        ],
        "seed": revealed,
        "finished": race.finished,
        "summary": summary,
    }


def _stretches(race: Race, starts: Mapping[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """``Race.rules`` in the record: the rules version of each stretch of rounds."""
    rules: list[dict[str, Any]] = [{"from_round": r, "rules_version": v} for r, v in race.rules]
    if len(rules) == 1 or any(r["from_round"] not in starts for r in rules[1:]):
        return rules
    bounds = [0, *(int(starts[r["from_round"]]["events"]) for r in rules[1:]), len(race.events)]
    for n, stretch in enumerate(rules):
        events = race.events[bounds[n] : bounds[n + 1]]
        if n:
            stretch["state"] = starts[stretch["from_round"]]
        stretch["events"] = len(events)
        stretch["digest"] = events_digest(events)
    return rules


def _summary(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError("Objekt erwartet", "object expected", "summary")
    return dict(value)


def record_to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def parse_record(text: str, track_for: Any = None) -> RaceRecord:
    """Read a record's JSON text. ``track_for(name)`` loads the track (default: built-in)."""
    try:
        data = load_json(text, "")
    except RennleitungError as error:
        raise RecordError(error.de, error.en, error.where) from None
    return record_from_data(data, track_for)


def record_from_data(data: Any, track_for: Any = None) -> RaceRecord:
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"kein Rennprotokoll ({RECORD_FORMAT})",
            f"not a race record ({RECORD_FORMAT})",
            "format",
        )
    config = config_from_data(data.get("config"))
    track_file = data.get("track_file")
    track: Track
    if track_file is not None:
        track = _carried_track(track_file, config.track)
    else:
        if track_for is None:
            from rennleitung.formula_de.builtin_tracks import builtin_track

            track_for = builtin_track
        track = track_for(config.track)
    raw = data.get("decisions", [])
    if not isinstance(raw, list):
        raise RecordError("Liste erwartet", "list expected", "decisions")
    decisions = []
    for n, item in enumerate(raw):
        if not isinstance(item, dict) or "car" not in item:
            raise RecordError(
                "Objekt mit 'car' erwartet", "object with 'car' expected", f"decisions[{n}]"
            )
        decisions.append((str(item["car"]), decision_from_data(track, item, f"decisions[{n}]")))
    seed = data.get("seed")
    version = data.get("rules_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordError(
            "eine ganze Zahl ab 1 erwartet", "a whole number from 1 on expected", "rules_version"
        )
    record_version = data.get("record_version", 1)
    if (
        not isinstance(record_version, int)
        or isinstance(record_version, bool)
        or not 1 <= record_version <= RECORD_VERSION
    ):
        raise RecordError(
            f"Protokollversion 1 bis {RECORD_VERSION} erwartet, nicht {record_version!r}",
            f"record version 1 to {RECORD_VERSION} expected, not {record_version!r}",
            "record_version",
        )
    return RaceRecord(
        rules=_read_stretches(data.get("rules", [])),
        config=config,
        commitment=str(data.get("commitment", "")),
        decisions=tuple(decisions),
        seed=None if seed is None else str(seed),
        summary=_summary(data.get("summary", {})),
        rules_version=version,
        track=track,
        record_version=record_version,
        track_file=track_file,
    )


def _read_stretches(value: Any) -> tuple[Stretch, ...]:
    if not isinstance(value, list):
        raise RecordError("Liste erwartet", "list expected", "rules")
    found = []
    for n, item in enumerate(value):
        where = f"rules[{n}]"
        if not isinstance(item, dict):
            raise RecordError("Objekt erwartet", "object expected", where)
        first, version = item.get("from_round"), item.get("rules_version")
        for key, number in (("from_round", first), ("rules_version", version)):
            if not isinstance(number, int) or isinstance(number, bool) or number < 0:
                raise RecordError(
                    "eine ganze Zahl ab 0 erwartet", "a whole number from 0 on expected",
                    f"{where}.{key}",
                )
        state = item.get("state")
        events = item.get("events")
        digest = item.get("digest")
        if state is not None and not isinstance(state, dict):
            raise RecordError("Objekt erwartet", "object expected", f"{where}.state")
        if events is not None and (not isinstance(events, int) or isinstance(events, bool)):
            raise RecordError("ganze Zahl erwartet", "whole number expected", f"{where}.events")
        if digest is not None and not isinstance(digest, str):
            raise RecordError("Text erwartet", "text expected", f"{where}.digest")
        assert isinstance(first, int) and isinstance(version, int)
        found.append(Stretch(first, version, state, events, digest))
    return tuple(found)


def _carried_track(text: Any, name: str) -> Track:
    """The board of the track file a record carries, refused as ``track check`` refuses it.
    Its own ``name`` may differ from the configuration's (a server race on an uploaded file
    keeps the name it was given); the digest covers both."""
    if not isinstance(text, str):
        raise RecordError("Text einer Streckendatei erwartet", "the text of a track file expected",
                          "track_file")
    return checked_track(text, name, "track_file")
