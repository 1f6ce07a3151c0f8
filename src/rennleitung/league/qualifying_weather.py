"""The weather of a qualifying run once the black die has been rolled ("Qualifizierung").

Changeable weather counts as sunshine in the season and in the Open's first run; in the Open's
second run it is the weather of the first run ("Open", "Qualifizierung").
"""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import WeatherRoll as Weather

__all__ = ["Weather", "applied_weather", "parse_weather", "qualifying_weather"]
"""``Weather`` is the race engine's ``WeatherRoll`` (sun, rain, changeable): one weather enum
for the engine and the league (issue 12: one home per rule)."""


def qualifying_weather(rolled: Weather, run: int, first_run: Weather | None = None) -> Weather:
    """The weather that applies to a qualifying run (never changeable)."""
    if rolled is not Weather.CHANGEABLE:
        return rolled
    if run == 1:
        return Weather.SUN
    if first_run is None or first_run is Weather.CHANGEABLE:
        raise RennleitungError(
            "für den zweiten Lauf fehlt das Wetter des ersten Laufs",
            "the second run needs the weather of the first run",
            "qualifying, weather",
        )
    return first_run


def applied_weather(rolled: Sequence[Weather]) -> tuple[Weather, ...]:
    """The weather that applies to each run in turn, never changeable: the one loop over the
    runs, for qualifying by bots and for a qualifying entered by hand (Dresden
    "Qualifizierung")."""
    applied: list[Weather] = []
    for run, weather in enumerate(rolled, start=1):
        applied.append(qualifying_weather(weather, run, applied[0] if applied else None))
    return tuple(applied)


def parse_weather(text: str, where: str = "weather") -> Weather:
    """Read sun/rain/changeable (German sonne/regen/wechselhaft accepted)."""
    aliases = {
        "sun": Weather.SUN, "sonne": Weather.SUN,
        "rain": Weather.RAIN, "regen": Weather.RAIN,
        "changeable": Weather.CHANGEABLE, "wechselhaft": Weather.CHANGEABLE,
    }
    weather = aliases.get(text.strip().lower())
    if weather is None:
        raise RennleitungError(
            f"unbekanntes Wetter {text!r}; erlaubt: sonne, regen, wechselhaft",
            f"unknown weather {text!r}; allowed: sun, rain, changeable",
            where,
        )
    return weather
