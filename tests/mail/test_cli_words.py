"""`rennleitung mail status/inbox/outbox` say stored codes in words, in one language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli import mail as mail_cli
from rennleitung.cli.common import LANG_ENV, reset_lang
from rennleitung.cli.main import app


@pytest.fixture(autouse=True)
def _no_earlier_choice() -> Iterator[None]:
    """An earlier command's ``--lang`` must not decide the language here, nor one of these
    commands' (taken from ``RENNLEITUNG_LANG``) the language of a later test."""
    reset_lang()
    yield
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


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ("Der Ausgang ist leer.", "Noch keine Mail eingegangen.",
            "Noch keine Adresse angemeldet.")),
    ("en", ("The outbox is empty.", "No mail received yet.", "No address bound yet.")),
])
def test_nothing_yet_is_a_sentence_not_an_empty_frame(
    tmp_path: Path, lang: str, said: tuple[str, str, str]
) -> None:
    """A fresh database: `mail outbox`, `inbox` and `bindings` printed empty table frames,
    which a newcomer following docs/mail.md took for a failure."""
    db = f"sqlite:///{tmp_path / 'mail.sqlite3'}"
    env = {LANG_ENV: lang, "COLUMNS": "80"}
    for command, sentence in zip(("outbox", "inbox", "bindings"), said, strict=True):
        result = CliRunner().invoke(app, ["mail", command, "--db", db], env=env)
        assert result.exit_code == 0, result.output
        assert result.output.strip() == sentence


def test_one_line_left_out_is_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was "1 Zeilen ausgelassen" / "1 lines left out"."""
    stored = json.dumps({"accepted": "0001-mail1-Ferrari.txt", "round": 1, "problems": 1})
    monkeypatch.setenv(LANG_ENV, "de")
    assert mail_cli._outcome(stored).endswith(", 1 Zeile ausgelassen")
    monkeypatch.setenv(LANG_ENV, "en")
    assert mail_cli._outcome(stored).endswith(", 1 line left out")
