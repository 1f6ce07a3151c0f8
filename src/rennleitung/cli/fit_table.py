"""A table of rows that stays readable in a narrow terminal.

Rich squeezes a table wider than the terminal by cutting every column to the same few characters
("Fahr…", "Scud…", "Dres…": at 80 columns the league standings hid the names they list). A
table that does not fit is drawn compact instead: one space between columns, no frame, and no
column narrower than the longest word of its cells, so a cell wraps between words and is never
cut (a header word longer than ``HEADER_WORD`` may fold). A table that does not fit even so
(ten race columns, the Open's four-digit points) is folded: printed as several tables one under
the other, each with the first ``keep`` columns (rank, name) and as many of the others as fit,
so every column is shown and no number is cut (issue 26: "1099" showed as "10").
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

HEADER_WORD = 10
"""Characters of a header word kept whole in a compact table; a longer one folds."""


def _longest_word(texts: Sequence[str]) -> int:
    return max((len(word) for text in texts for word in text.split()), default=1)


def fitted_table(
    console: Console, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]],
    keep: int = 2,
) -> RenderableType:
    """``rows`` (plain text, escaped here) under ``headers``: the usual framed table when it
    fits ``console``'s width, else the compact form, else the compact form folded into parts
    that each repeat the first ``keep`` columns (see the module)."""
    table = _table(title, headers, rows, compact=False)
    if _fits(console, table):
        return table
    compact = _table(title, headers, rows, compact=True)
    if _fits(console, compact) or len(headers) <= keep + 1:
        return compact
    parts: list[list[int]] = []
    for index in range(keep, len(headers)):
        if parts and _fits(console, _part(title, headers, rows, keep, [*parts[-1], index])):
            parts[-1].append(index)
        else:
            parts.append([index])
    return Group(*(
        _part(f"{title} ({number}/{len(parts)})", headers, rows, keep, columns)
        for number, columns in enumerate(parts, start=1)
    ))


def _fits(console: Console, table: Table) -> bool:
    """Whether the table fits the console without cutting a word: its minimum width measured
    without the terminal's limit (``console.measure`` would clamp it to the width)."""
    unlimited = console.options.update_width(1_000_000)
    return Measurement.get(console, unlimited, table).minimum <= console.width


def _part(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], keep: int,
    columns: Sequence[int],
) -> Table:
    chosen = [*range(keep), *columns]
    return _table(title, [headers[i] for i in chosen], [[row[i] for i in chosen] for row in rows],
                  compact=True)


def _table(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], compact: bool
) -> Table:
    if compact:
        # the box's blank column divider is the one space between columns
        table = Table(title=escape(title), box=box.SIMPLE_HEAD, padding=0, show_edge=False)
    else:
        table = Table(title=escape(title))
    for index, header in enumerate(headers):
        if compact:  # a cell's word is never cut; a long header word may fold ("Streichresul-")
            cells = _longest_word([row[index] for row in rows])
            width = max(cells, min(_longest_word([header]), HEADER_WORD))
            # one header word a line: a header is no wider than its longest word
            table.add_column(escape("\n".join(header.split())), min_width=width, overflow="fold")
        else:
            table.add_column(escape(header))
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    return table
