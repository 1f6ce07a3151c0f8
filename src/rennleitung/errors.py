"""Bilingual errors shared by every engine: each message a person sees is German and English."""

from __future__ import annotations


class RennleitungError(ValueError):
    """An error meant for a person: German text, English text, and where it happened.

    ``where`` names the place at fault (a line, a field, a rule number) and is put in front of
    both texts, so a message always says what to look at.
    """

    def __init__(self, de: str, en: str, where: str = "") -> None:
        self.de = de
        self.en = en
        self.where = where
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{de} / {en}")

    @property
    def message_de(self) -> str:
        """The German message with its place."""
        return f"{self.where}: {self.de}" if self.where else self.de

    @property
    def message_en(self) -> str:
        """The English message with its place."""
        return f"{self.where}: {self.en}" if self.where else self.en
