"""Amounts of money and counts as the paper sheets write them: "1.200.000" (German dots)."""

from __future__ import annotations

import re

_AMOUNT = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})+|[0-9]+")
"""ASCII digits only: ``\\d`` also matches Arabic-Indic and full-width digits (issue 21)."""

NUMBER = re.compile(r"[0-9]+(?:\.[0-9]{3})*")
"""A number as it may stand anywhere in an order line (``Q=30``, ``Turbo-W11``, ``1.200.000``)."""

MAX_AMOUNT = 1_000_000_000
"""The largest number an order may name: a thousand million DM, about 300 times the start
money (reconstructed upper bound; a salary of 12.000.000.000.000.000 left a team at
−12 quadrillion)."""


def amount(value: int) -> str:
    """1200000 -> "1.200.000"."""
    return f"{value:,}".replace(",", ".")


def parse_amount(text: str) -> int | None:
    """Reads "1.200.000" or "1200000" as 1200000; anything else gives None."""
    text = text.strip()
    if not _AMOUNT.fullmatch(text):
        return None
    return int(text.replace(".", ""))
