"""What a move is asked and what it answers: the request, the options, and the cost tables.

The generator (movegen.py) and the checker (movecheck.py) share these types and tables, so that
the two independent implementations of the driving rules are compared on the same terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from rennleitung.formula_de.ruleset import DRESDEN_2006

DEFAULTS = DRESDEN_2006
"""Where a bare ``MoveRequest`` takes its blocked-lane table and slipstream figures from; the
race fills them from its own ``Ruleset`` (``moves.request_for``)."""


class Elimination(Enum):
    """Why a move eliminates the car, with the rule that says so."""

    MISSED_STOPS = "Masters 10-1"
    TYRES_OVERSHOOT = "Masters 10-3"
    BLOCKED_TOO_FAR = "Masters 12-1-1"
    BLOCKED_UNPAID = "Dresden Blockierte Spur"
    BLOCKED_UNPAID_MASTERS = "Masters 12-1-1, 20-2-1"
    """The same elimination under ``masters-2002``, which cites its own rule (issue 22)."""

    @property
    def rule(self) -> str:
        """The rule reference, e.g. ``Masters 10-1``."""
        return self.value

    @property
    def code(self) -> str:
        """The reason's code in data (``blocked_unpaid`` whichever rule it cites)."""
        return "blocked_unpaid" if self is Elimination.BLOCKED_UNPAID_MASTERS else self.name.lower()

    @property
    def text_de(self) -> str:
        """German reason."""
        return _ELIMINATION_TEXT[self][0]

    @property
    def text_en(self) -> str:
        """English reason."""
        return _ELIMINATION_TEXT[self][1]


_ELIMINATION_TEXT: Mapping[Elimination, tuple[str, str]] = {
    Elimination.MISSED_STOPS: (
        "zwei oder mehr Kurvenstopps fehlen",
        "two or more corner stops missing",
    ),
    Elimination.TYRES_OVERSHOOT: (
        "Reifenschaden: nicht genug Reifenpunkte für das Überschießen",
        "tyre failure: not enough tyre points for the overshoot",
    ),
    Elimination.BLOCKED_TOO_FAR: (
        "blockiert um sieben oder mehr Felder",
        "blocked by seven or more spaces",
    ),
    Elimination.BLOCKED_UNPAID: (
        "Blockade nicht mit Brems- und Reifenpunkten zu bezahlen",
        "blocking cannot be paid with brake and tyre points",
    ),
    Elimination.BLOCKED_UNPAID_MASTERS: (
        "Blockade nicht mit Brems- und Reifenpunkten zu bezahlen",
        "blocking cannot be paid with brake and tyre points",
    ),
}


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """Everything the driving rules need to list the moves of one car for one roll.

    ``distance`` is the number of spaces to move after every modifier (roll, profile, soft-tyre
    bonus or malus, engine boost). ``slide`` is added when the move ends as a required corner stop
    (rain sliding by tyre type and profile, or the profiles' ±1 in sunshine; it may be −1).
    ``overshoot_factor`` is the tyre points per overshot space for this car's tyres, weather and
    set lap (Dresden "Reifen", Masters 10-0-2). ``occupants`` maps every space with another car or
    a wreck to its id; ``slipstream_gears`` gives, for the cars that may be slipstreamed (not spun,
    not rolling out), their gear. ``box`` is the car's own box space, or -1.
    ``zero_tyres_spin`` says whether a car without tyre points that owes one more for
    overshooting spins again (Masters 10-4-2) or retires with a tyre failure (Dresden
    "Verschleiß": "Müsste ein Fahrer mehr VP Reifen wegstreichen als vorhanden").
    ``blocked_plays_first`` keeps, of a blocked car's farthest ends, only those from which it
    would play first next round (Masters 12-1-3; Dresden "Blockierte Spur" lets him choose).
    ``blocked_unpaid`` is the elimination of a blocking the car cannot pay, with the rule the
    ruleset cites for it (``Ruleset.blocking_cites_masters``).
    ``soft_bonus`` says that ``distance`` includes the soft-tyre +1, which the car may instead
    spend after any full slipstream of the move, also between two (Masters 18-3-1, 18-5-1).
    """

    start: int
    distance: int
    gear: int
    brakes: int
    tyres: int
    overshoot_factor: int = 1
    slide: int = 0
    corner_stops: int = 0
    occupants: Mapping[int, str] = field(default_factory=dict)
    dangerous: frozenset[int] = frozenset()
    slipstream_gears: Mapping[int, int] = field(default_factory=dict)
    pit_allowed: bool = False
    box: int = -1
    box_taken: bool = False
    blocked_table: tuple[tuple[int, int], ...] = DEFAULTS.blocked_table
    slipstream_min_gear: int = DEFAULTS.slipstream_min_gear
    slipstream_spaces: int = DEFAULTS.slipstream_spaces
    slipstream_corner_brakes: int = DEFAULTS.slipstream_corner_brakes
    zero_tyres_spin: bool = DEFAULTS.zero_tyres_spin_again
    blocked_plays_first: bool = DEFAULTS.blocked_end_plays_first
    soft_bonus: bool = False
    blocked_unpaid: Elimination = Elimination.BLOCKED_UNPAID

    def blocked_cost(self, shortfall: int) -> tuple[int, int] | None:
        """Brake and tyre points for a blocked car, or None when the blocking eliminates it."""
        if shortfall <= 0:
            return (0, 0)
        if shortfall > len(self.blocked_table):
            return None
        return self.blocked_table[shortfall - 1]


class MoveOption(NamedTuple):
    """One legal way to end a move, with everything it costs and triggers.

    A named tuple rather than a dataclass: a race lists some twenty of these per move and a
    tuple is built several times faster; like a frozen dataclass it is immutable and compares
    by its fields.

    ``path`` lists the spaces entered in order (the start excluded). ``stop_corner`` is the corner
    in which the end counts as a stop (0 if none) and ``corner_stops`` the stops made in the end
    space's corner after the move. ``contacts`` are the occupied spaces whose cars must take a
    collision test with this car (Masters 14-1). ``dangerous`` are the dangerous spaces entered,
    one road-holding test each (Masters 17-0-2). ``blocked`` is the number of spaces the car could
    not move (Dresden "Blockierte Spur"); ``body_loss`` the space of the car that then loses a body
    point (-1 if none).
    """

    start: int
    path: tuple[int, ...]
    brakes: int = 0
    tyres: int = 0
    fuel: int = 0
    lane_changes: int = 0
    stop_corner: int = 0
    corner_stops: int = 0
    overshoot: int = 0
    dangerous: tuple[int, ...] = ()
    wall_tests: int = 0
    contacts: tuple[int, ...] = ()
    slipstreams: int = 0
    blocked: int = 0
    laps: int = 0
    spin: bool = False
    pit: bool = False
    leftover: int = 0
    body_loss: int = -1
    eliminated: Elimination | None = None

    @property
    def end(self) -> int:
        """The space where the car ends (its start if it did not move)."""
        return self.path[-1] if self.path else self.start

    def replace_elimination(self, reason: Elimination, body_loss: int) -> MoveOption:
        """The same move, eliminating the car for ``reason``."""
        return self._replace(eliminated=reason, body_loss=body_loss, spin=False)

    @property
    def spaces_moved(self) -> int:
        """How many spaces the car moved."""
        return len(self.path)

    def order_key(self) -> tuple[object, ...]:
        """Where the option stands in the generator's canonical order (issue 25): options that
        keep the car in the race first, then by spaces moved, end space (index), brake points,
        tyre points, fuel, the corner stop and stops made, overshoot, dangerous spaces (sorted),
        wall tests, slipstreams, blocked spaces, spin, pit, and the elimination's rule. It holds
        every part of the folding key, so no two options of one answer tie, and the order does
        not depend on how the generator searched (docs/formula_de/movement.md)."""
        rule = "" if self.eliminated is None else self.eliminated.value
        return (
            self.eliminated is not None,
            len(self.path),
            self.end,
            self.brakes,
            self.tyres,
            self.fuel,
            self.stop_corner,
            self.corner_stops,
            self.overshoot,
            tuple(sorted(self.dangerous)),
            self.wall_tests,
            self.slipstreams,
            self.blocked,
            self.spin,
            self.pit,
            rule,
        )

    def cost_key(self) -> tuple[object, ...]:
        """Everything that makes two options with the same end different for the driver."""
        return cost_key_of(
            self.end,
            self.brakes,
            self.tyres,
            self.fuel,
            self.stop_corner,
            self.corner_stops,
            self.overshoot,
            self.dangerous,
            self.wall_tests,
            self.slipstreams,
            self.blocked,
            self.spin,
            self.pit,
            self.eliminated,
        )


def cost_key_of(
    end: int,
    brakes: int,
    tyres: int,
    fuel: int,
    stop_corner: int,
    corner_stops: int,
    overshoot: int,
    dangerous: tuple[int, ...],
    wall_tests: int,
    slipstreams: int,
    blocked: int,
    spin: bool,
    pit: bool,
    eliminated: Elimination | None,
) -> tuple[object, ...]:
    """The folding key of an option (``MoveOption.cost_key``), computable before the option
    exists so that the generator only builds options that are new."""
    return (
        end,
        brakes,
        tyres,
        fuel,
        stop_corner,
        corner_stops,
        overshoot,
        tuple(sorted(dangerous)) if len(dangerous) > 1 else dangerous,
        wall_tests,
        slipstreams,
        blocked,
        spin,
        pit,
        eliminated,
    )
