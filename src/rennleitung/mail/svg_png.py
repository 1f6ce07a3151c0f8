"""SVG to PNG inside the gateway's process: librsvg and cairo through ``ctypes`` (issue 24).

A question mail's picture was one ``rsvg-convert`` run: about 60 ms of CPU, of which starting
the program was 12 ms and cairo's PNG writer (libpng with its adaptive row filters) 11 ms. Here
the same libraries that ``rsvg-convert`` uses (``librsvg-2.so.2``, ``libcairo.so.2``, Debian's
``librsvg2-2``, which ``librsvg2-bin`` brings) draw the SVG into a cairo image surface in this
process, and the pixels are written as PNG by ``zlib`` without row filters: about 15 ms of CPU
a picture on an idle machine, the same pixels as ``rsvg-convert`` and a file of about its size
(a board has large flat areas, which deflate packs well without filters).

The size follows ``rsvg-convert``: given a width (or a height), the picture is scaled evenly to
it and the other side is rounded up. The PNG is RGB where every pixel is opaque (a question's
picture ends on whole pixels), else RGBA: where a few pixels are not opaque (a last row or
column only partly covered), they are divided back by their alpha as cairo does it; a picture
with more transparency is written by cairo's own PNG writer. ``new_surface``, ``draw_onto``,
``paint_onto`` and ``png_of`` let ``board_tiles`` build a picture from kept tiles and one SVG
drawn over them.
The foreign calls release the interpreter lock, so two threads draw two pictures at once; each
picture has its own handle, surface and context.

Without the libraries (another system, a missing package) ``render`` returns None and
``mail/pictures.py`` runs ``rsvg-convert`` instead, or sends the SVG. Only SVGs that our own
renderers made are drawn here, never one from a mail.
"""

from __future__ import annotations

import array
import ctypes
import math
import struct
import sys
import threading
import zlib
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_size_t, c_uint, c_void_p
from typing import Any

LEVEL = 3
"""zlib's compression level for the PNG's pixels: 3 takes half the time of zlib's default 6
(3 ms instead of 7 for a question's picture) for a file a fifth larger (still smaller than
``rsvg-convert``'s)."""
LARGEST = 8192
"""Pixels of a picture's longer side at most (a larger request is not drawn here)."""

_ARGB32 = 0
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_WRITE = ctypes.CFUNCTYPE(c_int, c_void_p, POINTER(ctypes.c_ubyte), c_uint)


class _Dimensions(ctypes.Structure):
    _fields_ = [("width", c_int), ("height", c_int), ("em", c_double), ("ex", c_double)]


_SIGNATURES: dict[str, tuple[tuple[str, Any, list[Any]], ...]] = {
    "rsvg": (
        ("rsvg_handle_new_from_data", c_void_p, [c_char_p, c_size_t, POINTER(c_void_p)]),
        ("rsvg_handle_get_dimensions", None, [c_void_p, POINTER(_Dimensions)]),
        ("rsvg_handle_render_cairo", c_int, [c_void_p, c_void_p]),
    ),
    "gobject": (("g_object_unref", None, [c_void_p]),),
    "glib": (("g_error_free", None, [c_void_p]),),
    "cairo": (
        ("cairo_image_surface_create", c_void_p, [c_int, c_int, c_int]),
        ("cairo_surface_status", c_int, [c_void_p]),
        ("cairo_create", c_void_p, [c_void_p]),
        ("cairo_status", c_int, [c_void_p]),
        ("cairo_scale", None, [c_void_p, c_double, c_double]),
        ("cairo_surface_flush", None, [c_void_p]),
        ("cairo_image_surface_get_data", c_void_p, [c_void_p]),
        ("cairo_image_surface_get_stride", c_int, [c_void_p]),
        ("cairo_surface_write_to_png_stream", c_int, [c_void_p, _WRITE, c_void_p]),
        ("cairo_set_source_surface", None, [c_void_p, c_void_p, c_double, c_double]),
        ("cairo_paint", None, [c_void_p]),
        ("cairo_surface_reference", c_void_p, [c_void_p]),
        ("cairo_destroy", None, [c_void_p]),
        ("cairo_surface_destroy", None, [c_void_p]),
    ),
}
"""Result and argument types of the few foreign calls made, per library."""


class _Libraries:
    """librsvg, cairo, GObject and GLib with the signatures of the few calls made."""

    def __init__(self) -> None:
        self.rsvg = ctypes.CDLL("librsvg-2.so.2")
        self.cairo = ctypes.CDLL("libcairo.so.2")
        self.gobject = ctypes.CDLL("libgobject-2.0.so.0")
        self.glib = ctypes.CDLL("libglib-2.0.so.0")
        for library, calls in _SIGNATURES.items():
            for name, result, arguments in calls:
                function = getattr(getattr(self, library), name)
                function.restype = result
                function.argtypes = arguments
        self.sized = hasattr(self.rsvg, "rsvg_handle_get_intrinsic_size_in_pixels")  # 2.52 on
        if self.sized:
            sized = self.rsvg.rsvg_handle_get_intrinsic_size_in_pixels
            sized.restype = c_int
            sized.argtypes = [c_void_p, POINTER(c_double), POINTER(c_double)]


_LOCK = threading.Lock()
_LOADED: list[_Libraries | None] = []


def _libraries() -> _Libraries | None:
    """The libraries, loaded on first use; None where one is missing."""
    with _LOCK:
        if not _LOADED:
            try:
                _LOADED.append(_Libraries())
            except (OSError, AttributeError):
                _LOADED.append(None)
        return _LOADED[0]


def available() -> bool:
    """Whether pictures are drawn in this process."""
    return _libraries() is not None


def _size(libs: _Libraries, handle: int) -> tuple[float, float]:
    if libs.sized:
        width, height = c_double(), c_double()
        if libs.rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, byref(width),
                                                               byref(height)):
            return width.value, height.value
    dimensions = _Dimensions()
    libs.rsvg.rsvg_handle_get_dimensions(handle, byref(dimensions))
    return float(dimensions.width), float(dimensions.height)


def _side(length: float) -> int:
    """Pixels of a side of ``length``, rounded up as ``rsvg-convert`` does (a hair above a
    whole number from the division stays that number)."""
    return max(1, math.ceil(round(length, 6)))


def render(svg: bytes, width: int | None = None, height: int | None = None) -> bytes | None:
    """The PNG of ``svg`` scaled evenly to ``width`` (or else ``height``; neither: its own
    size); None without the libraries or when librsvg cannot read or draw it."""
    libs = _libraries()
    if libs is None:
        return None
    handle = _handle(libs, svg)
    if handle is None:
        return None
    try:
        own_width, own_height = _size(libs, handle)
        if own_width <= 0 or own_height <= 0:
            return None
        scale = width / own_width if width else height / own_height if height else 1.0
        pixels_x, pixels_y = _side(own_width * scale), _side(own_height * scale)
        if max(pixels_x, pixels_y) > LARGEST:
            return None
        surface = new_surface(pixels_x, pixels_y)
        if surface is None:
            return None
        try:
            if not _draw(libs, handle, surface, scale):
                return None
            return png_of(surface, pixels_x, pixels_y)
        finally:
            release(surface)
    finally:
        libs.gobject.g_object_unref(handle)


def _handle(libs: _Libraries, svg: bytes) -> int | None:
    """librsvg's handle of ``svg`` (the caller unrefs it); None where it cannot be read."""
    error = c_void_p()
    handle: int | None = libs.rsvg.rsvg_handle_new_from_data(svg, len(svg), byref(error))
    if not handle and error.value:
        libs.glib.g_error_free(error)
    return handle or None


def new_surface(width: int, height: int) -> int | None:
    """A transparent cairo image surface of ``width`` × ``height`` pixels (``release`` it);
    None without the libraries or beyond ``LARGEST``."""
    libs = _libraries()
    if libs is None or max(width, height) > LARGEST or min(width, height) < 1:
        return None
    surface: int = libs.cairo.cairo_image_surface_create(_ARGB32, width, height)
    if libs.cairo.cairo_surface_status(surface):
        libs.cairo.cairo_surface_destroy(surface)
        return None
    return surface


def keep(surface: int) -> int:
    """One more holder of ``surface`` (each holder ``release``s it)."""
    libs = _libraries()
    assert libs is not None  # a surface was made, so the libraries are there
    kept: int = libs.cairo.cairo_surface_reference(surface)
    return kept


def release(surface: int) -> None:
    """This holder is done with ``surface``."""
    libs = _libraries()
    if libs is not None:
        libs.cairo.cairo_surface_destroy(surface)


def draw_onto(surface: int, svg: bytes, scale: float = 1.0) -> bool:
    """Draw ``svg`` over what ``surface`` holds, scaled by ``scale``; False where librsvg
    cannot read or draw it."""
    libs = _libraries()
    if libs is None:
        return False
    handle = _handle(libs, svg)
    if handle is None:
        return False
    try:
        return _draw(libs, handle, surface, scale)
    finally:
        libs.gobject.g_object_unref(handle)


def _draw(libs: _Libraries, handle: int, surface: int, scale: float) -> bool:
    cairo = libs.cairo
    context = cairo.cairo_create(surface)
    try:
        cairo.cairo_scale(context, scale, scale)
        drawn = libs.rsvg.rsvg_handle_render_cairo(handle, context)
        return bool(drawn) and not cairo.cairo_status(context)
    finally:
        cairo.cairo_destroy(context)


def paint_onto(surface: int, pieces: list[tuple[int, int, int]]) -> bool:
    """Copy each ``(source, x, y)`` surface onto ``surface`` with its top left corner at
    pixel (x, y) (whole pixels: the copy is exact)."""
    libs = _libraries()
    if libs is None:
        return False
    cairo = libs.cairo
    context = cairo.cairo_create(surface)
    try:
        for source, x, y in pieces:
            cairo.cairo_set_source_surface(context, source, float(x), float(y))
            cairo.cairo_paint(context)
        return not cairo.cairo_status(context)
    finally:
        cairo.cairo_destroy(context)


def png_of(surface: int, width: int, height: int) -> bytes | None:
    """The PNG of what ``surface`` (``width`` × ``height``) holds."""
    libs = _libraries()
    if libs is None:
        return None
    cairo = libs.cairo
    cairo.cairo_surface_flush(surface)
    stride = cairo.cairo_image_surface_get_stride(surface)
    pixels = ctypes.string_at(cairo.cairo_image_surface_get_data(surface), stride * height)
    converted = _straight(pixels, width, height, stride)
    if converted is None:
        return _cairo_png(libs, surface)
    return encode(*converted, width, height)


EDGE_PIXELS = 4
"""Pixels not fully opaque that are converted here, per pixel of the picture's edge (a
board's picture has at most its last row or column partly covered by the scaling); a picture
with more goes to cairo's PNG writer."""
_SEE_THROUGH = bytes([1] * 255 + [0])
"""``bytes.translate`` table: 1 for an alpha below 255, 0 for opaque."""


def _straight(pixels: bytes, width: int, height: int, stride: int
              ) -> tuple[bytes, int] | None:
    """cairo's 32-bit pixels (native-endian ARGB, premultiplied by alpha) as PNG's RGB where
    every pixel is opaque, else as RGBA with straight alpha, divided back as cairo's own PNG
    writer does it; None for more than ``EDGE_PIXELS`` per edge pixel with transparency. For
    RGBA the bytes are reordered in one piece: each pixel's word put in ARGB byte order, the
    whole shifted by one byte gives R, G, B and the next pixel's alpha, which is right wherever
    every pixel is opaque (the pixels that are not get their own alpha back)."""
    rows = pixels if stride == 4 * width else b"".join(
        pixels[row * stride:row * stride + 4 * width] for row in range(height))
    if sys.byteorder == "little" and not rows[3::4].strip(b"\xff"):  # every alpha 255
        return _opaque(rows, width * height), 2
    words = array.array("I")
    if words.itemsize != 4:  # pragma: no cover - every platform CPython runs on has one
        return None
    words.frombytes(rows)
    if sys.byteorder == "little":
        words.byteswap()
    argb = words.tobytes()
    opacity = argb[0::4]
    marks = opacity.translate(_SEE_THROUGH)
    partial = marks.count(1)
    if not partial:
        return argb[1:] + b"\xff", 6
    if partial > EDGE_PIXELS * 2 * (width + height):
        return None
    rgba = bytearray(argb[1:] + b"\xff")
    rgba[3::4] = opacity
    at = marks.find(1)
    while at >= 0:
        level = opacity[at]
        if level == 0:
            rgba[4 * at:4 * at + 3] = b"\0\0\0"
        else:
            for channel in range(4 * at, 4 * at + 3):
                rgba[channel] = (rgba[channel] * 255 + level // 2) // level
        at = marks.find(1, at + 1)
    return bytes(rgba), 6


def _opaque(rows: bytes, count: int) -> bytes:
    """Opaque pixels as PNG's RGB: a quarter fewer bytes to deflate than RGBA (a question's
    picture is opaque whenever its view ends on whole pixels). cairo's little-endian words
    are B, G, R, A in memory."""
    rgb = bytearray(3 * count)
    rgb[0::3], rgb[1::3], rgb[2::3] = rows[2::4], rows[1::4], rows[0::4]
    return bytes(rgb)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(pixels: bytes, colour: int, width: int, height: int, level: int = LEVEL) -> bytes:
    """A PNG of 8-bit pixels row by row, RGB (``colour`` 2) or RGBA with straight alpha (6),
    every row without a filter (PNG filter type 0: the other filters, done in Python, cost
    more than they save here)."""
    line = (3 if colour == 2 else 4) * width
    view = memoryview(pixels)
    raw = b"".join(b"\0" + view[row * line:(row + 1) * line] for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)  # no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, level))
            + _chunk(b"IEND", b""))


def _cairo_png(libs: _Libraries, surface: int) -> bytes | None:
    parts: list[bytes] = []

    def write(_closure: int | None, data: ctypes._Pointer[ctypes.c_ubyte], length: int) -> int:
        parts.append(ctypes.string_at(data, length))
        return 0

    writer = _WRITE(write)
    if libs.cairo.cairo_surface_write_to_png_stream(surface, writer, None):
        return None
    return b"".join(parts)
