"""How good a move is, in spaces: distance gained minus wear, risk and the next stop's squeeze.

Both bots score moves with ``option_value``. Wear is priced by scarcity (the last points are
dear), black-die risks by their odds (Masters 14, 17: a test is lost on 1–4 or 1–5 in rain),
and ``squeeze`` looks one move ahead: for the best gear the car can reach next turn it weighs
every face that rolls further than the room before the stop that is due, paying first with
brakes, then with tyres (Masters 10, 11).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rennleitung.formula_de.bots.refuel import (
    DRY,
    box_distance,
    reach_odds,
    refuel_box,
    rollout_gears,
)
from rennleitung.formula_de.bots.track_info import TrackInfo, track_info
from rennleitung.formula_de.car import WearArea, Weather
from rennleitung.formula_de.dice import GEAR_PROBABILITIES
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.formula_de.track import SpaceKind, Track

ELIMINATED = -1000.0

_FACES: dict[int, tuple[tuple[int, float], ...]] = {
    gear: tuple((value, float(p)) for value, p in probs.items())
    for gear, probs in GEAR_PROBABILITIES.items()
}


@dataclass(frozen=True, slots=True)
class Context:
    """The car's situation before the move, taken once per decision."""

    track: Track
    info: TrackInfo
    ruleset: Ruleset
    brakes: int
    tyres: int
    fuel: int
    fuel_needed: int
    road_holding: int
    body: int
    factor: int
    rain: bool
    start_height: float
    wants_pit: bool
    scale: float = 1.0
    box_dist: tuple[int, ...] | None = None
    """Distances to the box when the car runs dry at this lap's last corner and must roll
    into its box to refuel (``refuel.refuel_box``); None otherwise."""
    rolling_out: bool = False
    pit_max_gear: int = 99


def context(race: Race, car: str, wants_pit: bool, scale: float = 1.0) -> Context:
    """The car's situation; ``scale`` prices wear (below 1: a bolder driver)."""
    state = race.cars[car]
    rules = race.ruleset
    tyre = rules.tyre(state.tyre)
    box = refuel_box(race, car)
    return Context(
        track=race.track,
        info=track_info(race.track),
        ruleset=rules,
        brakes=state.wear[WearArea.BRAKES],
        tyres=state.wear[WearArea.TYRES],
        fuel=state.wear[WearArea.FUEL],
        fuel_needed=(race.laps - race.laps_done(car)) * rules.fuel_per_lap,
        road_holding=state.wear[WearArea.ROAD_HOLDING],
        body=state.wear[WearArea.BODY],
        factor=tyre.overshoot_per_space(race.weather.current, state.set_lap),
        rain=race.weather.current is Weather.RAIN,
        start_height=race.track.spaces[state.space].height,
        wants_pit=wants_pit,
        scale=scale,
        box_dist=None if box is None else box_distance(race.track, box),
        rolling_out=race.info[car].rolling_out is not None,
        pit_max_gear=rules.pit_lane_max_gear or 99,
    )


def point_price(left: int) -> float:
    """What one more point costs in spaces when ``left`` remain after paying it."""
    return 1.5 + 6.0 / max(left + 1, 0.5)


def room_after(ctx: Context, end: int, stops_made: int) -> int:
    track = ctx.track
    here = track.spaces[end]
    if here.kind is not SpaceKind.TRACK:
        return 99
    if here.corner and stops_made < track.corners[here.corner - 1].stops:
        return ctx.info.room(end, here.corner)
    nxt = ctx.info.next_corner[end]
    return ctx.info.room(end, nxt) if nxt else 99


def squeeze(ctx: Context, room: int, gear: int, brakes: int, tyres: int, fuel: int) -> float:
    """The cost of the least bad next move from a car with ``room`` spaces before its stop."""
    return _squeeze(
        min(room, 40), gear, brakes, tyres, fuel, ctx.factor, ctx.fuel_needed, ctx.scale
    )


@lru_cache(maxsize=65536)
def _squeeze(
    room: int,
    gear: int,
    brakes: int,
    tyres: int,
    fuel: int,
    factor: int,
    fuel_needed: int,
    scale: float,
) -> float:
    best = 1e9
    for down in range(0, 4):
        g = max(gear - 1 - down, 1)
        skipped = max(gear - g - 1, 0)
        if skipped and fuel < 1:
            break
        cost = 0.0
        if skipped:
            left = fuel - 1
            cost += 2.0 + 3.0 * (skipped - 1)
            cost += 60.0 if left < 1 and fuel_needed else 15.0 if left < fuel_needed else 0.0
        for face, p in _FACES[g]:
            need = max(0, face - room)
            braking = min(need, brakes)
            excess = need - braking
            face_cost = braking * point_price(brakes - braking) * scale if braking else 0.0
            if excess:
                wear = excess * factor
                face_cost += wear * point_price(max(tyres - wear, 0)) * 1.3 * scale
                face_cost += 60.0 if wear >= tyres else 0.0
            cost += p * face_cost
        best = min(best, cost)
        if g == 1:
            break
    return best


def pit_approach(ctx: Context, end: int) -> float:
    """A car that wants to pit should be in the lane of the pit entries before it reaches
    them (the entry is a lane change from that lane only, Dresden Boxenstopp)."""
    track = ctx.track
    pit = track.pit
    assert pit is not None
    here = track.spaces[end]
    entry = track.spaces[pit.entry_limit]
    ahead = entry.height - here.height
    if here.kind is not SpaceKind.TRACK or not 0 <= ahead <= 30:
        return 0.0
    return 4.0 if here.lane == entry.lane else -2.0 * abs(here.lane - entry.lane)


def dry_risk(ctx: Context, option: MoveOption, gear: int) -> float:
    """What a move of a car that must roll into its box to refuel risks: leaving the last
    corner dry (or already rolling out) and not reaching the box in the rolls that are left,
    one gear lower each (Dresden "Verschleiß"); entering the pit lane only in its gear limit."""
    assert ctx.box_dist is not None
    if not (ctx.rolling_out or (option.fuel and ctx.fuel < ctx.ruleset.fuel_per_lap)):
        return 0.0
    gears = rollout_gears(gear)
    on_track = ctx.track.spaces[option.end].kind is SpaceKind.TRACK
    if on_track and gears and gears[0] > ctx.pit_max_gear:
        return DRY
    return (1.0 - reach_odds(ctx.box_dist[option.end], gears)) * DRY


def option_value(ctx: Context, option: MoveOption, gear: int) -> float:
    """The worth of ending a move this way, in spaces."""
    if option.eliminated is not None:
        return ELIMINATED
    track = ctx.track
    end = option.end
    gain = track.spaces[end].height - ctx.start_height + option.laps * track.lap_rows
    value = gain
    brakes = ctx.brakes - option.brakes
    tyres = ctx.tyres - option.tyres
    if option.brakes:
        value -= option.brakes * point_price(brakes) * ctx.scale
    if option.tyres:
        value -= option.tyres * point_price(tyres) * 1.3 * ctx.scale
    if option.spin:
        value -= 25.0
    rh_odds = min(ctx.ruleset.road_holding_limit(ctx.rain) / 20, 1.0)
    for _ in option.dangerous:
        value -= rh_odds * (60.0 if ctx.road_holding <= 1 else 12.0)
    col_odds = ctx.ruleset.collision_limit(ctx.rain, False) / 20
    hits = len(option.contacts) + option.wall_tests
    value -= hits * col_odds * (60.0 if ctx.body <= 1 else 12.0)
    if option.fuel and ctx.fuel < option.fuel * ctx.ruleset.fuel_per_lap:
        value -= 30.0
    if ctx.box_dist is not None and track.spaces[end].kind is not SpaceKind.BOX:
        value -= dry_risk(ctx, option, gear)
    into_pit = option.pit or track.spaces[end].kind is not SpaceKind.TRACK
    from_track = track.spaces[option.start].kind is SpaceKind.TRACK
    if into_pit and from_track:
        value += 15.0 if ctx.wants_pit else -200.0
    elif ctx.wants_pit and track.pit is not None:
        value += pit_approach(ctx, end)
    if not option.pit and not option.spin:
        room = room_after(ctx, end, option.corner_stops)
        value -= squeeze(ctx, room, gear, brakes, tyres, ctx.fuel)
    return value
