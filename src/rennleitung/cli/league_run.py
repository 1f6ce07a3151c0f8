"""`rennleitung league run-qualifying` and `league run-race`: qualifying and races run here.

Thin adapter over ``league.qualifying_run`` and ``league.race_run``: the laps and the race are
driven on the board by the Formula Dé engine (bots, or one driver's lap at the terminal), the
results go through ``store.LeagueStore`` like a table entry, so grids, standings and the karma
ledger follow by themselves. Registered on the ``league`` app in ``cli/league.py``.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from rennleitung.cli.common import (
    DbOption,
    Lang,
    LangOption,
    load_track,
    pick,
    run_guarded,
    say,
)
from rennleitung.cli.fit_table import fitted_table
from rennleitung.cli.league_files import check_output
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.builtin_tracks import DEFAULT_TRACK
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.event_text import count, render_qualifying
from rennleitung.formula_de.qualifying import GearChoice, PathChoice, QualifyingAskKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.record import record_of, record_to_json
from rennleitung.formula_de.track import Track
from rennleitung.inputs import write_text
from rennleitung.league.box_choice import box_choice_order
from rennleitung.league.grid import QualifyingResult
from rennleitung.league.qualifying import format_lap_time
from rennleitung.league.qualifying_run import (
    SECONDS_PER_ROLL,
    DriverLap,
    lap_seed,
    new_lap,
    roll_weather,
    run_bot_qualifying,
    to_qualifying_lap,
)
from rennleitung.league.qualifying_weather import Weather, applied_weather
from rennleitung.league.race_run import race_config, race_result, ruleset_for
from rennleitung.league.roster import Driver
from rennleitung.league.season import League
from rennleitung.league.starters import parse_starters
from rennleitung.render.league_tables import Row, grid_rows, label, race_rows
from rennleitung.store.database import resolve_url
from rennleitung.store.league_store import MAX_SEED, LeagueStore

TrackOption = Annotated[
    str, typer.Option("--track", help="Eingebaute Strecke oder Streckendatei (.toml) / "
                                      "built-in track or track file (.toml).")
]
SeedOption = Annotated[
    int | None, typer.Option("--seed", help="Würfel-Seed / dice seed (0 … 2^31−1).")
]
StartersOption = Annotated[
    str, typer.Option("--starters", help="Starter, Komma getrennt (Standard: alle) / "
                                         "starters, comma separated (default: all).")
]



class BotName(StrEnum):
    SIMPLE = "simple"
    STEADY = "steady"
    STRONG = "strong"








def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbelow(MAX_SEED)
    if not 0 <= seed < MAX_SEED:
        raise RennleitungError(
            f"Seed muss zwischen 0 und {MAX_SEED - 1} liegen",
            f"seed must be between 0 and {MAX_SEED - 1}",
            "--seed",
        )
    return seed


def _names(text: str, league: League) -> list[str]:
    """``--starters`` as the league's names (a name may contain a comma: "Müller, Max")."""
    return parse_starters(text, [d.name for d in league.roster.drivers])


def _track(reference: str) -> Track:
    """A built-in track by name or a track file (``.toml``), which FD Blitz and the league
    allow (any board); an unknown name is refused, naming the built-in ones."""
    return load_track(reference)


# --- run-qualifying ------------------------------------------------------------------------


def run_qualifying(
    league: str,
    race: int,
    track: TrackOption = DEFAULT_TRACK,
    seed: SeedOption = None,
    runs: Annotated[int, typer.Option("--runs", help="Läufe (Open: 1 oder 2) / runs.")] = 1,
    starters: StartersOption = "",
    driver: Annotated[
        str | None,
        typer.Option("--driver", help="Diese Runde selbst im Terminal fahren / drive this "
                                      "driver's lap yourself at the terminal."),
    ] = None,
    seconds_per_roll: Annotated[
        float, typer.Option("--seconds-per-roll", help="Simulierte Zeit je Wurf der Bots / "
                                                       "simulated time per bot roll.")
    ] = SECONDS_PER_ROLL,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Qualifizierung hier fahren: je Fahrer eine gezeitete Runde / run qualifying here."""
    store = run_guarded(lambda: LeagueStore.open(resolve_url(db)))
    draw_seed = run_guarded(lambda: _seed(seed))
    say(f"Seed: {draw_seed}", f"seed: {draw_seed}", lang)

    def action() -> tuple[League, QualifyingResult, list[DriverLap], tuple[Weather, ...]]:
        loaded = store.load(league)
        board = _track(track)
        if not 1 <= runs <= loaded.format.max_qualifying_runs:
            raise RennleitungError(
                f"Läufe müssen zwischen 1 und {loaded.format.max_qualifying_runs} liegen",
                f"runs must be between 1 and {loaded.format.max_qualifying_runs}",
                "--runs",
            )
        names = _names(starters, loaded) or [d.name for d in loaded.roster.drivers]
        drivers = [loaded.roster.driver(n, "--starters") for n in names]
        if driver is not None and driver not in names:
            raise RennleitungError(
                f"{driver!r} steht nicht in der Starterliste",
                f"{driver!r} is not among the starters",
                "--driver",
            )
        weather_dice = random.Random(f"{draw_seed}:weather:{race}")
        rolled = tuple(roll_weather(board, weather_dice)[1] for _ in range(runs))
        applied = applied_weather(rolled)
        ruleset = ruleset_for(loaded)
        bots = [d for d in drivers if d.name != driver]
        laps = run_bot_qualifying(bots, track, ruleset, applied, draw_seed, race,
                                  seconds_per_roll, board)
        if driver is not None:
            own = loaded.roster.driver(driver, "--driver")
            for run, weather in enumerate(applied, start=1):
                laps.append(_terminal_lap(own, track, ruleset, weather, run, draw_seed, race,
                                          board))
        entered = [lap.result for lap in laps if lap.result is not None]
        result = store.enter_qualifying(league, race, entered, names, draw_seed, list(rolled))
        return store.load(league), result, laps, applied

    loaded, result, laps, applied = run_guarded(action)
    for lap in laps:
        _print_lap(lap, lang)
    _print_grid(loaded, result, lang)
    german = ", ".join(w.label_de for w in applied)
    english = ", ".join(w.label_en for w in applied)
    say(f"Wetter je Lauf: {german}; Seed: {draw_seed}",
        f"weather per run: {english}; seed: {draw_seed}", lang)


def _print_lap(lap: DriverLap, lang: Lang) -> None:
    timed = lap.lap
    if lap.result is None:
        abort = timed.abort
        reason_de = abort.de if abort else ""
        reason_en = abort.en if abort else ""
        say(f"{lap.driver} (Lauf {lap.run}): {reason_de} – Auslosung",
             f"{lap.driver} (run {lap.run}): {reason_en} – drawn", lang)
        return
    time_text = format_lap_time(lap.result.lap_time_ms)
    say(
        f"{lap.driver} (Lauf {lap.run}): {count(timed.rolls, 'Wurf', 'Würfe')}, "
        f"{count(timed.penalty_points, 'Strafpunkt', 'Strafpunkte')}, {time_text}",
        f"{lap.driver} (run {lap.run}): {count(timed.rolls, 'roll', 'rolls')}, "
        f"{count(timed.penalty_points, 'penalty point', 'penalty points')}, {time_text}",
        lang,
    )


def _terminal_lap(
    driver: Driver, track: str, ruleset: str, weather: Weather, run: int, seed: int, race: int,
    board: Track | None = None,
) -> DriverLap:
    """One lap driven by a person: gear by gear, move by move; the time is the wall clock
    from the first question to the line (the CLI reads the clock, the engine does not)."""
    lap = new_lap(track, ruleset, driver, weather, lap_seed(seed, race, run, driver.name),
                  track_data=board)
    name = lap.track.name_of
    say(f"{driver.name}, Lauf {run} ({weather.label_de}): Start auf {name(lap.space)}",
        f"{driver.name}, run {run} ({weather.label_en}): start on {name(lap.space)}")
    started = time.monotonic()
    shown = 0
    while (ask := lap.pending) is not None:
        for event in lap.events[shown:]:
            say(render_qualifying(event, "de"), render_qualifying(event, "en"))
        shown = len(lap.events)
        try:
            if ask.kind is QualifyingAskKind.GEAR:
                gears = "/".join(map(str, ask.gears))
                plus = ", +" if ask.soft_bonus else ""
                answer = typer.prompt(f"{pick('Gang', 'gear')} ({gears}{plus})")
                text = answer.strip()
                soft = ask.soft_bonus and text.endswith("+")
                lap.apply(GearChoice(int(text.rstrip("+")), soft))
            else:
                for n, option in enumerate(ask.moves, start=1):
                    path = " ".join(name(s) for s in option.path)
                    say(f"  {n}: {path} (Strafe {option.tyres})",
                         f"  {n}: {path} (penalty {option.tyres})")
                choice = int(typer.prompt(pick("Zug", "move")))
                if not 1 <= choice <= len(ask.moves):
                    raise RennleitungError(
                        f"Zug 1 bis {len(ask.moves)}", f"move 1 to {len(ask.moves)}", "move"
                    )
                lap.apply(PathChoice(ask.moves[choice - 1].path))
        except ValueError as error:
            if isinstance(error, RennleitungError):
                Console(stderr=True, highlight=False).print(escape(str(error)))
            else:
                say("bitte eine Zahl eingeben", "please enter a number")
    for event in lap.events[shown:]:
        say(render_qualifying(event, "de"), render_qualifying(event, "en"))
    elapsed_ms = max(1, round((time.monotonic() - started) * 1000))
    return DriverLap(driver.name, run, lap, to_qualifying_lap(lap, driver.name, elapsed_ms, run))


def _print_grid(league: League, result: QualifyingResult, lang: Lang) -> None:
    rows = grid_rows(result, bool(league.format.pole_qualifying_points))
    _print_rows(rows, lang, f"{league.name}: {label('race', lang.value)} {result.race}")
    order = box_choice_order(result.grid_order(), league.roster, result.race)
    say("Boxenwahl: " + ", ".join(order), "box choice: " + ", ".join(order), lang)


def _print_rows(rows: Sequence[Row], lang: Lang, title: str) -> None:
    keys = list(dict.fromkeys(key for row in rows for key in row))
    console = Console(highlight=False)
    console.print(fitted_table(
        console, title, [label(key, lang.value) for key in keys],
        [["" if row.get(k) is None else str(row.get(k)) for k in keys] for row in rows]))


# --- run-race -------------------------------------------------------------------------------


def run_race(
    league: str,
    race: int,
    track: TrackOption = DEFAULT_TRACK,
    bots: Annotated[
        BotName, typer.Option("--bots", help="Bot in jedem Cockpit (Standard: der stärkste) / "
                                             "bot in every seat (default: the strongest).")
    ] = BotName.STRONG,
    seed: SeedOption = None,
    laps: Annotated[
        int, typer.Option("--laps", help="Runden (0: Regelwerk, Dresden 3) / laps.")
    ] = 0,
    starters: StartersOption = "",
    record: Annotated[
        Path | None, typer.Option("--record", help="Rennprotokoll schreiben / write the "
                                                   "race record.")
    ] = None,
    db: DbOption = None,
    lang: LangOption = Lang.BOTH,
) -> None:
    """Rennen hier fahren, Bots in allen Cockpits, Ergebnis eintragen / run a race here."""
    if record is not None:
        run_guarded(lambda: check_output(record, "--record"))
    store = run_guarded(lambda: LeagueStore.open(resolve_url(db)))
    race_seed = run_guarded(lambda: _seed(seed))
    say(f"Seed des Rennens: {race_seed}", f"race seed: {race_seed}", lang)

    def action() -> tuple[League, Race, int]:
        loaded = store.load(league)
        if laps < 0:
            raise RennleitungError("Runden ab 0", "laps from 0", "--laps")
        board = _track(track)
        config = race_config(loaded, race, track, _names(starters, loaded), laps)
        the_race = Race(config, Dice.from_seed(race_seed), track=board,
                        commitment=commit(race_seed))
        drivers: dict[str, Bot] = {e.id: make_bot(bots.value) for e in config.entries}
        while (ask := the_race.pending) is not None:
            the_race.apply(drivers[ask.car].decide(the_race, ask))
        result = race_result(the_race, race, the_race.track.title or track)
        if record is not None:  # before storing: a record that cannot be written stores nothing
            write_text(record, record_to_json(record_of(the_race, race_seed)))
        booked = store.enter_race(league, result)
        return store.load(league), the_race, len(booked)

    loaded, the_race, booked = run_guarded(action)
    title = f"{loaded.name}: {label('race', lang.value)} {race} ({the_race.track.title or track})"
    _print_rows(race_rows(loaded, race), lang, title)
    say(
        f"Rennen eingetragen, {bookings(booked)[0]}; Seed {race_seed}",
        f"race entered, {bookings(booked)[1]}; seed {race_seed}",
        lang,
    )
    if record is not None:
        say(f"Rennprotokoll: {record}", f"race record: {record}", lang)



def bookings(count: int) -> tuple[str, str]:
    """"1 Karmabuchung" / "3 karma entries": the count with its noun in each language."""
    return (f"{count} Karmabuchung{'' if count == 1 else 'en'}",
            f"{count} karma {'entry' if count == 1 else 'entries'}")
