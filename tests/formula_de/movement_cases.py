"""Random but legal move requests on the built-in tracks, shared by the property test and the
benchmark: cars, wrecks, dangerous spaces, slipstream partners, pit lane and box, all wear."""

from __future__ import annotations

import random

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.movement import MoveRequest
from rennleitung.formula_de.track import SpaceKind, Track

TRACKS = ("monaco", "monza", "oval", "short")


def random_request(rng: random.Random, track: Track, max_distance: int) -> MoveRequest:
    """One request: a start anywhere (pit lane included), 0–25 other cars, 0–15 dangerous
    spaces, every modifier the request knows."""
    spaces = list(range(len(track.spaces)))
    start = rng.choice(spaces)
    if track.spaces[start].kind is SpaceKind.BOX and rng.random() < 0.7:
        start = rng.choice(list(track.track_spaces()))
    others = rng.sample([s for s in track.track_spaces() if s != start], rng.randint(0, 25))
    corner = track.corner_of(start)
    boxes = track.boxes
    box = rng.choice(boxes) if boxes and rng.random() < 0.6 else -1
    if track.spaces[start].kind is SpaceKind.BOX:
        box = start
    return MoveRequest(
        start=start,
        distance=rng.randint(0, max_distance),
        gear=rng.randint(1, 6),
        brakes=rng.randint(0, 4),
        tyres=rng.randint(0, 6),
        overshoot_factor=rng.choice((1, 2, 3)),
        slide=rng.choice((0, 0, 0, 1, 3, -1)),
        corner_stops=rng.randint(0, corner.stops - 1) if corner else 0,
        occupants={s: f"car{n}" for n, s in enumerate(others)},
        dangerous=frozenset(rng.sample(spaces, rng.randint(0, 15))) - {start},
        slipstream_gears={s: rng.randint(3, 6) for s in others if rng.random() < 0.5},
        pit_allowed=rng.random() < 0.5,
        box=box,
        box_taken=rng.random() < 0.1,
        soft_bonus=rng.random() < 0.3,  # drawn last: the earlier draws of a seed stay as they were
    )


def random_case(seed: int, max_distance: int) -> tuple[Track, MoveRequest]:
    """A track and a request from one seed."""
    rng = random.Random(seed)
    track = builtin_track(rng.choice(TRACKS))
    return track, random_request(rng, track, max_distance)
