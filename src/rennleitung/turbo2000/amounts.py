"""Amounts of money and counts as the paper sheets write them: "1.200.000" (German dots)."""

from __future__ import annotations

import re

_AMOUNT = re.compile(r"^\d{1,3}(?:\.\d{3})+$|^\d+$")


def amount(value: int) -> str:
    """1200000 -> "1.200.000"."""
    return f"{value:,}".replace(",", ".")


def parse_amount(text: str) -> int | None:
    """Reads "1.200.000" or "1200000" as 1200000; anything else gives None."""
    text = text.strip()
    if not _AMOUNT.match(text):
        return None
    return int(text.replace(".", ""))
