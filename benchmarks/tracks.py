"""How long loading each built-in track takes: parse + build, no cache (target < 50 ms each).

Run: .venv/bin/python benchmarks/tracks.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rennleitung.formula_de.builtin_tracks import builtin_track_names, builtin_track_text
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackcheck import check_track
from rennleitung.formula_de.trackfile import parse_track_file
from rennleitung.render.board_svg import render_board

TARGET_MS = 50.0
ROUNDS = 20


def _best_ms(action: Callable[[], object], rounds: int = ROUNDS) -> float:
    """The fastest of ``rounds`` runs, in milliseconds (the least disturbed measurement)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    print(f"{'track':8} {'spaces':>6} {'load ms':>8} {'check ms':>9} {'svg ms':>7}  target")
    for name in builtin_track_names():
        text = builtin_track_text(name)
        load = _best_ms(lambda text=text: build_track(parse_track_file(text)))
        check = _best_ms(lambda text=text: check_track(text), rounds=5)
        track = build_track(parse_track_file(text))
        svg = _best_ms(lambda track=track: render_board(track), rounds=5)
        verdict = "ok" if load < TARGET_MS else "TOO SLOW"
        print(
            f"{name:8} {len(track.spaces):6d} {load:8.2f} {check:9.2f} {svg:7.2f}  "
            f"< {TARGET_MS:.0f} ms: {verdict}"
        )


if __name__ == "__main__":
    main()
