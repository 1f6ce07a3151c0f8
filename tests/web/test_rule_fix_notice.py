"""The race page tells everyone why a rule fix changed the running race (the play service's
``RulesNotice``; ``docs/formula_de/records.md``, "A rule fix in a running race")."""

from __future__ import annotations

import httpx
import pytest

from rennleitung.play import RaceService
from tests.play.support import START, Clock, small_spec, started
from tests.play.test_play_rule_fix import _boosted, _fix
from tests.web.conftest import LiveServer, make_settings


def test_the_race_page_and_its_json_name_the_rule_change(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = RaceService.open(database_url, Clock(START))
    race_id = started(service, small_spec(persons=2, bots=1))
    car, _seq = _boosted(service, race_id)
    service.engine.dispose()
    _fix(monkeypatch)
    with LiveServer(make_settings(database_url)) as live:
        page = httpx.get(f"{live.url}/races/{race_id}?lang=en", timeout=30)
        assert page.status_code == 200
        assert "rules-notice" in page.text
        assert "Test 1-1" in page.text and f"{car} is asked that question again" in page.text
        seen = httpx.get(f"{live.url}/races/{race_id}/view.json", timeout=30)
        assert seen.status_code == 200
        (notice,) = seen.json()["notices"]
        assert notice["dropped"][0]["car"] == car and "decision" not in notice["dropped"][0]
        assert "Test 1-1" in notice["en"] and "Test 1-1" in notice["de"]
