"""The question mails of the round a rule fix asks again say why (``RulesNotice``;
``docs/formula_de/records.md``, "A rule fix in a running race")."""

from __future__ import annotations

import pytest

from rennleitung.mail.fd_questions import question_text
from rennleitung.play import RaceService
from rennleitung.play import engine as eng
from tests.play.support import START, Clock, small_spec, started
from tests.play.test_play_rule_fix import _boosted, _fix


def test_the_question_mail_asked_again_names_the_rule_change(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = RaceService.open(database_url, Clock(START))
    race_id = started(service, small_spec(persons=2, bots=1))
    car, _seq = _boosted(service, race_id)
    _fix(monkeypatch)
    upgraded = RaceService(service.engine, Clock(START))
    ask = eng.question_of(upgraded.race(race_id), car)
    assert ask is not None
    seen = upgraded.view_for(race_id, f"acc-{car}")
    (notice,) = seen.info.notices
    for lang in ("en", "de"):
        body = question_text(seen, ask, lang, seen.version)
        assert notice.text(lang) in body and "Test 1-1" in body
    service.engine.dispose()
