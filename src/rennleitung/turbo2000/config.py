"""The game's configuration: every number of TURBO 2000 as a setting a game master can change.

Settings marked "April 2000" come from the rule changes of April 2000 (the seed document, cited by
rule number, e.g. "§10"); all others are reconstructed (see ``docs/turbo2000/rules.md``).
The configuration is stored as ``config.json`` in a game directory; ``config_from_dict`` fills
missing keys with the defaults below, so an old file keeps working when a setting is added.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from rennleitung.turbo2000.errors import TurboError

KINDS: tuple[str, ...] = ("W", "M", "R")
"""Component kinds: Wagen (car), Motor (engine), Reifen (tyres)."""

CONSEQUENCES: tuple[str, ...] = ("-", "M", "W", "Box", "MMM", "Dreher", "Reifenschaden", "WWW",
                                 "Motorschaden", "Wagenschaden", "Totalschaden", "Unfall")
"""Names a risk table may use (April 2000 §3); ``races.EFFECTS`` says what each one does."""

RISK_MODELS: tuple[str, ...] = ("sum", "sixes")
"""Ways to turn an entry's risk into Würfe (see ``GameConfig.risk_model``)."""

SERIES: tuple[str, ...] = ("formel1", "formel2", "formel_n", "dragster", "stockcar", "junior",
                           "rallye")
"""Race series; §4 of April 2000 adds all but Formel I to the base game."""


@dataclass(frozen=True)
class RaceTemplate:
    """One race announcement (Rennausschreibung) as the calendar repeats it.

    ``lp_cap`` is the number of a Formel N (§4.2), ``min_risk`` the Stock Car minimum (§4.4),
    ``constructors_prize`` the Formel II prize for the makers of the winning car (§4.1).
    """

    code: str
    series: str
    name: str
    sections: int
    grid: int
    prizes: tuple[int, ...]
    lp_cap: int = 0
    min_risk: int = 0
    constructors_prize: int = 0


def _default_races() -> tuple[RaceTemplate, ...]:
    return (
        RaceTemplate("F1", "formel1", "Formel I", 3, 12,
                     (600_000, 400_000, 300_000, 200_000, 150_000, 100_000)),
        RaceTemplate("F2", "formel2", "Formel II", 3, 10, (300_000, 200_000, 100_000),
                     constructors_prize=300_000),
        RaceTemplate("F500", "formel_n", "Formel 500", 2, 8, (200_000, 120_000, 80_000),
                     lp_cap=500),
        RaceTemplate("F1000", "formel_n", "Formel 1000", 2, 8, (250_000, 150_000, 100_000),
                     lp_cap=1000),
        RaceTemplate("DRAG", "dragster", "Dragster Race", 0, 6, (150_000, 100_000, 50_000)),
        RaceTemplate("STOCK", "stockcar", "Stock Car Tournament", 3, 10,
                     (250_000, 150_000, 100_000), min_risk=3),
        RaceTemplate("JUN", "junior", "Formel Junior", 2, 8, (200_000, 120_000, 80_000)),
        RaceTemplate("RALLYE", "rallye", "Rallye", 2, 12, (500_000, 300_000, 200_000)),
    )


def _default_calendar() -> tuple[tuple[str, ...], ...]:
    return (
        ("F1", "F2"),
        ("F1", "F1000", "DRAG"),
        ("F1", "STOCK", "RALLYE"),
        ("F1", "JUN", "RALLYE"),
        ("F1", "F500", "RALLYE"),
        ("F1", "F2", "DRAG"),
    )


@dataclass(frozen=True)
class GameConfig:
    """All settings of one game. Money in the game's currency units, driver ratings in tenths."""

    rules_version: int = 5
    """The version of the reconstructed figures (rules.md §11): 1 before issue 28's
    recalibration, 2 since, 3 since the harder qualifying of a full grid, 4 since the limit of
    three drivers a team and one training place, 5 since every car rolls in a full grid's
    qualifying. A stored ``config.json`` without it is version
    1, and the settings version 2 added take their version-1 values (``LEGACY``); a stored
    version 1 or 2 lacks the settings of version 3, which take their version-2 values
    (``BEFORE_VERSION_3``), a stored version 1 to 3 those of version 4
    (``BEFORE_VERSION_4``), and a stored version 1 to 4 those of version 5
    (``BEFORE_VERSION_5``). So an old game replays under its own figures; ``turbo new`` starts
    from the current version."""

    # --- calendar -------------------------------------------------------------------------
    rounds_per_year: int = 6
    """Six rounds make a racing year (§20: three years are 18 rounds)."""
    calendar: tuple[tuple[str, ...], ...] = field(default_factory=_default_calendar)
    """Race codes announced in each round of a year (index 0 = first round of the year)."""
    races: tuple[RaceTemplate, ...] = field(default_factory=_default_races)
    training_places: int = 1
    """Training places published with each announcement (§1 leaves the number to the game
    master); with ``teams_per_training_place`` the most there are. Reconstructed: rules version
    4 has one place (versions 1–3: two, which went uncontested every round to the team that
    trains in a small field and were most of the trainer's lead in every field; rules.md §11)."""
    teams_per_training_place: int = 0
    """An option (rules version 4, rules.md §2): one place for every this many teams in the game,
    at least one and at most ``training_places`` (with ``training_places`` 2 and 6 here: 1 up to
    11 teams, 2 from 12 on). 0 = always ``training_places``, the default."""

    # --- teams and money ------------------------------------------------------------------
    start_money: int = 6_000_000
    """Reconstructed: rules version 2 (rules.md §11): with the costlier push of ``risk_offset`` 8
    a team that builds a factory must still afford fresh parts, else the pure racer wins (version
    1: 3,500,000)."""
    sponsor_money: int = 200_000
    """April 2000 §17."""
    team_name_max_length: int = 13
    """June 1996: at most 13 letters and digits."""
    reserved_maker: str = "Turbo"
    """The game master's own maker name (June 1996); no team may use it."""
    team_name_letters_digits: bool = True
    """June 1996 start sheet: team names of letters and digits only (off: any characters but
    spaces, ':', '/', ',' and '-', which the sheets and "Maker-W12" use)."""
    reserve_team_names: bool = True
    """June 1996 start sheet: a player names a reserve team name (``turbo new --teams
    "Name/Reserve:password"``, ``Reserve:`` on a joining sheet), used if the name is taken."""
    start_drivers: int = 0
    """Free drivers at the start of the game (the 1996 start sheet: 24); 0 means
    ``start_drivers_per_team`` per team."""
    direct_contract_round: int = 0
    """Reconstructed from the 1996 start sheet's one-round "Direktvertrag" special rule: in this
    round (1: the first; 0: off) every contract bid is a direct contract, which, when outbid or
    the driver is taken, gets another free driver of the same rating at the salary bid, as a
    Blankovertrag does (April 2000 §16)."""
    storage_fee: dict[str, int] = field(
        default_factory=lambda: {"W": 5_000, "M": 2_000, "R": 500})
    """Per component and round, so that teams eliminate what they do not need."""
    turbo_price: dict[str, int] = field(
        default_factory=lambda: {"W": 700_000, "M": 250_000, "R": 25_000})
    """Price of a Turbo component sold by the game master at the new-factory rating."""

    leftover_auction_rounds: int = 1
    """April 2000 §19: rounds the material of a leaving team is offered before the rest goes."""
    contact_limit: int = 2000
    """April 2000 §18: characters of contacts a team may publish per round (the game master's
    "reasonable measure"); longer contacts are flagged for him (``turbo status``, the log,
    ``turbo check``) and published whole."""
    joining_drivers: int = 3
    """Free drivers added to the pool when a team joins during the game (reconstructed)."""

    # --- drivers --------------------------------------------------------------------------
    start_drivers_per_team: int = 3
    start_driver_rating: int = 100
    """All drivers start at rating 10.0 (June 1996 start sheet), stored as tenths."""
    minimum_salary: int = 10_000
    extra_driver_fee: int = 0
    """Reconstructed option (rules version 3, rules.md §2 and §11): every round a team pays
    this for each driver under contract for the running year beyond ``fee_free_drivers``, on
    top of the salary. The start pool holds three drivers a team, so a fourth driver is one a
    rival lacks, and at the minimum salary he pays for himself (the strategy search's winner in
    6 teams hires four). 0 = no fee, the default: 150,000 ended the four-driver winner in 6
    teams, but the bots that hire four kept paying it and the bot field grew weaker, so that
    the racer won more in 21 teams (measured in rules.md §11)."""
    fee_free_drivers: int = 3
    """Drivers a team holds without ``extra_driver_fee`` (the pool's three a team)."""
    max_drivers: int = 3
    """Reconstructed (rules version 4, rules.md §2 and §11): a team holds at most this many
    drivers under contract for one year; a contract bid beyond it is passed over and the
    driver goes to the next bid. The start pool holds three drivers a team, and a fourth one,
    racing in a side race or sent to the camp while the other three race, was what the
    strategy search's winners in 6 and 12 teams had in common. 0 = no limit (versions 1–3)."""
    training_gain: int = 20
    """April 2000 §1: +2 by training."""
    year_end_gain: int = 20
    """April 2000 §5: +2 after every racing year."""
    place_gains: tuple[int, ...] = (9, 8, 8, 7, 7, 7)
    """April 2000 §5: gains of places 1–6 in tenths."""
    placed_gain: int = 6
    qualified_gain: int = 4
    stockcar_best: int = 6
    """April 2000 §4.4: the best six gain 1.0, other placed 0.5, qualified 0.3."""
    stockcar_best_gain: int = 10
    stockcar_placed_gain: int = 5
    stockcar_qualified_gain: int = 3
    injury_penalty: int = 10
    """Unfall: the driver loses 1.0 and misses the next round's race."""

    # --- races ----------------------------------------------------------------------------
    lp_formula: str = "april2000"
    """Formula for the LP an entry may spend (April 2000 §2); ``original`` is the base rule."""
    cap_formula: str = "original"
    """Formula checked against a Formel N number (the §4.2 example uses the original rule)."""
    original_lp_divisor: int = 100
    april_lp_divisor: int = 10
    max_push: int = 7
    """Largest d or e an entry may name (d, e >= 1); 7 lets risk reach 12, past "Unfall"."""
    die_sides: int = 6
    wurf_face: int = 6
    """``risk_model`` "sixes": every die showing this face counts as one Wurf."""
    risk_model: str = "sum"
    """How a car's risk becomes Würfe in a section (reconstructed; see rules.md §5):
    "sum" — no push, no dice; else Würfe = risk + ``risk_dice`` dice − ``risk_offset`` (at
    least 0), so every step of push shifts the whole range and rare bad sections reach the far
    end of the table; "sixes" — the first reconstruction: ``risk`` dice, each six one Wurf."""
    qualifying_pace_percent: int = 100
    """Reconstructed (rules version 2): in no section does a car score more track points than
    this percent of its Q, the pace it showed in qualifying; 0 = no limit (version 1, where Q
    bought nothing once the grid had room for every entry)."""
    qualifying_risk: bool = True
    """Reconstructed (rules version 2): a pushed car rolls its dice in qualifying too (rules.md
    §5); a mishap sets its Q for the grid to 0. Off (version 1), the LP a push bought were free
    in qualifying, and a full grid went to the cars pushed hardest."""
    qualifying_full_grid_push: int = 2
    """Reconstructed (rules version 3, rules.md §5 and §11): when a race has more entries than
    grid places, a pushed car rolls its qualifying as if pushed this many steps more (risk
    model "sum": Würfe = risk + this + the dice − ``risk_offset``); its sections roll as
    entered. In a full grid qualifying is a ranking, and in version 2 one step of push bought
    a grid place more often than its qualifying roll cost one: the searched winners of 12 and
    21 teams pushed where it counts. 0 = the same roll in every field (versions 1 and 2);
    1 in versions 3 and 4, 2 since version 5 (with ``full_grid_every_car_rolls``)."""
    full_grid_every_car_rolls: bool = True
    """Reconstructed (rules version 5, rules.md §5 and §11): in a full grid a car that is not
    pushed rolls its qualifying too, as if pushed ``qualifying_full_grid_push`` steps. Before,
    only pushed cars rolled, so the careful team that never pushes and put a little more into
    Q than the field took its grid places without any risk: it won 40 % of the 21-team games
    in version 4. Off in versions 1 to 4."""
    risk_dice: int = 2
    risk_offset: int = 8
    """Rules version 2: 8, so that the second step of push costs about what it buys now that
    the bots push where the LP formula pays (version 1: 9, where pushing e twice won two games
    in three; rules.md §11)."""
    risk_table: tuple[str, ...] = (
        "-", "M", "W", "Box", "MMM", "Dreher", "Reifenschaden", "WWW", "Motorschaden",
        "Wagenschaden", "Totalschaden", "Unfall")
    """April 2000 §3; the last entry applies to that many Würfe and more."""
    wm_points: tuple[int, ...] = (9, 6, 4, 3, 2, 1)
    """Formel I only (§4): points of places 1–6 for the team."""
    maker_wm_points: tuple[int, ...] = (3, 2, 1, 1, 1, 0)
    """Points of places 1–6 for the maker of each of the car's components (the brief said "the
    same" as the team's; a third of them, measured in rules.md §11)."""
    maker_points_once_per_race: bool = True
    """True: a maker scores maker points once per race, for its best-placed part (reconstructed
    option against one supplier collecting points from every car)."""
    min_component_rating: int = 1
    """Wear never lowers a rating below this."""
    rally_min_finishers: int = 7
    """April 2000 §4.6: the Rallye ends early when fewer reach the stage finish."""
    rally_excluded_last: int = 2
    """April 2000 §4.6: the last and second-last placed may not start the next stage."""

    # --- factories and building -----------------------------------------------------------
    factory_cost: dict[str, int] = field(
        default_factory=lambda: {"W": 4_000_000, "M": 2_500_000, "R": 400_000})
    """Reconstructed; rules version 2: a tyre factory 400,000, so that one pays back within
    the three years of a game (version 1: 1,000,000, and never building won; rules.md §11)."""
    development_step_cost: int = 200_000
    development_die: int = 10
    """A development step rolls this die to pick one of the ten digits."""
    development_digit_max: int = 9
    development_rule: str = "digit_sum"
    """When a factory's rating rises (reconstructed): "digit_sum" — by 1 for every
    ``development_steps_per_rating`` digits raised; "min_digit" — whenever the smallest of the
    ten digits rises (the first reconstruction: about 29 steps per point)."""
    development_steps_per_rating: int = 4
    modernisation_cost: int = 500_000
    """April 2000 §8."""
    elimination_refund_per_digit: int = 150_000
    """April 2000 §9."""
    new_factory_min_rating: int = 18
    """The component scale (reconstructed): Turbo parts and new factories start here, above the
    drivers' 10.0, so that driver, e and training count in the April 2000 formula."""
    new_factory_kind_offset: dict[str, int] = field(
        default_factory=lambda: {"W": 0, "M": -2, "R": 0})
    """Reconstructed (rules version 2): the minimum of a kind is ``new_factory_min_rating``
    plus this, so engines start two below cars and tyres and M+d is not always the highest of
    the four numbers that April 2000 §2 drops (version 1: all 0, so pushing d bought nothing
    while the drivers were below the parts)."""
    new_factory_min_per_year: int = 2
    """The minimum rises by this much each racing year (reconstructed), so that Turbo parts keep
    pace with drivers, who gain about +2 a year and more by racing and training (April 2000 §1,
    §5)."""
    new_factory_offset: int = 2
    """New-factory rating = median of existing factories of the type minus this, at least min."""
    build_costs: dict[str, tuple[int, ...]] = field(default_factory=lambda: {
        "W": (600_000, 580_000, 560_000, 540_000, 520_000, 500_000, 480_000, 460_000, 440_000,
              420_000, 400_000, 380_000, 360_000, 340_000, 320_000, 300_000),
        "M": (200_000, 190_000, 180_000, 170_000, 160_000, 150_000, 140_000, 130_000, 120_000,
              110_000, 100_000, 100_000, 100_000, 100_000, 100_000, 100_000),
        "R": (20_000, 19_000, 18_000, 17_000, 16_000, 15_000, 14_000, 13_000, 12_000, 11_000,
              10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
    })
    """April 2000 §10: cost by difference to the best factory; the last entry is "or more"."""
    count_threshold: int = 1000
    """April 2000 §11: an amount below this is a count of pieces (also for development steps)."""

    # --- end of the game ------------------------------------------------------------------
    min_years: int = 3
    """April 2000 §20: at least three racing years; a vote for the end never ends the game
    before the last round of this year (it only matters when ``first_vote_year`` is early)."""
    first_vote_year: int = 2
    vote_tie_ends_game: bool = False
    """April 2000 §20 leaves a tie to the game master; this is the game master's standing choice."""

    def race(self, code: str) -> RaceTemplate:
        """The race template with this code."""
        for template in self.races:
            if template.code == code:
                return template
        raise TurboError(f"Rennen {code!r} ist nicht ausgeschrieben",
                         f"race {code!r} is not announced", where="config")

    def places_for_training(self, teams: int) -> int:
        """Training places of a round with ``teams`` teams in the game (§1; rules version 4)."""
        if not self.teams_per_training_place:
            return self.training_places
        return min(self.training_places, max(1, teams // self.teams_per_training_place))

    def round_in_year(self, round_number: int) -> int:
        """1 … rounds_per_year."""
        return (round_number - 1) % self.rounds_per_year + 1

    def year_of(self, round_number: int) -> int:
        """1 for rounds 1–6, 2 for rounds 7–12, …"""
        return (round_number - 1) // self.rounds_per_year + 1


RULES_VERSION = 5
"""The current version of the reconstructed figures (``GameConfig.rules_version``)."""

LEGACY: dict[str, Any] = {
    "rules_version": 1,
    "qualifying_pace_percent": 0,
    "qualifying_risk": False,
    "new_factory_kind_offset": {"W": 0, "M": 0, "R": 0},
    "risk_offset": 9,
    "start_money": 3_500_000,
    "factory_cost": {"W": 4_000_000, "M": 2_500_000, "R": 1_000_000},
}
"""Version-1 values of the settings version 2 added or changed: a stored configuration without
``rules_version`` was written before them, and a setting it lacks takes these values."""

BEFORE_VERSION_3: dict[str, Any] = {
    "extra_driver_fee": 0,
    "fee_free_drivers": 3,
    "qualifying_full_grid_push": 0,
}
"""The values that version 1 and 2 played by for the settings version 3 added: a stored
configuration of version 1 or 2 lacks them, and a setting it lacks takes these values (a
version-2 ``config.json`` holds every other setting, so it replays as it was evaluated)."""


BEFORE_VERSION_4: dict[str, Any] = {
    "max_drivers": 0,
    "teams_per_training_place": 0,
    "training_places": 2,
}
"""The values versions 1 to 3 played by for the settings version 4 added or changed (no limit of
drivers a team, two training places in every field): a stored configuration of those versions
lacks the new ones (and holds ``training_places`` as every stored setting)."""


BEFORE_VERSION_5: dict[str, Any] = {
    "full_grid_every_car_rolls": False,
}
"""The value versions 1 to 4 played by for the setting version 5 added (only a pushed car rolls
in qualifying); a stored configuration of those versions holds its own
``qualifying_full_grid_push`` (1, or 0 before version 3), so that changed default does not
reach it."""


BEFORE_VERSION: dict[int, dict[str, Any]] = {
    3: BEFORE_VERSION_3,
    4: BEFORE_VERSION_4,
    5: BEFORE_VERSION_5,
}
"""For each rules version, what a stored configuration of an earlier version played by for the
settings that version added or changed (``config_from_dict``)."""


def config_to_dict(config: GameConfig) -> dict[str, Any]:
    """Plain JSON-ready data."""
    data = asdict(config)
    data["races"] = [asdict(template) for template in config.races]
    return data


def _as_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_tuple(item) for item in value)
    return value


MAX_SETTING = 10**12
"""The largest number a setting may hold (amounts are in DM; the default start money is 3.5
million); a larger one is a typo and would let a sheet's sums run away."""

MAX_DICE = 100
"""The most a setting that counts dice or push steps may hold (``DICE_SETTINGS``): with
``risk_model`` "sixes" a car rolls one die per step, so a typo of a billion would make the
round's evaluation hang."""

DICE_SETTINGS = ("max_push", "risk_dice", "qualifying_full_grid_push")

MAX_ITEMS = 1000
"""Entries of one list or table in the settings (races, calendar days, risk table)."""


def _shape_error(path: str, de: str, en: str) -> TurboError:
    return TurboError(de, en, where=f"config.json: {path}")


def _check_shape(value: Any, like: Any, path: str) -> None:
    """Refuse ``value`` unless it has the shape of the default ``like``: the same kind of
    value (a whole number for a number, a list for a tuple, a table for a mapping), numbers
    within ``MAX_SETTING``, lists within ``MAX_ITEMS``. Was a traceback for a race with an
    unknown key or a list where a table belongs (issue 21)."""
    if isinstance(like, bool):
        if not isinstance(value, bool):
            raise _shape_error(path, "true oder false erwartet", "true or false expected")
    elif isinstance(like, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise _shape_error(path, "eine ganze Zahl erwartet", "a whole number expected")
        if abs(value) > MAX_SETTING:
            raise _shape_error(path, f"höchstens {MAX_SETTING} erlaubt",
                               f"at most {MAX_SETTING} allowed")
    elif isinstance(like, str):
        if not isinstance(value, str) or len(value) > 200:
            raise _shape_error(path, "Text bis 200 Zeichen erwartet",
                               "text of up to 200 characters expected")
    elif isinstance(like, tuple):
        if not isinstance(value, list | tuple) or len(value) > MAX_ITEMS:
            raise _shape_error(path, f"Liste mit höchstens {MAX_ITEMS} Einträgen erwartet",
                               f"a list of at most {MAX_ITEMS} entries expected")
        if like:
            for n, item in enumerate(value):
                _check_shape(item, like[0], f"{path}[{n}]")
    elif isinstance(like, dict):
        if not isinstance(value, dict) or len(value) > MAX_ITEMS:
            raise _shape_error(path, "Tabelle erwartet", "a table expected")
        sample = next(iter(like.values()), None)
        for key, item in value.items():
            if sample is not None:
                _check_shape(item, sample, f"{path}.{key}")


def _race_template(item: Any, path: str) -> RaceTemplate:
    """One entry of ``races``: every key known, the required ones present, each shaped."""
    if not isinstance(item, dict):
        raise _shape_error(path, "Tabelle erwartet", "a table expected")
    known = {f.name: f for f in fields(RaceTemplate)}
    unknown = sorted(set(item) - set(known))
    if unknown:
        raise _shape_error(f"{path}.{unknown[0]}", f"unbekannter Schlüssel {unknown[0]!r}",
                           f"unknown key {unknown[0]!r}")
    samples: dict[str, Any] = {"code": "", "series": "", "name": "", "sections": 0, "grid": 0,
                               "prizes": (0,), "lp_cap": 0, "min_risk": 0,
                               "constructors_prize": 0}
    for name in known:
        if name not in item:
            if name in ("lp_cap", "min_risk", "constructors_prize"):
                continue
            raise _shape_error(f"{path}.{name}", f"{name!r} fehlt", f"{name!r} missing")
        _check_shape(item[name], samples[name], f"{path}.{name}")
    return RaceTemplate(**{k: _as_tuple(v) for k, v in item.items()})


def config_from_dict(data: dict[str, Any]) -> GameConfig:
    """Read a configuration; unknown keys are an error so that typos are not silently ignored,
    and every value must have the shape of its default. Without ``rules_version`` the data is
    version 1: the settings added since take their ``LEGACY`` values; before version 3, the
    settings version 3 added take their ``BEFORE_VERSION_3`` values, before version 4 those
    of version 4 their ``BEFORE_VERSION_4`` values, and before version 5 those of version 5
    their ``BEFORE_VERSION_5`` values."""
    if "rules_version" not in data:
        data = {**LEGACY, **data}
    if isinstance(data["rules_version"], int):
        for version, before in BEFORE_VERSION.items():
            if data["rules_version"] < version:
                data = {**before, **data}
    known = {f.name for f in fields(GameConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TurboError(f"unbekannte Einstellung {unknown[0]!r}",
                         f"unknown setting {unknown[0]!r}", where="config.json")
    defaults = GameConfig()
    for key, value in data.items():
        if key == "races":
            if not isinstance(value, list | tuple) or not 0 < len(value) <= MAX_ITEMS:
                raise _shape_error(key, f"Liste mit 1 bis {MAX_ITEMS} Rennen erwartet",
                                   f"a list of 1 to {MAX_ITEMS} races expected")
        else:
            _check_shape(value, getattr(defaults, key), key)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "races":
            values[key] = tuple(
                _race_template(item, f"races[{n}]") for n, item in enumerate(value))
        elif key == "build_costs":
            values[key] = {kind: tuple(costs) for kind, costs in value.items()}
        else:
            values[key] = _as_tuple(value)
    config = replace(GameConfig(), **values)
    _validate(config)
    return config


def new_game_config(data: dict[str, Any]) -> GameConfig:
    """The settings of a new game (``turbo new --config``): a file that names no
    ``rules_version`` changes the current defaults, it is not an old game's record."""
    return config_from_dict({"rules_version": RULES_VERSION, **data})


def _validate(config: GameConfig) -> None:
    if not 1 <= config.rules_version <= RULES_VERSION:
        raise TurboError(f"rules_version {config.rules_version}: 1 bis {RULES_VERSION} bekannt",
                         f"rules_version {config.rules_version}: 1 to {RULES_VERSION} known",
                         where="config.json")
    if not 0 <= config.qualifying_pace_percent <= MAX_SETTING:
        raise TurboError("qualifying_pace_percent >= 0 nötig",
                         "qualifying_pace_percent >= 0 needed", where="config.json")
    for key in ("max_drivers", "teams_per_training_place"):
        if getattr(config, key) < 0:
            raise TurboError(f"{key} >= 0 nötig (0: aus)", f"{key} >= 0 needed (0: off)",
                             where=f"config.json: {key}")
    for key in DICE_SETTINGS:
        if not 0 <= getattr(config, key) <= MAX_DICE:
            raise TurboError(f"{key} zwischen 0 und {MAX_DICE} nötig",
                             f"{key} between 0 and {MAX_DICE} needed",
                             where=f"config.json: {key}")
    codes = {template.code for template in config.races}
    for index, day in enumerate(config.calendar, start=1):
        for code in day:
            if code not in codes:
                raise TurboError(f"Kalender Runde {index}: Rennen {code!r} fehlt in 'races'",
                                 f"calendar round {index}: race {code!r} missing in 'races'",
                                 where="config.json")
    if len(config.calendar) != config.rounds_per_year:
        raise TurboError("Kalender braucht einen Eintrag je Runde des Jahres",
                         "calendar needs one entry per round of the year", where="config.json")
    for name in config.risk_table:
        if name not in CONSEQUENCES:
            raise TurboError(f"unbekannte Folge {name!r} in 'risk_table'",
                             f"unknown consequence {name!r} in 'risk_table'", where="config.json")
    if config.risk_model not in RISK_MODELS:
        raise TurboError(f"unbekanntes Risikomodell {config.risk_model!r}",
                         f"unknown risk model {config.risk_model!r}", where="config.json")
    if config.development_rule not in ("digit_sum", "min_digit"):
        raise TurboError(f"unbekannte Entwicklungsregel {config.development_rule!r}",
                         f"unknown development rule {config.development_rule!r}",
                         where="config.json")
    if config.development_steps_per_rating < 1:
        raise TurboError("development_steps_per_rating >= 1 nötig",
                         "development_steps_per_rating >= 1 needed", where="config.json")
    for template in config.races:
        if template.series not in SERIES:
            raise TurboError(f"unbekannte Serie {template.series!r}",
                             f"unknown series {template.series!r}", where="config.json")
