"""The Formula Dé track as a directed graph of spaces.

Every question the referee asks of a board is answered here from tables that are computed once
when the track is built: successors along arrows and lanes (Masters 7-1-4, 7-2), corner membership
and flags (7-1-1), neighbours beside and behind (collisions, Masters 14; slipstream, Masters 18),
the height of a space along the lap (order of play, Dresden "Rennen", Masters 6-2), the line and
the edges that cross it (lap counting), the grid, the pit lane (Masters 19), the concrete wall
(Masters 15), the last corner before the line (fuel, Dresden "Verschleiß") and the weather table
(Masters 3). Spaces are plain integers (indices into the tables) so that move generation can work
on tuples and sets of ints; names like ``B17`` are the human notation (see ``space_name``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import WeatherRoll

LANE_LETTERS = "ABCD"
PIT_LANE_PREFIX = "P"
BOX_PREFIX = "BOX"

Point = tuple[float, float]


class SpaceKind(Enum):
    """Where a space lies: on the racing surface, in the pit lane, or a box (Masters 19-2-1)."""

    TRACK = "track"
    PIT_LANE = "pit_lane"
    BOX = "box"


@dataclass(frozen=True, slots=True)
class WeatherTable:
    """A track's 1–20 table for the black die: results up to ``rain_max`` mean rain, up to
    ``changeable_max`` changeable, the rest sun. The default 1–4 / 5–8 / 9–20 is our own choice
    for tracks whose file gives none (documented in docs/formula_de/track-files.md)."""

    rain_max: int = 4
    changeable_max: int = 8

    def weather_for(self, roll: int) -> WeatherRoll:
        """The weather a black-die roll (1–20) gives on this track."""
        if not 1 <= roll <= 20:
            raise RennleitungError(
                f"Wetterwurf {roll} liegt nicht zwischen 1 und 20",
                f"weather roll {roll} is not between 1 and 20",
                "Masters 3",
            )
        if roll <= self.rain_max:
            return WeatherRoll.RAIN
        if roll <= self.changeable_max:
            return WeatherRoll.CHANGEABLE
        return WeatherRoll.SUN


@dataclass(frozen=True, slots=True)
class Space:
    """One space of the board.

    ``lane`` is 0 for lane A (leftmost in the driving direction), 1 for B, …; the pit lane and the
    boxes have ``lane == -1``. ``number`` counts along the lane from the line, starting at 1.
    ``segment`` is the index of the straight or corner in the track file; ``corner`` is the corner
    number (1-based, in running order) or 0 on a straight. ``start`` and ``end`` give the space's
    extent along the lap in "rows" (one row = one straight space), which defines who is ahead.
    """

    index: int
    name: str
    kind: SpaceKind
    lane: int
    number: int
    segment: int
    corner: int
    start: float
    end: float

    @property
    def height(self) -> float:
        """The middle of the space along the lap: larger is further ahead."""
        return (self.start + self.end) / 2


@dataclass(frozen=True, slots=True)
class Corner:
    """A corner with its yellow flag (Masters 7-1-1): stops required, longest (L) and shortest (C)
    path through it in spaces, and its spaces."""

    number: int
    stops: int
    longest: int
    shortest: int
    spaces: frozenset[int]
    lane_counts: tuple[int, ...]
    entry_spaces: tuple[int, ...]
    exit_spaces: tuple[int, ...]
    segment: int


@dataclass(frozen=True, slots=True)
class PitLane:
    """The single-lane pit lane (Masters 19-1-1).

    ``entry_from`` are the track spaces with an arrow into the pit lane, in running order; the
    last of them is the limit after which the pit lane can no longer be entered (19-5).
    ``lane`` holds the pit-lane spaces in order; ``boxes`` the box spaces in order (box 1 first);
    ``exit_to`` the track spaces the last pit-lane space leads to. ``entry_to`` pairs with
    ``entry_from``: the pit-lane space each entry arrow points at (diagonally forward, like every
    lane change). ``box_from`` pairs with ``boxes``: the one pit-lane space from which each box
    is reached (Masters 4-0-2, 19-1-2).
    """

    entry_from: tuple[int, ...]
    lane: tuple[int, ...]
    boxes: tuple[int, ...]
    exit_to: tuple[int, ...]
    entry_to: tuple[int, ...] = ()
    box_from: tuple[int, ...] = ()

    @property
    def entry_limit(self) -> int:
        """The last track space from which the pit lane may be entered (Masters 19-5)."""
        return self.entry_from[-1]


@dataclass(frozen=True)
class Track:
    """A whole board, immutable once built. Use ``build_track`` (trackbuild.py) to make one."""

    name: str
    title: str
    lanes: int
    spaces: tuple[Space, ...]
    successors: tuple[tuple[int, ...], ...]
    predecessors: tuple[tuple[int, ...], ...]
    beside: tuple[tuple[int, ...], ...]
    ahead_in_lane: tuple[int, ...]
    behind_in_lane: tuple[int, ...]
    corners: tuple[Corner, ...]
    straight_of: tuple[int, ...]
    line_edges: frozenset[tuple[int, int]]
    first_after_line: tuple[int, ...]
    grid: tuple[int, ...]
    pit: PitLane | None
    wall: frozenset[int]
    weather: WeatherTable
    lap_rows: float
    polygons: tuple[tuple[Point, ...], ...]
    corner_flags: tuple[Point, ...] = ()
    by_name: dict[str, int] = field(default_factory=dict)
    source: str = field(default="", compare=False, repr=False)
    """The text of the track file the board was built from ("" when unknown): a race record
    carries it, so a race on a track of one's own can be replayed anywhere (records.md)."""

    # --- notation -----------------------------------------------------------------------------

    def space(self, name_or_index: str | int) -> int:
        """The index of a space given by name (``B17``, ``p3``, ``box2``) or index."""
        if isinstance(name_or_index, int):
            if 0 <= name_or_index < len(self.spaces):
                return name_or_index
            raise RennleitungError(
                f"Feld {name_or_index} gibt es nicht", f"no space {name_or_index}", self.name
            )
        if not isinstance(name_or_index, str):
            raise RennleitungError(
                "Feldname erwartet (z.B. B12)", "space name expected (e.g. B12)", self.name
            )
        key = name_or_index.strip().upper()
        found = self.by_name.get(key)
        if found is None:
            raise RennleitungError(
                f"Feld {name_or_index!r} gibt es auf {self.name} nicht",
                f"there is no space {name_or_index!r} on {self.name}",
                "space",
            )
        return found

    def name_of(self, index: int) -> str:
        """The notation of a space, e.g. ``B17``."""
        return self.spaces[index].name

    # --- questions of the referee -------------------------------------------------------------

    def corner_of(self, index: int) -> Corner | None:
        """The corner a space belongs to, or None on a straight, in the pit lane or a box."""
        number = self.spaces[index].corner
        return self.corners[number - 1] if number else None

    def in_corner(self, index: int) -> bool:
        """Whether the space lies in a corner (Masters 7-1)."""
        return self.spaces[index].corner != 0

    def is_side_by_side(self, a: int, b: int) -> bool:
        """Whether two spaces touch side by side in neighbouring lanes (Masters 14)."""
        return b in self.beside[a]

    def is_directly_behind(self, a: int, b: int) -> bool:
        """Whether ``a`` is the space directly behind ``b`` in the same lane (Masters 18-1)."""
        return self.behind_in_lane[b] == a

    def crosses_line(self, a: int, b: int) -> bool:
        """Whether a step from ``a`` to ``b`` crosses the start/finish line (lap counting)."""
        return (a, b) in self.line_edges

    def progress(self, index: int, laps: int) -> float:
        """How far along the race a car is: laps completed plus the height in the lap."""
        return laps * self.lap_rows + self.spaces[index].height

    def same_height(self, a: int, b: int) -> bool:
        """Whether two spaces are level with each other (Dresden "Rennen": order of play)."""
        return abs(self.spaces[a].height - self.spaces[b].height) < 1e-9

    @property
    def last_corner(self) -> Corner:
        """The last corner before the line, where fuel is counted (Dresden "Verschleiß")."""
        return self.corners[-1]

    @property
    def boxes(self) -> tuple[int, ...]:
        """The box spaces in order, box 1 first (empty without a pit lane)."""
        return self.pit.boxes if self.pit else ()

    @cached_property
    def _lane_counts(self) -> tuple[int, ...]:
        counts = [0] * self.lanes
        for space in self.spaces:
            if space.kind is SpaceKind.TRACK:
                counts[space.lane] += 1
        return tuple(counts)

    def lane_lengths(self) -> tuple[int, ...]:
        """Spaces per lane over one lap."""
        return self._lane_counts

    def track_spaces(self) -> range:
        """Indices of the spaces of the racing surface (they come first)."""
        return range(sum(self._lane_counts))
