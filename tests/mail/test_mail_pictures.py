"""The question mail's picture (issue 24): drawn by librsvg in the gateway's process
(``mail/svg_png.py``), else by ``rsvg-convert``, in the background and cached by the SVG's hash;
the same SVG gives the same bytes, another SVG other bytes, and without either the mail carries
the SVG itself. The PNGs are read back pixel by pixel (``png_pixels``): the size asked for, the
same pixels as ``rsvg-convert`` draws, and every offered destination's label on the picture.
Real librsvg and real ``rsvg-convert`` runs."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race_decisions import AskKind, decision_to_data
from rennleitung.mail import board_tiles, pictures, svg_png
from rennleitung.mail.fd_questions import PICTURE_SIDE
from rennleitung.mail.pictures import BoardPicture, png, png_later
from rennleitung.mail.service import MailService
from rennleitung.play import Actor
from rennleitung.play.engine import question_of
from rennleitung.play.views import Reader, View
from rennleitung.render.board_crop import (
    LABEL_PIXELS,
    SCALE_STEPS,
    TILE,
    crop_picture,
    render_crop,
    scale_of,
)

from .png_pixels import read_png
from .test_mail_fd import Clock, _race


def _needs_rsvg() -> None:
    if shutil.which("rsvg-convert") is None:
        pytest.fail("rsvg-convert is missing: run `sh scripts/services.sh`")


def _needs_librsvg() -> None:
    if not svg_png.available():
        pytest.fail("librsvg-2.so.2 or libcairo.so.2 is missing: run `sh scripts/services.sh`")


def _svg(colour: str) -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
            f'<rect width="40" height="20" fill="{colour}"/></svg>').encode()


def _converted(svg: bytes, size: str) -> bytes:
    """What ``rsvg-convert`` itself makes of ``svg``."""
    done = subprocess.run(["rsvg-convert", "--format=png", size], input=svg,
                          capture_output=True, timeout=60, check=True)
    return done.stdout


@pytest.fixture()
def no_librsvg(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as on a system without librsvg's library (``rsvg-convert`` may still
    be there)."""
    pictures.forget()
    monkeypatch.setattr(svg_png, "_LOADED", [None])


def test_the_same_svg_gives_the_same_picture_once_drawn() -> None:
    _needs_librsvg()
    pictures.forget()
    first = png_later(_svg("#5f9a4a"), "--width=80")
    again = png_later(_svg("#5f9a4a"), "--width=80")
    assert again is first  # drawn once
    picture = first.result()
    assert picture is not None and picture.startswith(b"\x89PNG")
    assert read_png(picture)[:2] == (80, 40)
    pictures.forget()
    assert png(_svg("#5f9a4a"), "--width=80") == picture  # drawn afresh: the same bytes


def test_another_svg_or_size_gives_another_picture() -> None:
    _needs_librsvg()
    pictures.forget()
    green = png(_svg("#5f9a4a"), "--width=80")
    red = png(_svg("#c0392b"), "--width=80")
    larger = png(_svg("#5f9a4a"), "--height=60")
    assert green is not None and red is not None and larger is not None
    assert len({green, red, larger}) == 3
    assert read_png(larger)[:2] == (120, 60)
    assert read_png(red)[2][0][:4] == bytes((0xc0, 0x39, 0x2b, 0xff))


def test_a_board_picture_is_a_png_attachment() -> None:
    _needs_librsvg()
    pictures.forget()
    assert pictures.renderer() == "librsvg"
    item = BoardPicture("board", _svg("#5f9a4a"), "--width=80")
    assert (item.filename, item.mime) == ("board.png", "image/png")
    assert item.data == png(_svg("#5f9a4a"), "--width=80")


def test_without_librsvg_rsvg_convert_draws_the_same_pixels(no_librsvg: None) -> None:
    _needs_rsvg()
    assert pictures.renderer() == "rsvg-convert"
    drawn = png(_svg("#5f9a4a"), "--width=80")
    assert drawn == _converted(_svg("#5f9a4a"), "--width=80")  # rsvg-convert's own bytes


def test_without_librsvg_and_rsvg_convert_the_svg_goes(
        no_librsvg: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert pictures.renderer() is None
    item = BoardPicture("board", _svg("#123456"), "--width=80")
    assert (item.filename, item.mime, item.data) == ("board.svg", "image/svg+xml",
                                                     _svg("#123456"))


def test_an_svg_librsvg_cannot_read_gives_no_picture() -> None:
    _needs_librsvg()
    assert svg_png.render(b"<svg this is not", 80) is None
    assert svg_png.render(b"", 80) is None


def test_a_partly_transparent_edge_is_kept_as_rsvg_convert_draws_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Scaled to 560 pixels, a 3 x 2 SVG is 373.3 pixels high (by width) or wide (by height):
    the last row or column is partly covered; with a half-transparent rectangle every pixel
    has alpha (cairo's own PNG writer). All come out as ``rsvg-convert`` draws them (straight
    alpha, not cairo's premultiplied)."""
    _needs_librsvg()
    _needs_rsvg()
    cases = ((b'width="3" height="2"', b'width="3" height="2" fill="#5f9a4a"', "width"),
             (b'width="2" height="3"', b'width="2" height="3" fill="#5f9a4a"', "height"),
             (b'width="3" height="2"', b'width="3" height="2" fill="#c0392b" fill-opacity="0.4"',
              "width"))
    by_cairo: list[int] = []
    cairo_png = svg_png._cairo_png
    monkeypatch.setattr(svg_png, "_cairo_png", lambda *a: by_cairo.append(1) or cairo_png(*a))
    for size, rect, side in cases:
        svg = b'<svg xmlns="http://www.w3.org/2000/svg" ' + size + b"><rect " + rect + b"/></svg>"
        mine = svg_png.render(svg, **{side: 560})
        assert mine is not None
        width, height, rows = read_png(mine)
        assert (width, height) == ((560, 374) if side == "width" else (374, 560))
        assert (width, height, rows) == read_png(_converted(svg, f"--{side}=560"))
        assert rows[-1][-1] < 255  # the last pixel has alpha
        assert rows[0][3] == (255 if b"opacity" not in rect else 102)
    assert len(by_cairo) == 1  # only the picture with alpha everywhere


def _move_view(service: MailService) -> tuple[View, AskKind]:
    """Car 1's view when it is asked its move with at least three destinations (both people
    play as the simple bot)."""
    races, race_id = _race(service, Clock())
    bot = make_bot("simple")
    holders = {"car1": "mail:anna@example.net", "car2": "mail:bert@example.net"}
    for _step in range(400):
        seen = races.view(race_id, Reader.seat("car1"))
        asked = seen.question()
        if asked is not None and asked.question.kind is AskKind.MOVE and \
                len({o.end for o in asked.question.moves}) >= 3:
            return seen, asked.question.kind
        race = races.race(race_id)
        for car, holder in holders.items():
            ask = question_of(race, car)
            if ask is not None:
                races.apply(race_id, car, decision_to_data(race.track, bot.decide(race, ask)),
                            None, Actor.PERSON, holder=holder)
                break
    raise AssertionError("car 1 was never asked a move with three destinations")


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]


def test_a_question_picture_shows_every_destination_label(service: MailService) -> None:
    """The picture of a move question: at most 560 pixels on its longer side, its whole SVG
    drawn with the same pixels as ``rsvg-convert`` draws, and on each offered destination of
    the picture the gateway sends its label (a white tag with black letters, at most
    ``LABEL_PIXELS`` high) where the picture without the labels shows the board."""
    _needs_librsvg()
    _needs_rsvg()
    seen, _kind = _move_view(service)
    asked = seen.question()
    assert asked is not None and seen.position is not None and seen.track is not None
    moves = asked.question.moves
    crop = crop_picture(seen.position, "car1", moves, PICTURE_SIDE)
    svg = crop.svg
    size = f"--width={crop.pixels[0]}"
    assert read_png(svg_png.render(svg.encode()) or b"") == read_png(_converted(svg.encode(), size))
    drawn = board_tiles.render(crop)  # as the gateway draws it
    assert drawn is not None and len(drawn) < 150_000
    picture_width, picture_height, rows = read_png(drawn)
    assert (picture_width, picture_height) == crop.pixels
    assert max(crop.pixels) <= PICTURE_SIDE
    tags = re.findall(r'<rect (x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*") rx="[^"]*" '
                      r'fill="#fff"[^>]*/><text class="destination"[^>]*>([^<]+)</text>', svg)
    assert {name for _box, name in tags} == {seen.track.name_of(o.end) for o in moves}
    for font in re.findall(r'<text class="destination"[^>]* font-size="([\d.]+)"', svg):
        assert float(font) <= LABEL_PIXELS / crop.scale + 0.05  # names fit a close view
    bare = re.sub(r'<rect [^>]*fill="#fff"[^>]*/><text class="destination".*?</text>', "", svg)
    assert "destination" not in bare
    bare_png = svg_png.render(bare.encode())
    assert bare_png is not None
    bare_rows = read_png(bare_png)[2]
    left, top, view_width, _view_height = _numbers(
        re.search(r'viewBox="([^"]+)"', svg).group(1))  # type: ignore[union-attr]
    scale = picture_width / view_width
    for box, name in tags:
        x, y, tag_width, tag_height = _numbers(box)
        columns = range(max(0, math.ceil((x - left) * scale) + 1),
                        min(picture_width, math.floor((x + tag_width - left) * scale) - 1))
        lines = range(max(0, math.ceil((y - top) * scale) + 1),
                      min(picture_height, math.floor((y + tag_height - top) * scale) - 1))
        inside = [rows[line][4 * column:4 * column + 3] for line in lines for column in columns]
        before = [bare_rows[line][4 * column:4 * column + 3] for line in lines
                  for column in columns]
        if not inside:
            continue  # a tag cut off by the picture's edge
        white = sum(min(p) > 200 for p in inside)  # the tag lets 15 % of the board through
        black = sum(max(p) < 70 for p in inside)
        # the tag's white and the letters' black (another tag may cover part of it)
        assert white > len(inside) * 0.15, (name, white, len(inside))
        assert black > len(inside) * 0.05, (name, black, len(inside))
        changed = sum(a != b for a, b in zip(inside, before, strict=True))
        assert changed > len(inside) * 0.3, (name, changed, len(inside))


def test_two_pictures_drawn_at_once_are_the_pictures_drawn_one_by_one() -> None:
    _needs_librsvg()
    svgs = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">'
             f'<rect width="300" height="200" fill="#5f9a4a"/>'
             f'<text x="20" y="{40 + n}" font-size="24" font-weight="bold">A{n}</text>'
             f'<circle cx="{100 + n}" cy="120" r="30" fill="#c0392b"/></svg>').encode()
            for n in range(12)]
    alone = [svg_png.render(svg, width=560) for svg in svgs]
    assert None not in alone and len(set(alone)) == len(svgs)
    with ThreadPoolExecutor(max_workers=pictures.WORKERS) as pool:
        for _round in range(3):
            assert list(pool.map(lambda svg: svg_png.render(svg, width=560), svgs)) == alone


def test_board_texts_outside_the_view_are_left_out_without_changing_the_picture(
        service: MailService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The crop leaves out the board's numbers (grid, pit boxes) that lie outside its view:
    librsvg would lay them out for nothing. The picture is the same to the byte as with every
    number kept."""
    _needs_librsvg()
    from rennleitung.render import board_crop

    seen, _kind = _move_view(service)
    asked = seen.question()
    assert asked is not None and seen.position is not None
    svg, width, height = render_crop(seen.position, "car1", asked.question.moves)
    board_crop._BOARDS.clear()
    monkeypatch.setattr(board_crop, "_texts", lambda part: [(part, None)])
    every, _w, _h = render_crop(seen.position, "car1", asked.question.moves)
    board_crop._BOARDS.clear()  # the next crop cuts the board afresh
    assert svg.count("<text") + 20 < every.count("<text")
    side = {"width": PICTURE_SIDE} if width >= height else {"height": PICTURE_SIDE}
    assert svg_png.render(svg.encode(), **side) == svg_png.render(every.encode(), **side)


def test_a_picture_no_thread_has_begun_is_drawn_by_the_thread_that_needs_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With both picture threads busy, the mail's own thread draws its picture instead of
    waiting; the picture thread that comes to it later finds it drawn (drawn once)."""
    import threading

    _needs_librsvg()
    pictures.forget()
    drawn_by: list[str] = []
    convert = pictures._convert
    monkeypatch.setattr(pictures, "_convert", lambda svg, size: drawn_by.append(
        threading.current_thread().name) or convert(svg, size))
    busy = threading.Event()
    try:
        for _thread in range(pictures.WORKERS):
            pictures._POOL.submit(busy.wait, 30)
        item = BoardPicture("board", _svg("#2e86c1"), "--width=80")
        assert item.data.startswith(b"\x89PNG") and item.filename == "board.png"
        assert drawn_by == [threading.current_thread().name]
    finally:
        busy.set()
    later = png_later(_svg("#2e86c1"), "--width=80")
    pictures._POOL.submit(lambda: None).result(30)  # the pool has come past the picture
    assert later.result() == item.data and len(drawn_by) == 1


def test_a_question_picture_is_on_its_scale_grid_and_written_without_alpha(
        service: MailService) -> None:
    """Drawn for a mail, the crop is at the largest of the scale steps at which it fits the
    picture's side, starting and ending on whole pixels: every pixel is opaque and the PNG is
    RGB (a quarter fewer bytes to deflate), with the same pixels as ``rsvg-convert`` draws;
    the SVG's size is the picture's, its view covers the crop's. The spaces' tooltips are left
    out."""
    _needs_librsvg()
    _needs_rsvg()
    seen, _kind = _move_view(service)
    asked = seen.question()
    assert asked is not None and seen.position is not None
    moves = asked.question.moves
    _loose, width, height = render_crop(seen.position, "car1", moves)
    crop = crop_picture(seen.position, "car1", moves, PICTURE_SIDE)
    assert "<title>" not in crop.svg
    longer = max(crop.pixels)
    assert PICTURE_SIDE / 2 ** (1 / SCALE_STEPS) - 1 <= longer <= PICTURE_SIDE
    assert max(width, height) * crop.scale <= PICTURE_SIDE + 1e-6
    assert max(width, height) * scale_of(crop.step + 1) > PICTURE_SIDE  # the largest step
    assert crop.pixels[0] >= width * crop.scale - 1 and crop.pixels[1] >= height * crop.scale - 1
    assert f'width="{crop.pixels[0]}" height="{crop.pixels[1]}"' in crop.svg
    drawn = svg_png.render(crop.svg.encode())
    assert drawn is not None and drawn[25] == 2  # IHDR colour type: RGB
    assert read_png(drawn) == read_png(_converted(crop.svg.encode(), f"--width={crop.pixels[0]}"))


def _differences(one: bytes, other: bytes) -> tuple[int, int]:
    """(pixels that differ, the largest difference of a channel) of two same-sized PNGs."""
    width, height, rows = read_png(one)
    assert read_png(other)[:2] == (width, height)
    differing, largest = 0, 0
    for row, other_row in zip(rows, read_png(other)[2], strict=True):
        for at in range(0, len(row), 4):
            gaps = [abs(a - b) for a, b in zip(row[at:at + 4], other_row[at:at + 4],
                                               strict=True)]
            differing += max(gaps) > 0
            largest = max(largest, *gaps)
    return differing, largest


def test_a_picture_over_the_board_tiles_matches_the_whole_drawing(
        service: MailService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question picture as the gateway draws it (the bare board's tiles under the view,
    what changes drawn over them) has the pixels of the crop's whole SVG drawn at once, but
    for the antialiasing's rounding: under one pixel in a hundred, by a few levels at most.
    Drawn again, it draws no tile anew and comes out the same; with room for one tile only,
    tiles dropped while a picture paints them stay alive until it is done."""
    _needs_librsvg()
    seen, _kind = _move_view(service)
    asked = seen.question()
    assert asked is not None and seen.position is not None
    crop = crop_picture(seen.position, "car1", asked.question.moves, PICTURE_SIDE)
    whole = svg_png.render(crop.svg.encode())
    board_tiles.forget()
    tiled = board_tiles.render(crop)
    assert whole is not None and tiled is not None and tiled[25] == 2
    width, height = crop.pixels
    differing, largest = _differences(whole, tiled)
    assert differing < width * height / 100 and largest <= 16, (differing, largest)
    tiles = board_tiles.kept()
    columns = (crop.origin[0] + width - 1) // TILE - crop.origin[0] // TILE + 1
    rows = (crop.origin[1] + height - 1) // TILE - crop.origin[1] // TILE + 1
    assert tiles == columns * rows > 1
    assert board_tiles.render(crop) == tiled and board_tiles.kept() == tiles
    monkeypatch.setattr(board_tiles, "CACHED", 1)
    board_tiles.forget()
    assert board_tiles.render(crop) == tiled and board_tiles.kept() == 1
    board_tiles.forget()
