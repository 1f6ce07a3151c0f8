"""Game state to and from plain JSON, in one canonical form so replays compare byte for byte."""

from __future__ import annotations

import json
from typing import Any

from rennleitung.textinput import load_json
from rennleitung.turbo2000.model import (
    Announcement,
    Driver,
    Factory,
    GameState,
    HistoryPoint,
    Offer,
    Part,
    RallyRecord,
    Team,
)


def _part(data: list[Any]) -> Part:
    return Part(str(data[0]), str(data[1]), int(data[2]))


def _part_data(part: Part) -> list[Any]:
    return [part.maker, part.kind, part.rating]


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Plain data; lists are sorted so equal states give equal JSON."""
    return {
        "round": state.round,
        "teams": [
            {
                "name": team.name,
                "password": team.password,
                "money": team.money,
                "entry_round": team.entry_round,
                "active": team.active,
                "stock": [[*_part_data(part), count] for part, count in sorted(team.stock.items())],
            }
            for team in sorted(state.teams.values(), key=lambda t: t.name)
        ],
        "drivers": [
            {
                "name": d.name, "rating": d.rating, "team": d.team, "salary": d.salary,
                "next_team": d.next_team, "next_salary": d.next_salary,
                "out_in_round": d.out_in_round,
            }
            for d in sorted(state.drivers.values(), key=lambda d: d.name)
        ],
        "factories": [
            {"owner": f.owner, "kind": f.kind, "rating": f.rating, "digits": list(f.digits)}
            for f in sorted(state.factories, key=lambda f: (f.owner, f.kind))
        ],
        "announcements": [[a.code, a.stage, a.stages] for a in state.announcements],
        "new_factory_rating": dict(sorted(state.new_factory_rating.items())),
        "offers": [
            {
                "number": o.number, "verb": o.verb, "team": o.team, "to": o.to, "count": o.count,
                "maker": o.maker, "kind": o.kind, "rating": o.rating, "price": o.price,
                "factory": o.factory, "unfulfillable": o.unfulfillable,
            }
            for o in state.offers
        ],
        "wm_points": dict(sorted(state.wm_points.items())),
        "last_formel2_winner": state.last_formel2_winner,
        "rally": {
            name: {
                "team": r.team, "car": _part_data(r.car), "engine": _part_data(r.engine),
                "tyre_rating": r.tyre_rating, "track_points": r.track_points, "place": r.place,
                "placed_count": r.placed_count,
            }
            for name, r in sorted(state.rally.items())
        },
        "rally_stage_done": state.rally_stage_done,
        "rally_closed": state.rally_closed,
        "vote_open": state.vote_open,
        "end_after_round": state.end_after_round,
        "finished": state.finished,
        "next_offer_number": state.next_offer_number,
        "leaving": dict(sorted(state.leaving.items())),
        "history": [
            {"round": point.round, "wm_points": dict(sorted(point.wm_points.items())),
             "money": dict(sorted(point.money.items())),
             "ratings": {team: dict(sorted(drivers.items()))
                         for team, drivers in sorted(point.ratings.items())}}
            for point in state.history
        ],
    }


def state_from_dict(data: dict[str, Any]) -> GameState:
    """The inverse of ``state_to_dict``."""
    teams = {
        t["name"]: Team(
            name=t["name"], password=t["password"], money=t["money"],
            stock={_part(s[:3]): int(s[3]) for s in t["stock"]},
            entry_round=t["entry_round"], active=t["active"],
        )
        for t in data["teams"]
    }
    drivers = {
        d["name"]: Driver(
            name=d["name"], rating=d["rating"], team=d["team"], salary=d["salary"],
            next_team=d["next_team"], next_salary=d["next_salary"], out_in_round=d["out_in_round"],
        )
        for d in data["drivers"]
    }
    return GameState(
        round=data["round"],
        teams=teams,
        drivers=drivers,
        factories=[Factory(f["owner"], f["kind"], f["rating"], list(f["digits"]))
                   for f in data["factories"]],
        announcements=[Announcement(a[0], a[1], a[2]) for a in data["announcements"]],
        new_factory_rating=dict(data["new_factory_rating"]),
        offers=[Offer(**o) for o in data["offers"]],
        wm_points=dict(data["wm_points"]),
        last_formel2_winner=data["last_formel2_winner"],
        rally={
            name: RallyRecord(
                team=r["team"], car=_part(r["car"]), engine=_part(r["engine"]),
                tyre_rating=r["tyre_rating"], track_points=r["track_points"], place=r["place"],
                placed_count=r["placed_count"],
            )
            for name, r in data["rally"].items()
        },
        rally_stage_done=data["rally_stage_done"],
        rally_closed=data["rally_closed"],
        vote_open=data["vote_open"],
        end_after_round=data["end_after_round"],
        finished=data["finished"],
        next_offer_number=data["next_offer_number"],
        leaving=dict(data["leaving"]),
        history=[HistoryPoint(int(p["round"]), dict(p["wm_points"]), dict(p["money"]),
                              {team: dict(drivers) for team, drivers in p["ratings"].items()})
                 for p in data.get("history", [])],
    )


def dump_state(state: GameState) -> str:
    """Canonical JSON text of a state (what a round file holds)."""
    return json.dumps(state_to_dict(state), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_state(text: str, where: str = "state.json") -> GameState:
    """The inverse of ``dump_state``. Text that is not JSON, or nested too deeply, or holds a
    number that is not finite, is a ``RennleitungError`` naming ``where``."""
    return state_from_dict(load_json(text, where))
