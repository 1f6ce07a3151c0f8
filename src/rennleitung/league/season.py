"""A league as the engine sees it: roster, entered qualifyings and races, named drops.

Immutable: every ``with_…`` returns a new, checked league, so whoever stores it (``store/``)
only writes what the engine accepted. The same type serves the season and the Open; the
difference is the roster's format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_records import BlitzRecord, check_new
from rennleitung.league.drops import check_named_drops
from rennleitung.league.formats import LeagueFormat
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.race_result import RaceResult
from rennleitung.league.race_validation import validate_race_result
from rennleitung.league.roster import Roster
from rennleitung.league.transfers import Transfer


@dataclass(frozen=True)
class League:
    """One season or Open with everything entered so far."""

    name: str
    roster: Roster
    races: tuple[RaceResult, ...] = ()
    qualifying: tuple[QualifyingResult, ...] = ()
    named_drops: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    blitz: tuple[BlitzRecord, ...] = ()
    """Finished FD Blitz matches, in the order entered (``blitz_records.py``)."""

    @property
    def format(self) -> LeagueFormat:
        """The league's rules."""
        return self.roster.format

    def held_races(self) -> tuple[int, ...]:
        """Numbers of the races entered so far, ascending."""
        return tuple(sorted(r.race for r in self.races))

    def race(self, number: int) -> RaceResult | None:
        """The entered result of a race, if any."""
        return next((r for r in self.races if r.race == number), None)

    def qualifying_of(self, number: int) -> QualifyingResult | None:
        """The entered qualifying of a race, if any."""
        return next((q for q in self.qualifying if q.race == number), None)

    def with_race(self, result: RaceResult) -> League:
        """The league with the next race; each race is entered once, in order."""
        if self.race(result.race) is not None:
            raise RennleitungError(
                f"Rennen {result.race} ist schon eingetragen",
                f"race {result.race} has already been entered",
                "race",
            )
        next_race = len(self.races) + 1
        if result.race > next_race:
            raise RennleitungError(
                f"Rennen {next_race} fehlt noch; Rennen werden der Reihe nach eingetragen, "
                "weil das Karma von Rennen zu Rennen weiterläuft",
                f"race {next_race} is still missing; races are entered in order because "
                "karma carries over from race to race",
                "race",
            )
        qualifying = self.qualifying_of(result.race)
        expected = qualifying.grid_order() if qualifying is not None else None
        validate_race_result(result, self.roster, expected)
        races = tuple(sorted((*self.races, result), key=lambda r: r.race))
        return replace(self, races=races)

    def with_blitz(self, record: BlitzRecord) -> League:
        """The league with one more finished Blitz match (a match with a known ``ref`` once)."""
        check_new(self.blitz, record)
        return replace(self, blitz=(*self.blitz, record))

    def with_qualifying(self, qualifying: QualifyingResult) -> League:
        """The league with the qualifying of one more race, entered before that race."""
        if self.qualifying_of(qualifying.race) is not None:
            raise RennleitungError(
                f"die Qualifizierung zu Rennen {qualifying.race} ist schon eingetragen",
                f"qualifying for race {qualifying.race} has already been entered",
                "race",
            )
        if self.race(qualifying.race) is not None:
            raise RennleitungError(
                f"Rennen {qualifying.race} ist schon gefahren; Qualifizierung kommt zu spät",
                f"race {qualifying.race} has already been run; qualifying comes too late",
                "race",
            )
        items = tuple(sorted((*self.qualifying, qualifying), key=lambda q: q.race))
        return replace(self, qualifying=items)

    def with_named_drops(self, driver: str, races: tuple[int, ...]) -> League:
        """The league with a driver's own choice of drop results."""
        self.roster.driver(driver, "drops, driver")
        check_named_drops(self.format, races)
        drops = dict(self.named_drops)
        drops[driver] = tuple(sorted(races))
        return replace(self, named_drops=drops)

    def with_transfer(self, transfer: Transfer) -> League:
        """The league where a driver drives for another team from a race on. Races already
        entered from that race on are checked again (a stand-in must be a team-mate in that
        race); their constructors' points move with the driver."""
        return self._rechecked(self.roster.with_transfer(transfer), transfer.from_race)

    def without_transfer(self, driver: str, from_race: int) -> League:
        """The league without a transfer typed by mistake; later races checked again."""
        return self._rechecked(self.roster.without_transfer(driver, from_race), from_race)

    def _rechecked(self, roster: Roster, from_race: int) -> League:
        for result in self.races:
            if result.race >= from_race:
                qualifying = self.qualifying_of(result.race)
                validate_race_result(result, roster,
                                     qualifying.grid_order() if qualifying else None)
        return replace(self, roster=roster)
