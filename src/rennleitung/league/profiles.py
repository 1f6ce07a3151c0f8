"""The seven driver profiles (Dresden "Fahrerprofile") and what they mean for the league.

A driver picks one profile at the start of the season and keeps it. In the league only the
qualifying adjustment matters (Theoretiker −1, Praktiker +1); the race engine handles the rest.
"""

from __future__ import annotations

from enum import Enum

from rennleitung.errors import RennleitungError


class DriverProfile(Enum):
    """A Dresden driver profile; the value is the name used in files and on the command line."""

    NORMALO = "normalo"
    THEORETIKER = "theoretiker"
    PRAKTIKER = "praktiker"
    LEICHTER_FLITZER = "leichter-flitzer"
    SCHWERER_TOURER = "schwerer-tourer"
    SCHOENWETTERFAHRER = "schoenwetterfahrer"
    REGENGOTT = "regengott"


# Points added to a qualifying score (Dresden "Fahrerprofile": Theoretiker and Praktiker).
QUALIFYING_ADJUSTMENT: dict[DriverProfile, int] = {
    DriverProfile.THEORETIKER: -1,
    DriverProfile.PRAKTIKER: +1,
}


# English names, as the Formula Dé engine spells them (``formula_de.car.DriverProfile`` values).
ENGLISH_NAMES: dict[str, DriverProfile] = {
    "normal": DriverProfile.NORMALO,
    "theorist": DriverProfile.THEORETIKER,
    "practitioner": DriverProfile.PRAKTIKER,
    "light-sprinter": DriverProfile.LEICHTER_FLITZER,
    "heavy-tourer": DriverProfile.SCHWERER_TOURER,
    "fair-weather": DriverProfile.SCHOENWETTERFAHRER,
    "rain-god": DriverProfile.REGENGOTT,
}


def engine_name(profile: DriverProfile) -> str:
    """The profile's name in the Formula Dé engine (``formula_de.car.DriverProfile`` value)."""
    english = next(name for name, p in ENGLISH_NAMES.items() if p is profile)
    return english.replace("-", "_")


def qualifying_adjustment(profile: DriverProfile) -> int:
    """The profile's change to the qualifying score (lower is better)."""
    return QUALIFYING_ADJUSTMENT.get(profile, 0)


def parse_profile(text: str, where: str = "profile") -> DriverProfile:
    """Read a profile name, German or English (case, umlaut and separators tolerated)."""
    key = text.strip().lower().replace("ö", "oe").replace(" ", "-").replace("_", "-")
    for profile in DriverProfile:
        if profile.value == key:
            return profile
    if key in ENGLISH_NAMES:
        return ENGLISH_NAMES[key]
    names = ", ".join(p.value for p in DriverProfile)
    raise RennleitungError(
        f"unbekanntes Fahrerprofil {text!r}; erlaubt: {names}",
        f"unknown driver profile {text!r}; allowed: {names}",
        where,
    )
