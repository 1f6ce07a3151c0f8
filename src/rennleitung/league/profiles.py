"""The seven driver profiles (Dresden "Fahrerprofile") as the league writes and reads them.

There is one profile enum, the race engine's ``formula_de.car.DriverProfile`` (issue 12: one home
per rule); its effects, the qualifying ±1 included, live there. The league keeps only its file
names: league files, the store and the pages write the German names (``normalo``,
``theoretiker``, …) as they always have, and read those, the engine's English values and the
display names.
"""

from __future__ import annotations

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile

__all__ = [
    "FILE_NAMES",
    "DriverProfile",
    "engine_name",
    "league_name",
    "parse_profile",
    "qualifying_adjustment",
]

FILE_NAMES: dict[DriverProfile, str] = {
    DriverProfile.NORMAL: "normalo",
    DriverProfile.THEORIST: "theoretiker",
    DriverProfile.PRACTITIONER: "praktiker",
    DriverProfile.LIGHT_SPRINTER: "leichter-flitzer",
    DriverProfile.HEAVY_TOURER: "schwerer-tourer",
    DriverProfile.FAIR_WEATHER: "schoenwetterfahrer",
    DriverProfile.RAIN_GOD: "regengott",
}
"""The name of each profile in league files and the store (unchanged since the first format)."""


def league_name(profile: DriverProfile) -> str:
    """The profile's name in league files, the store and the pages (``normalo`` …)."""
    return FILE_NAMES[profile]


def engine_name(profile: DriverProfile) -> str:
    """The profile's value in the race engine (``normal`` …); kept for older callers."""
    return profile.value


def qualifying_adjustment(profile: DriverProfile) -> int:
    """The profile's change to the qualifying score, lower is better (Dresden
    "Fahrerprofile": Theoretiker −1, Praktiker +1; read from the engine's profile effects)."""
    return profile.effects.qualifying


def _key(text: str) -> str:
    return text.strip().lower().replace("ö", "oe").replace(" ", "-").replace("_", "-")


_BY_KEY: dict[str, DriverProfile] = {}
for _profile in DriverProfile:
    for _name in (FILE_NAMES[_profile], _profile.value, _profile.label_de, _profile.label_en):
        _BY_KEY[_key(_name)] = _profile


def parse_profile(text: str, where: str = "profile") -> DriverProfile:
    """Read a profile name, German or English (case, umlaut and separators tolerated)."""
    profile = _BY_KEY.get(_key(text))
    if profile is None:
        names = ", ".join(FILE_NAMES.values())
        raise RennleitungError(
            f"unbekanntes Fahrerprofil {text!r}; erlaubt: {names}",
            f"unknown driver profile {text!r}; allowed: {names}",
            where,
        )
    return profile
