"""Errors and sheet problems of the TURBO 2000 engine, always in German and English."""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.errors import RennleitungError


class TurboError(RennleitungError):
    """A TURBO 2000 error meant for a person (game master or player)."""


@dataclass(frozen=True)
class Problem:
    """One problem with an order: which line (0 = the whole sheet), which field, and why.

    Problems are collected, not raised, so that a player sees every mistake of a sheet at once
    and the evaluation can drop just the faulty order.
    """

    line: int
    field: str
    de: str
    en: str

    @property
    def where(self) -> str:
        """Like "Zeile 4 / line 4 [field]", or "Blatt / sheet [field]" for the whole sheet."""
        place = f"Zeile {self.line}" if self.line else "Blatt"
        place_en = f"line {self.line}" if self.line else "sheet"
        return f"{place} / {place_en} [{self.field}]"

    def text(self) -> str:
        """Like "Zeile 4 / line 4 [Feld]: deutsch / english"."""
        return f"{self.where}: {self.de} / {self.en}"

    def text_en(self) -> str:
        """Like "line 4 [Feld]: english", for an English report (the field keeps the
        sheet's German keyword, as the sheet writes it)."""
        return f"{f'line {self.line}' if self.line else 'sheet'} [{self.field}]: {self.en}"

    def as_error(self) -> TurboError:
        """The problem as an exception, for callers that must stop."""
        return TurboError(self.de, self.en, where=self.where)
