"""PNG pictures of board SVGs, cached by the SVG's hash and drawn in the background (issue 24).

A picture is drawn by librsvg in this process (``svg_png``: about 15 ms of CPU), else by one
``rsvg-convert`` run (about 60 ms, a fifth of it starting the program), else not at all: then
the picture is None and the mail carries the SVG. A picture is started when its mail is made and
only waited for when the mail's bytes are built, so the pictures of one outbox tick (every
game's questions) are drawn side by side in a small bounded pool while the other games are
ticked; the thread building the mails draws a picture that no picture thread has begun rather
than wait for one. The same SVG at the same size is drawn once (a board asked for again, a
question mail built twice, two seats shown the same view); the cache keeps the newest
``CACHED``.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from rennleitung.mail import svg_png
from rennleitung.render.mail_message import Attachment

WORKERS = 2
"""Picture threads (the machine's cores, not more: drawing is CPU-bound); the thread waiting
for a picture that none of them has begun draws it itself."""
CACHED = 128
"""Pictures kept (about 120 KB each at most)."""

_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="png")
_LOCK = threading.Lock()


def _pixels(size: str) -> tuple[int | None, int | None] | None:
    """(width, height) of an rsvg-convert size option, ``--width=560`` or ``--height=560``;
    None for another option (left to rsvg-convert)."""
    option, _equals, number = size.partition("=")
    if not number.isdigit() or option not in ("--width", "--height"):
        return None
    return (int(number), None) if option == "--width" else (None, int(number))


def renderer() -> str | None:
    """What draws the pictures: ``"librsvg"`` (in this process), ``"rsvg-convert"`` or None."""
    if svg_png.available():
        return "librsvg"
    return "rsvg-convert" if shutil.which("rsvg-convert") else None


def _convert(svg: bytes, size: str) -> bytes | None:
    pixels = _pixels(size)
    if pixels is not None and svg_png.available():
        drawn = svg_png.render(svg, *pixels)
        if drawn is not None:
            return drawn
    converter = shutil.which("rsvg-convert")
    if not converter:
        return None
    try:
        done = subprocess.run([converter, "--format=png", size], input=svg,
                              capture_output=True, timeout=60, check=True)
    except (subprocess.SubprocessError, OSError):
        return None  # the SVG alone still shows the board
    return done.stdout


class _Drawing:
    """One picture to draw, once, by whichever thread comes first: a picture thread, or the
    thread that needs it now and would otherwise wait (it draws a picture no thread has begun,
    instead of waking one and sleeping)."""

    def __init__(self, svg: bytes, size: str,
                 drawn: Callable[[], bytes | None] | None = None) -> None:
        self.svg, self.size, self.drawn = svg, size, drawn
        self.future: Future[bytes | None] = Future()
        self._claim = threading.Lock()

    def run(self) -> None:
        """Draw the picture unless another thread has begun it."""
        if not self._claim.acquire(blocking=False):
            return
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            picture = self.drawn() if self.drawn is not None else None
            if picture is None:
                picture = _convert(self.svg, self.size)
        except Exception as error:  # pragma: no cover - _convert returns None on failure
            self.future.set_exception(error)
        else:
            self.future.set_result(picture)

    def result(self) -> bytes | None:
        """The picture, drawn here if no thread has begun it, else waited for."""
        self.run()
        return self.future.result()


_CACHE: OrderedDict[str, _Drawing] = OrderedDict()


def _forget_failure(key: str, drawing: _Drawing) -> None:
    future = drawing.future
    if future.cancelled() or future.exception() is not None or future.result() is None:
        with _LOCK:  # a failure may pass (a timeout under load): the next mail tries again
            if _CACHE.get(key) is drawing:
                del _CACHE[key]


def _drawing(svg: bytes, size: str,
             drawn: Callable[[], bytes | None] | None = None) -> _Drawing:
    key = hashlib.sha256(size.encode() + b"\0" + svg).hexdigest()
    with _LOCK:
        drawing = _CACHE.get(key)
        if drawing is not None:
            _CACHE.move_to_end(key)
            return drawing
        drawing = _Drawing(svg, size, drawn if svg_png.available() else None)
        if renderer() is None:
            drawing.future.set_running_or_notify_cancel()
            drawing.future.set_result(None)
            drawing._claim.acquire()
            return drawing
        _CACHE[key] = drawing
        while len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
    drawing.future.add_done_callback(lambda _done: _forget_failure(key, drawing))
    _POOL.submit(drawing.run)
    return drawing


def png_later(svg: bytes, size: str) -> Future[bytes | None]:
    """The PNG of ``svg`` at ``size`` (an rsvg-convert option: ``--width=560`` or
    ``--height=560``), being drawn: from the cache when the same SVG was drawn at that size
    before."""
    return _drawing(svg, size).future


def png(svg: bytes, size: str) -> bytes | None:
    """The PNG of ``svg`` at ``size``, waited for (drawn in this thread if no picture thread
    has begun it); None without librsvg and rsvg-convert."""
    return _drawing(svg, size).result()


class BoardPicture(Attachment):
    """An attachment whose PNG is still being drawn: ``name.png`` once drawn, else the SVG
    itself as ``name.svg``. Asked for its name, type or bytes, it waits for the picture (or
    draws it, if no picture thread has begun it). ``drawn`` draws the same picture a quicker
    way where librsvg runs here (``board_tiles``); the SVG is drawn whole where it fails."""

    def __init__(self, name: str, svg: bytes, size: str,
                 drawn: Callable[[], bytes | None] | None = None) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_svg", svg)
        object.__setattr__(self, "_drawing", _drawing(svg, size, drawn))

    def _picture(self) -> bytes | None:
        drawing: _Drawing = object.__getattribute__(self, "_drawing")
        return drawing.result()

    @property
    def filename(self) -> str:
        name: str = object.__getattribute__(self, "_name")
        return f"{name}.png" if self._picture() is not None else f"{name}.svg"

    @property
    def mime(self) -> str:
        return "image/png" if self._picture() is not None else "image/svg+xml"

    @property
    def data(self) -> bytes:
        svg: bytes = object.__getattribute__(self, "_svg")
        return self._picture() or svg


def forget() -> None:
    """Empty the cache (a benchmark's runs, tests that compare a first drawing)."""
    with _LOCK:
        _CACHE.clear()
