"""A table of rows that stays readable in a narrow terminal.

Rich squeezes a table wider than the terminal by cutting every column to the same few characters
("Fahr…", "Scud…", "Dres…": at 80 columns the league standings hid the names they list). A
table that does not fit is drawn compact instead: one space between columns, no frame, and no
column narrower than the longest word of its cells, so a cell wraps between words and is never
cut (a header word longer than ``HEADER_WORD`` may fold).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

HEADER_WORD = 10
"""Characters of a header word kept whole in a compact table; a longer one folds."""


def _longest_word(texts: Sequence[str]) -> int:
    return max((len(word) for text in texts for word in text.split()), default=1)


def fitted_table(
    console: Console, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]
) -> Table:
    """``rows`` (plain text, escaped here) under ``headers``: the usual framed table when it
    fits ``console``'s width, else the compact form (see the module)."""
    table = _table(title, headers, rows, compact=False)
    # the narrowest the framed table can be without cutting a word, measured without the
    # terminal's limit (``console.measure`` would clamp it to the width)
    unlimited = console.options.update_width(1_000_000)
    if Measurement.get(console, unlimited, table).minimum <= console.width:
        return table
    return _table(title, headers, rows, compact=True)


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
