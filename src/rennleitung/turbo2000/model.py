"""The state of a TURBO 2000 game between two evaluations.

Components are kept as stacks: pieces of the same maker, kind and rating cannot be told apart on
the paper sheets either ("2 Turbo-W8"). Driver ratings are tenths, so +0.4 three times is exactly
+1.2 (April 2000 §5). Everything here is plain data; the rules live in the other modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rennleitung.turbo2000.amounts import amount


@dataclass(frozen=True, order=True)
class Part:
    """A component type: maker, kind (W, M, R) and rating, written "Turbo-W11"."""

    maker: str
    kind: str
    rating: int

    def notation(self) -> str:
        """Written like "Turbo-W11"."""
        return f"{self.maker}-{self.kind}{self.rating}"


@dataclass
class Driver:
    """A driver; ``team`` holds the contract of the running year, ``next_team`` the next one."""

    name: str
    rating: int
    team: str | None = None
    salary: int = 0
    next_team: str | None = None
    next_salary: int = 0
    out_in_round: int = 0
    """Round the driver misses after an accident (Unfall); 0 = fit."""

    @property
    def whole_rating(self) -> int:
        """Only the whole part counts in LP: F10.9 drives as F10 (April 2000 §5)."""
        return self.rating // 10

    def notation(self) -> str:
        """Written like "Lauda-F10.4"."""
        return f"{self.name}-F{self.rating // 10}.{self.rating % 10}"


@dataclass
class Factory:
    """A factory of one kind; it makes parts named after its owner (April 2000 §7–9, §15)."""

    owner: str
    kind: str
    rating: int
    digits: list[int] = field(default_factory=lambda: [0] * 10)


@dataclass
class Team:
    """A racing team (Rennstall) and its stock of parts."""

    name: str
    password: str
    money: int
    stock: dict[Part, int] = field(default_factory=dict)
    entry_round: int = 1
    active: bool = True

    def count(self, part: Part) -> int:
        """Pieces of this part in stock."""
        return self.stock.get(part, 0)

    def add(self, part: Part, number: int = 1) -> None:
        """Put pieces into stock."""
        self.stock[part] = self.stock.get(part, 0) + number

    def remove(self, part: Part, number: int = 1) -> None:
        """Take pieces out of stock; there must be enough (the rules check before)."""
        left = self.stock.get(part, 0) - number
        if left < 0:
            raise ValueError(f"{self.name} has no {number} x {part.notation()}")
        if left:
            self.stock[part] = left
        else:
            del self.stock[part]


@dataclass(frozen=True)
class Offer:
    """A published trade line (Biete or Suche), answerable in the next round.

    ``to`` is None for "an alle". For a factory sale (April 2000 §15) ``factory`` is True and
    ``rating`` is 0. ``unfulfillable`` marks a Biete the seller surely cannot deliver (§14).
    """

    number: int
    verb: str
    team: str
    to: str | None
    count: int
    maker: str | None
    kind: str
    rating: int
    price: int
    factory: bool = False
    unfulfillable: bool = False

    def describe(self) -> str:
        """The line as the results sheet prints it."""
        target = "alle" if self.to is None else self.to
        if self.factory:
            return f"#{self.number} {self.team} an {target}: {self.verb} {self.team}-{self.kind}" \
                   f"-Fabrik ab {amount(self.price)}"
        maker = f"{self.maker}-" if self.maker else ""
        return (f"#{self.number} {self.team} an {target}: {self.verb} {self.count} "
                f"{maker}{self.kind}{self.rating} zu {amount(self.price)}")


@dataclass(frozen=True)
class Announcement:
    """A race of the coming round (Rennausschreibung), with its Rallye stage if any."""

    code: str
    stage: int = 0
    stages: int = 0


@dataclass(frozen=True)
class RallyRecord:
    """How a driver finished the last Rallye stage: what the next stage must match (§4.6)."""

    team: str
    car: Part
    engine: Part
    tyre_rating: int
    track_points: int
    place: int
    placed_count: int


@dataclass(frozen=True)
class HistoryPoint:
    """The standing after one evaluated round, kept for the report charts."""

    round: int
    wm_points: dict[str, int]
    money: dict[str, int]
    ratings: dict[str, dict[str, int]]
    """Team -> its drivers under contract -> rating (tenths)."""


@dataclass
class GameState:
    """Everything needed to evaluate round ``round``; one JSON file per round."""

    round: int
    teams: dict[str, Team]
    drivers: dict[str, Driver]
    factories: list[Factory]
    announcements: list[Announcement]
    new_factory_rating: dict[str, int]
    offers: list[Offer] = field(default_factory=list)
    wm_points: dict[str, int] = field(default_factory=dict)
    last_formel2_winner: str | None = None
    rally: dict[str, RallyRecord] = field(default_factory=dict)
    rally_stage_done: int = 0
    rally_closed: bool = False
    vote_open: bool = False
    end_after_round: int = 0
    finished: bool = False
    next_offer_number: int = 1
    leaving: dict[str, int] = field(default_factory=dict)
    """Teams that left, with the auction rounds still to run for their material (§19)."""
    history: list[HistoryPoint] = field(default_factory=list)
    """WM points, money and driver ratings after each evaluated round (for the charts)."""

    def factory(self, owner: str, kind: str) -> Factory | None:
        """A team owns at most one factory of each kind (§15)."""
        for factory in self.factories:
            if factory.owner == owner and factory.kind == kind:
                return factory
        return None

    def active_teams(self) -> list[Team]:
        """Teams still in the game (§19)."""
        return [team for team in self.teams.values() if team.active]
