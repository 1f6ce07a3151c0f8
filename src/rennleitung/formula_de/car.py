"""The car as data: wear areas and points, tyres, weather, driver profiles and status.

Everything here is a frozen value shared by the track, movement and race modules, so a position
can be copied, compared and replayed without surprises. The numbers come from the Dresden house
rules ("Auto", "Verschleiß", "Reifen", "Fahrerprofile") with the Masters 2002 rules (chapters 3,
5, 8, 10) where Dresden is silent; see ``docs/formula_de/car.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum

from rennleitung.errors import RennleitungError


class CarError(RennleitungError):
    """A car, setup or wear operation that the rules do not allow."""


class WearArea(StrEnum):
    """The six areas of a car that carry wear points (Dresden "Auto"; Masters 5-0-1).

    ``FUEL`` is Dresden's "Verbrauch". Masters 2002 (English) calls the same area "Gas"
    (French "Consommation"); Formula D 2008 renamed it "Gearbox". In every edition it pays for
    skipping gears when shifting down (Masters 13-1); only Dresden also burns one per lap.
    """

    TYRES = "tyres"
    BRAKES = "brakes"
    FUEL = "fuel"
    BODY = "body"
    ENGINE = "engine"
    ROAD_HOLDING = "road_holding"

    @property
    def label_de(self) -> str:
        return _AREA_LABELS[self][0]

    @property
    def label_en(self) -> str:
        return _AREA_LABELS[self][1]

    @property
    def masters_name(self) -> str:
        """The name the Masters 2002 car sheet uses for this area."""
        return _AREA_LABELS[self][2]


# area -> (German, English, Masters 2002 sheet)
_AREA_LABELS: dict[WearArea, tuple[str, str, str]] = {
    WearArea.TYRES: ("Reifen", "tyres", "Tires"),
    WearArea.BRAKES: ("Bremsen", "brakes", "Brakes"),
    WearArea.FUEL: ("Verbrauch", "fuel", "Gas"),
    WearArea.BODY: ("Karosserie", "body", "Body"),
    WearArea.ENGINE: ("Motor", "engine", "Engine"),
    WearArea.ROAD_HOLDING: ("Straßenlage", "road holding", "Handling"),
}

BOX_LABELS = ("Box", "box reserve")
"""German and English name of the reserve kept in the pit (Dresden "Auto+Box"; Masters 5-3)."""

# Dresden "Verschleiß", Masters 5-1: what crossing out the last point of an area means.
LAST_POINT_EFFECT: dict[WearArea, tuple[str, str]] = {
    WearArea.TYRES: ("Dreher", "spin"),
    WearArea.BRAKES: ("kann nicht mehr bremsen", "can no longer brake"),
    WearArea.FUEL: (
        "kein Gangüberspringen; Dresden: nächste Runde ausrollen",
        "no more skipping gears; Dresden: rolls out from the next lap",
    ),
    WearArea.BODY: ("ausgeschieden (Karosserieschaden)", "out (body damage)"),
    WearArea.ENGINE: ("ausgeschieden (Motorschaden)", "out (engine failure)"),
    WearArea.ROAD_HOLDING: ("ausgeschieden (Straßenlage)", "out (road holding)"),
}


@dataclass(frozen=True, slots=True)
class Wear:
    """Wear points per area plus the reserve kept in the box.

    Immutable: every change returns a new ``Wear`` so states can be shared and replayed.
    """

    tyres: int
    brakes: int
    fuel: int
    body: int
    engine: int
    road_holding: int
    box: int = 0

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise CarError(
                    f"Verschleißpunkte müssen ganze Zahlen ab 0 sein, nicht {value!r}",
                    f"wear points must be whole numbers from 0, not {value!r}",
                    where=f"wear.{item.name}",
                )

    def __getitem__(self, area: WearArea) -> int:
        value: int = getattr(self, area.value)
        return value

    @property
    def on_car(self) -> int:
        """Points on the car, box reserve not counted."""
        return sum(self[area] for area in WearArea)

    @property
    def total(self) -> int:
        """Points on the car plus the box reserve (the 22 of "Auto+Box")."""
        return self.on_car + self.box

    def can_spend(self, area: WearArea, points: int) -> bool:
        return 0 <= points <= self[area]

    def spend(self, area: WearArea, points: int = 1) -> Wear:
        """Cross out ``points`` in ``area``; more than the car has is an error, not a clamp.

        Whether running short eliminates the car or spins it is the race's decision
        (Dresden "Verschleiß", Masters 5-1); this only keeps the counts honest.
        """
        if points < 0:
            raise CarError(
                f"negative Anzahl {points} abzustreichen",
                f"cannot cross out a negative number {points}",
                where=f"wear.{area.value}",
            )
        if points > self[area]:
            raise CarError(
                f"{points} VP {area.label_de} verlangt, nur {self[area]} vorhanden",
                f"{points} {area.label_en} points needed, only {self[area]} left",
                where=f"wear.{area.value}",
            )
        return replace(self, **{area.value: self[area] - points})

    def with_area(self, area: WearArea, points: int) -> Wear:
        """Set an area outright, e.g. fresh tyres in the pit (Masters 19-2-3)."""
        return replace(self, **{area.value: points})

    def repair(self, area: WearArea, points: int = 1) -> Wear:
        """Move ``points`` from the box reserve back onto ``area`` (Masters 19-4-1)."""
        if points < 0 or points > self.box:
            raise CarError(
                f"Reparatur um {points} VP, aber nur {self.box} in der Box",
                f"repair of {points} points but only {self.box} in the box",
                where="wear.box",
            )
        return replace(self, box=self.box - points, **{area.value: self[area] + points})

    def as_dict(self) -> dict[str, int]:
        """Plain mapping in field order, for JSON and position notation."""
        return {item.name: getattr(self, item.name) for item in fields(self)}

    @classmethod
    def from_mapping(cls, data: Mapping[str, int]) -> Wear:
        """Build from a mapping with one key per area (and optional ``box``)."""
        names = [item.name for item in fields(cls)]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise CarError(
                f"unbekannter Bereich {unknown[0]!r}; erlaubt: {', '.join(names)}",
                f"unknown area {unknown[0]!r}; allowed: {', '.join(names)}",
                where=f"wear.{unknown[0]}",
            )
        missing = [area.value for area in WearArea if area.value not in data]
        if missing:
            raise CarError(
                f"Bereich {missing[0]!r} fehlt",
                f"area {missing[0]!r} is missing",
                where=f"wear.{missing[0]}",
            )
        return cls(**{name: data[name] for name in names if name in data})

    def validate_setup(
        self,
        *,
        total: int = 22,
        box_max: int = 2,
        area_minimum: int = 1,
        fixed: Wear | None = None,
    ) -> Wear:
        """Check a starting setup and return it; the first broken rule raises ``CarError``.

        Defaults are the Dresden 22 points "Auto+Box" with at least one per area and at most
        two in the box (Dresden "Rennen", "Auto"; Masters 5-0-2, 5-2, 5-3). A ``fixed`` setup
        (FD Blitz) replaces all three limits: the car must match it exactly.
        """
        if fixed is not None:
            for item in fields(self):
                want, have = getattr(fixed, item.name), getattr(self, item.name)
                if want != have:
                    raise CarError(
                        f"das feste Setup verlangt {want} Punkte, nicht {have}",
                        f"the fixed setup requires {want} points, not {have}",
                        where=f"setup.{item.name}",
                    )
            return self
        for area in WearArea:
            if self[area] < area_minimum:
                raise CarError(
                    f"{area.label_de} braucht mindestens {area_minimum} VP, hat {self[area]}",
                    f"{area.label_en} needs at least {area_minimum} points, has {self[area]}",
                    where=f"setup.{area.value}",
                )
        if self.box > box_max:
            raise CarError(
                f"höchstens {box_max} VP in der Box, nicht {self.box}",
                f"at most {box_max} points in the box, not {self.box}",
                where="setup.box",
            )
        if self.total != total:
            raise CarError(
                f"Auto und Box müssen zusammen {total} VP haben, nicht {self.total}",
                f"car and box must hold {total} points together, not {self.total}",
                where="setup.total",
            )
        return self


BLITZ_SETUP = Wear(tyres=6, brakes=0, fuel=1, body=1, engine=1, road_holding=0, box=0)
"""FD Blitz: 6 tyres, 1 fuel, 1 body, 1 engine and nothing else (Dresden "FD Blitz")."""


class Weather(StrEnum):
    """The state of the track: dry in sunshine, wet in rain (Masters 3-1, 3-2)."""

    SUN = "sun"
    RAIN = "rain"

    @property
    def label_de(self) -> str:
        return {Weather.SUN: "Sonne", Weather.RAIN: "Regen"}[self]

    @property
    def label_en(self) -> str:
        return {Weather.SUN: "sun", Weather.RAIN: "rain"}[self]


class WeatherRoll(StrEnum):
    """What the black die shows against a track's weather table (Masters 3-0-1)."""

    RAIN = "rain"
    CHANGEABLE = "changeable"
    SUN = "sun"

    @property
    def label_de(self) -> str:
        return {"rain": "Regen", "changeable": "wechselhaft", "sun": "Sonne"}[self.value]

    @property
    def label_en(self) -> str:
        return {"rain": "rain", "changeable": "changeable", "sun": "sun"}[self.value]

    @property
    def weather(self) -> Weather | None:
        """The weather this roll sets, or None for changeable (which keeps the current one)."""
        return {"rain": Weather.RAIN, "sun": Weather.SUN}.get(self.value)


@dataclass(frozen=True, slots=True)
class WeatherState:
    """Weather during a race, changeable included.

    Changeable is not a third kind of track but a state that may still move: ``current`` is the
    weather the tyres feel now, ``settled`` says it can no longer change, ``last_roll`` remembers
    the previous re-roll so that two equal results in a row settle it (Dresden "Wetter";
    Masters 3-2-4 to 3-2-6).
    """

    current: Weather
    settled: bool = True
    last_roll: WeatherRoll | None = None
    streak: int = 0
    """How many re-rolls in a row have shown ``last_roll`` (sun or rain; changeable: 0)."""

    @classmethod
    def at_race_start(cls, roll: WeatherRoll, qualifying: Weather = Weather.SUN) -> WeatherState:
        """Sun or rain hold all race; changeable starts as qualifying was (Dresden "Wetter")."""
        weather = roll.weather
        if weather is None:
            return cls(current=qualifying, settled=False)
        return cls(current=weather)

    def after_roll(self, roll: WeatherRoll, settles_after: int = 2) -> WeatherState:
        """The state after a re-roll at the end of a round with a 20 in 5th or 30 in 6th:
        ``settles_after`` equal sun or rain results in a row fix the weather (Masters 3-2-6,
        ruleset field ``weather_settles_after``)."""
        if self.settled:
            return self
        weather = roll.weather
        if weather is None:
            return replace(self, last_roll=roll, streak=0)
        streak = self.streak + 1 if self.last_roll is roll else 1
        return WeatherState(
            current=weather, settled=streak >= settles_after, last_roll=roll, streak=streak
        )


class Tyre(StrEnum):
    """The three tyre types, chosen for qualifying, start and pit stops (Dresden "Reifen")."""

    HARD = "hard"
    SOFT = "soft"
    RAIN = "rain"

    @property
    def label_de(self) -> str:
        return {"hard": "hart", "soft": "weich", "rain": "Regenreifen"}[self.value]

    @property
    def label_en(self) -> str:
        return {"hard": "hard", "soft": "soft", "rain": "rain"}[self.value]


@dataclass(frozen=True, slots=True)
class TyreRule:
    """How one tyre type behaves.

    ``sun`` and ``rain`` give the tyre points per space overshot on the 1st, 2nd and 3rd (or
    later) lap driven on this set. ``rain_slide`` is the slide after a required corner stop on a
    wet track. ``bonus_laps`` are the set laps with the optional +1 per move in sunshine;
    ``malus_laps`` the set laps with a compulsory −1 per move.
    """

    sun: tuple[int, int, int]
    rain: tuple[int, int, int]
    rain_slide: int
    bonus_laps: frozenset[int] = frozenset()
    malus_laps: frozenset[int] = frozenset()

    def overshoot_per_space(self, weather: Weather, set_lap: int) -> int:
        """Tyre points per space overshot on lap ``set_lap`` (1-based) of this set."""
        row = self.sun if weather is Weather.SUN else self.rain
        return row[min(max(set_lap, 1), 3) - 1]

    def movement_bonus(self, weather: Weather, set_lap: int) -> int:
        """The optional +1 available this move (0 when none)."""
        return 1 if weather is Weather.SUN and set_lap in self.bonus_laps else 0

    def movement_malus(self, set_lap: int) -> int:
        """The compulsory change this move: −1 on a malus lap, else 0."""
        return -1 if set_lap in self.malus_laps else 0


@dataclass(frozen=True, slots=True)
class TyreTable:
    """One ``TyreRule`` per tyre type; frozen and hashable so rulesets can key caches."""

    hard: TyreRule
    soft: TyreRule
    rain: TyreRule

    def __getitem__(self, tyre: Tyre) -> TyreRule:
        rule: TyreRule = getattr(self, tyre.value)
        return rule


TYRES_DRESDEN = TyreTable(
    hard=TyreRule(sun=(1, 1, 1), rain=(1, 1, 1), rain_slide=3),
    soft=TyreRule(
        sun=(2, 2, 3),
        rain=(2, 2, 3),
        rain_slide=3,
        bonus_laps=frozenset({1}),
        malus_laps=frozenset({3}),
    ),
    rain=TyreRule(sun=(2, 2, 2), rain=(1, 1, 1), rain_slide=1),
)
"""Dresden "Reifen": soft costs 3 per space and loses 1 per move on its third lap; rain tyres
cost 2 per space in sunshine whatever the lap."""

TYRES_MASTERS = TyreTable(
    hard=TyreRule(sun=(1, 1, 1), rain=(1, 1, 1), rain_slide=3),
    soft=TyreRule(sun=(2, 2, 3), rain=(2, 2, 3), rain_slide=3, bonus_laps=frozenset({1})),
    rain=TyreRule(sun=(2, 2, 3), rain=(1, 1, 1), rain_slide=1),
)
"""Masters 8-5 and 10-0-2: no third-lap malus on soft tyres (dropped in 2001, annex 3), and
rain tyres in sunshine go from 2 to 3 per space on their third lap."""


class DriverProfile(StrEnum):
    """The seven Dresden driver profiles, chosen once per season (Dresden "Fahrerprofile")."""

    NORMAL = "normal"
    THEORIST = "theorist"
    PRACTITIONER = "practitioner"
    LIGHT_SPRINTER = "light_sprinter"
    HEAVY_TOURER = "heavy_tourer"
    FAIR_WEATHER = "fair_weather"
    RAIN_GOD = "rain_god"

    @property
    def label_de(self) -> str:
        return _PROFILE_LABELS[self][0]

    @property
    def label_en(self) -> str:
        return _PROFILE_LABELS[self][1]

    @property
    def effects(self) -> ProfileEffects:
        return PROFILE_EFFECTS[self]

    def effects_at(self, *, in_pit_lane: bool) -> ProfileEffects:
        """The effects that apply where the car is: in the pit lane only Theoretiker and
        Praktiker keep theirs (Dresden "Boxenstopp")."""
        effects = PROFILE_EFFECTS[self]
        if in_pit_lane and not effects.in_pit_lane:
            return NO_EFFECTS
        return effects

    @classmethod
    def parse(cls, text: str) -> DriverProfile:
        """Accept the English value or the German name ("Leichter Flitzer", "Regengott")."""
        key = text.strip().casefold()
        for profile in cls:
            if key in (profile.value, profile.label_de.casefold(), profile.label_en.casefold()):
                return profile
        names = ", ".join(p.label_de for p in cls)
        raise CarError(
            f"unbekanntes Fahrerprofil {text!r}; möglich: {names}",
            f"unknown driver profile {text!r}; possible: {', '.join(p.value for p in cls)}",
            where="profile",
        )


_PROFILE_LABELS: dict[DriverProfile, tuple[str, str]] = {
    DriverProfile.NORMAL: ("Normalo", "everyman"),
    DriverProfile.THEORIST: ("Theoretiker", "theorist"),
    DriverProfile.PRACTITIONER: ("Praktiker", "practitioner"),
    DriverProfile.LIGHT_SPRINTER: ("Leichter Flitzer", "light sprinter"),
    DriverProfile.HEAVY_TOURER: ("Schwerer Tourer", "heavy tourer"),
    DriverProfile.FAIR_WEATHER: ("Schönwetterfahrer", "fair-weather driver"),
    DriverProfile.RAIN_GOD: ("Regengott", "rain god"),
}


@dataclass(frozen=True, slots=True)
class ProfileEffects:
    """What a driver profile changes; zero means "no change".

    - ``movement``: added to every gear roll (Flitzer +1, Tourer −1).
    - ``check_modifier``: added to the black-die result of body, engine and road-holding checks;
      thresholds compare with the modified result (decisions, "Check modifiers").
    - ``qualifying``: added to the qualifying score (lower is better).
    - ``launch``: spaces added to the first move of the race, out of the box and after a spin;
      ``launch_optional`` says the driver may decline it (Praktiker "darf").
    - ``corner_stop_sun``: spaces added to a move that ends as a required corner stop in sunshine
      (Schönwetterfahrer −1 "falls möglich", Regengott +1).
    - ``rain_slide``: added to the rain slide after a required corner stop on a wet track.
    - ``in_pit_lane``: the profile still applies in the pit lane (Dresden "Boxenstopp": only
      Theoretiker and Praktiker do).
    """

    movement: int = 0
    check_modifier: int = 0
    qualifying: int = 0
    launch: int = 0
    launch_optional: bool = False
    corner_stop_sun: int = 0
    rain_slide: int = 0
    in_pit_lane: bool = False


NO_EFFECTS = ProfileEffects()

PROFILE_EFFECTS: Mapping[DriverProfile, ProfileEffects] = {
    DriverProfile.NORMAL: NO_EFFECTS,
    DriverProfile.THEORIST: ProfileEffects(qualifying=-1, launch=-1, in_pit_lane=True),
    DriverProfile.PRACTITIONER: ProfileEffects(
        qualifying=1, launch=1, launch_optional=True, in_pit_lane=True
    ),
    DriverProfile.LIGHT_SPRINTER: ProfileEffects(movement=1, check_modifier=-1),
    DriverProfile.HEAVY_TOURER: ProfileEffects(movement=-1, check_modifier=1),
    DriverProfile.FAIR_WEATHER: ProfileEffects(corner_stop_sun=-1, rain_slide=1),
    DriverProfile.RAIN_GOD: ProfileEffects(corner_stop_sun=1, rain_slide=-1),
}
"""Dresden "Fahrerprofile", one row per profile."""


class CarStatus(StrEnum):
    """Where a car stands in the race; the race module moves it between these."""

    RUNNING = "running"
    SPUN = "spun"  # turned round, restart roll next (Dresden "Ausfälle"; Masters 10-4)
    STALLED = "stalled"  # start roll 1: waits a round (Dresden "Startwurf"; Masters 9-1)
    IN_PIT = "in_pit"  # in its box working off pit points (Dresden "Boxenstopp"; Masters 19)
    ROLLING_OUT = "rolling_out"  # no fuel or engine gone: lower gear each round (Dresden)
    OUT = "out"  # retired and removed from the track
    WRECK = "wreck"  # retired but still on the track until everyone has passed
    FINISHED = "finished"  # crossed the line on the last lap (Masters 21)

    @property
    def label_de(self) -> str:
        return _STATUS_LABELS[self][0]

    @property
    def label_en(self) -> str:
        return _STATUS_LABELS[self][1]

    @property
    def on_track(self) -> bool:
        """The car occupies a space other cars must respect."""
        return self not in (CarStatus.OUT, CarStatus.FINISHED)

    @property
    def racing(self) -> bool:
        """The car still takes turns of its own."""
        return self not in (CarStatus.OUT, CarStatus.WRECK, CarStatus.FINISHED)


_STATUS_LABELS: dict[CarStatus, tuple[str, str]] = {
    CarStatus.RUNNING: ("fährt", "running"),
    CarStatus.SPUN: ("gedreht", "spun"),
    CarStatus.STALLED: ("abgewürgt", "stalled"),
    CarStatus.IN_PIT: ("in der Box", "in the pit"),
    CarStatus.ROLLING_OUT: ("rollt aus", "rolling out"),
    CarStatus.OUT: ("ausgeschieden", "out"),
    CarStatus.WRECK: ("Wrack", "wreck"),
    CarStatus.FINISHED: ("im Ziel", "finished"),
}
"""The one word table of the car states, for every face (it had drifted: the web said
"gedreht", the command line "Dreher"; a state reads as a participle like its neighbours)."""
