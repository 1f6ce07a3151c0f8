"""A list of starters typed as one line: names separated by commas, where a name may itself
contain a comma ("Müller, Max").

The roster decides: pieces are joined back together whenever the joined text is a driver's
name, longest first, so "Müller, Max,Anna" is two drivers if "Müller, Max" is one. A name may
also be put in double quotes. What matches nobody is kept as typed, for the caller to refuse
with the field's name.
"""

from __future__ import annotations

import csv
from collections.abc import Collection


def parse_starters(text: str, names: Collection[str]) -> list[str]:
    """The names in ``text``, in order; ``names`` are the drivers of the league."""
    pieces = _pieces(text)
    chosen: list[str] = []
    index = 0
    while index < len(pieces):
        for end in range(len(pieces), index, -1):
            joined = ",".join(pieces[index:end]).strip()
            if joined in names or end == index + 1:
                if joined:
                    chosen.append(joined)
                index = end
                break
    return chosen


def _pieces(text: str) -> list[str]:
    """Comma-separated pieces with their spacing; a quoted piece stays whole (quotes off)."""
    if '"' not in text:
        return text.split(",")
    return list(next(csv.reader([text], skipinitialspace=True), []))
