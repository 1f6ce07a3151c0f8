"""Rulesets as data: one frozen dataclass, four named presets.

The race engine reads numbers from a ``Ruleset`` instead of asking ``if house_rules:``. Every
field carries its rule number and a German and English description in its metadata, so the CLI
(``rennleitung rules show``) and the docs print exactly what the engine uses. Where the sources
differ, ``shared/design/formula-de-rules.md`` decides: ``masters-2002`` follows the Masters 2002
rules, the Dresden presets follow the Dresden house rules and fall back to Masters where Dresden
is silent, ``fd-blitz`` is ``dresden-2006`` with the Blitz changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import (
    BLITZ_SETUP,
    TYRES_DRESDEN,
    TYRES_MASTERS,
    CarStatus,
    DriverProfile,
    Tyre,
    TyreRule,
    TyreTable,
    Wear,
    WearArea,
)


class UnknownRulesetError(RennleitungError):
    """A ruleset name that is not one of the presets."""


class StartOutcome(StrEnum):
    """Result of a start roll (Dresden "Startwurf"; Masters 9) or restart roll (Masters 10-4-6)."""

    STALL = "stall"
    NORMAL = "normal"
    SUPER_START = "super_start"


class PitSystem(StrEnum):
    """How a pit stop is paid for."""

    POINTS = "points"  # Dresden "Boxenstopp": announced work in points, worked off in 4th
    QUICK_LONG = "quick_long"  # Masters 19-3, 19-4: black-die quick stop or a round-long stop


class EngineFailure(StrEnum):
    """What a car does after its last engine point."""

    ROLL_OUT = "roll_out"  # Dresden "Ausfälle": one gear lower each round down to 1st
    INERTIA = "inertia"  # Masters 16-0-3: one more move in 4th gear


class WreckRemoval(StrEnum):
    """When the wreck of a retired car leaves the track (wrecks in the pit lane go at once)."""

    WHEN_PASSED = "when_passed"  # Dresden "Ausfälle": once every car still racing has passed it
    NEXT_TURN = "next_turn"  # Masters 14-2, 20-3-2: at the wrecked car's next turn to play


class PreRaceOrder(StrEnum):
    """In which order the drivers are asked for their setups and their pit boxes before the
    start (the weather is rolled before both)."""

    SETUPS_FIRST = "setups_first"  # Dresden "Rennen": setups and tyres, then a box per team
    BOXES_FIRST = "boxes_first"  # Masters 4-0-1: the pit first, then the car configuration


class Qualifying(StrEnum):
    """How the grid is made."""

    TIMED_LAP = "timed_lap"  # Dresden "Qualifizierung"; Masters 1
    ALTERNATE = "alternate"  # Dresden "FD Blitz": each player starts once from pole


def _doc(rule: str, de: str, en: str) -> dict[str, str]:
    """Field metadata: the rule number and what the field means in German and English."""
    return {"rule": rule, "de": de, "en": en}


Cost = tuple[tuple[WearArea, int], ...]

_F, _B, _E = WearArea.FUEL, WearArea.BRAKES, WearArea.ENGINE


@dataclass(frozen=True)
class Ruleset:
    """Every number and switch in which the presets differ; defaults are ``dresden-2006``."""

    name: str = field(
        default="dresden-2006", metadata=_doc("—", "Name des Regelwerks", "name of the ruleset")
    )
    title_de: str = field(
        default="Formula Dé Dresden, Saison 2006",
        metadata=_doc("—", "Titel (deutsch)", "title (German)"),
    )
    title_en: str = field(
        default="Formula Dé Dresden, 2006 season",
        metadata=_doc("—", "Titel (englisch)", "title (English)"),
    )
    laps: int = field(
        default=3,
        metadata=_doc("Dresden Rennen; Masters 2-0-3", "Rennrunden je Rennen", "laps per race"),
    )

    # --- setup -----------------------------------------------------------------------------
    setup_points: int = field(
        default=22,
        metadata=_doc(
            "Dresden Rennen; Masters 5-0-2, 5-3",
            "Verschleißpunkte für Auto und Box zusammen",
            "wear points for car and box together",
        ),
    )
    box_max: int = field(
        default=2,
        metadata=_doc(
            "Masters 5-0-2, 5-3; Entscheidung 22 Punkte",
            "höchstens so viele VP als Reserve in der Box",
            "at most this many points held back in the box",
        ),
    )
    area_minimum: int = field(
        default=1,
        metadata=_doc(
            "Dresden Auto; Masters 5-2",
            "mindestens so viele VP in jedem Bereich",
            "at least this many points in every area",
        ),
    )
    fixed_setup: Wear | None = field(
        default=None,
        metadata=_doc(
            "Dresden FD Blitz",
            "festes Setup für alle (ersetzt die drei Grenzen oben)",
            "fixed setup for everyone (replaces the three limits above)",
        ),
    )
    pre_race_order: PreRaceOrder = field(
        default=PreRaceOrder.SETUPS_FIRST,
        metadata=_doc(
            "Dresden Rennen; Masters 4-0-1",
            "vor dem Start erst Setups, dann Boxen (setups_first) oder erst die Box, dann das "
            "Setup (boxes_first)",
            "before the start setups first, then boxes (setups_first), or the pit first, then "
            "the setup (boxes_first)",
        ),
    )
    t_car_points: int | None = field(
        default=20,
        metadata=_doc(
            "Dresden Ausfälle",
            "VP des T-Cars nach Ausfall vor Ende der ersten Kurve (leer: kein T-Car)",
            "points of the T-car after retiring before the first corner ends (none: no T-car)",
        ),
    )

    # --- start -----------------------------------------------------------------------------
    start_roll: tuple[tuple[int, int, StartOutcome], ...] = field(
        default=(
            (1, 1, StartOutcome.STALL),
            (2, 19, StartOutcome.NORMAL),
            (20, 20, StartOutcome.SUPER_START),
        ),
        metadata=_doc(
            "Dresden Startwurf; Masters 9-1 bis 9-3, 10-4-6",
            "Startwurf mit dem schwarzen Würfel (auch nach Drehern): von, bis, Ergebnis",
            "start roll on the black die (also after a spin): from, to, outcome",
        ),
    )
    super_start_spaces: int = field(
        default=4,
        metadata=_doc(
            "Dresden Startwurf; Masters 9-2-1", "Felder beim Traumstart", "spaces on a super start"
        ),
    )
    super_start_next_gears: tuple[int, ...] = field(
        default=(1, 2),
        metadata=_doc(
            "Dresden Startwurf; Masters 9-2-1",
            "erlaubte Gänge im Zug nach dem Traumstart",
            "gears allowed on the move after a super start",
        ),
    )

    # --- gears and wear --------------------------------------------------------------------
    skip_gear_costs: tuple[Cost, ...] = field(
        default=(((_F, 1),), ((_F, 1), (_B, 1)), ((_F, 1), (_B, 1), (_E, 1))),
        metadata=_doc(
            "Dresden Verschleiß; Masters 13-1, 13-2",
            "Kosten für 1, 2, 3 übersprungene Gänge beim Herunterschalten (6. auf 1. verboten)",
            "cost of skipping 1, 2, 3 gears when shifting down (6th to 1st forbidden)",
        ),
    )
    skip_three_marks_danger: bool = field(
        default=True,
        metadata=_doc(
            "Masters 13-3 (Dresden schweigt)",
            "drei übersprungene Gänge machen das Startfeld des Zugs gefährlich",
            "skipping three gears makes the move's starting space dangerous",
        ),
    )
    fuel_per_lap: int = field(
        default=1,
        metadata=_doc(
            "Dresden Verschleiß; Masters 5-1-3, 13-1",
            "VP Verbrauch je Runde beim Verlassen der letzten Kurve vor dem Ziel (leer: rollt aus)",
            "fuel points per lap on leaving the last corner before the line (empty: rolls out)",
        ),
    )
    blocked_table: tuple[tuple[int, int], ...] = field(
        default=((1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3)),
        metadata=_doc(
            "Dresden Blockierte Spur; Masters 12-0-1",
            "blockierte Spur: VP Bremsen und Reifen für 1 bis 6 überzählige Felder; mehr = aus",
            "blocked lane: brake and tyre points for 1 to 6 spaces left over; more = out",
        ),
    )
    blocked_out_body_ahead: int = field(
        default=1,
        metadata=_doc(
            "Dresden Blockierte Spur; Masters 12-1-1",
            "VP Karosserie, die das Auto davor verliert, wenn ein blockiertes Auto ausscheidet",
            "body points lost by the car in front when a blocked car is eliminated",
        ),
    )
    blocked_end_plays_first: bool = field(
        default=False,
        metadata=_doc(
            "Masters 12-1-3; Dresden Blockierte Spur",
            "blockiert: von den weitesten Feldern nur das, von dem aus man zuerst am Zug wäre "
            "(sonst freie Wahl)",
            "blocked: of the farthest spaces only the one that would play first (else free choice)",
        ),
    )
    blocking_cites_masters: bool = field(
        default=False,
        metadata=_doc(
            "Masters 12-1-1, 20-2-1",
            "Ausscheiden durch Blockade nennt nur die Masters-Regel (nicht Dresden Blockierte "
            "Spur)",
            "an elimination for blocking cites the Masters rule only (not Dresden Blockierte "
            "Spur)",
        ),
    )
    zero_tyres_spin_again: bool = field(
        default=False,
        metadata=_doc(
            "Dresden Verschleiß; Masters 10-4-2",
            "ohne VP Reifen: ein weiterer VP bringt einen weiteren Dreher (sonst Reifenschaden)",
            "no tyre points left: one more point spins the car again (else a tyre failure)",
        ),
    )
    tyre_table: TyreTable = field(
        default=TYRES_DRESDEN,
        metadata=_doc(
            "Dresden Reifen; Masters 8-5, 10-0-2",
            "Reifen: VP je überschossenem Feld (Sonne/Regen, Satzrunde 1–3), Rutschen, Bonus/Malus",
            "tyres: points per space overshot (sun/rain, set lap 1–3), slide, bonus/malus",
        ),
    )

    # --- pit stops -------------------------------------------------------------------------
    pit_system: PitSystem = field(
        default=PitSystem.POINTS,
        metadata=_doc(
            "Dresden Boxenstopp; Masters 19-3, 19-4", "Art des Boxenstopps", "kind of pit stop"
        ),
    )
    pit_refuel_points: int = field(
        default=4,
        metadata=_doc(
            "Dresden Boxenstopp",
            "Punkte je getanktem VP Verbrauch",
            "points per fuel point refuelled",
        ),
    )
    pit_tyre_points: int = field(
        default=6,
        metadata=_doc(
            "Dresden Boxenstopp", "Punkte für den Reifenwechsel", "points for a tyre change"
        ),
    )
    pit_repair_points: tuple[int, ...] = field(
        default=(10, 14),
        metadata=_doc(
            "Dresden Boxenstopp",
            "Punkte für 1 bzw. 2 reparierte VP",
            "points to repair 1 or 2 wear points",
        ),
    )
    pit_unannounced_penalty: int = field(
        default=5,
        metadata=_doc(
            "Dresden Boxenstopp",
            "Strafpunkte ohne Ansage vor dem Wurf in die Box",
            "penalty points when nothing was announced before the roll into the box",
        ),
    )
    pit_work_gear: int = field(
        default=4,
        metadata=_doc(
            "Dresden Boxenstopp",
            "Gang, in dem die Boxenpunkte abgewürfelt werden",
            "gear whose rolls work off the pit points",
        ),
    )
    quick_stop_success_max: int = field(
        default=0,
        metadata=_doc(
            "Masters 19-3-3, 19-3-4",
            "schneller Stopp gelingt bis zu diesem Wurf (0: kein schneller Stopp)",
            "a quick stop succeeds up to this roll (0: no quick stops)",
        ),
    )
    pit_exit_max_gear: int = field(
        default=4,
        metadata=_doc(
            "Dresden Boxenstopp; Masters 19-3-3, 19-4-2",
            "höchster Gang beim Verlassen der Box",
            "highest gear when leaving the box",
        ),
    )
    pit_lane_max_gear: int | None = field(
        default=4,
        metadata=_doc(
            "Dresden Boxenstopp; Masters 19-1-6",
            "höchster Gang in die und in der Boxengasse (leer: keine Grenze)",
            "highest gear into and inside the pit lane (none: no limit)",
        ),
    )
    pit_min_laps: int = field(
        default=1,
        metadata=_doc(
            "Masters 19-2-4 (Dresden schweigt)",
            "volle Runden vor dem ersten Boxenstopp",
            "full laps before the first pit stop",
        ),
    )
    pit_closed_last_lap: bool = field(
        default=True,
        metadata=_doc(
            "Masters 19-1-7 (Dresden schweigt)",
            "Boxengasse beim Start und in der letzten Runde gesperrt",
            "pit lane closed during the start and the last lap",
        ),
    )

    # --- weather ---------------------------------------------------------------------------
    weather_reroll_trigger: tuple[tuple[int, int], ...] = field(
        default=((5, 20), (6, 30)),
        metadata=_doc(
            "Dresden Wetter; Masters 3-2-4, 3-2-5",
            "wechselhaftes Wetter neu würfeln am Rundenende nach diesem Wurf (Gang, Ergebnis)",
            "re-roll changeable weather at the end of the round after this roll (gear, result)",
        ),
    )
    weather_reroll_at_once: bool = field(
        default=False,
        metadata=_doc(
            "Dresden Open Wetter; Dresden Wetter; Masters 3-2-4",
            "wechselhaftes Wetter gleich nach dem Wurf neu würfeln (sonst am Rundenende)",
            "re-roll changeable weather right after the roll (else at the end of the round)",
        ),
    )
    weather_settles_after: int = field(
        default=2,
        metadata=_doc(
            "Dresden Wetter; Masters 3-2-6",
            "so oft hintereinander Sonne bzw. Regen legt das Wetter fest",
            "this many sun or rain results in a row fix the weather",
        ),
    )

    # --- slipstream ------------------------------------------------------------------------
    slipstream_min_gear: int = field(
        default=4,
        metadata=_doc(
            "Dresden Fahrregeln; Masters 18-1-1",
            "Windschatten: beide Autos mindestens in diesem Gang, der Hintere nicht niedriger",
            "slipstream: both cars at least in this gear, the one behind not lower",
        ),
    )
    slipstream_spaces: int = field(
        default=3,
        metadata=_doc(
            "Dresden Fahrregeln; Masters 18-0-3", "Felder Windschatten", "spaces of slipstream"
        ),
    )
    slipstream_behind_rolling_out: bool = field(
        default=True,
        metadata=_doc(
            "Dresden Fahrregeln; Masters 18-1-7",
            "Windschatten auch hinter einem ausrollenden Auto (ohne Benzin, nach Motorschaden)",
            "slipstream also behind a car rolling out (no fuel, engine failure)",
        ),
    )
    slipstream_corner_brakes: int = field(
        default=1,
        metadata=_doc(
            "Dresden Fahrregeln; Masters 18-1-4",
            "VP Bremsen, wenn der Windschatten in eine Kurve führt",
            "brake points when the slipstream carries the car into a corner",
        ),
    )

    # --- black-die tests -------------------------------------------------------------------
    engine_test_trigger: tuple[tuple[int, int], ...] = field(
        default=((5, 20), (6, 30)),
        metadata=_doc(
            "Dresden Verschleiß; Masters 16-0-1",
            "Motorcheck für alle im 5./6. Gang nach diesem Wurf (Gang, Ergebnis)",
            "engine test for every car in 5th/6th after this roll (gear, result)",
        ),
    )
    engine_test_threshold: int = field(
        default=4,
        metadata=_doc(
            "Dresden Verschleiß; Masters 16-0-2",
            "Motorcheck: bei diesem Wurf oder weniger 1 VP Motor weg",
            "engine test: this roll or less costs 1 engine point",
        ),
    )
    engine_test_rain: int = field(
        default=-1,
        metadata=_doc(
            "Dresden Verschleiß; Masters 16-0-2",
            "Änderung der Motorcheck-Schwelle bei Regen",
            "change of the engine test threshold in rain",
        ),
    )
    road_holding_threshold: int = field(
        default=4,
        metadata=_doc(
            "Dresden Verschleiß; Masters 17-0-2",
            "Straßenlagecheck je gefährlichem Feld: bei diesem Wurf oder weniger 1 VP weg",
            "road-holding test per dangerous space: this roll or less costs 1 point",
        ),
    )
    road_holding_rain: int = field(
        default=1,
        metadata=_doc(
            "Dresden Verschleiß; Masters 17-0-2",
            "Änderung der Straßenlage-Schwelle bei Regen",
            "change of the road-holding threshold in rain",
        ),
    )
    collision_threshold: int = field(
        default=1,
        metadata=_doc(
            "Dresden Verschleiß; Masters 14-1",
            "Kollisionscheck: bei diesem Wurf oder weniger 1 VP Karosserie weg",
            "collision test: this roll or less costs 1 body point",
        ),
    )
    collision_rain: int = field(
        default=1,
        metadata=_doc(
            "Dresden Verschleiß; Masters 14-1",
            "Änderung der Kollisionsschwelle bei Regen",
            "change of the collision threshold in rain",
        ),
    )
    collision_aggravated: int = field(
        default=1,
        metadata=_doc(
            "Dresden Verschleiß, Ausfälle; Masters 14-3",
            "Änderung der Kollisionsschwelle bei verschärftem Check",
            "change of the collision threshold when aggravated",
        ),
    )

    collision_aggravated_by: frozenset[CarStatus] = field(
        default=frozenset({CarStatus.WRECK}),
        metadata=_doc(
            "Dresden Verschleiß, Ausfälle; Masters 9-1-2, 10-4-3, 14-3",
            "Autos, neben denen der Kollisionscheck verschärft ist",
            "cars next to which the collision test is aggravated",
        ),
    )

    # --- engine ----------------------------------------------------------------------------
    engine_boost: bool = field(
        default=True,
        metadata=_doc(
            "Dresden Verschleiß",
            "1 VP Motor (nicht den letzten) für + Gangzahl Felder, angesagt vor dem Wurf",
            "1 engine point (not the last) for + gear number spaces, announced before the roll",
        ),
    )
    engine_failure: EngineFailure = field(
        default=EngineFailure.ROLL_OUT,
        metadata=_doc(
            "Dresden Ausfälle; Masters 16-0-3, 16-0-6",
            "Motorschaden: ausrollen (je Runde ein Gang tiefer) oder ein Trägheitszug",
            "engine failure: roll out (one gear lower each round) or one inertia move",
        ),
    )
    wreck_removal: WreckRemoval = field(
        default=WreckRemoval.WHEN_PASSED,
        metadata=_doc(
            "Dresden Ausfälle; Masters 14-2, 20-3-2",
            "Wrack bleibt liegen, bis alle anderen es passiert haben (when_passed), oder geht "
            "beim nächsten Zug des Autos (next_turn)",
            "a wreck stays until every other car has passed it (when_passed) or goes at the "
            "car's next turn (next_turn)",
        ),
    )
    inertia_gear: int = field(
        default=4,
        metadata=_doc(
            "Masters 16-0-3, 16-0-3-1",
            "Gang des Trägheitszugs (nur bei Trägheit, nicht wenn schon im 4. oder tiefer)",
            "gear of the inertia move (inertia only, not when already in 4th or lower)",
        ),
    )

    # --- driver profiles and karma ---------------------------------------------------------
    profiles_allowed: frozenset[DriverProfile] = field(
        default=frozenset(DriverProfile),
        metadata=_doc("Dresden Fahrerprofile", "erlaubte Fahrerprofile", "driver profiles allowed"),
    )
    karma: bool = field(default=True, metadata=_doc("Dresden Karmapool", "Karmapool", "karma pool"))
    karma_start: int = field(
        default=30,
        metadata=_doc(
            "Dresden Karmapool", "Karmapunkte zu Saisonbeginn", "karma at the start of the season"
        ),
    )
    karma_reroll_cost: int = field(
        default=40,
        metadata=_doc(
            "Dresden Karmapool",
            "Karma für die Wiederholung eines eigenen Ereigniswurfs",
            "karma to re-roll one's own event roll",
        ),
    )
    karma_plus_one_cost: int = field(
        default=20,
        metadata=_doc(
            "Dresden Karmapool",
            "Karma für +1 auf einen eigenen Ereigniswurf",
            "karma for +1 on one's own event roll",
        ),
    )
    karma_per_natural_twenty: int = field(
        default=1,
        metadata=_doc(
            "Dresden Karmapool",
            "Karma je gewürfelter 20 beim Karosserie-, Motor- oder Straßenlagecheck",
            "karma per natural 20 on a body, engine or road-holding check",
        ),
    )
    karma_points_per_karma: int = field(
        default=1,
        metadata=_doc(
            "Dresden Karmapool",
            "1 Karma je so vielen Meisterschaftspunkten",
            "1 karma per this many championship points",
        ),
    )
    karma_per_place_gained: int = field(
        default=3,
        metadata=_doc(
            "Dresden Karmapool",
            "Karma je gewonnenem Platz vom Start bis ins Ziel",
            "karma per place gained from grid to finish",
        ),
    )
    karma_most_laps_led: int = field(
        default=3,
        metadata=_doc(
            "Dresden Karmapool; Entscheidung",
            "Karma für die meisten Führungen am Rundenende je Rennrunde",
            "karma for leading most rounds of play within a lap",
        ),
    )
    head_to_head: bool = field(
        default=True,
        metadata=_doc(
            "Dresden Kopf an Kopf",
            "Kopf an Kopf: geheime Karmagebote bei Gleichstand",
            "head to head: secret karma bids when level",
        ),
    )

    # --- qualifying and points -------------------------------------------------------------
    qualifying: Qualifying = field(
        default=Qualifying.TIMED_LAP,
        metadata=_doc(
            "Dresden Qualifizierung, FD Blitz; Masters 1",
            "Art der Startaufstellung",
            "how the grid is made",
        ),
    )
    qualifying_runs: int = field(
        default=1,
        metadata=_doc(
            "Dresden Qualifizierung, Open; Masters 1-0-1",
            "höchstens so viele gezeitete Runden",
            "at most this many timed laps",
        ),
    )
    qualifying_error_points: int = field(
        default=10,
        metadata=_doc(
            "Dresden Qualifizierung; Masters 1-1-11",
            "Strafpunkte je Fehler in der gezeiteten Runde",
            "penalty points per error in the timed lap",
        ),
    )
    qualifying_minute_points: int = field(
        default=1,
        metadata=_doc(
            "Dresden Qualifizierung; Masters 1-1-13",
            "Strafpunkte je volle Minute der gezeiteten Runde",
            "penalty points per full minute of the timed lap",
        ),
    )
    qualifying_pole_points: int = field(
        default=0,
        metadata=_doc(
            "Dresden Open Qualifizierung",
            "Punkte für die Pole Position, je Startplatz einer weniger (0: keine)",
            "points for pole, one less per grid place (0: none)",
        ),
    )
    points_table: tuple[int, ...] = field(
        default=(10, 8, 6, 5, 4, 3, 2, 1),
        metadata=_doc(
            "Dresden Rennen; Masters 21-1-2",
            "Meisterschaftspunkte für Platz 1, 2, …",
            "championship points for 1st, 2nd, …",
        ),
    )
    points_min_laps: int = field(
        default=2,
        metadata=_doc(
            "Dresden Rennen; Masters 21-1-2",
            "volle Runden, die für Punkte nötig sind",
            "full laps needed to score points",
        ),
    )
    season_races: int = field(
        default=10,
        metadata=_doc(
            "Dresden Saison", "Rennen je Saison (0: frei)", "races per season (0: not fixed)"
        ),
    )
    drop_results: int = field(
        default=2,
        metadata=_doc(
            "Dresden Rennen; Entscheidung", "Streichresultate je Saison", "drop results per season"
        ),
    )
    box_per_driver: bool = field(
        default=False,
        metadata=_doc(
            "Dresden Rennen; Open Rennen",
            "jeder Fahrer wählt eine eigene Box (sonst eine je Mannschaft)",
            "every driver chooses a box of his own (else one per team)",
        ),
    )
    team_size: int = field(
        default=2,
        metadata=_doc(
            "Dresden Saison, Open",
            "höchstens so viele Fahrer je Mannschaft",
            "drivers per team, at most",
        ),
    )
    restart_after_blockage: bool = field(
        default=True,
        metadata=_doc(
            "Dresden Neustart",
            "Neustart, wenn Wracks die Strecke unpassierbar machen",
            "restart when wrecks make the track impassable",
        ),
    )
    restart_max_gear: int = field(
        default=4,
        metadata=_doc(
            "Dresden Neustart",
            "höchster Gang beim Neustart nach einer Unterbrechung (frei wählbar bis hier)",
            "highest gear on a restart after an interruption (driver's choice up to it)",
        ),
    )
    full_restart_before_corner: int = field(
        default=4,
        metadata=_doc(
            "Dresden Neustart",
            "ganz neu starten, wenn der Führende diese Kurve noch nicht erreicht hat",
            "restart from the grid if the leader has not yet reached this corner",
        ),
    )

    # --- FD Blitz --------------------------------------------------------------------------
    players: int = field(
        default=0,
        metadata=_doc(
            "Dresden FD Blitz",
            "genau so viele Spieler (0: beliebig)",
            "exactly this many players (0: any)",
        ),
    )
    heats_to_win: int = field(
        default=0,
        metadata=_doc(
            "Dresden FD Blitz",
            "Siege für den Gesamtsieg (0: ein Rennen)",
            "wins needed (0: one race)",
        ),
    )
    chess_clock: bool = field(
        default=False,
        metadata=_doc("Dresden FD Blitz", "Schachuhr je Spieler", "chess clock per player"),
    )

    # --- helpers ---------------------------------------------------------------------------

    def validate_setup(self, wear: Wear) -> Wear:
        """Check a starting setup against this ruleset; errors name the field at fault."""
        return wear.validate_setup(
            total=self.setup_points,
            box_max=self.box_max,
            area_minimum=self.area_minimum,
            fixed=self.fixed_setup,
        )

    def pit_stop_points(
        self, *, fuel: int = 0, tyres: bool = False, repairs: int = 0, announced: bool = True
    ) -> int:
        """Points a Dresden pit stop costs: the crew works in parallel, so the dearest job
        counts, plus the penalty when nothing was announced (Dresden "Boxenstopp")."""
        if self.pit_system is not PitSystem.POINTS:
            raise RennleitungError(
                f"{self.name} kennt keine Boxenpunkte",
                f"{self.name} has no pit-stop points",
                where=f"{self.name}.pit_system",
            )
        if not 0 <= repairs <= len(self.pit_repair_points):
            raise RennleitungError(
                f"höchstens {len(self.pit_repair_points)} VP Reparatur, nicht {repairs}",
                f"at most {len(self.pit_repair_points)} points of repair, not {repairs}",
                where="Dresden Boxenstopp",
            )
        jobs = (
            fuel * self.pit_refuel_points,
            self.pit_tyre_points if tyres else 0,
            self.pit_repair_points[repairs - 1] if repairs else 0,
        )
        return max(jobs) + (0 if announced else self.pit_unannounced_penalty)

    def pit_lane_open(self, laps_done: int, race_laps: int) -> bool:
        """Whether the pit lane is open to a car that has completed ``laps_done`` laps of
        ``race_laps``: after ``pit_min_laps`` full laps (Masters 19-2-4) and, with
        ``pit_closed_last_lap``, not on the last lap (Masters 19-1-7). The one place the
        rules, the move generator and the bots ask."""
        if laps_done < self.pit_min_laps:
            return False
        return not (self.pit_closed_last_lap and laps_done >= race_laps - 1)

    def start_outcome(self, roll: int) -> StartOutcome:
        """Look a black-die start roll up in ``start_roll``."""
        for low, high, outcome in self.start_roll:
            if low <= roll <= high:
                return outcome
        raise RennleitungError(
            f"Startwurf {roll} nicht in der Tabelle",
            f"start roll {roll} is not in the table",
            where=f"{self.name}.start_roll",
        )

    def skip_cost(self, gears_skipped: int) -> dict[WearArea, int]:
        """Wear points to pay for skipping ``gears_skipped`` gears on a downshift (0 = free)."""
        if gears_skipped == 0:
            return {}
        if not 1 <= gears_skipped <= len(self.skip_gear_costs):
            raise RennleitungError(
                f"{gears_skipped} Gänge überspringen ist nicht erlaubt",
                f"skipping {gears_skipped} gears is not allowed",
                where="Masters 13-2",
            )
        return dict(self.skip_gear_costs[gears_skipped - 1])

    def blocked_cost(self, spaces: int) -> tuple[int, int] | None:
        """(brakes, tyres) for ``spaces`` left over when blocked, None when that eliminates."""
        if spaces <= 0:
            return (0, 0)
        if spaces > len(self.blocked_table):
            return None
        return self.blocked_table[spaces - 1]

    def tyre(self, tyre: Tyre) -> TyreRule:
        """The behaviour of one tyre type under this ruleset."""
        rule: TyreRule = self.tyre_table[tyre]
        return rule

    def is_engine_trigger(self, gear: int, roll: int) -> bool:
        """A 20 in 5th or a 30 in 6th: engine tests for all in 5th/6th (Masters 16-0-1)."""
        return (gear, roll) in self.engine_test_trigger

    def engine_limit(self, rain: bool) -> int:
        return self.engine_test_threshold + (self.engine_test_rain if rain else 0)

    def road_holding_limit(self, rain: bool) -> int:
        return self.road_holding_threshold + (self.road_holding_rain if rain else 0)

    def collision_limit(self, rain: bool, aggravated: bool) -> int:
        return (
            self.collision_threshold
            + (self.collision_rain if rain else 0)
            + (self.collision_aggravated if aggravated else 0)
        )

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values, in field order."""
        return {item.name: plain(getattr(self, item.name)) for item in fields(self)}

    def describe(self) -> list[RuleRow]:
        """One row per field with its value, rule number and both descriptions (for the CLI)."""
        return [
            RuleRow(
                name=doc.name,
                value=plain(getattr(self, doc.name)),
                rule=doc.rule,
                de=doc.de,
                en=doc.en,
            )
            for doc in field_docs()
        ]

    def differences(self, other: Ruleset) -> list[str]:
        """Names of the rule fields (not name or titles) in which two rulesets differ."""
        return [
            item.name
            for item in fields(self)
            if item.metadata["rule"] != "—"
            and plain(getattr(self, item.name)) != plain(getattr(other, item.name))
        ]


@dataclass(frozen=True, slots=True)
class FieldDoc:
    """Where a ruleset field comes from and what it means, in both languages."""

    name: str
    rule: str
    de: str
    en: str
    has_default: bool


@dataclass(frozen=True, slots=True)
class RuleRow:
    """A field's documentation together with one ruleset's value."""

    name: str
    value: Any
    rule: str
    de: str
    en: str


def field_docs() -> tuple[FieldDoc, ...]:
    """The documentation of every ``Ruleset`` field, in declaration order."""
    return tuple(
        FieldDoc(
            name=item.name,
            rule=item.metadata["rule"],
            de=item.metadata["de"],
            en=item.metadata["en"],
            has_default=item.default is not MISSING or item.default_factory is not MISSING,
        )
        for item in fields(Ruleset)
    )


def plain(value: Any) -> Any:
    """A ruleset value as JSON data: enums by value, sets sorted, tables as nested objects."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Wear):
        return value.as_dict()
    if isinstance(value, TyreTable):
        return {tyre.value: plain(value[tyre]) for tyre in Tyre}
    if isinstance(value, TyreRule):
        return {
            "overshoot_sun": list(value.sun),
            "overshoot_rain": list(value.rain),
            "rain_slide": value.rain_slide,
            "bonus_laps": sorted(value.bonus_laps),
            "malus_laps": sorted(value.malus_laps),
        }
    if isinstance(value, Mapping):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


DRESDEN_2006 = Ruleset(wreck_removal=WreckRemoval.WHEN_PASSED)
"""Dresden house rules, season 2006 (Dresden "Saison" to "Kopf an Kopf")."""

DRESDEN_OPEN = replace(
    DRESDEN_2006,
    name="dresden-open",
    title_de="Formula Dé Dresden Open",
    title_en="Formula Dé Dresden Open",
    qualifying_runs=2,
    qualifying_pole_points=100,
    points_table=(1000, 800, 600, 500, 400, 300, 200, 100),
    karma_points_per_karma=100,
    season_races=3,
    drop_results=0,
    t_car_points=20,
    wreck_removal=WreckRemoval.WHEN_PASSED,
    box_per_driver=True,
    weather_reroll_at_once=True,
)
"""Dresden "Open": three races, points ×100, qualifying points, karma per 100 points."""

FD_BLITZ = replace(
    DRESDEN_2006,
    name="fd-blitz",
    title_de="FD Blitz (Dresden)",
    title_en="FD Blitz (Dresden)",
    fixed_setup=BLITZ_SETUP,
    setup_points=BLITZ_SETUP.total,
    box_max=0,
    area_minimum=0,
    t_car_points=None,
    qualifying=Qualifying.ALTERNATE,
    qualifying_runs=0,
    points_table=(),
    points_min_laps=0,
    season_races=0,
    drop_results=0,
    team_size=1,
    players=2,
    heats_to_win=2,
    chess_clock=True,
    wreck_removal=WreckRemoval.WHEN_PASSED,
)
"""Dresden "FD Blitz": two players, fixed setup, best of three heats on a chess clock."""

MASTERS_2002 = replace(
    DRESDEN_2006,
    name="masters-2002",
    title_de="Wettkampfregeln Masters 2002",
    title_en="Masters 2002 competition rules",
    pre_race_order=PreRaceOrder.BOXES_FIRST,
    t_car_points=None,
    super_start_next_gears=(2,),
    fuel_per_lap=0,
    tyre_table=TYRES_MASTERS,
    zero_tyres_spin_again=True,
    blocked_end_plays_first=True,
    blocking_cites_masters=True,
    slipstream_behind_rolling_out=False,
    pit_system=PitSystem.QUICK_LONG,
    pit_refuel_points=0,
    pit_tyre_points=0,
    pit_repair_points=(),
    pit_unannounced_penalty=0,
    pit_work_gear=0,
    quick_stop_success_max=10,
    pit_lane_max_gear=None,
    collision_aggravated_by=frozenset({CarStatus.WRECK, CarStatus.SPUN, CarStatus.STALLED}),
    engine_boost=False,
    engine_failure=EngineFailure.INERTIA,
    wreck_removal=WreckRemoval.NEXT_TURN,
    profiles_allowed=frozenset({DriverProfile.NORMAL}),
    karma=False,
    head_to_head=False,
    points_table=(),
    points_min_laps=0,
    season_races=0,
    drop_results=0,
    restart_after_blockage=False,
    restart_max_gear=0,
    full_restart_before_corner=0,
)
"""Masters 2002 tournament rules: quick and long pit stops, inertia, no house extras."""

PRESETS: Mapping[str, Ruleset] = {
    preset.name: preset for preset in (MASTERS_2002, DRESDEN_2006, DRESDEN_OPEN, FD_BLITZ)
}


def preset_names() -> tuple[str, ...]:
    return tuple(PRESETS)


def get_ruleset(name: str) -> Ruleset:
    """The preset called ``name``; an unknown name lists the known ones in both languages."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise UnknownRulesetError(
            f"unbekanntes Regelwerk {name!r}; bekannt: {known}",
            f"unknown ruleset {name!r}; known: {known}",
            where="ruleset",
        ) from None
