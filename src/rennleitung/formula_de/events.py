"""Race events: every change of a race is one event with a readable German and English line.

A race is its configuration, its seed and its decisions; the event log is what a person reads
("Runde 12: Alonso schaltet in den 5. Gang und würfelt 17"). Events are frozen values with plain
JSON data, so two replays of one record can be compared event by event. The texts live in one
table (``TEXTS``) rather than in the engine, one row per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

JsonValue = str | int | bool | None | list[Any]


class EventKind(StrEnum):
    """What happened; one row of ``TEXTS`` each."""

    CREATED = "created"
    GRID = "grid"
    WEATHER = "weather"
    SETUP = "setup"
    BOX = "box"
    ROUND = "round"
    START_ROLL = "start_roll"
    STALLED = "stalled"
    SUPER_START = "super_start"
    SHIFT = "shift"
    SKIP_COST = "skip_cost"
    BOOST = "boost"
    ROLL = "roll"
    MOVE = "move"
    NO_MOVE = "no_move"
    WEAR = "wear"
    SLIPSTREAM = "slipstream"
    LAP = "lap"
    SPIN = "spin"
    TEST = "test"
    KARMA = "karma"
    DANGEROUS = "dangerous"
    PIT_ANNOUNCE = "pit_announce"
    PIT_IN = "pit_in"
    PIT_WORK = "pit_work"
    QUICK_STOP = "quick_stop"
    PIT_OUT = "pit_out"
    ROLLING_OUT = "rolling_out"
    RETIRED = "retired"
    WRECK_REMOVED = "wreck_removed"
    FINISHED = "finished"
    STOPPED = "stopped"
    HEAD_TO_HEAD = "head_to_head"
    RESTART = "restart"
    T_CAR = "t_car"
    HALTED = "halted"
    ROUND_SKIPPED = "round_skipped"
    ROUND_AGAIN = "round_again"
    END = "end"


# kind -> (German template, English template); fields come from the event's data.
TEXTS: dict[EventKind, tuple[str, str]] = {
    EventKind.CREATED: (
        "Rennen auf {track} nach {ruleset} über {laps} Runden, Würfel-Hash {commitment}",
        "race on {track} under {ruleset} over {laps} laps, dice hash {commitment}",
    ),
    EventKind.GRID: (
        "{driver} startet von Platz {grid} ({how})",
        "{driver} starts from grid slot {grid} ({how_en})",
    ),
    EventKind.WEATHER: (
        "Wetterwurf {result}: {roll_de}, es herrscht {weather_de}{settled_de}",
        "weather roll {result}: {roll_en}, the weather is {weather_en}{settled_en}",
    ),
    EventKind.SETUP: (
        "{driver} wählt {tyre_de} Reifen und das Setup {wear}",
        "{driver} chooses {tyre_en} tyres and the setup {wear}",
    ),
    EventKind.BOX: ("{driver} wählt Box {box}", "{driver} chooses box {box}"),
    EventKind.ROUND: ("Reihenfolge: {order}", "order of play: {order}"),
    EventKind.START_ROLL: (
        "{driver} macht den Startwurf: {result} ({outcome_de})",
        "{driver} makes the start roll: {result} ({outcome_en})",
    ),
    EventKind.STALLED: (
        "{driver} hat den Motor abgewürgt und fährt nächste Runde im 1. Gang an",
        "{driver} stalled and moves off in 1st gear next round",
    ),
    EventKind.SUPER_START: (
        "{driver} hat einen Traumstart: {spaces} Felder ohne Gangwurf",
        "{driver} makes a super start: {spaces} spaces without a gear roll",
    ),
    EventKind.SHIFT: (
        "{driver} schaltet in den {gear}. Gang",
        "{driver} shifts into gear {gear}",
    ),
    EventKind.SKIP_COST: (
        "{driver} überspringt {skipped} Gang/Gänge und streicht {cost_de}",
        "{driver} skips {skipped} gear(s) and crosses out {cost_en}",
    ),
    EventKind.BOOST: (
        "{driver} kündigt den Motor-Boost an (+{gear} Felder, 1 VP Motor)",
        "{driver} announces the engine boost (+{gear} spaces, 1 engine point)",
    ),
    EventKind.ROLL: (
        "{driver} schaltet in den {gear}. Gang und würfelt {result}",
        "{driver} shifts into gear {gear} and rolls {result}",
    ),
    EventKind.MOVE: (
        "{driver} fährt {spaces} Felder nach {end}{extra_de}",
        "{driver} moves {spaces} spaces to {end}{extra_en}",
    ),
    EventKind.NO_MOVE: (
        "{driver} kann nicht fahren und bleibt auf {space}",
        "{driver} cannot move and stays on {space}",
    ),
    EventKind.WEAR: (
        "{driver} streicht {points} VP {area_de} ({reason_de}), bleiben {left}",
        "{driver} crosses out {points} {area_en} point(s) ({reason_en}), {left} left",
    ),
    EventKind.SLIPSTREAM: (
        "{driver} nutzt {count}× den Windschatten",
        "{driver} uses the slipstream {count} time(s)",
    ),
    EventKind.LAP: (
        "{driver} beendet Runde {lap}",
        "{driver} completes lap {lap}",
    ),
    EventKind.SPIN: (
        "{driver} dreht sich (letzter VP Reifen) und braucht einen Startwurf",
        "{driver} spins (last tyre point) and needs a restart roll",
    ),
    EventKind.TEST: (
        "{driver}: {test_de} mit dem schwarzen Würfel {result}{modifier} gegen {limit}: "
        "{outcome_de}",
        "{driver}: {test_en} on the black die {result}{modifier} against {limit}: {outcome_en}",
    ),
    EventKind.KARMA: (
        "{driver}: Karma {change:+d} ({reason_de}), Stand {karma}",
        "{driver}: karma {change:+d} ({reason_en}), now {karma}",
    ),
    EventKind.DANGEROUS: (
        "{space} wird ein gefährliches Feld ({reason_de})",
        "{space} becomes a dangerous space ({reason_en})",
    ),
    EventKind.PIT_ANNOUNCE: (
        "{driver} sagt den Boxenstopp an: {plan_de}",
        "{driver} announces the pit stop: {plan_en}",
    ),
    EventKind.PIT_IN: (
        "{driver} ist in Box {box}: {plan_de}; {points} Punkte abzuarbeiten",
        "{driver} is in box {box}: {plan_en}; {points} points to work off",
    ),
    EventKind.QUICK_STOP: (
        "{driver} würfelt für den schnellen Stopp {result} (sofort hinaus bei 1–{limit})",
        "{driver} rolls {result} for the quick stop (straight out on 1–{limit})",
    ),
    EventKind.PIT_WORK: (
        "{driver} arbeitet in der Box {result} Punkte ab, bleiben {left}",
        "{driver} works off {result} points in the pit, {left} left",
    ),
    EventKind.PIT_OUT: (
        "{driver} verlässt die Box mit {spaces} Feldern im {gear}. Gang",
        "{driver} leaves the pit with {spaces} spaces in gear {gear}",
    ),
    EventKind.ROLLING_OUT: (
        "{driver} rollt im {gear}. Gang aus ({reason_de})",
        "{driver} rolls out in gear {gear} ({reason_en})",
    ),
    EventKind.RETIRED: (
        "{driver} scheidet aus: {reason_de} ({rule})",
        "{driver} retires: {reason_en} ({rule})",
    ),
    EventKind.WRECK_REMOVED: (
        "das Wrack von {driver} wird von {space} entfernt",
        "the wreck of {driver} is removed from {space}",
    ),
    EventKind.FINISHED: (
        "{driver} kommt als {place}. ins Ziel",
        "{driver} finishes in position {place}",
    ),
    EventKind.STOPPED: (
        "Rennen nach {rounds} Spielrunden abgebrochen (Sicherheitsgrenze)",
        "race stopped after {rounds} rounds of play (safety limit)",
    ),
    EventKind.HEAD_TO_HEAD: (
        "Kopf an Kopf: {bids}",
        "head to head: {bids}",
    ),
    EventKind.RESTART: (
        "Unterbrechung: Wracks blockieren die Strecke; {how_de}",
        "interruption: wrecks block the track; {how_en}",
    ),
    EventKind.T_CAR: (
        "{driver} startet mit dem T-Car ({points} VP) auf {space}",
        "{driver} starts in the T-car ({points} points) on {space}",
    ),
    EventKind.HALTED: (
        "{driver} muss sofort anhalten und bleibt bis zum Ende stehen ({rule})",
        "{driver} must stop at once and stands still to the end ({rule})",
    ),
    EventKind.ROUND_SKIPPED: (
        "{driver} ist überrundet worden und setzt in dieser Spielrunde aus ({rule})",
        "{driver} has been lapped and misses the rest of this round of play ({rule})",
    ),
    EventKind.ROUND_AGAIN: (
        "{driver} hat den Führenden wieder überholt und ist in dieser Spielrunde noch einmal "
        "am Zug ({rule})",
        "{driver} has passed the leader again and plays once more in this round ({rule})",
    ),
    EventKind.END: (
        "Rennende; Würfel-Seed {seed}",
        "end of the race; dice seed {seed}",
    ),
}


@dataclass(frozen=True, slots=True)
class Event:
    """One change of the race: its number, the round of play, kind, car, data and both texts."""

    seq: int
    round: int
    kind: EventKind
    car: str
    data: tuple[tuple[str, JsonValue], ...]
    de: str
    en: str

    def get(self, key: str) -> JsonValue:
        """One data value (None when absent)."""
        for name, value in self.data:
            if name == key:
                return value
        return None

    def to_data(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {
            "seq": self.seq,
            "round": self.round,
            "kind": self.kind.value,
            "car": self.car,
            "data": dict(self.data),
            "de": self.de,
            "en": self.en,
        }


def make_event(
    seq: int, round_: int, kind: EventKind, car: str, data: dict[str, JsonValue]
) -> Event:
    """Build an event and its two lines from ``TEXTS``; the round is put in front."""
    de, en = TEXTS[kind]
    prefix_de = f"Runde {round_}: " if round_ else ""
    prefix_en = f"Round {round_}: " if round_ else ""
    return Event(
        seq=seq,
        round=round_,
        kind=kind,
        car=car,
        data=tuple(data.items()),
        de=prefix_de + de.format(**data),
        en=prefix_en + en.format(**data),
    )
