"""Per-seat codes (issue 24): every question mail carries its seat's code in the subject, so a
plain Reply answers; another seat's code, the game's secret alone or a forged From are refused
and kept. Rebinding says what it moved, keeps the language, and the new holder gets the open
question. Real mails: aiosmtpd for what goes out, the private Dovecot for a reply fetched by
IMAP."""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import replace

import pytest
from alembic import command
from alembic.config import Config
from imapclient import IMAPClient  # type: ignore[import-untyped]
from sqlalchemy import create_engine, select, text

from rennleitung.errors import RennleitungError
from rennleitung.mail.decode import clean_header
from rennleitung.mail.imap import poll_imap
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play import SeatKind
from rennleitung.store.database import MIGRATIONS
from rennleitung.store.mail_store import MailStore
from rennleitung.store.mail_tables import MailInRow

from .conftest import SmtpServer, body_of, plain_mail
from .test_mail_fd import Clock, _answer, _race


def _questions(service: MailService, smtp: SmtpServer, clock: Clock, address: str) -> list[str]:
    service.tick(clock.now)
    send_due(service, clock.now)
    return [clean_header(m["Subject"]) for m in smtp.sink.to(address)]


def _last_in(service: MailService) -> MailInRow:
    with service.store.sessions.read() as session:
        row = session.scalars(select(MailInRow).order_by(MailInRow.id.desc())).first()
        assert row is not None
        return row


def _code(service: MailService, car: str) -> str:
    return next(b.token for b in service.bindings("gp") if b.seat == car)


def test_a_plain_reply_answers_in_both_languages(service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    welcome = smtp.sink.to("anna@example.net", welcome=True)
    assert not welcome  # queued at binding, sent with the next send
    send_due(service, clock.now)
    [anna_welcome] = smtp.sink.to("anna@example.net", welcome=True)
    assert f"Ihr Code: {_code(service, 'car1')}" in body_of(anna_welcome)
    for car, address, accepted in (("car1", "anna@example.net", "Angenommen"),
                                   ("car2", "bert@example.net", "Accepted")):
        [subject] = _questions(service, smtp, clock, address)
        assert _code(service, car) in subject  # the subject carries what a reply needs
        question = smtp.sink.to(address)[-1]
        reply = plain_mail(address, f"Re: {subject}",  # no secret, nothing typed but orders
                           _answer(races, race_id, question, car) + "\n\n> quoted question\n")
        service.receive(reply, "smtp")
        service.process_pending()
        send_due(service, clock.now)
        assert accepted in body_of(smtp.sink.to(address)[-1])
    assert _last_in(service).status == "processed"


def test_another_seats_code_or_the_secret_alone_is_refused_and_kept(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    [anna_subject] = _questions(service, smtp, clock, "anna@example.net")
    [bert_subject] = _questions(service, smtp, clock, "bert@example.net")
    anna_question = smtp.sink.to("anna@example.net")[-1]
    setup = _answer(races, race_id, anna_question, "car1") + "\n"
    version = races.info(race_id).version
    # Bert answers Anna's question with her subject (he saw her mail): refused
    service.receive(plain_mail("bert@example.net", f"Re: {anna_subject}", setup), "smtp")
    service.process_pending()
    row = _last_in(service)
    assert row.status == "refused" and json.loads(row.outcome)["refused"] == "other seat's code"
    send_due(service, clock.now)
    assert "does not belong to your address" in body_of(smtp.sink.to("bert@example.net")[-1])
    # a forged From: Anna's address, Bert's code (Bert forges Anna with what he knows)
    service.receive(plain_mail("anna@example.net", f"Re: {bert_subject}", setup), "smtp")
    service.process_pending()
    assert json.loads(_last_in(service).outcome)["refused"] == "other seat's code"
    # the game's secret alone (every player knows it): refused, the code goes to the owner
    service.receive(plain_mail("anna@example.net", "Aufstellung zielflagge", setup), "smtp")
    service.process_pending()
    row = _last_in(service)
    assert row.status == "refused" and json.loads(row.outcome)["refused"] == "secret alone"
    send_due(service, clock.now)
    refusal = body_of(smtp.sink.to("anna@example.net")[-1])
    assert "Geheimwort der Partie reicht nicht mehr" in refusal
    assert _code(service, "car1") in refusal  # sent to the bound address only
    assert races.info(race_id).version == version  # nothing was applied
    # the code typed in the first line of a mail of her own works, and that line is blanked
    service.receive(plain_mail("anna@example.net", "Aufstellung",
                               f"Code {_code(service, 'car1')}\n{setup}"), "smtp")
    service.process_pending()
    assert _last_in(service).status == "processed"


def test_a_reply_fetched_by_imap_answers(service: MailService, smtp: SmtpServer) -> None:
    env = os.environ.get("RENNLEITUNG_TEST_IMAP")
    if not env:
        pytest.fail("RENNLEITUNG_TEST_IMAP is not set: run `sh scripts/services.sh`")
    host, port, user, password = env.split(":")
    folder = f"t{uuid.uuid4().hex[:12]}"
    settings = replace(service.settings, imap_host=host, imap_port=int(port),
                       imap_security="none", imap_user=user, imap_password=password,
                       imap_folder=folder)
    clock = Clock()
    races, race_id = _race(service, clock)
    [subject] = _questions(service, smtp, clock, "bert@example.net")
    answer = _answer(races, race_id, smtp.sink.to("bert@example.net")[-1], "car2")
    client = IMAPClient(host, port=int(port), ssl=False)
    client.login(user, password)
    try:
        client.create_folder(folder)
        client.append(folder, plain_mail("Bert <bert@example.net>", f"Re: {subject}",
                                         f"{answer}\n"))
        assert poll_imap(service, settings) == 1
    finally:
        client.delete_folder(folder)
        client.logout()
    service.process_pending()
    send_due(service, clock.now)
    assert "Accepted" in body_of(smtp.sink.to("bert@example.net")[-1])


def test_rebinding_says_what_it_moves_and_the_holder_gets_the_question(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    [_anna] = _questions(service, smtp, clock, "anna@example.net")
    anna_code = _code(service, "car1")
    with pytest.raises(RennleitungError) as refused:
        service.bind("gp", "bert@example.net", "car1")  # Anna holds car1
    assert "anna@example.net" in refused.value.message_en and refused.value.where == "seat"
    bound = service.bind_seat("gp", "bert@example.net", "car1", replace=True)
    assert (bound.moved_from, bound.taken_from) == ("car2", "anna@example.net")
    assert bound.binding.language == "en"  # kept: not given
    assert "seat car2 is free" in bound.text("en")
    assert [(b.address, b.seat) for b in service.bindings("gp")] == [("bert@example.net",
                                                                      "car1")]
    info = races.info(race_id)
    assert info.seat("car1").holder == "mail:bert@example.net"
    assert info.seat("car2").kind is SeatKind.BOT
    subjects = _questions(service, smtp, clock, "bert@example.net")
    assert any("car car1" in s and bound.binding.token in s for s in subjects)
    assert bound.binding.token != anna_code
    # Anna's old code no longer opens car1
    service.receive(plain_mail("anna@example.net", f"Re: [Code {anna_code}]", "Box 3"), "smtp")
    service.process_pending()
    assert json.loads(_last_in(service).outcome)["refused"] in ("unknown sender",
                                                               "other seat's code")


def test_old_bindings_get_a_code_on_upgrade(database_url: str) -> None:
    engine = create_engine(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "play_notices")
        connection.execute(text("INSERT INTO mail_games (id, key, kind, location, secret, "
                                "created_at) VALUES (1, 'alt', 'turbo', '/x', 'geheim', "
                                "'2026-01-01 00:00:00')"))
        for number in (1, 2):
            connection.execute(text(
                "INSERT INTO mail_bindings (id, game_id, address, seat, language) VALUES "
                f"({number}, 1, 'p{number}@example.net', 'Team{number}', 'de')"))
    engine.dispose()
    from rennleitung.store.database import open_database

    upgraded = open_database(database_url)
    try:
        tokens = [b.token for b in MailStore(upgraded).bindings("alt")]
        assert len(tokens) == 2 and all(len(t) == 10 for t in tokens)
        assert tokens[0] != tokens[1]
    finally:
        upgraded.dispose()
