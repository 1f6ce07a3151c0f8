"""Checks a race result against the roster and the format before anything is scored or stored.

Each refusal names the race, the driver and the field at fault, in German and English.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from rennleitung.errors import RennleitungError
from rennleitung.league.lap_leaders import laps_most_led_from_rounds
from rennleitung.league.race_result import FinishStatus, InRaceKarmaKind, RaceResult
from rennleitung.league.roster import Roster, check_length

MAX_RACE_LAPS = 99
"""Dresden races have three laps; anything up to this bound is accepted for other formats."""


def validate_race_result(
    result: RaceResult, roster: Roster, expected_grid: Sequence[str] | None = None
) -> None:
    """Raise a RennleitungError for the first thing wrong with ``result``.

    ``expected_grid`` is the grid from qualifying, if one was entered: then the race must start
    from exactly that grid.
    """
    fmt = roster.format
    race_where = f"race {result.race}"
    if not 1 <= result.race <= fmt.races:
        raise RennleitungError(
            f"Rennnummer {result.race} liegt nicht zwischen 1 und {fmt.races}",
            f"race number {result.race} is not between 1 and {fmt.races}",
            "race",
        )
    if not 1 <= result.laps <= MAX_RACE_LAPS:
        raise RennleitungError(
            f"ein Rennen hat 1 bis {MAX_RACE_LAPS} Runden, nicht {result.laps}",
            f"a race has 1 to {MAX_RACE_LAPS} laps, not {result.laps}",
            f"{race_where}, laps",
        )
    check_length(result.track, f"{race_where}, track", "Streckenname", "track name")
    if not result.drivers:
        raise RennleitungError(
            "das Ergebnis enthält keinen Fahrer", "the result contains no driver", race_where
        )
    seen: set[str] = set()
    for entry in result.drivers:
        where = f"{race_where}, {entry.driver}"
        roster.driver(entry.driver, f"{race_where}, driver")
        if entry.driver in seen:
            raise RennleitungError(
                "Fahrer steht zweimal im Ergebnis", "driver appears twice in the result", where
            )
        seen.add(entry.driver)
        _check_laps(entry.laps_completed, entry.status, result.laps, where)
        if entry.driven_by is not None:
            roster.check_stand_in(entry.driver, entry.driven_by, f"{where}, driven_by",
                                  result.race)
        if entry.team is not None and entry.team != roster.team_in_race(entry.driver,
                                                                         result.race):
            team = roster.team_in_race(entry.driver, result.race)
            raise RennleitungError(
                f"{entry.driver} fährt in Rennen {result.race} für {team}, nicht für "
                f"{entry.team}; ein Teamwechsel wird mit 'league transfer' eingetragen",
                f"{entry.driver} drives for {team} in race {result.race}, not for "
                f"{entry.team}; a change of team is entered with 'league transfer'",
                f"{where}, team",
            )
        if not 0 <= entry.laps_most_led <= result.laps:
            raise RennleitungError(
                f"Führungsrunden müssen zwischen 0 und {result.laps} liegen",
                f"laps most led must be between 0 and {result.laps}",
                f"{where}, laps_most_led",
            )
        for event in entry.karma:
            check_length(event.note, f"{where}, karma", "Vermerk", "note")
            bid = event.kind is InRaceKarmaKind.HEAD_TO_HEAD
            if (bid and event.amount < 1) or (not bid and event.amount != 0):
                raise RennleitungError(
                    "nur ein Kopf-an-Kopf-Gebot hat einen Betrag, und der ist mindestens 1",
                    "only a head-to-head bid has an amount, and it is at least 1",
                    f"{where}, karma",
                )
    _check_places([e.grid for e in result.drivers], f"{race_where}, grid", "Startplätze", "grid")
    _check_places(
        [e.position for e in result.drivers], f"{race_where}, position", "Platzierungen",
        "positions",
    )
    _check_classification(result)
    _check_team_sizes(result, roster)
    if result.rounds:
        _check_rounds(result)
    _check_did_not_start(result, roster, expected_grid, seen)
    if expected_grid is not None:
        actual = [e.driver for e in sorted(result.drivers, key=lambda e: e.grid)]
        starting = [name for name in expected_grid if name not in result.did_not_start]
        if actual != starting:
            raise RennleitungError(
                f"Startaufstellung weicht von der Qualifizierung ab: {', '.join(starting)}",
                f"grid differs from qualifying: {', '.join(starting)}",
                f"{race_where}, grid",
            )


def _check_did_not_start(
    result: RaceResult, roster: Roster, expected_grid: Sequence[str] | None, starters: set[str]
) -> None:
    """"Did not start" belongs to a driver who qualified and then stayed out: he is on the
    qualifying grid, not among the starters, and named once."""
    where = f"race {result.race}, did_not_start"
    for name in result.did_not_start:
        roster.driver(name, where)
        if expected_grid is None or name not in expected_grid:
            raise RennleitungError(
                f"{name} steht nicht in der Startaufstellung einer Qualifizierung; wer nicht "
                "qualifiziert war, fehlt einfach im Ergebnis",
                f"{name} is not on a qualifying grid; a driver who did not qualify is simply "
                "left out of the result",
                where,
            )
        if name in starters:
            raise RennleitungError(
                f"{name} hat ein Ergebnis und kann nicht zugleich nicht gestartet sein",
                f"{name} has a result and cannot also be a non-starter",
                where,
            )
    if len(set(result.did_not_start)) != len(result.did_not_start):
        raise RennleitungError(
            "ein Fahrer steht zweimal unter den Nichtstartern",
            "a driver is listed twice among the non-starters",
            where,
        )


def _check_team_sizes(result: RaceResult, roster: Roster) -> None:
    """At most ``team_size`` cars of one team start (Dresden "Saison": teams of two), counted by
    the team each driver drives for in this race."""
    cars: dict[str, list[str]] = {}
    for entry in result.drivers:
        cars.setdefault(roster.team_in_race(entry.driver, result.race), []).append(entry.driver)
    for team, names in cars.items():
        if len(names) > roster.format.max_team_size:
            raise RennleitungError(
                f"für {team} starten {len(names)} Autos ({', '.join(names)}); erlaubt sind "
                f"höchstens {roster.format.max_team_size}",
                f"{len(names)} cars start for {team} ({', '.join(names)}); at most "
                f"{roster.format.max_team_size} are allowed",
                f"race {result.race}, team",
            )


def _check_laps(laps: int, status: FinishStatus, race_laps: int, where: str) -> None:
    if status is FinishStatus.FINISHED and laps != race_laps:
        raise RennleitungError(
            f"ein Fahrer im Ziel hat alle {race_laps} Runden absolviert, nicht {laps}",
            f"a finisher has completed all {race_laps} laps, not {laps}",
            f"{where}, laps_completed",
        )
    if status is FinishStatus.RETIRED and not 0 <= laps < race_laps:
        raise RennleitungError(
            f"ein ausgefallener Fahrer hat 0 bis {race_laps - 1} Runden, nicht {laps}",
            f"a retired driver has 0 to {race_laps - 1} laps, not {laps}",
            f"{where}, laps_completed",
        )


def _check_places(places: list[int], where: str, label_de: str, label_en: str) -> None:
    expected = list(range(1, len(places) + 1))
    if sorted(places) != expected:
        raise RennleitungError(
            f"{label_de} müssen genau 1 bis {len(places)} sein, je einmal: {sorted(places)}",
            f"{label_en} must be exactly 1 to {len(places)}, each once: {sorted(places)}",
            where,
        )


def _check_classification(result: RaceResult) -> None:
    """Finishers ahead of retired cars, retired cars with more laps ahead ("Ausfälle")."""
    ordered = sorted(result.drivers, key=lambda e: e.position)
    for ahead, behind in pairwise(ordered):
        ahead_rank = (ahead.status is FinishStatus.FINISHED, ahead.laps_completed)
        behind_rank = (behind.status is FinishStatus.FINISHED, behind.laps_completed)
        if behind_rank > ahead_rank:
            raise RennleitungError(
                f"{behind.driver} (Platz {behind.position}, {behind.laps_completed} Runden, "
                f"{behind.status.value}) muss vor {ahead.driver} stehen",
                f"{behind.driver} (place {behind.position}, {behind.laps_completed} laps, "
                f"{behind.status.value}) must be classified ahead of {ahead.driver}",
                f"race {result.race}, position",
            )


def _check_rounds(result: RaceResult) -> None:
    """The lap chart names only starters, each once per round, with laps that never go back;
    the laps-most-led figures must be the ones it implies (``lap_leaders.py``)."""
    where = f"race {result.race}, rounds"
    starters = {e.driver for e in result.drivers}
    previous_lap = 1
    for number, round_order in enumerate(result.rounds, start=1):
        unknown = [name for name in round_order.order if name not in starters]
        if unknown or len(set(round_order.order)) != len(round_order.order):
            raise RennleitungError(
                f"Runde {number}: Reihenfolge mit Unbekannten oder doppelten Autos: "
                f"{', '.join(round_order.order)}",
                f"round {number}: order with unknown or repeated cars: "
                f"{', '.join(round_order.order)}",
                where,
            )
        if not previous_lap <= round_order.lap <= result.laps:
            raise RennleitungError(
                f"Runde {number}: Runde des Führenden {round_order.lap} passt nicht",
                f"round {number}: leader's lap {round_order.lap} is out of order",
                where,
            )
        previous_lap = round_order.lap
    implied = laps_most_led_from_rounds(result.rounds)
    for entry in result.drivers:
        if entry.laps_most_led != implied.get(entry.driver, 0):
            raise RennleitungError(
                f"laps_most_led {entry.laps_most_led} passt nicht zum Rennverlauf "
                f"({implied.get(entry.driver, 0)})",
                f"laps_most_led {entry.laps_most_led} does not match the lap chart "
                f"({implied.get(entry.driver, 0)})",
                f"race {result.race}, {entry.driver}, laps_most_led",
            )
