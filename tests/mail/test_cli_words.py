"""`rennleitung mail status/inbox/outbox` say stored codes in words, in one language."""

from __future__ import annotations

import json

import pytest

from rennleitung.cli import mail as mail_cli
from rennleitung.cli.common import LANG_ENV, reset_lang


@pytest.fixture(autouse=True)
def _no_earlier_choice() -> None:
    """An earlier command's ``--lang`` must not decide the language here."""
    reset_lang()


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "angenommen als 0001-mail1-Ferrari.txt, 2 Zeilen ausgelassen"),
    ("en", "accepted as 0001-mail1-Ferrari.txt, 2 lines left out"),
])
def test_an_accepted_sheet_is_told_in_words(monkeypatch: pytest.MonkeyPatch, lang: str,
                                            expected: str) -> None:
    monkeypatch.setenv(LANG_ENV, lang)
    stored = json.dumps({"accepted": "0001-mail1-Ferrari.txt", "round": 1, "problems": 2})
    assert mail_cli._outcome(stored) == expected


def test_every_refusal_code_has_words_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    for index, (lang, prefix) in enumerate((("de", "abgelehnt: "), ("en", "refused: "))):
        monkeypatch.setenv(LANG_ENV, lang)
        for code, words in mail_cli.REFUSAL_WORDS.items():
            shown = mail_cli._outcome(json.dumps({"refused": code}))
            assert shown == prefix + words[index], (lang, code, shown)
    monkeypatch.setenv(LANG_ENV, "de")
    assert mail_cli._status("queued") == "wartet" and mail_cli._status("odd") == "odd"


def test_an_outcome_of_another_shape_is_shown_as_stored() -> None:
    assert mail_cli._outcome("[1, 2]") == "[1, 2]"
    assert mail_cli._outcome("not json") == "not json"
