"""The machine-readable team report (``reports/TEAM.json``): what the text report says, as data a
player's own tool can plan from. The fields are documented in ``docs/turbo2000/game-master.md``;
they are extended, never renamed (``version`` counts the extensions)."""

from __future__ import annotations

import json
from typing import Any

from rennleitung.turbo2000.standings import wm_table
from rennleitung.turbo2000.turn import Turn

FORMAT = "rennleitung-turbo2000-team-report"
VERSION = 1


def team_data(turn: Turn, team_name: str, evaluated_round: int) -> dict[str, Any]:
    """One team's report of ``evaluated_round`` as plain data (ratings of drivers in tenths)."""
    state = turn.state
    team = state.teams[team_name]
    ledger = turn.ledger.get(team_name, [])
    table = wm_table(state)
    place = next(((p, points) for p, name, points in table if name == team_name), None)
    return {
        "format": FORMAT,
        "version": VERSION,
        "round": evaluated_round,
        "next_round": state.round,
        "year": turn.config.year_of(evaluated_round),
        "finished": state.finished,
        "team": team_name,
        "active": team.active,
        "money": {"start": team.money - sum(value for _, value in ledger),
                  "entries": [{"text": why, "amount": value} for why, value in ledger],
                  "balance": team.money},
        "stock": [{"part": part.notation(), "maker": part.maker, "kind": part.kind,
                   "rating": part.rating, "count": count}
                  for part, count in sorted(team.stock.items())],
        "drivers": [{"name": d.name, "rating_tenths": d.rating, "rating": d.whole_rating,
                     "this_year": d.team == team_name, "salary": d.salary
                     if d.team == team_name else 0,
                     "next_year": d.next_team == team_name, "next_salary": d.next_salary
                     if d.next_team == team_name else 0,
                     "out_in_round": d.out_in_round}
                    for d in sorted(state.drivers.values(), key=lambda d: d.name)
                    if team_name in (d.team, d.next_team)],
        "factories": [{"kind": f.kind, "rating": f.rating, "digits": "".join(map(str, f.digits))}
                      for f in state.factories if f.owner == team_name],
        "races": list(turn.race_log.get(team_name, [])),
        "wm": {"place": place[0] if place else None, "points": place[1] if place else 0,
               "teams": len(table), "leader": table[0][1] if table else None,
               "leader_points": table[0][2] if table else 0},
        "refused": [{"line": p.line, "field": p.field, "de": p.de, "en": p.en}
                    for p in turn.rejections.get(team_name, [])],
        "notes": list(turn.notes.get(team_name, [])),
        "new_factory_rating": dict(sorted(state.new_factory_rating.items())),
    }


def as_json(data: dict[str, Any]) -> str:
    """The file's text: UTF-8 JSON, keys in a fixed order, one field a line."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
