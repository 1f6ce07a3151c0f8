"""The race page on a phone (390×844, touch) and on a desktop (1400×900), in Debian's chromium.

On the phone the page never scrolls sideways (``scrollWidth`` at most 390 at every question),
the board has the full width with the own car marked "you" and in view during the driver's
turn ("follow my car" is on by default), the question sits right below the board, and the board
zooms with its buttons and with two fingers. On the desktop the board keeps most of the width.
Screenshots of both sizes go to ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import (
    LiveServer,
    choose_destination,
    make_settings,
    pick_gear,
    shot,
    wait_for_change,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}


def seated_demo(browser: Any, server: LiveServer, viewport: dict[str, int], name: str,
                touch: bool) -> Any:
    context = browser.new_context(locale="en-GB", viewport=viewport, has_touch=touch,
                                  is_mobile=touch)
    page = context.new_page()
    page.goto(server.url + "/")
    page.click("text=Demo: Monaco")
    page.click("#race-live >> text=Create account")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "first-race")
    page.click("form.stack button[type=submit]")
    page.click("text=Take this seat")
    page.click("#start")
    page.wait_for_selector("#question form")
    return page


def page_width(page: Any) -> int:
    return int(page.evaluate("document.scrollingElement.scrollWidth"))


def in_view(page: Any, selector: str) -> bool:
    """Whether the element's middle lies inside the board's box and the window."""
    return bool(page.evaluate(
        """sel => { const el = document.querySelector(sel);
          const box = document.getElementById('board-view').getBoundingClientRect();
          if (!el) return false;
          const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom
            && x >= 0 && x <= window.innerWidth && y >= 0 && y <= window.innerHeight; }""",
        selector))


def answer(page: Any) -> str:
    """Answer the open question the way a newcomer taps; the kind answered."""
    version = page.get_attribute("#race-version", "data-version") or ""
    form = page.locator("#question form")
    kind = form.get_attribute("id") or ""
    if kind == "move-form":
        target = choose_destination(page)
        if _touch(page):
            target.tap()
        else:
            target.click()
    elif kind == "turn-form":
        pick_gear(form)
        form.locator("button[type=submit]").click()
    else:
        form.locator("button[type=submit]").click()
    wait_for_change(page, version)
    return kind


def _touch(page: Any) -> bool:
    return bool(page.evaluate("'ontouchstart' in window"))


def test_phone_fits_the_board_the_car_and_the_question(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        page = seated_demo(browser, server, PHONE, "Pocket", touch=True)
        assert page_width(page) <= 390
        shot(page, "phone-1-setup")
        board = page.locator("#board-view").bounding_box()
        assert board is not None and board["width"] >= 370
        question = page.locator("#question").bounding_box()
        assert question is not None and question["y"] >= board["y"] + board["height"] - 1
        assert page.locator("#follow").is_checked()
        seen: set[str] = set()
        moves = 0
        for _ in range(40):
            page.wait_for_selector("#question form, #flag", timeout=60_000)
            if page.locator("#flag").count():
                break
            assert page_width(page) <= 390, "the page scrolls sideways"
            kind = page.locator("#question form").get_attribute("id") or ""
            if kind in ("turn-form", "move-form"):
                # follow my car: the car marked "you" is in the board's box during my turn
                page.wait_for_selector("#overlay g.car.mine", state="attached")
                assert "YOU" in page.text_content("#overlay g.car.mine")
                assert in_view(page, "#overlay g.car.mine"), kind
            if kind == "move-form":
                assert in_view(page, "#overlay path.dest"), "a destination is in view"
                if moves == 1:
                    shot(page, "phone-2-move")
                moves += 1
            seen.add(answer(page))
            if moves >= 3:
                break
        assert {"setup-form", "turn-form", "move-form"} <= seen
        shot(page, "phone-3-after-moves")

        # zoom by the buttons, then back to the whole board
        page.click("[data-zoom=fit]")
        whole = page.locator("#board").bounding_box()
        page.click("[data-zoom=in]")
        zoomed = page.locator("#board").bounding_box()
        assert whole is not None and zoomed is not None
        assert zoomed["width"] > whole["width"] * 1.3
        assert page_width(page) <= 390
        page.click("[data-zoom=fit]")
        # two fingers spread apart zoom in (pointer events as a touch screen sends them)
        page.evaluate(
            """() => { const v = document.getElementById('board-view');
              const r = v.getBoundingClientRect(), y = r.top + r.height / 2;
              const send = (type, id, x) => v.dispatchEvent(new PointerEvent(type,
                {pointerId: id, clientX: x, clientY: y, pointerType: 'touch', bubbles: true}));
              send('pointerdown', 1, 150); send('pointerdown', 2, 200);
              send('pointermove', 1, 100); send('pointermove', 2, 300);
              send('pointerup', 1, 100); send('pointerup', 2, 300); }""")
        pinched = page.locator("#board").bounding_box()
        assert pinched is not None and pinched["width"] > whole["width"] * 1.5
        assert page_width(page) <= 390

        # a name in the running order shows that car on the board
        other = page.locator("#order a[data-show-car]").nth(1)
        car = other.get_attribute("data-show-car")
        other.click()
        assert in_view(page, f'#overlay g.car[data-car="{car}"]')
        page.context.close()


def test_desktop_keeps_the_board_large(browser: Any, sqlite_url: str) -> None:
    with LiveServer(make_settings(sqlite_url, demo=True, demo_laps=1)) as server:
        page = seated_demo(browser, server, DESKTOP, "Deskbound", touch=False)
        for _ in range(6):
            if page.locator("#question form#move-form").count():
                break
            answer(page)
            page.wait_for_selector("#question form, #flag", timeout=60_000)
        assert in_view(page, "#overlay g.car.mine"), "follow my car scrolls the page to it"
        assert page.locator("#question").is_visible()
        board = page.locator("#board").bounding_box()
        side = page.locator(".side").bounding_box()
        assert board is not None and side is not None
        assert board["width"] >= 850 and side["x"] > board["x"] + board["width"]
        assert page_width(page) <= 1400
        assert page.locator("#overlay g.car.mine").count() == 1
        shot(page, "desktop-move")
        page.context.close()
