"""The story a question mail tells (issue 24): what happened since the reader's last mail, with
the drivers' names; an elimination told at once in the answer that caused it; the gear mail's
warning at 0 brakes. A race by mail through aiosmtpd: Anna drives recklessly (de), Bert answers
as the simple bot would (en)."""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import Message

from rennleitung.formula_de.race_kinds import AskKind
from rennleitung.mail.decode import clean_header
from rennleitung.mail.fd_orders import order_text
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play import RaceService, RaceState
from rennleitung.play.views import Reader

from .conftest import SmtpServer, body_of, plain_mail
from .test_mail_fd import Clock, _answer, _race

Choose = Callable[[RaceService, int, Message], str | None]


def _drive(service: MailService, smtp: SmtpServer, clock: Clock, races: RaceService,
           race_id: int, anna: Choose, done: Callable[[], bool], steps: int = 600) -> None:
    """Answer every question mail by mail until ``done``: Anna with ``anna`` (None: as the
    simple bot), Bert as the simple bot."""
    seen = 0
    for _step in range(steps):
        service.process_pending()
        service.tick(clock.now)
        send_due(service, clock.now)
        if done() or races.info(race_id).state is not RaceState.RUNNING:
            return
        new, seen = smtp.sink.mails[seen:], len(smtp.sink.mails)
        for recipients, mail in new:
            subject = clean_header(mail["Subject"])
            if "[v" not in subject or subject.startswith("Re:"):
                continue
            car = re.search(r"(car\d)", subject).group(1)  # type: ignore[union-attr]
            asked = races.view(race_id, Reader.seat(car)).question()
            if asked is None or f"[v{asked.opened}]" not in subject:
                continue
            text = (anna(races, race_id, mail) if car == "car1" else None) \
                or _answer(races, race_id, mail, car)
            service.receive(plain_mail(recipients[0], f"Re: {subject}", text + "\n"), "smtp")
    raise AssertionError("the race never got there")


def _questions(smtp: SmtpServer, address: str) -> list[str]:
    return [body_of(m) for m in smtp.sink.to(address)
            if "[v" in clean_header(m["Subject"])
            and not clean_header(m["Subject"]).startswith("Re:")]


def test_each_question_mail_tells_what_happened_since_the_last_with_names(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    _drive(service, smtp, clock, races, race_id, lambda *_: None,
           lambda: len(_questions(smtp, "bert@example.net")) >= 6)
    for address, heading, first, names in (
            ("anna@example.net", "Seit Ihrer letzten Mail:", "Bisher im Rennen:",
             ("Bot A", "Bot B", "Bert")),
            ("bert@example.net", "Since your last mail:", "So far in the race:",
             ("Bot A", "Bot B", "Anna"))):
        bodies = _questions(smtp, address)
        assert bodies[0].split("\n")[2] in (first, heading) or "Gefragt" in bodies[0] \
            or "Your question" in bodies[0]
        later = bodies[2:]
        assert later and all(b.split("\n")[2] == heading for b in later), later[0][:400]
        told = "\n".join(b.split("\n\n")[1] for b in later)
        for name in names:
            assert name in told, (address, name, told[:2000])
        assert not re.search(r"car\d \(car\d\)", "\n".join(bodies))
        assert "Bot A (car3)" in bodies[-1]  # the order on the track names the drivers
    # each event is told once: the story of one mail starts where the last one stopped
    stories = [b.split("\n\n")[1].split("\n")[1:] for b in _questions(smtp, "bert@example.net")
               if b.split("\n")[2] == "Since your last mail:"]
    lines = [line for story in stories for line in story]
    assert len(lines) == len(set(lines))


def _reckless(races: RaceService, race_id: int, mail: Message) -> str | None:
    """Anna: one tyre, one brake, the highest gear, and any move that ends her race."""
    asked = races.view(race_id, Reader.seat("car1")).question()
    assert asked is not None
    ask = asked.question
    if ask.kind is AskKind.SETUP:
        return ("Reifen 1, Bremsen 1, Verbrauch 8, Karosserie 5, Motor 3, Straßenlage 2, "
                "Reserve 2\nStartreifen hart")
    if ask.kind is AskKind.TURN:
        return f"Gang {max(ask.gears)}"
    if ask.kind is AskKind.MOVE:
        track = races.view(race_id, Reader.seat("car1")).track
        assert track is not None
        out = [o for o in ask.moves if o.eliminated is not None]
        braking = [o for o in ask.moves if o.brakes and o.eliminated is None]
        chosen = out or braking
        if chosen:
            return order_text({"kind": "move", "path": [track.name_of(s)
                                                        for s in chosen[0].path]}, "de")
    return None


def test_an_elimination_is_told_in_the_answer_and_the_gear_mail_warns_at_0_brakes(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)

    def out() -> bool:
        line = races.view(race_id, Reader.spectator()).car("car1")
        return line is not None and line.status.value in ("out", "wreck")

    _drive(service, smtp, clock, races, race_id, _reckless, out)
    service.process_pending()
    send_due(service, clock.now)
    answers = [body_of(m) for m in smtp.sink.to("anna@example.net")
               if clean_header(m["Subject"]).startswith("Re:")]
    told = [a for a in answers if "ist aus dem Rennen" in a]
    assert len(told) == 1 and "Angenommen" in told[0], answers[-1]
    assert "Seit Ihrer letzten Mail:" in told[0] or "Bisher im Rennen:" in told[0]
    service.tick(clock.now)  # the answer told it: no second mail about it
    send_due(service, clock.now)
    notices = [m for m in smtp.sink.to("anna@example.net")
               if "ausgeschieden" in clean_header(m["Subject"])]
    assert notices == []
    gear_mails = [b for b in _questions(smtp, "anna@example.net") if "Mögliche Gänge" in b]
    warned = [b for b in gear_mails if "Achtung: 0 Bremspunkte" in b]
    braked_out = [b for b in gear_mails if "Bremsen 0" in b]
    assert warned and warned == braked_out  # warned exactly when the dashboard shows 0 brakes
