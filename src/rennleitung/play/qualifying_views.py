"""What a qualifying session shows its reader: plain values the faces render (``web``), never
an engine object; the session's seed stays out while the session is open."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the live standings (``league.qualifying_session.Standing``)."""

    place: int
    driver: str
    run: int
    rolls: int
    penalty_points: int
    lap_time: str
    score: int
    qualifying_points: int


@dataclass(frozen=True, slots=True)
class LapRow:
    """One driver's lap in one run, as the session's list shows it."""

    driver: str
    run: int
    state: str
    """waiting, driving, done, aborted, over (the lap crossed the line, the stopwatch still
    runs: at a table only)."""
    rolls: int
    penalty_points: int
    held: bool
    """Someone drives it (online) or the organiser runs it (table)."""
    mine: bool
    """The reader holds this lap."""


@dataclass(frozen=True, slots=True)
class GridRow:
    """A grid slot once the session is closed."""

    position: int
    driver: str
    score: int | None
    drawn: bool
    qualifying_points: int


@dataclass(frozen=True, slots=True)
class SessionView:
    """A session for one reader."""

    id: int
    league: str
    race: int
    track: str
    mode: str
    runs: int
    weather: tuple[tuple[str, str], ...]
    """The weather that applies in each run (German, English); never changeable."""
    rolled: tuple[tuple[str, str], ...]
    """The weather the black die gave in each run."""
    opens_at: datetime
    closes_at: datetime
    now: datetime
    state: str
    note: str
    in_window: bool
    standings: tuple[StandingRow, ...]
    laps: tuple[LapRow, ...]
    grid: tuple[GridRow, ...]
    open_points: bool
    """The league gives qualifying points (the Open)."""
    seed: int | None
    """Shown once the session is over."""


@dataclass(frozen=True, slots=True)
class MoveChoice:
    """One legal move for the roll: its path (indices to send back) and names to show."""

    path: tuple[int, ...]
    names: tuple[str, ...]
    end: str
    penalty: int
    aborts: bool
    """Leaving the corner with two stops missing: the lap ends without a time."""


@dataclass(frozen=True, slots=True)
class LapView:
    """One lap for the person driving it (or the organiser's stopwatch)."""

    session: int
    driver: str
    run: int
    mode: str
    weather: tuple[str, str]
    tyre: str
    state: str
    space: str
    space_index: int
    """The car's space as the board draws it (``render.board_overlay``)."""
    gear: int
    rolls: int
    penalty_points: int
    corner_stops: int
    ask: str
    """gear, move or '' (nothing to answer)."""
    gears: tuple[int, ...]
    soft_bonus: bool
    roll: int
    moves: tuple[MoveChoice, ...]
    protocol: tuple[tuple[str, str], ...]
    """Every roll and penalty, both languages (Dresden "Alle Würfe und Strafen werden
    protokolliert")."""
    abort: tuple[str, str] | None
    started: bool
    lap_time: str
    may_drive: bool
    """The reader may answer (holds the lap online, organises it at a table) now."""
    tyre_choice: bool
    """No roll yet: the tyres may still be chosen."""
    faces: tuple[tuple[int, tuple[int, ...]], ...]
    """At a table: each gear's die faces, for the number field."""
    can_take_back: bool = False
    """At a table, for the organiser: the last entry may be taken back."""
