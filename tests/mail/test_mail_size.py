"""A question mail's size (issue 24): under 200 KB, with a picture of the part of the board that
matters and the offered destinations labelled as the mail's table names them; the whole board
on request ("Brett" / "board") or by the web link. Real mails through aiosmtpd, the PNG drawn
by ``rsvg-convert`` as ``mail serve`` sends it."""

from __future__ import annotations

import re
import shutil
import struct
from dataclasses import replace

import pytest

from rennleitung.mail.decode import clean_header
from rennleitung.mail.fd_game import FdAdapter
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play.views import Reader
from rennleitung.render.board_crop import SCALE_STEPS, render_crop

from .conftest import SmtpServer, attachment_names, body_of, plain_mail
from .test_mail_fd import Clock, _race
from .test_mail_story import _drive

LIMIT = 200_000


def _png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_question_mails_stay_small_and_label_the_destinations(
        service: MailService, smtp: SmtpServer) -> None:
    if shutil.which("rsvg-convert") is None:
        pytest.fail("rsvg-convert is missing: run `sh scripts/services.sh`")
    clock = Clock()
    races, race_id = _race(service, clock)
    service.settings = replace(service.settings, base_url="https://rennen.example.org")
    service.adapters["fd"] = FdAdapter(races, png=True, base_url=service.settings.base_url)

    def moves_asked() -> int:
        return sum("Gewürfelt:" in body_of(m) for m in smtp.sink.to("anna@example.net"))

    _drive(service, smtp, clock, races, race_id, lambda *_: None, lambda: moves_asked() >= 3)
    questions = [m for m in smtp.sink.to("anna@example.net") + smtp.sink.to("bert@example.net")
                 if "[v" in clean_header(m["Subject"])
                 and not clean_header(m["Subject"]).startswith("Re:")]
    assert len(questions) > 8
    for mail in questions:
        assert len(mail.as_bytes()) < LIMIT, (clean_header(mail["Subject"]),
                                              len(mail.as_bytes()))
        assert attachment_names(mail) == ["board.png"]
        png = next(p for p in mail.walk() if p.get_filename() == "board.png")
        data = png.get_payload(decode=True)
        assert isinstance(data, bytes)  # at most 560 pixels, at least a scale step less
        assert 560 / 2 ** (1 / SCALE_STEPS) - 1 <= max(_png_size(data)) <= 560
        assert data[25] == 2  # IHDR colour type RGB: every pixel covered
        text = body_of(mail)
        assert "https://rennen.example.org/races/" in text
        assert ("Zeile \"Brett\"" in text) or ("line \"board\"" in text)
    # the destinations on the picture carry the names the table lists
    seen = races.view(race_id, Reader.seat("car1"))
    asked = seen.question()
    assert seen.position is not None and seen.track is not None
    if asked is not None and asked.question.kind.value == "move":
        moves = asked.question.moves
        svg, width, height = render_crop(seen.position, "car1", moves)
        labels = set(re.findall(r'<text class="destination"[^>]*>([^<]+)</text>', svg))
        assert labels == {seen.track.name_of(o.end) for o in moves}
        assert f'width="{width:.0f}"' in svg and width * height > 0


def test_the_whole_board_on_request(service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    service.adapters["fd"] = FdAdapter(races, png=True)
    service.tick(clock.now)
    send_due(service, clock.now)
    version = races.info(race_id).version
    for address, word, said in (("anna@example.net", "Brett", "Das ganze Brett hängt an."),
                                ("bert@example.net", "board", "The whole board is attached.")):
        subject = clean_header(smtp.sink.to(address)[-1]["Subject"])
        service.receive(plain_mail(address, f"Re: {subject}", f"{word}\n\nViele Grüße\n"),
                        "smtp")
        service.process_pending()
        send_due(service, clock.now)
        answer = smtp.sink.to(address)[-1]
        assert said in body_of(answer)
        assert attachment_names(answer) == ["board-full.svg", "board-full.png"]
    assert races.info(race_id).version == version  # a request is no answer
