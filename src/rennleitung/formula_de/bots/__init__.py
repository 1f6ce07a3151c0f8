"""Bots that drive a Formula Dé race: every decision a person makes, from setup to karma."""

from __future__ import annotations

from collections.abc import Callable

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots.base import Bot
from rennleitung.formula_de.bots.simple import SimpleBot
from rennleitung.formula_de.bots.steady import SteadyBot
from rennleitung.formula_de.bots.strong import StrongBot

BOTS: dict[str, Callable[[], Bot]] = {"simple": SimpleBot, "steady": SteadyBot, "strong": StrongBot}


def make_bot(name: str) -> Bot:
    """A fresh bot by name (``simple``, ``steady`` or ``strong``)."""
    try:
        return BOTS[name]()
    except KeyError:
        known = ", ".join(BOTS)
        raise RennleitungError(
            f"unbekannter Bot {name!r}; bekannt: {known}",
            f"unknown bot {name!r}; known: {known}",
            "bots",
        ) from None


__all__ = ["BOTS", "Bot", "SimpleBot", "SteadyBot", "StrongBot", "make_bot"]
