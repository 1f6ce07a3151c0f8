"""Run a whole race with bots: the engine side of ``rennleitung race simulate`` and ``make run``.

No I/O: the caller prints. ``progress`` is called after every decision with the race, so a
terminal view can follow it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.position import MAX_CARS
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.track import Track

DRIVER_NAMES = (
    "Alonso",
    "Räikkönen",
    "Schumacher",
    "Montoya",
    "Button",
    "Barrichello",
    "Webber",
    "Trulli",
    "Fisichella",
    "Heidfeld",
    "Coulthard",
    "Massa",
    "Villeneuve",
    "Sato",
    "Klien",
    "Liuzzi",
    "Monteiro",
    "Karthikeyan",
    "Albers",
    "Friesacher",
)


def bot_entries(cars: int) -> tuple[Entry, ...]:
    """``cars`` drivers named after the 2005 field, one team each."""
    return tuple(
        Entry(id=f"car{n}", name=DRIVER_NAMES[(n - 1) % len(DRIVER_NAMES)])
        for n in range(1, cars + 1)
    )


def run_bot_race(
    track: str,
    ruleset: str,
    cars: int,
    laps: int,
    seed: int | str,
    bots: str | Sequence[str] = "simple",
    progress: Callable[[Race], None] | None = None,
    max_rounds: int = 400,
    board: Track | None = None,
) -> Race:
    """A finished race of ``cars`` bots (one name for all, or one per car, cycled); ``board``
    is a track of one's own (from a track file), else ``track`` names a built-in one."""
    names = [bots] if isinstance(bots, str) else list(bots)
    if not names:
        raise RennleitungError("keine Bots genannt", "no bots named", "bots")
    if not 1 <= cars <= MAX_CARS:
        raise RennleitungError(f"1 bis {MAX_CARS} Autos", f"1 to {MAX_CARS} cars", "cars")
    config = RaceConfig(
        track=board.name if board is not None else track,
        ruleset=ruleset,
        entries=bot_entries(cars),
        laps=laps,
        max_rounds=max_rounds,
    )
    race = (
        Race.create(config, seed)
        if board is None
        else Race(config, Dice.from_seed(seed), track=board, commitment=commit(seed))
    )
    drivers: dict[str, Bot] = {
        entry.id: make_bot(names[n % len(names)]) for n, entry in enumerate(config.entries)
    }
    drive(race, drivers, progress)
    return race


def drive(
    race: Race, drivers: dict[str, Bot], progress: Callable[[Race], None] | None = None
) -> None:
    """Answer every question of ``race`` with the driver's bot until the race is over."""
    while (ask := race.pending) is not None:
        race.apply(drivers[ask.car].decide(race, ask))
        if progress is not None:
            progress(race)
