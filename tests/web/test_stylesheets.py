"""The stylesheets keep an idle page idle: an animation that never ends makes chromium repaint
the board every frame (an idle race page kept a third of a core busy with the "you" ring's
endless pulse; with four pulses it falls to nothing once they are over)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).parents[2] / "src" / "rennleitung" / "web" / "static"


@pytest.mark.parametrize("sheet", sorted(p.name for p in STATIC.glob("*.css")))
def test_no_animation_runs_forever(sheet: str) -> None:
    text = (STATIC / sheet).read_text(encoding="utf-8")
    endless = [rule for rule in re.findall(r"[^{}]*\{[^{}]*\}", text)
               if re.search(r"animation(-iteration-count)?\s*:[^;}]*\binfinite\b", rule)]
    assert endless == [], endless


def test_the_you_ring_pulses_a_few_times() -> None:
    text = (STATIC / "app.css").read_text(encoding="utf-8")
    assert re.search(r"\.you-ring \{ animation: you [\d.]+s ease-in-out [1-9]; \}", text)
