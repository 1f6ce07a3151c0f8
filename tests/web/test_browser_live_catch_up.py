"""A watching page never misses a live update (app.js ``listen``): when the parts it fetches
after the stream told of a new version come back older (read before the change, or overtaken,
as happens on a busy server), it fetches again until it shows the version it heard; and a parts
response older than what the page shows is not swapped in, so a late answer cannot undo a newer
update. Chromium's network routing hands the page a real, earlier parts response at the moment
that matters; the server and the race are real."""

from __future__ import annotations

from typing import Any

from tests.play.support import person_answer, small_spec, started
from tests.web.conftest import LiveServer, make_settings

SHOWN = "() => document.getElementById('race-version').dataset.version"


def test_a_stale_parts_response_is_fetched_again_and_never_swapped_back(
        browser: Any, database_url: str) -> None:
    with LiveServer(make_settings(database_url)) as server:
        races = server.app.state.races
        race_id = started(races, small_spec(persons=1, bots=1))
        before = races.version(race_id)
        context = browser.new_context(locale="en-GB", viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/races/{race_id}")
        assert page.evaluate(SHOWN) == str(before)
        parts_url = f"{server.url}/races/{race_id}/parts"
        stale = page.request.get(parts_url)
        assert stale.ok and f'data-version="{before}"' in stale.text()

        served: list[str] = []

        def hand_out(route: Any) -> None:
            if not served:  # the first fetch after the change gets what a fetch read before it
                served.append("stale")
                route.fulfill(status=200, body=stale.text(),
                              headers={"Content-Type": "text/html; charset=utf-8"})
            else:
                served.append("fresh")
                route.continue_()

        page.route(f"**/races/{race_id}/parts", hand_out)
        car, answer, version = person_answer(races, race_id)
        after = races.apply(race_id, car, answer, version).version
        assert after > before
        page.wait_for_function(f"() => ({SHOWN})() === '{after}'", timeout=30_000)
        assert served[0] == "stale" and "fresh" in served, served

        # an older parts response arriving late (a slow fetch, a reply overtaken) is dropped
        served.clear()
        page.evaluate(
            "url => htmx.ajax('GET', url, {target: '#race-version', swap: 'none'})", parts_url)
        page.wait_for_timeout(300)
        assert served == ["stale"]
        assert page.evaluate(SHOWN) == str(after)
        context.close()
