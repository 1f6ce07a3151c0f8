"""Corrections: a league fixed after the fact, checked as if it had been typed in right.

An organiser mistypes a race, a qualifying lap or a name, and notices it races later. Each
correction here returns a new ``League`` in which the wrong fact is replaced and everything
that depends on it is recomputed by the same rules: the grid check against qualifying, the
karma of every later race (a later spending the corrected balance cannot cover refuses the
whole correction), drops and tables. The store writes the result in one transaction and keeps
what was there before in the league's history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rennleitung.errors import RennleitungError
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.karma import KarmaEntry, karma_ledger
from rennleitung.league.race_result import RaceResult, RoundOrder
from rennleitung.league.race_validation import validate_race_result
from rennleitung.league.roster import check_length
from rennleitung.league.season import League


def replace_race(league: League, result: RaceResult) -> tuple[League, tuple[KarmaEntry, ...]]:
    """Race ``result.race`` replaced in place; returns the league and its whole new ledger.

    The karma of this and every later race is booked again from the corrected result, so a
    later spending the corrected balance cannot cover refuses the correction.
    """
    if league.race(result.race) is None:
        raise RennleitungError(
            f"Rennen {result.race} ist nicht eingetragen; neu eintragen mit enter-race",
            f"race {result.race} has not been entered; enter it with enter-race",
            "race",
        )
    qualifying = league.qualifying_of(result.race)
    validate_race_result(result, league.roster,
                         qualifying.grid_order() if qualifying is not None else None)
    races = tuple(result if r.race == result.race else r for r in league.races)
    updated = replace(league, races=races)
    return updated, karma_ledger(updated)


def remove_qualifying(league: League, race: int) -> League:
    """The league without the qualifying of ``race``; an entered race keeps its grid but is no
    longer checked against one (and, in the Open, loses its qualifying points)."""
    if league.qualifying_of(race) is None:
        raise RennleitungError(
            f"keine Qualifizierung zu Rennen {race}", f"no qualifying for race {race}", "race"
        )
    return replace(league, qualifying=tuple(q for q in league.qualifying if q.race != race))


def replace_qualifying(
    league: League, qualifying: QualifyingResult, race: RaceResult | None = None
) -> tuple[League, tuple[KarmaEntry, ...]]:
    """The qualifying of ``qualifying.race`` replaced (or added, if there was none).

    If that race was already entered, it must have started from the new grid; when the
    corrected laps change the grid, the corrected race is given as ``race`` and both are
    replaced together.
    """
    number = qualifying.race
    kept = tuple(q for q in league.qualifying if q.race != number)
    updated = replace(
        league, qualifying=tuple(sorted((*kept, qualifying), key=lambda q: q.race))
    )
    entered = league.race(number)
    if race is not None:
        if race.race != number:
            raise RennleitungError(
                f"das Rennergebnis gehört zu Rennen {race.race}, nicht zu {number}",
                f"the race result belongs to race {race.race}, not to {number}",
                "race",
            )
        if entered is None:
            raise RennleitungError(
                f"Rennen {number} ist nicht eingetragen; neu eintragen mit enter-race",
                f"race {number} has not been entered; enter it with enter-race",
                "race",
            )
        return replace_race(updated, race)
    if entered is not None:
        try:
            validate_race_result(entered, league.roster, qualifying.grid_order())
        except RennleitungError as error:
            raise RennleitungError(
                f"{error.de}; Rennen {number} ist von der alten Startaufstellung gestartet: "
                "das korrigierte Rennen mit angeben (--race-file)",
                f"{error.en}; race {number} started from the old grid: give the corrected "
                "race too (--race-file)",
                error.where,
            ) from None
    return updated, karma_ledger(updated)


def rename_league(league: League, name: str) -> League:
    """The league under a new name (unique among leagues: the store checks that)."""
    clean = name.strip()
    if not clean:
        raise RennleitungError("Liganame fehlt", "league name is missing", "league")
    check_length(clean, "league", "Liganame", "league name")
    return replace(league, name=clean)


def rename_team(league: League, old: str, new: str) -> League:
    """A team renamed; its drivers follow."""
    league.roster.team(old)
    clean = _new_name(new, league.roster.teams, "team", "Team", "team")
    roster = replace(
        league.roster,
        teams=tuple(clean if t == old else t for t in league.roster.teams),
        drivers=tuple(replace(d, team=clean) if d.team == old else d
                      for d in league.roster.drivers),
        transfers=tuple(replace(t, team=clean) if t.team == old else t
                        for t in league.roster.transfers),
    )
    return replace(league, roster=roster)


def rename_driver(league: League, old: str, new: str) -> League:
    """A driver renamed everywhere: roster, results, stand-ins, laps, grids, lap charts,
    non-starters and named drops."""
    league.roster.driver(old, "driver")
    clean = _new_name(new, [d.name for d in league.roster.drivers], "driver", "Fahrer",
                      "driver")

    def name(text: str) -> str:
        return clean if text == old else text

    def maybe(text: str | None) -> str | None:
        return None if text is None else name(text)

    roster = replace(league.roster, drivers=tuple(
        replace(d, name=name(d.name)) for d in league.roster.drivers
    ), transfers=tuple(replace(t, driver=name(t.driver)) for t in league.roster.transfers))
    races = tuple(
        replace(
            r,
            drivers=tuple(
                replace(e, driver=name(e.driver), driven_by=maybe(e.driven_by))
                for e in r.drivers
            ),
            rounds=tuple(RoundOrder(o.lap, tuple(map(name, o.order))) for o in r.rounds),
            did_not_start=tuple(map(name, r.did_not_start)),
        )
        for r in league.races
    )
    qualifying = tuple(
        replace(
            q,
            laps=tuple(replace(lap, driver=name(lap.driver), driven_by=maybe(lap.driven_by))
                       for lap in q.laps),
            grid=tuple(replace(slot, driver=name(slot.driver)) for slot in q.grid),
            starters=tuple(map(name, q.starters)),
        )
        for q in league.qualifying
    )
    drops = {name(driver): races_ for driver, races_ in league.named_drops.items()}
    return League(league.name, roster, races, qualifying, drops)


def remove_driver(league: League, driver: str) -> League:
    """A driver taken off the roster: only one who has nothing entered yet (a registration
    typed by mistake). A driver who leaves mid-season keeps his results and simply stops
    starting."""
    league.roster.driver(driver, "driver")
    used = sorted(
        {r.race for r in league.races if _in_race(r, driver)}
        | {q.race for q in league.qualifying if _in_qualifying(q, driver)}
    )
    if used:
        races = ", ".join(map(str, used))
        raise RennleitungError(
            f"{driver} hat schon Einträge in Rennen {races}; wer aufhört, behält seine "
            "Ergebnisse und startet einfach nicht mehr",
            f"{driver} already has entries in race {races}; a driver who leaves keeps his "
            "results and simply no longer starts",
            "driver",
        )
    roster = replace(league.roster, drivers=tuple(
        d for d in league.roster.drivers if d.name != driver
    ), transfers=tuple(t for t in league.roster.transfers if t.driver != driver))
    drops = {k: v for k, v in league.named_drops.items() if k != driver}
    return replace(league, roster=roster, named_drops=drops)


def remove_team(league: League, team: str) -> League:
    """A team taken off the roster: only one without drivers."""
    league.roster.team(team)
    members = league.roster.ever_members(team)
    if members:
        raise RennleitungError(
            f"Team {team!r} hat noch Fahrer ({', '.join(members)}); erst die Fahrer entfernen",
            f"team {team!r} still has drivers ({', '.join(members)}); remove them first",
            "team",
        )
    return replace(league, roster=replace(
        league.roster, teams=tuple(t for t in league.roster.teams if t != team)
    ))


def _new_name(text: str, taken: Sequence[str], where: str, label_de: str, label_en: str) -> str:
    clean = text.strip()
    if not clean:
        raise RennleitungError(f"{label_de}name fehlt", f"{label_en} name is missing", where)
    check_length(clean, where, f"{label_de}name", f"{label_en} name")
    if clean in taken:
        raise RennleitungError(
            f"{label_de} {clean!r} gibt es schon", f"{label_en} {clean!r} already exists", where
        )
    return clean


def _in_race(result: RaceResult, driver: str) -> bool:
    return driver in result.did_not_start or any(
        driver in (e.driver, e.driven_by) for e in result.drivers
    )


def _in_qualifying(qualifying: QualifyingResult, driver: str) -> bool:
    return driver in qualifying.starters or any(
        driver in (lap.driver, lap.driven_by) for lap in qualifying.laps
    )

