"""The question mail's picture (issue 24): drawn by ``rsvg-convert`` in the background and
cached by the SVG's hash; the same SVG gives the same bytes, another SVG other bytes, and without
``rsvg-convert`` the mail carries the SVG itself. Real ``rsvg-convert`` runs."""

from __future__ import annotations

import shutil

import pytest

from rennleitung.mail import pictures
from rennleitung.mail.pictures import BoardPicture, png, png_later


def _needs_rsvg() -> None:
    if shutil.which("rsvg-convert") is None:
        pytest.fail("rsvg-convert is missing: run `sh scripts/services.sh`")


def _svg(colour: str) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
            f'<rect width="40" height="20" fill="{colour}"/></svg>').encode()


def test_the_same_svg_gives_the_same_picture_once_drawn() -> None:
    _needs_rsvg()
    pictures.forget()
    first = png_later(_svg("#5f9a4a"), "--width=80")
    again = png_later(_svg("#5f9a4a"), "--width=80")
    assert again is first  # drawn once
    picture = first.result()
    assert picture is not None and picture.startswith(b"\x89PNG")
    pictures.forget()
    assert png(_svg("#5f9a4a"), "--width=80") == picture  # drawn afresh: the same bytes


def test_another_svg_or_size_gives_another_picture() -> None:
    _needs_rsvg()
    pictures.forget()
    green = png(_svg("#5f9a4a"), "--width=80")
    red = png(_svg("#c0392b"), "--width=80")
    larger = png(_svg("#5f9a4a"), "--width=160")
    assert green is not None and red is not None and larger is not None
    assert len({green, red, larger}) == 3


def test_a_board_picture_is_a_png_attachment() -> None:
    _needs_rsvg()
    pictures.forget()
    item = BoardPicture("board", _svg("#5f9a4a"), "--width=80")
    assert (item.filename, item.mime) == ("board.png", "image/png")
    assert item.data == png(_svg("#5f9a4a"), "--width=80")


def test_without_rsvg_convert_the_svg_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    pictures.forget()
    monkeypatch.setenv("PATH", "/nonexistent")
    item = BoardPicture("board", _svg("#123456"), "--width=80")
    assert (item.filename, item.mime, item.data) == ("board.svg", "image/svg+xml",
                                                     _svg("#123456"))
