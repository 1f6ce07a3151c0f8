"""Tables kept per track: built once per track object and arguments, never mixed up between
two tracks that are equal in value but distinct objects."""

from __future__ import annotations

from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_text
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.track_cache import MAX_ENTRIES, per_track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file


def test_built_once_per_track_and_arguments() -> None:
    calls: list[tuple[int, int]] = []

    @per_track
    def spaces_plus(track: Track, extra: int) -> int:
        calls.append((id(track), extra))
        return len(track.spaces) + extra

    first = builtin_track("short")
    second = build_track(parse_track_file(builtin_track_text("short")))
    assert first is not second
    assert spaces_plus(first, 1) == spaces_plus(first, 1) == len(first.spaces) + 1
    assert spaces_plus(first, 2) == len(first.spaces) + 2
    assert spaces_plus(second, 1) == len(second.spaces) + 1
    assert calls == [(id(first), 1), (id(first), 2), (id(second), 1)]


def test_uploaded_tracks_do_not_grow_the_cache_without_bound() -> None:
    @per_track
    def size(track: Track) -> int:
        return len(track.spaces)

    text = builtin_track_text("short")
    tracks = [build_track(parse_track_file(text)) for _ in range(MAX_ENTRIES + 20)]
    for track in tracks:
        assert size(track) == len(track.spaces)
    assert size.entries() == MAX_ENTRIES  # type: ignore[attr-defined]
    newest = tracks[-1]
    assert size(newest) == len(newest.spaces) and size.entries() == MAX_ENTRIES  # type: ignore[attr-defined]
