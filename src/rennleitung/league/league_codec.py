"""A whole league as plain JSON data, and back by replaying it through the engine.

The export holds what the organiser entered (roster, qualifying laps with starters, weather
and dice seed, race results, named drops, finished FD Blitz matches under ``blitz``) plus, for
readers, each qualifying's grid. The import does not trust any of it: it replays every step
through the same checks as typing it in, re-runs each black-die draw from its seed and refuses
an export whose grid the draw does not reproduce. Used to back up a league and to move it
between SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_records import record_from_json, record_to_json
from rennleitung.league.enter_race import enter_race
from rennleitung.league.formats import format_for, parse_kind
from rennleitung.league.grid import build_qualifying
from rennleitung.league.profiles import league_name, parse_profile
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.qualifying_weather import parse_weather
from rennleitung.league.race_result_codec import race_result_from_json, race_result_to_json
from rennleitung.league.roster import Driver, Roster
from rennleitung.league.season import League
from rennleitung.league.transfers import Transfer

EXPORT_FORMAT = "rennleitung-league"
EXPORT_VERSION = 1


def league_to_json(league: League, seeds: Mapping[int, int]) -> dict[str, Any]:
    """The league as a JSON-ready dict; ``seeds`` maps race number to its draw seed."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": league.name,
        "kind": league.format.kind.value,
        "teams": list(league.roster.teams),
        "drivers": [
            {"name": d.name, "team": d.team, "profile": league_name(d.profile), "city": d.city}
            for d in league.roster.drivers
        ],
        "transfers": [
            {"driver": t.driver, "team": t.team, "from_race": t.from_race}
            for t in league.roster.transfers
        ],
        "qualifying": [
            {
                "race": q.race,
                "seed": seeds[q.race],
                "starters": list(q.starters),
                "weather": [w.value for w in q.weather],
                "laps": [
                    {"driver": lap.driver, "rolls": lap.rolls,
                     "penalty_points": lap.penalty_points, "errors": lap.errors,
                     "lap_time_ms": lap.lap_time_ms, "run": lap.run, "driven_by": lap.driven_by}
                    for lap in q.laps
                ],
                "grid": list(q.grid_order()),
            }
            for q in league.qualifying
        ],
        "races": [race_result_to_json(r) for r in league.races],
        "drops": {driver: list(races) for driver, races in league.named_drops.items()},
        "blitz": [record_to_json(r) for r in league.blitz],
    }


def replay_league(
    data: Mapping[str, Any], name: str | None = None
) -> tuple[League, dict[int, int]]:
    """The league an export describes, every step checked; and the draw seed of each race."""
    try:
        return _replay(data, name)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, RennleitungError):
            raise
        raise RennleitungError(
            f"Export unvollständig oder beschädigt ({error!r})",
            f"export incomplete or damaged ({error!r})",
            "export",
        ) from None


def _replay(data: Mapping[str, Any], name: str | None) -> tuple[League, dict[int, int]]:
    if data.get("format") != EXPORT_FORMAT or data.get("version") != EXPORT_VERSION:
        raise RennleitungError(
            f"keine rennleitung-Liga (Version {EXPORT_VERSION})",
            f"not a rennleitung league export (version {EXPORT_VERSION})",
            "export",
        )
    roster = Roster(format_for(parse_kind(str(data["kind"]))))
    for team in _items(data, "teams"):
        roster = roster.with_team(str(team))
    for item in _items(data, "drivers"):
        roster = roster.with_driver(Driver(str(item["name"]), str(item["team"]),
                                           parse_profile(str(item["profile"])),
                                           str(item.get("city", ""))), check_size=False)
    for item in _items(data, "transfers"):
        roster = roster.with_transfer(Transfer(str(item["driver"]), str(item["team"]),
                                               int(item["from_race"])))
    roster.check_team_sizes(roster.format.races)  # the teams as they stand now
    league = League(name or str(data["name"]), roster)
    seeds: dict[int, int] = {}
    for item in _items(data, "qualifying"):
        race = int(item["race"])
        laps = [
            QualifyingLap(str(lap["driver"]), int(lap["rolls"]), int(lap["penalty_points"]),
                          int(lap["lap_time_ms"]), int(lap["errors"]), int(lap["run"]),
                          lap.get("driven_by") or None)
            for lap in item["laps"]
        ]
        weather = [parse_weather(str(w)) for w in item["weather"]]
        seeds[race] = int(item["seed"])
        qualifying = build_qualifying(race, laps, [str(s) for s in item["starters"]], roster,
                                      random.Random(seeds[race]), weather)
        if "grid" in item and list(qualifying.grid_order()) != list(item["grid"]):
            raise RennleitungError(
                "die Auslosung ergibt mit diesem Seed eine andere Startaufstellung",
                "the draw with this seed gives a different grid",
                f"export, qualifying {race}",
            )
        league = league.with_qualifying(qualifying)
    for item in _items(data, "races"):
        league, _ = enter_race(league, race_result_from_json(item))
    drops = data.get("drops", {})
    if not isinstance(drops, Mapping):
        raise RennleitungError("'drops' muss ein Objekt sein", "'drops' must be an object",
                               "export, drops")
    for driver, races in drops.items():
        league = league.with_named_drops(str(driver), tuple(int(r) for r in races))
    for item in _items(data, "blitz"):  # absent in exports made before issue 27
        league = league.with_blitz(record_from_json(item))
    return league, seeds


def _items(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RennleitungError(
            f"{key!r} muss eine Liste sein", f"{key!r} must be a list", f"export, {key}"
        )
    return value
