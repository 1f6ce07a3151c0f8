"""A league's FD Blitz records: the finished matches and the Blitz table made from them.

Dresden "FD Blitz" defines a match (``blitz_match.py``), not a ranking over many matches; the
table here is a house decision (docs/league/blitz.md, "Blitz records"): more match wins first,
then the better heat difference, then more heats won; drivers equal in all three share the
place and are listed by name. A record comes from a match played on the server (online or at
the table) or entered from the command line; ``ref`` names where it came from (e.g. the server
match) so the same match is never entered twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_match import BlitzMatch

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class BlitzSource(Enum):
    """Where a finished match was refereed."""

    ONLINE = "online"
    TABLE = "table"
    COMMAND_LINE = "command-line"


@dataclass(frozen=True)
class BlitzRecord:
    """One finished match: date (YYYY-MM-DD), board, the two drivers, who won each heat (drawn
    heats are driven again and not listed), the match winner and where it was refereed."""

    date: str
    board: str
    players: tuple[str, str]
    heat_winners: tuple[str, ...]
    winner: str
    source: BlitzSource
    ref: str = ""

    def __post_init__(self) -> None:
        if not _DATE.fullmatch(self.date):
            _refuse("Datum als JJJJ-MM-TT", "date as YYYY-MM-DD", "date")
        if not self.board.strip() or len(self.board) > 100:
            _refuse("Brett fehlt (bis 100 Zeichen)", "board is missing (up to 100 characters)",
                    "board")
        BlitzMatch(self.players)  # two different names, refused naming "blitz, players"
        if any(w not in self.players for w in self.heat_winners):
            _refuse("jeder Laufsieger muss einer der beiden Fahrer sein",
                    "every heat winner must be one of the two drivers", "heat_winners")
        a, b = self.players
        loser = b if self.winner == a else a
        if self.winner not in self.players or \
                self.heats_won(self.winner) <= self.heats_won(loser):
            _refuse("der Matchsieger muss die meisten Läufe gewonnen haben",
                    "the match winner must have won the most heats", "winner")

    def heats_won(self, driver: str) -> int:
        return self.heat_winners.count(driver)

    def heats_lost(self, driver: str) -> int:
        return len(self.heat_winners) - self.heats_won(driver)


@dataclass(frozen=True)
class BlitzStanding:
    """One driver's line of the Blitz table; ``place`` is shared by drivers equal in the order."""

    place: int
    driver: str
    played: int
    won: int
    heats_won: int
    heats_lost: int

    @property
    def heat_difference(self) -> int:
        return self.heats_won - self.heats_lost


def record_from_match(match: BlitzMatch, *, date: str, board: str, source: BlitzSource,
                      ref: str = "") -> BlitzRecord:
    """The record of a decided match; a match without a winner yet is refused, naming the
    match file's ``runs`` (two heat wins decide, Dresden FD Blitz)."""
    if match.winner is None:
        raise RennleitungError(
            f"das Match ist noch nicht entschieden ({match.wins(match.players[0])}:"
            f"{match.wins(match.players[1])}); erst zwei Laufsiege entscheiden es",
            f"the match is not decided yet ({match.wins(match.players[0])}:"
            f"{match.wins(match.players[1])}); two heat wins decide it",
            "match file: runs (Dresden FD Blitz)",
        )
    winners = tuple(r.winner for r in match.runs if r.winner is not None)
    return BlitzRecord(date, board.strip(), match.players, winners, match.winner, source, ref)


def blitz_table(records: Iterable[BlitzRecord]) -> tuple[BlitzStanding, ...]:
    """The Blitz table: match wins, then heat difference, then heats won (house decision)."""
    lines: dict[str, list[int]] = {}
    for record in records:
        for driver in record.players:
            line = lines.setdefault(driver, [0, 0, 0, 0])
            line[0] += 1
            line[1] += record.winner == driver
            line[2] += record.heats_won(driver)
            line[3] += record.heats_lost(driver)

    def key(driver: str) -> tuple[int, int, int]:
        _played, won, heats_won, heats_lost = lines[driver]
        return (-won, -(heats_won - heats_lost), -heats_won)

    ordered = sorted(lines, key=lambda d: (key(d), d))
    table: list[BlitzStanding] = []
    for index, driver in enumerate(ordered):
        place = table[-1].place if table and key(table[-1].driver) == key(driver) else index + 1
        table.append(BlitzStanding(place, driver, *lines[driver]))
    return tuple(table)


def record_to_json(record: BlitzRecord) -> dict[str, Any]:
    """A record in the league export's ``blitz`` list."""
    return {"date": record.date, "board": record.board, "players": list(record.players),
            "heat_winners": list(record.heat_winners), "winner": record.winner,
            "source": record.source.value, "ref": record.ref}


def record_from_json(data: Mapping[str, Any]) -> BlitzRecord:
    """A record as ``record_to_json`` wrote it, checked again."""
    players = data["players"]
    source = str(data["source"])
    known = {s.value: s for s in BlitzSource}
    if source not in known:
        _refuse(f"unbekannte Quelle {source!r} (bekannt: {', '.join(known)})",
                f"unknown source {source!r} (known: {', '.join(known)})", "source")
    return BlitzRecord(str(data["date"]), str(data["board"]),
                       (str(players[0]), str(players[1])),
                       tuple(str(w) for w in data["heat_winners"]), str(data["winner"]),
                       known[source], str(data.get("ref", "")))


def check_new(records: Iterable[BlitzRecord], record: BlitzRecord) -> None:
    """Refuse a match already entered (same ``ref``)."""
    if record.ref and any(r.ref == record.ref for r in records):
        _refuse(f"dieses Match ist schon eingetragen ({record.ref})",
                f"this match has already been entered ({record.ref})", "ref")


def _refuse(de: str, en: str, field: str) -> None:
    raise RennleitungError(de, en, f"blitz record: {field}")
