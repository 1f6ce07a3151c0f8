"""A race before the lights: who enters, where the grid is, and how it is made.

The grid comes from a qualifying result when there is one; drivers without a lap get the
remaining slots by the black die (Dresden "Qualifizierung": "zufällig (schwarzer Würfel)"): each
rolls, the higher roll starts further forward, ties roll again among themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile, Weather
from rennleitung.formula_de.ruleset import PreRaceOrder, Ruleset
from rennleitung.formula_de.track import SpaceKind, Track


class SetupError(RennleitungError):
    """A race configuration that cannot start."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One driver: id (unique), display name, team (default: own), profile, karma at the start
    (None: the ruleset's ``karma_start``)."""

    id: str
    name: str = ""
    team: str = ""
    profile: DriverProfile = DriverProfile.NORMAL
    karma: int | None = None

    @property
    def driver(self) -> str:
        return self.name or self.id

    @property
    def team_id(self) -> str:
        return self.team or self.id


@dataclass(frozen=True, slots=True)
class RaceConfig:
    """Everything a race is made of besides its seed and decisions.

    ``qualifying`` lists car ids in qualifying order (pole first); the rest are drawn.
    ``max_rounds`` is a safety stop so that no race can run for ever. ``side_by_side`` puts
    every car level with pole instead of on the grid behind it (Dresden "FD Blitz", third run:
    "starten beide auf Höhe der Pole Position"); the first in the grid order still plays first.
    ``pre_race_order`` overrides the ruleset's order of setups and box choice (None: the
    ruleset's); records carry it, so a record keeps the order its race was run in. ``table``:
    the race is played on a real table with real dice (issue 29); every roll is asked as a
    ``RollQuestion`` and answered with the number entered, none is drawn from the seed.
    """

    track: str
    ruleset: str
    entries: tuple[Entry, ...]
    laps: int = 0  # 0: the ruleset's laps
    qualifying: tuple[str, ...] = ()
    qualifying_weather: Weather = Weather.SUN
    max_rounds: int = 400
    side_by_side: bool = False
    pre_race_order: PreRaceOrder | None = None
    table: bool = False


def grid_spaces(track: Track, cars: int, side_by_side: bool = False) -> tuple[int, ...]:
    """The starting space of each grid slot: the track's grid, or pole and the spaces level
    with it in the other lanes (Dresden "FD Blitz": "beide auf Höhe der Pole Position")."""
    if not side_by_side:
        return track.grid
    pole = track.grid[0]
    level = [
        s
        for s in range(len(track.spaces))
        if track.spaces[s].kind is SpaceKind.TRACK
        and track.spaces[s].lane != track.spaces[pole].lane
        and track.same_height(pole, s)
    ]
    if len(level) + 1 < cars:
        raise SetupError(
            f"auf {track.name} stehen neben der Pole Position nur {len(level) + 1} Autos",
            f"{track.name} has room for only {len(level) + 1} cars level with pole",
            "side_by_side (Dresden FD Blitz)",
        )
    return (pole, *level)


def check_config(config: RaceConfig, ruleset: Ruleset, grid_slots: int, boxes: int) -> None:
    """Refuse a field that cannot start; messages name the field."""
    if not 0 <= config.laps <= 100:
        raise SetupError(
            "0 bis 100 Runden (0: wie das Regelwerk)",
            "0 to 100 laps (0: as the ruleset says)",
            "laps",
        )
    ids = [e.id for e in config.entries]
    if not ids:
        raise SetupError("keine Fahrer", "no drivers", "entries")
    if len(set(ids)) != len(ids):
        raise SetupError("doppelte Fahrer-Id", "duplicate driver id", "entries")
    for n, entry in enumerate(config.entries):
        for value, key in ((entry.id, "id"), (entry.name, "name"), (entry.team, "team")):
            if not isinstance(value, str) or len(value) > 60 or (key == "id" and not value.strip()):
                raise SetupError(
                    "Text mit 1 bis 60 Zeichen erwartet",
                    "text of 1 to 60 characters expected",
                    f"entries[{n}].{key}",
                )
    if len(ids) > grid_slots:
        raise SetupError(
            f"{len(ids)} Fahrer, aber nur {grid_slots} Startplätze",
            f"{len(ids)} drivers but only {grid_slots} grid slots",
            "entries",
        )
    teams = {e.team_id for e in config.entries}
    if boxes and ruleset.box_per_driver and len(ids) > boxes:
        raise SetupError(
            f"{len(ids)} Fahrer, aber nur {boxes} Boxen (Dresden Open: eine je Fahrer)",
            f"{len(ids)} drivers but only {boxes} boxes (Dresden Open: one per driver)",
            "entries",
        )
    if boxes and len(teams) > boxes:
        raise SetupError(
            f"{len(teams)} Mannschaften, aber nur {boxes} Boxen",
            f"{len(teams)} teams but only {boxes} boxes",
            "entries",
        )
    for n, entry in enumerate(config.entries):
        if entry.profile not in ruleset.profiles_allowed:
            raise SetupError(
                f"Fahrerprofil {entry.profile.label_de} ist in {ruleset.name} nicht erlaubt",
                f"driver profile {entry.profile.label_en} is not allowed in {ruleset.name}",
                f"entries[{n}].profile (Dresden Fahrerprofile)",
            )
    unknown = [q for q in config.qualifying if q not in ids]
    if unknown:
        raise SetupError(
            f"Qualifikation nennt unbekannten Fahrer {unknown[0]!r}",
            f"qualifying names unknown driver {unknown[0]!r}",
            "qualifying",
        )
    if ruleset.players and len(ids) != ruleset.players:
        raise SetupError(
            f"{ruleset.name} verlangt genau {ruleset.players} Fahrer",
            f"{ruleset.name} needs exactly {ruleset.players} drivers",
            f"{ruleset.name}.players",
        )


def draw_grid(
    qualified: Sequence[str], others: Sequence[str], roll: Callable[[str], int]
) -> list[str]:
    """Qualified drivers first in their order, then the others by black-die draw: higher roll
    first, ties re-rolled among the tied drivers (Dresden "Qualifizierung")."""
    grid = list(qualified)
    pending: list[list[str]] = [list(others)]
    while pending:
        group = pending.pop(0)
        if len(group) <= 1:
            grid.extend(group)
            continue
        rolls = {car: roll(car) for car in group}
        values = sorted(set(rolls.values()), reverse=True)
        pending[:0] = [[c for c in group if rolls[c] == v] for v in values]
    return grid
