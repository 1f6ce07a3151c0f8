"""A report as sections of lines and tables, so the text and the HTML page say the same.

``reports`` builds the results sheet and each team report as a ``Document``; ``as_text`` gives
the plain text that is mailed and stored (and compared by ``turbo replay``), and
``render/turbo_html.py`` draws the same document as a page with tables and charts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """Rows under a header; ``right`` marks the columns aligned right (numbers)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Section:
    """A titled part: lines (leading spaces show nesting), a table, notes, then a chart.

    ``chart`` names a history chart the HTML page draws here ("wm", "money", "ratings"); the
    text has no pictures, so it skips it.
    """

    title: str
    lines: tuple[str, ...] = ()
    table: Table | None = None
    chart: str = ""
    notes: tuple[str, ...] = ()
    """Lines after the table (what belongs to a race result: a prize, an early end)."""


@dataclass(frozen=True)
class Document:
    """A whole report: its title and sections in order."""

    title: str
    sections: tuple[Section, ...]


def table_text(table: Table, indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell."""
    rows = [table.header, *table.rows]
    widths = [max(len(row[i]) if i < len(row) else 0 for row in rows)
              for i in range(len(table.header))]
    out = []
    for number, row in enumerate(rows):
        cells = [(cell.rjust(widths[i]) if i in table.right else cell.ljust(widths[i]))
                 for i, cell in enumerate(row)]
        out.append(indent + "  ".join(cells).rstrip())
        if number == 0:
            out.append((indent + "  ".join("-" * width for width in widths)).rstrip())
    return out


def as_text(document: Document) -> str:
    """The plain-text form: title, then ``== title`` and the body of each section."""
    out = [document.title, ""]
    for section in document.sections:
        out.append(f"== {section.title}")
        out += list(section.lines)
        if section.table is not None:
            out += table_text(section.table)
        out += list(section.notes)
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
