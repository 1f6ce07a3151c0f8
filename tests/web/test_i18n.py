"""The page texts: one language at a time, and German counts that agree with their noun."""

from __future__ import annotations

import pytest

from rennleitung.web.i18n import TEXTS, text


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("de", 1, "1 Runde"), ("de", 3, "3 Runden"), ("de", 0, "0 Runden"),
    ("en", 1, "1 lap"), ("en", 3, "3 laps"),
])
def test_a_lap_count_agrees_with_its_number(lang: str, n: int, expected: str) -> None:
    assert text(lang, "laps_count", n=n) == expected


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("de", 1, "1 Runde auf diesem Satz"), ("de", 2, "2 Runden auf diesem Satz"),
    ("en", 1, "1 lap on this set"), ("en", 0, "0 laps on this set"),
])
def test_the_laps_on_a_tyre_set_agree_with_their_number(lang: str, n: int, expected: str) -> None:
    assert text(lang, "tyre_laps", n=n) == expected


def test_every_singular_form_has_its_plural_key() -> None:
    singles = [key for key in TEXTS if key.endswith(":1")]
    assert singles
    for key in singles:
        assert key.removesuffix(":1") in TEXTS, key
