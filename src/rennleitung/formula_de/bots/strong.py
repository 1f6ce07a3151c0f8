"""The strong bot: the gear with the best expected outcome over every face of its die.

For each gear it may pick (and the engine boost), it weighs every face of the die with its
probability (``dice.GEAR_PROBABILITIES``) and, for each face, the best way to end the move:
driving on or braking, with the tyre cost of overshooting, missed stops, the rain slide, fuel
for skipped gears and the squeeze before the next stop (``evaluate.squeeze``). To stay fast it
sketches each move along the car's own lane (``TrackInfo.line_next``) instead of asking the move
generator for every face: one walk of at most 36 spaces per decision, then table lookups. The
real move is then chosen among the race's legal options with ``evaluate.option_value``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rennleitung.formula_de.bots.base import (
    Strategy,
    common,
    fuel_needed,
    in_pit_lane,
    pit_plan,
    wants_pit,
)
from rennleitung.formula_de.bots.evaluate import (
    ELIMINATED,
    Context,
    context,
    option_value,
    point_price,
    room_after,
    squeeze,
)
from rennleitung.formula_de.bots.refuel import (
    DRY,
    box_distance,
    flag_distance,
    pit_open_after_lap,
    reach_odds,
    refuel_box,
    rollout_gears,
)
from rennleitung.formula_de.car import Wear, WearArea, Weather
from rennleitung.formula_de.dice import GEAR_PROBABILITIES
from rennleitung.formula_de.movegen import generate_moves_for_rolls
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import Choices, request_for
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Decision, MoveChoice, TurnChoice
from rennleitung.formula_de.race_gears import skip_cost
from rennleitung.formula_de.race_questions import Ask, MoveQuestion, TurnQuestion
from rennleitung.formula_de.track import SpaceKind

MAX_SKETCH = 40

EXACT, MARGIN = 0, 10.0
"""Off by default: with ``exact=2`` the two best gears of the sketch, when within 10 spaces of
each other and near a stop, are weighed again with the move generator's own options, which see
slipstream, dangerous spaces and the longer ways through a corner that the sketch misses. It
did not win more races for what it costs (docs/formula_de/bots.md). With the faster move
generator (2026-11-29) it costs little (1.1 races/s against 1.6) but still does not pay: 50 %
of 100 benchmark races won against steady (Wilson 40–60 %) against 48 % without."""

STRATEGY = Strategy(split=Wear(tyres=5, brakes=3, fuel=5, body=2, engine=3, road_holding=3, box=1))
"""A third road-holding point for a body point: a strong car that lasts meets the dangerous
spaces others leave (wrecks, boosts), and two failed road-holding tests ended it in one race
of ten (Masters 20-5). Against the steady bot: 55 % of 220 seeded races won, 51 % before."""

BOOST = 6.0
"""What an engine boost costs beyond its engine point, in spaces: the dangerous space it marks
for everyone behind (Dresden "Verschleiß")."""

SQUEEZE = 0.3
"""Weight of the look ahead per face. The squeeze is a pessimistic guess of the next turn, and
applied to every face it made the bot slow; 0.3 gave the best average finishing position
against the simple bot over 72 seeded mixed races (weights 1.0, 0.5, 0.3, 0.15 tried)."""

FACES: dict[int, tuple[tuple[int, float], ...]] = {
    gear: tuple((value, float(p)) for value, p in probs.items())
    for gear, probs in GEAR_PROBABILITIES.items()
}


MEAN_FACE: dict[int, tuple[tuple[int, float], ...]] = {
    gear: ((round(sum(v * p for v, p in faces)), 1.0),) for gear, faces in FACES.items()
}
"""One face per gear, the rounded mean: the simple bot's view of the dice."""


@dataclass(frozen=True, slots=True)
class Step:
    """The sketched car after ``n`` spaces: where, stops made in its corner, spaces overshot,
    whether it is out, and whether ending here is a required stop."""

    space: int
    made: int
    over: int
    out: bool
    stop: bool
    blocked: int = 0


@dataclass(frozen=True, slots=True)
class Candidate:
    """A gear (and boost) with its sketched value, what shifting into it costs, and the
    brakes and fuel left after paying for skipped gears."""

    value: float
    gear: int
    boost: bool
    cost: float
    brakes: int
    fuel: int


def effects_launch(race: Race, car: str) -> int:
    state = race.cars[car]
    if not race.info[car].launch_pending:
        return 0
    return state.profile.effects_at(in_pit_lane=in_pit_lane(race, car)).launch


def fuel_penalty(race: Race, car: str, left: int, gear: int = 4) -> float:
    """Skipping gears (into ``gear``) with fuel the laps still need: a pit stop at best,
    rolling out at worst (Dresden Verschleiß: no fuel at the last corner means rolling out,
    saved only by the box or the flag). The car runs dry leaving the last corner of lap
    ``dry``; a box open after an earlier lap makes it a normal stop, a box open after that lap
    a roll into the box; on the last lap it may roll out to the flag; else it retires (in FD
    Blitz the only fuel point must last lap 1, Masters 19-2-4)."""
    need = fuel_needed(race, car)
    if left >= need:
        return 0.0
    rules = race.ruleset
    done = race.laps_done(car)
    dry = done + 1 + left // max(rules.fuel_per_lap, 1)
    if any(pit_open_after_lap(race, lap) for lap in range(done + 1, dry)):
        return 12.0
    if pit_open_after_lap(race, dry):
        return 150.0  # rolling out into the box: a long way to it for a slow car
    if dry >= race.laps:
        odds = reach_odds(flag_distance(race.track), rollout_gears(min(gear + 1, 6)))
        return max(200.0, (1.0 - odds) * DRY)
    return DRY


NEAR = 60
"""Spaces to the box within which a dry car plans its way into it, move by move."""


def refuel_risk(
    ctx: Context,
    start: int,
    steps: list[Step],
    gear: int,
    faces: tuple[tuple[int, float], ...],
    extra: int,
) -> float:
    """For a car that must roll into its box to refuel (``Context.box_dist``): the chance,
    priced at ``DRY``, of not getting there. A face that leaves the last corner has the rolls
    of the lower gears left to cover the way to the box (Dresden "Verschleiß"); a face that ends
    in the last corner leaves it next turn at best one gear higher (no fuel to skip gears), at
    most in the pit lane's gear limit (Dresden "Boxenstopp"). Faces short of the corner are left
    to later turns."""
    dist = ctx.box_dist
    assert dist is not None
    last = ctx.track.last_corner.spaces
    exit_at = next(
        (
            n
            for n in range(1, len(steps))
            if steps[n - 1].space in last and steps[n].space not in last
        ),
        None,
    )
    if dist[start] > NEAR:
        return 0.0
    if exit_at is None:  # the sketch is blocked short of the corner's exit
        exit_at = len(steps)
    cap = ctx.pit_max_gear
    stops = ctx.track.last_corner.stops
    memo: dict[tuple[int, ...], float] = {}
    risk = 0.0
    for face, p in faces:
        moved = face + extra
        if moved >= exit_at:
            left = dist[start] - moved
            gears = rollout_gears(gear)
            if left <= 0:
                continue
            odds = 0.0 if gear > cap and gears and gears[0] > cap else reach_odds(left, gears)
        else:
            step = steps[min(moved, len(steps) - 1)]
            owed = stops
            if step.space in last:
                owed = max(stops - step.made - (1 if step.stop else 0), 0)
            odds = exit_odds(ctx, step.space, gear, owed, 2, memo)
        risk += p * (1.0 - odds) * DRY
    return risk


def exit_odds(
    ctx: Context, space: int, gear: int, owed: int, depth: int, memo: dict[tuple[int, ...], float]
) -> float:
    """The chance that a dry car on ``space`` in ``gear``, owing ``owed`` stops in the last
    corner, rolls into its box, choosing its next gear well: one lower, the same or one higher
    (no fuel to skip gears, Dresden "Verschleiß"), at most the pit lane's limit. Its moves
    follow the sketch's line; leaving the last corner with a stop owed counts as failing (no
    brakes in FD Blitz, the tyres pay). ``depth`` more moves are looked at, beyond that the way
    is taken to be open."""
    dist = ctx.box_dist
    assert dist is not None
    last = ctx.track.last_corner.spaces
    if space in last and not owed:
        nxt = min(gear + 1, ctx.pit_max_gear)
        return reach_odds(dist[space], (nxt, *rollout_gears(nxt)))
    if depth < 0:
        return 1.0
    key = (space, gear, owed, depth)
    found = memo.get(key)
    if found is not None:
        return found
    line = ctx.info.line_next
    best = 0.0
    for nxt in range(max(gear - 1, 1), min(gear + 1, ctx.pit_max_gear) + 1):
        odds = 0.0
        for face, p in FACES[nxt]:
            here = space
            for _ in range(face):
                there = line[here]
                if here in last and there not in last:
                    break  # leaves the corner with a stop owed: an overshoot
                here = there
            else:
                left = owed - 1 if here in last else owed
                odds += p * exit_odds(ctx, here, nxt, left, depth - 1, memo)
        best = max(best, odds)
    memo[key] = best
    return best


def sketch(
    ctx: Context, start: int, made: int, length: int, occupied: frozenset[int] = frozenset()
) -> list[Step]:
    """The car's path for ``length`` spaces with the corner bookkeeping of Masters 10 (one
    missing stop: overshoot; two: out). It follows ``TrackInfo.line_next`` and steers round
    occupied spaces; when every way ahead is taken the remaining steps count as blocked
    (Dresden "Blockierte Spur")."""
    track = ctx.track
    line = ctx.info.line_next
    corners = track.corners
    steps = [Step(start, made, 0, False, False)]
    here = start
    over = 0
    out = False
    blocked = 0
    made = made if track.spaces[start].corner else 0
    for _ in range(length):
        nxt = line[here]
        if nxt in occupied or blocked:
            free = [
                s
                for s in track.successors[here]
                if s not in occupied and track.spaces[s].kind is SpaceKind.TRACK
            ]
            if blocked or not free:
                blocked += 1
                steps.append(Step(here, made, over, out, False, blocked))
                continue
            nxt = free[0]
        corner = track.spaces[here].corner
        there = track.spaces[nxt].corner
        if over:
            over += 1
        if corner and there != corner:
            missing = corners[corner - 1].stops - made
            if missing >= 2 or (missing >= 1 and over):
                out = True
            elif missing == 1:
                over = 1
        if there != corner:
            made = 0
        stop = bool(there) and made < corners[there - 1].stops
        steps.append(Step(nxt, made, over, out, stop))
        here = nxt
    return steps


@dataclass
class StrongBot:
    """Expected value over all faces (``mean_only``: one face per gear, the steady bot);
    ``wear_scale`` prices wear, ``look_ahead`` weighs the squeeze before the next stop;
    ``exact`` gears within ``margin`` of the best sketch are weighed again with the move
    generator's own options; ``strategy`` holds the setup and tyres."""

    name: str = "strong"
    mean_only: bool = False
    wear_scale: float = 1.0
    look_ahead: float = SQUEEZE
    exact: int = EXACT
    margin: float = MARGIN
    strategy: Strategy = STRATEGY

    def decide(self, race: Race, ask: Ask) -> Decision:
        found = common(race, ask, self.strategy)
        if found is not None:
            return found
        if isinstance(ask, TurnQuestion):
            return self.turn(race, ask)
        assert isinstance(ask, MoveQuestion)
        return MoveChoice(self.move(race, ask.car, ask.moves).path)

    def move(self, race: Race, car: str, moves: tuple[MoveOption, ...]) -> MoveOption:
        ctx = context(race, car, wants_pit(race, car), self.wear_scale)
        gear = race.cars[car].gear
        return max(moves, key=lambda o: (option_value(ctx, o, gear), o.path))

    def turn(self, race: Race, ask: TurnQuestion) -> TurnChoice:
        car = ask.car
        state = race.cars[car]
        pitting = wants_pit(race, car)
        ctx = context(race, car, pitting, self.wear_scale)
        rules = race.ruleset
        tyre = rules.tyre(state.tyre)
        effects = state.profile.effects_at(in_pit_lane=in_pit_lane(race, car))
        base = effects.movement + tyre.movement_malus(state.set_lap)
        if ask.launch_optional or race.info[car].launch_pending:
            base += effects.launch
        if ask.soft_bonus:
            base += 1
        slide = (
            tyre.rain_slide + effects.rain_slide
            if race.weather.current is Weather.RAIN
            else effects.corner_stop_sun
        )
        occupied = frozenset(
            s.space for c, s in race.cars.items() if c != car and s.status.on_track
        )
        steps = sketch(ctx, state.space, state.corner_stops, MAX_SKETCH, occupied)
        rooms = [room_after(ctx, st.space, st.made + (1 if st.stop else 0)) for st in steps]
        cap = rules.pit_lane_max_gear if (pitting and ask.pit_plans) else None
        found: list[Candidate] = []
        for gear in ask.gears:
            if cap is not None and gear > cap:
                continue
            cost = 0.0
            paid = skip_cost(rules, state.gear, gear)
            brakes = ctx.brakes - paid.get(WearArea.BRAKES, 0)
            fuel_after = ctx.fuel - paid.get(WearArea.FUEL, 0)
            for area, points in paid.items():
                left = state.wear[area] - points
                if area is WearArea.FUEL:
                    spare = left - fuel_needed(race, car)
                    cost += point_price(max(spare, 0)) * 2 + fuel_penalty(race, car, left, gear)
                else:
                    cost += points * point_price(left) * ctx.scale
                if area is WearArea.ENGINE and left == 0:
                    cost += 500.0
            dry = ctx if ctx.box_dist is not None else None
            if dry is None and fuel_after < ctx.fuel:  # skipping gears may leave it dry
                box = refuel_box(race, car, fuel_after)
                if box is not None:
                    dry = replace(ctx, fuel=fuel_after, box_dist=box_distance(race.track, box))
            boosts = (False, True) if ask.boost and gear >= 3 and dry is None else (False,)
            for boost in boosts:  # a dry car wants its box, not the spaces past it
                extra = base + (gear if boost else 0)
                value = -cost - (BOOST if boost else 0.0)
                faces = MEAN_FACE[gear] if self.mean_only else FACES[gear]
                for face, p in faces:
                    value += p * self._face(
                        ctx, steps, rooms, face + extra, gear, brakes, slide, fuel_after
                    )
                if dry is not None:
                    value -= refuel_risk(dry, state.space, steps, gear, faces, extra)
                found.append(Candidate(value, gear, boost, cost, brakes, fuel_after))
        plan = None
        if pitting and ask.pit_plans and race.info[car].pit_plan is None:
            plan = pit_plan(race, car, self.strategy)
        if not found:
            return TurnChoice(gear=min(ask.gears), soft_bonus=ask.soft_bonus, pit=plan)
        found.sort(key=lambda c: (-c.value, c.gear, c.boost))
        best = found[0]
        close = [c for c in found[: self.exact] if c.value >= best.value - self.margin]
        reach = max((FACES[c.gear][-1][0] + c.gear * c.boost for c in close), default=0) + base
        if len(close) > 1 and rooms[0] < reach:  # on a long straight the sketch is exact enough
            best = max(close, key=lambda c: self.exact_value(race, ask, ctx, c))
        return TurnChoice(gear=best.gear, boost=best.boost, soft_bonus=ask.soft_bonus, pit=plan)

    def exact_value(self, race: Race, ask: TurnQuestion, ctx: Context, c: Candidate) -> float:
        """The expected move score of a gear over every face, from the move generator's own
        options. One walk serves every face (``generate_moves_for_rolls``); it is asked for
        unbraked moves only, and braking ``b`` points on face ``f`` is read as the unbraked
        move of ``f - b`` plus the brake points (Masters 11: braking shortens the move)."""
        car = ask.car
        choices = Choices(
            gear=c.gear, boost=c.boost, soft_bonus=ask.soft_bonus, extra=effects_launch(race, car)
        )
        request = replace(request_for(race.to_position(car), car, 0, choices), brakes=0)
        here = replace(ctx, brakes=c.brakes, fuel=c.fuel)
        faces = FACES[c.gear]
        rolls = range(faces[0][0] - c.brakes, faces[-1][0] + 1)
        options = generate_moves_for_rolls(race.track, request, list(rolls))
        free: dict[int, float] = {}
        plain: dict[int, float] = {}  # without slipstream, which needs the full roll (18-1)
        for roll, moves in options.items():
            scored = [(option_value(here, o, c.gear), o.slipstreams) for o in moves]
            free[roll] = max((v for v, _ in scored), default=0.0)
            plain[roll] = max((v for v, slip in scored if not slip), default=ELIMINATED)
        value = -c.cost - (BOOST if c.boost else 0.0)
        for face, p in faces:
            best = free[face]
            for braking in range(1, c.brakes + 1):
                price = braking * point_price(c.brakes - braking) * here.scale
                best = max(best, plain[face - braking] - price)
            value += p * best
        return value

    def _face(
        self,
        ctx: Context,
        steps: list[Step],
        rooms: list[int],
        distance: int,
        gear: int,
        brakes: int,
        slide: int,
        fuel: int,
    ) -> float:
        """The best end of a sketched move of ``distance`` spaces: brake 0 … all points."""
        best = ELIMINATED
        top = min(distance, MAX_SKETCH)
        for braking in range(0, min(brakes, top) + 1):
            n = top - braking
            step = steps[n]
            if step.stop and slide:
                n = max(0, min(n + slide, MAX_SKETCH))
                step = steps[n]
            if step.out:
                continue
            tyres = ctx.tyres
            spent = braking
            value = float(n - step.blocked)
            if step.blocked:
                cost = ctx.ruleset.blocked_cost(step.blocked)
                if cost is None or cost[0] + braking > brakes or cost[1] > tyres:
                    continue
                spent += cost[0]
                tyres -= cost[1]
                value -= cost[1] * point_price(tyres) * 1.3 * ctx.scale
            value -= spent * point_price(brakes - spent) * ctx.scale
            if step.over:
                wear = step.over * ctx.factor
                if wear > tyres:
                    continue
                tyres -= wear
                value -= wear * point_price(tyres) * 1.3 * ctx.scale + (25.0 if tyres == 0 else 0.0)
            value -= self.look_ahead * squeeze(ctx, rooms[n], gear, brakes - spent, tyres, fuel)
            if value > best:
                best = value
        return best
