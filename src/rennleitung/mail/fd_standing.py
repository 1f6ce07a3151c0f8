"""The one standing order a mail player may give with his gear: ``Wenn zu viel: bremsen, Spur
halten`` / ``if too many: brake, keep lane``.

By mail a turn costs two round trips (the gear, then the move after the roll). A player who
already knows what he would do with a roll too high for him says so with the gear, and the move
question is answered at once instead of waiting for his next mail.

"Too many" means the roll cannot be used in the car's lane without paying for it: no legal move
(Masters 6-3 steps 5–8) that changes no lane ends without brake or tyre points (tyres pay for
overshooting a corner, Masters 10) and without elimination. Then the order takes, among the moves
that change no lane and do not eliminate the car, the cheapest (``fd_orders.option_cost``: wear
points, then tests), i.e. it brakes as little as it must. If the roll can be used in the lane, or
no move keeps the lane, the order is not used and the move question goes
out as usual. The order counts for the turn of the mail that gives it only; ``fd_orders`` reads
its line.
"""

from __future__ import annotations

from rennleitung.formula_de.movement import MoveOption
from rennleitung.mail.fd_orders import option_cost


def too_many(moves: tuple[MoveOption, ...]) -> bool:
    """Whether every legal move in the car's lane costs brake or tyre points or eliminates
    the car."""
    return bool(moves) and not any(o.lane_changes == 0 and o.brakes == 0 and o.tyres == 0
                                   and o.eliminated is None for o in moves)


def brake_keep_lane(moves: tuple[MoveOption, ...]) -> MoveOption | None:
    """The move the order takes if the roll is too many, else None (the player is asked)."""
    if not too_many(moves):
        return None
    kept = [o for o in moves if o.lane_changes == 0 and o.eliminated is None]
    return min(kept, key=option_cost) if kept else None
