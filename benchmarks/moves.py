"""Move generation speed on `monaco` (issue 3).

Ten cars in realistic race positions (groups of cars a few spaces apart, gears 3–6, worn cars,
a few dangerous spaces), every roll 1–33 for every car: prints the median and 99th percentile
time per (position, roll) query, the ratio to the brute-force enumerator on rolls up to 12, and
the time of the all-faces call for 6th gear.
Targets: median <= 0.5 ms, >= 100x faster than brute force, all faces of 6th <= 2 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.dice import gear_die
from rennleitung.formula_de.movecheck import reference_moves
from rennleitung.formula_de.movegen import generate_moves, generate_moves_for_rolls
from rennleitung.formula_de.movement import MoveRequest
from rennleitung.formula_de.track import Track


def race_positions(track: Track, count: int, seed: int) -> list[list[MoveRequest]]:
    """``count`` positions of ten cars each; one request per car (distance filled in later)."""
    rng = random.Random(seed)
    lanes = [list(s for s in track.track_spaces() if track.spaces[s].lane == lane)
             for lane in range(track.lanes)]
    positions = []
    for _ in range(count):
        spaces: set[int] = set()
        anchor = rng.randrange(len(lanes[0]))
        while len(spaces) < 10:
            anchor = (anchor + rng.randint(1, 9)) % len(lanes[0])
            lane = lanes[rng.randrange(track.lanes)]
            spaces.add(lane[anchor % len(lane)])
        dangerous = frozenset(rng.sample(list(track.track_spaces()), 4)) - spaces
        gears = {s: rng.randint(3, 6) for s in spaces}
        requests = []
        for car in spaces:
            corner = track.corner_of(car)
            requests.append(
                MoveRequest(
                    start=car,
                    distance=0,
                    gear=gears[car],
                    brakes=rng.randint(1, 4),
                    tyres=rng.randint(2, 8),
                    overshoot_factor=rng.choice((1, 1, 2)),
                    corner_stops=corner.stops - 1 if corner else 0,
                    occupants={s: str(s) for s in spaces if s != car},
                    dangerous=dangerous,
                    slipstream_gears={s: g for s, g in gears.items() if s != car},
                )
            )
        positions.append(requests)
    return positions


def with_distance(request: MoveRequest, distance: int) -> MoveRequest:
    from dataclasses import replace

    return replace(request, distance=distance)


def main() -> None:
    track = builtin_track("monaco")
    positions = race_positions(track, 12, seed=2026)
    times = []
    for requests in positions:
        for request in requests:
            for roll in range(1, 34):
                query = with_distance(request, roll)
                start = time.perf_counter()
                generate_moves(track, query)
                times.append(time.perf_counter() - start)
    times.sort()
    median = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    print(f"queries: {len(times)} (12 positions x 10 cars x rolls 1-33)")
    print(f"median per query: {median:.3f} ms (target <= 0.5 ms)")
    print(f"99th percentile:  {p99:.3f} ms")

    fast_total = brute_total = 0.0
    for requests in positions[:3]:
        for request in requests[:5]:
            for roll in range(1, 13):
                query = with_distance(request, roll)
                start = time.perf_counter()
                generate_moves(track, query)
                fast_total += time.perf_counter() - start
                start = time.perf_counter()
                reference_moves(track, query)
                brute_total += time.perf_counter() - start
    print(f"brute force / fast, rolls 1-12: {brute_total / fast_total:.0f}x (target >= 100x)")

    faces = sorted(set(gear_die(6).faces))
    medians = []
    for _ in range(3):  # best of three medians: the figure is sensitive to machine load
        face_times = []
        for requests in positions:
            for request in requests:
                start = time.perf_counter()
                generate_moves_for_rolls(track, request, faces)
                face_times.append(time.perf_counter() - start)
        medians.append(statistics.median(face_times) * 1000)
    print(
        f"all faces of 6th gear in one call: median {min(medians):.3f} ms (best of 3 runs: "
        f"{', '.join(f'{m:.2f}' for m in medians)}; target <= 2 ms)"
    )


if __name__ == "__main__":
    main()
