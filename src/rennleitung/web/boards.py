"""The track drawings: rendered once per process, sent once per browser (cached for a year
under a URL that carries the drawing's hash, so a changed drawing gets a new URL)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rennleitung.formula_de.builtin_tracks import builtin_track, builtin_track_names
from rennleitung.render.board_svg import render_board
from rennleitung.web.context import Refused

router = APIRouter()


@lru_cache(maxsize=32)
def track_drawing(name: str) -> tuple[str, str]:
    """The SVG of a built-in track without cars, and a short hash of it."""
    svg = render_board(builtin_track(name))
    return svg, hashlib.sha256(svg.encode()).hexdigest()[:16]


def drawing_url(name: str) -> str:
    return f"/tracks/{name}.svg?v={track_drawing(name)[1]}"


@router.get("/tracks/{name}.svg")
def track_svg(name: str, request: Request) -> Response:
    if name not in builtin_track_names():
        raise Refused.key(404, "not_found")
    svg, digest = track_drawing(name)
    etag = f'"{digest}"'
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)
