"""A list of starters typed as one line: names separated by commas, where a name may itself
contain a comma ("Müller, Max").

The roster decides: pieces are joined back together whenever the joined text is a driver's
name, longest first, so "Müller, Max,Anna" is two drivers if "Müller, Max" is one. A name may
also be put in double quotes. What matches nobody is kept as typed, for the caller to refuse
with the field's name.
"""

from __future__ import annotations

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
    """Comma-separated pieces with their spacing. A piece that begins with a double quote
    (after spaces) runs to its closing quote and keeps its commas (quotes off, ``""`` is one
    quote); a quote inside a piece is part of the name (``Peter "Pit" Lustig``)."""
    pieces: list[str] = []
    index = 0
    while True:
        rest = text[index:]
        if rest.lstrip().startswith('"'):
            start = index + len(rest) - len(rest.lstrip()) + 1
            name, end = _quoted(text, start)
            if end is not None:
                after = text.find(",", end)
                if text[end:after if after >= 0 else len(text)].strip() == "":
                    pieces.append(name)
                    if after < 0:
                        return pieces
                    index = after + 1
                    continue
        comma = text.find(",", index)
        if comma < 0:
            pieces.append(text[index:])
            return pieces
        pieces.append(text[index:comma])
        index = comma + 1


def _quoted(text: str, start: int) -> tuple[str, int | None]:
    """The quoted name from ``start`` (just after the opening quote) and the index after its
    closing quote; None when it never closes (then the quote is read as part of a name)."""
    chars: list[str] = []
    index = start
    while index < len(text):
        if text[index] == '"':
            if text[index + 1:index + 2] == '"':
                chars.append('"')
                index += 2
                continue
            return "".join(chars), index + 1
        chars.append(text[index])
        index += 1
    return "", None
