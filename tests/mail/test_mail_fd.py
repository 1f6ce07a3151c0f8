"""A Formula Dé race by mail: two people answer every question mail, two bots drive, the flag
falls; late answers, faulty orders, deadlines and the board attachments."""

from __future__ import annotations

import re
import smtplib
import time
from datetime import UTC, datetime, timedelta
from email.message import Message

import pytest
from sqlalchemy import select

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race_decisions import decision_to_data
from rennleitung.mail.decode import clean_header
from rennleitung.mail.fd_game import FdAdapter
from rennleitung.mail.fd_orders import order_text
from rennleitung.mail.listener import start_listener
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play import RaceService, RaceSpec, RaceState, SeatKind, SeatSpec
from rennleitung.play.engine import question_of
from rennleitung.store.mail_tables import MailInRow

from .conftest import SmtpServer, attachment_names, body_of, free_port, plain_mail

PLAYERS = {"car1": ("anna@example.net", "de"), "car2": ("bert@example.net", "en")}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _race(service: MailService, clock: Clock, seconds: int | None = None) -> tuple[RaceService,
                                                                                    int]:
    service.clock = clock  # one time for the mails and the race (real time passes 12:00 too)
    races = RaceService(service.engine, clock)
    service.adapters["fd"] = FdAdapter(races, png=False)
    seats = (SeatSpec("car1", "Anna"), SeatSpec("car2", "Bert"),
             SeatSpec("car3", "Bot A", kind=SeatKind.BOT, bot="simple"),
             SeatSpec("car4", "Bot B", kind=SeatKind.BOT, bot="strong"))
    race_id = races.create_race(RaceSpec("monaco", "dresden-2006", seats, laps=1,
                                         decision_seconds=seconds), seed="mail-race")
    service.add_game("gp", "fd", str(race_id), secret="zielflagge")
    for car, (address, language) in PLAYERS.items():
        service.bind("gp", address, car, language)
    races.start(race_id)
    return races, race_id


def _answer(races: RaceService, race_id: int, question: Message, car: str) -> str:
    """What the person writes back: as the simple bot would decide, in his language."""
    race = races.race(race_id)
    ask = question_of(race, car)
    assert ask is not None
    decision = make_bot("simple").decide(race, ask)
    return order_text(decision_to_data(race.track, decision), PLAYERS[car][1])


def test_two_people_and_two_bots_race_to_the_flag_by_mail(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    port = free_port()
    listener = start_listener(service, "127.0.0.1", port, "lmtp")
    answered = 0
    seen = 0
    try:
        for _ in range(4000):
            service.process_pending()
            service.tick()
            # a mail the loaded SMTP server was too slow for is retried at once, not after
            # its backoff: the race's progress, not the clock, ends this loop
            send_due(service, service.clock() + timedelta(days=1))
            if races.info(race_id).state is not RaceState.RUNNING:
                break
            new = smtp.sink.mails[seen:]
            seen = len(smtp.sink.mails)
            if not new:
                time.sleep(0.02)  # answers delivered over LMTP are processed in the background
            for recipients, mail in new:
                subject = clean_header(mail["Subject"])  # encoded words, as a mail program shows
                if "[v" not in subject or subject.startswith("Re:"):
                    continue
                car = re.search(r"(car\d)", subject).group(1)  # type: ignore[union-attr]
                text = _answer(races, race_id, mail, car)
                reply = plain_mail(recipients[0], f"Re: {subject} zielflagge", f"{text}\n",
                                   to="gp@example.org")
                if answered % 5 == 0:  # some through LMTP, as the local MTA delivers
                    with smtplib.LMTP("127.0.0.1", port) as client:
                        client.sendmail(recipients[0], ["gp@example.org"], reply)
                else:
                    service.receive(reply, "smtp")
                answered += 1
    finally:
        listener.stop()
    service.process_pending()
    service.tick()
    send_due(service, service.clock() + timedelta(days=1))
    assert races.info(race_id).state is RaceState.FINISHED
    assert answered > 20
    for address, language in PLAYERS.values():
        mails = smtp.sink.to(address)
        result = body_of(mails[-1])
        assert ("Ergebnis" if language == "de" else "Result") in result
        accepted = [m for m in mails if ("Angenommen" if language == "de" else "Accepted")
                    in body_of(m)]
        assert accepted
    with service.store.sessions.read() as session:
        statuses = {r.status for r in session.scalars(select(MailInRow))}
    assert statuses == {"processed"}


def test_faulty_and_late_answers_are_refused_and_the_bot_decides_at_the_deadline(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    _races, _race_id = _race(service, clock, seconds=3600)
    service.tick(clock.now)
    send_due(service, clock.now)
    [question] = smtp.sink.to("anna@example.net")
    subject = clean_header(question["Subject"])
    assert "Aufstellung" in body_of(question) and "So antworten Sie" in body_of(question)
    assert attachment_names(question) == ["board.svg"]
    assert "Antwort bis 2026-12-01 13:00 UTC" in body_of(question)
    service.receive(plain_mail("anna@example.net", f"Re: {subject}",
                               "zielflagge\nReifen viele\nGang 3\n"), "smtp")
    service.process_pending()
    send_due(service, clock.now)
    refusal = body_of(smtp.sink.to("anna@example.net")[-1])
    assert "Zeile 2: nicht verstanden: 'Reifen viele'" in refusal
    assert "Zeile 3: passt nicht zur Frage: gefragt ist Aufstellung" in refusal
    clock.now += timedelta(hours=2)
    service.tick(clock.now)
    send_due(service, clock.now)
    notices = [body_of(m) for m in smtp.sink.to("anna@example.net")]
    assert any("der Bot hat für Sie entschieden" in n and "Startreifen" in n for n in notices)
    late = _late_setup(service, subject)
    service.receive(late, "smtp")
    service.process_pending()
    send_due(service, clock.now)
    last = body_of(smtp.sink.to("anna@example.net")[-1])
    # refused: stale, not asked, or (the car is asked its box by now) not the question asked
    assert any(refusal in last
               for refusal in ("Nicht angewendet", "nicht gefragt", "passt nicht zur Frage"))


def _late_setup(service: MailService, subject: str) -> bytes:
    text = ("zielflagge\nReifen 4, Bremsen 3, Verbrauch 3, Karosserie 3, Motor 3, Straßenlage 2, "
            "Reserve 4\nStartreifen hart\n")
    return plain_mail("anna@example.net", f"Re: {subject}", text)


def test_question_mail_has_the_board_as_png(service: MailService, smtp: SmtpServer) -> None:
    """Where ``rsvg-convert`` runs, the part of the board that matters goes as one PNG (the SVG
    of the whole board made mails of 760 KB, issue 24; ``test_mail_size`` has the rest)."""
    clock = Clock()
    races, _race_id = _race(service, clock)
    service.adapters["fd"] = FdAdapter(races, png=True)
    service.tick(clock.now)
    send_due(service, clock.now)
    [question] = smtp.sink.to("anna@example.net")
    assert attachment_names(question) == ["board.png"]
    png = next(p for p in question.walk() if p.get_filename() == "board.png")
    data = png.get_payload(decode=True)
    assert isinstance(data, bytes) and data.startswith(b"\x89PNG")


def test_setups_are_asked_of_both_people_at_once_and_each_mail_goes_out_once(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    service.tick(clock.now)
    send_due(service, clock.now)
    [anna] = smtp.sink.to("anna@example.net")
    [bert] = smtp.sink.to("bert@example.net")
    assert "[v0]" in clean_header(anna["Subject"]) and "[v0]" in clean_header(bert["Subject"])
    reply = plain_mail("bert@example.net", f"Re: {clean_header(bert['Subject'])} zielflagge",
                       _answer(races, race_id, bert, "car2") + "\n")
    service.receive(reply, "smtp")  # Bert answers first, Anna has not yet
    service.process_pending()
    service.tick(clock.now)
    send_due(service, clock.now)
    assert "Accepted" in body_of(smtp.sink.to("bert@example.net")[-1])
    assert len(smtp.sink.to("anna@example.net")) == 1  # her question did not change: no new mail
    reply = plain_mail("anna@example.net", f"Re: {clean_header(anna['Subject'])} zielflagge",
                       _answer(races, race_id, anna, "car1") + "\n")
    service.receive(reply, "smtp")  # against version 0, still the question open for her
    service.process_pending()
    send_due(service, clock.now)
    assert "Angenommen" in body_of(smtp.sink.to("anna@example.net")[-1])


def test_a_move_decided_by_the_bot_at_the_deadline_is_mailed_once_as_a_path(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock, seconds=600)
    bot = make_bot("simple")
    for _ in range(200):  # the people answer on the web (not by mail) until Anna must move
        race = races.race(race_id)
        ask = question_of(race, "car1")
        if ask is not None and ask.kind.value == "move":
            break
        ask = ask or question_of(race, "car2")
        assert ask is not None
        races.apply(race_id, ask.car, decision_to_data(race.track, bot.decide(race, ask)), None,
                    holder=f"mail:{PLAYERS[ask.car][0]}")
    else:
        raise AssertionError("Anna was never asked to move")
    clock.now += timedelta(minutes=11)
    service.tick(clock.now)
    service.tick(clock.now)  # a second pass must not tell her twice
    send_due(service, clock.now)
    notices = [body_of(m) for m in smtp.sink.to("anna@example.net")
               if "Frist abgelaufen" in clean_header(m["Subject"])]
    assert len(notices) == 1
    assert "Die Frist ist abgelaufen; der Bot hat für Sie entschieden:" in notices[0]
    [timed_out] = [d for d in races.decisions(race_id) if d.actor.value == "timeout-bot"]
    assert timed_out.car == "car1" and timed_out.decision["kind"] == "move"
    assert ",".join(timed_out.decision["path"]) in notices[0]


def test_a_formula_de_game_must_name_a_race_of_its_database(service: MailService) -> None:
    races = RaceService(service.engine, Clock())
    seats = (SeatSpec("car1", "Anna"), SeatSpec("car2", "Bot", kind=SeatKind.BOT, bot="simple"))
    race_id = races.create_race(RaceSpec("monaco", "dresden-2006", seats, laps=1), seed="x")
    for location in (str(race_id + 1), "abc", "", "-1", "9" * 40):
        with pytest.raises(RennleitungError) as refused:
            service.add_game(f"gp{len(location)}", "fd", location, secret="zielflagge")
        assert refused.value.where == "location", location
    assert service.add_game("gp", "fd", str(race_id), secret="zielflagge").key == "gp"
