"""A league's FD Blitz records as rows (``league_tables.Row``): the Blitz table and the list of
matches, for the league page, ``rennleitung league blitz show`` and its ``--json``."""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.league.blitz_records import BlitzRecord, blitz_table
from rennleitung.render.league_tables import Row


def blitz_table_rows(records: Sequence[BlitzRecord]) -> list[Row]:
    """The Blitz table in its order (match wins, heat difference, heats won; house decision)."""
    return [{"rank": s.place, "driver": s.driver, "matches": s.played, "match_wins": s.won,
             "heats_won": s.heats_won, "heats_lost": s.heats_lost,
             "heat_difference": s.heat_difference} for s in blitz_table(records)]


def blitz_match_rows(records: Sequence[BlitzRecord]) -> list[Row]:
    """Every finished match, in the order entered."""
    return [{"seq": seq, "date": r.date, "board": r.board, "players": " – ".join(r.players),
             "heats": ", ".join(r.heat_winners), "winner": r.winner, "source": r.source.value}
            for seq, r in enumerate(records, start=1)]
