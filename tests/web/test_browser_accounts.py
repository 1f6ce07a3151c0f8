"""A person in Debian's chromium: creates an account, reads the page in German, signs out."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer, make_settings, shot


def test_newcomer_signs_up_in_the_browser(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url)) as server:
        context = browser.new_context(locale="de-DE")
        page = context.new_page()
        page.goto(server.url + "/")
        assert page.locator("html").get_attribute("lang") == "de"
        page.click("text=Konto anlegen")
        page.fill("input[name=name]", "Clara")
        page.fill("input[name=password]", "rennen-2026")
        page.click("form.stack button[type=submit]")
        page.wait_for_selector("#whoami")
        assert page.inner_text("#whoami") == "Angemeldet als Clara"
        page.click("a[hreflang=en]")
        page.wait_for_selector("text=Signed in as Clara")
        shot(page, "accounts-signed-in")
        page.click("text=Sign out")
        page.wait_for_selector("text=Create account")
        context.close()
