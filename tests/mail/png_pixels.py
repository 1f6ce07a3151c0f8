"""A small PNG reader for the picture tests: 8-bit RGB or RGBA, not interlaced, any of the five
row filters (``rsvg-convert`` writes them all); returns the size and the pixels as RGBA rows.
Written for checking what the gateway sends, not for speed."""

from __future__ import annotations

import struct
import zlib


def _paeth(left: int, up: int, corner: int) -> int:
    guess = left + up - corner
    to_left, to_up, to_corner = abs(guess - left), abs(guess - up), abs(guess - corner)
    if to_left <= to_up and to_left <= to_corner:
        return left
    return up if to_up <= to_corner else corner


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA bytes); raises ValueError on what it cannot read."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG")
    at, idat, header = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in {kind!r}")
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        at += 12 + length
    width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}")
    step = 3 if colour == 2 else 4
    line = step * width
    raw = zlib.decompress(idat)
    if len(raw) != height * (line + 1):
        raise ValueError("wrong amount of pixel data")
    rows: list[bytes] = []
    previous = bytearray(line)
    for number in range(height):
        kind = raw[number * (line + 1)]
        row = bytearray(raw[number * (line + 1) + 1:(number + 1) * (line + 1)])
        if kind == 1:
            for i in range(step, line):
                row[i] = (row[i] + row[i - step]) & 255
        elif kind == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, previous, strict=True))
        elif kind == 3:
            for i in range(line):
                left = row[i - step] if i >= step else 0
                row[i] = (row[i] + (left + previous[i]) // 2) & 255
        elif kind == 4:
            for i in range(line):
                left = row[i - step] if i >= step else 0
                corner = previous[i - step] if i >= step else 0
                row[i] = (row[i] + _paeth(left, previous[i], corner)) & 255
        elif kind:
            raise ValueError(f"unknown row filter {kind}")
        previous = row
        if step == 3:
            rgba = bytearray(4 * width)
            rgba[0::4], rgba[1::4], rgba[2::4] = row[0::3], row[1::3], row[2::3]
            rgba[3::4] = b"\xff" * width
            row = rgba
        rows.append(bytes(row))
    return width, height, rows
