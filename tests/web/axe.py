"""axe-core (vendored, ``tests/vendor/axe-core``) run in a Playwright page: the accessibility
violations a page has, of the impacts that fail a test."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
FAILING = ("serious", "critical")


@cache
def axe_source() -> str:
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, "the vendored axe.min.js changed"
    return data.decode("utf-8")


def violations(page: Any, impacts: tuple[str, ...] = FAILING) -> list[dict[str, Any]]:
    """The violations of ``impacts`` on the page as it stands (WCAG 2.x A and AA rules and
    axe's best practices), each with its rule, help text and up to five elements."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated through the browser's debugging protocol: the page's own content security
        # policy, which runs only scripts served by the site, does not apply to it
        page.evaluate(axe_source() + "\n;undefined")
    assert page.evaluate("axe.version") == AXE_VERSION
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
           .map(v => ({id: v.id, impact: v.impact, help: v.help,
                       nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}))""")
    return [v for v in found if v["impact"] in impacts]


def assert_accessible(page: Any, where: str) -> None:
    bad = violations(page)
    assert not bad, f"{where}: " + "; ".join(
        f"{v['impact']} {v['id']} ({v['help']}): {', '.join(v['nodes'])}" for v in bad)
