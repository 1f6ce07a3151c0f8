"""What the Formula Dé mails say (issue 24): the setup mail states the total and the limits of
the race's ruleset and its own example is accepted; the bid mail says what the bid is for; the
result mail and `mail status` speak the reader's language. Real mails through aiosmtpd."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rennleitung.cli import mail as mail_cli
from rennleitung.cli.common import LANG_ENV, reset_lang
from rennleitung.cli.main import app
from rennleitung.formula_de.race_questions import BidQuestion
from rennleitung.mail.decode import clean_header
from rennleitung.mail.fd_questions import question_text
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play import SeatKind
from rennleitung.play.views import Reader

from .conftest import SmtpServer, body_of, plain_mail
from .test_mail_fd import Clock, _race
from .test_mail_seat_tokens import _last_in


def _example(body: str) -> str:
    """The example answer a question mail shows below "So antworten Sie" / "How to answer"."""
    tail = body.split("So antworten Sie" if "So antworten Sie" in body else "How to answer")[1]
    lines = tail.split("\n")[2:]
    return "\n".join(line.strip() for line in lines if line.startswith("  "))


@pytest.mark.parametrize(("address", "limits"), [
    ("anna@example.net", ("zusammen genau 22", "je Bereich mindestens 1",
                          "in der Reserve höchstens 2", "Angenommen")),
    ("bert@example.net", ("exactly 22 together", "at least 1 per area",
                          "at most 2 in the reserve", "Accepted"))])
def test_the_setup_mail_states_the_limits_and_its_own_example_is_accepted(
        service: MailService, smtp: SmtpServer, address: str,
        limits: tuple[str, ...]) -> None:
    clock = Clock()
    _race(service, clock)  # dresden-2006: 22 points, at most 2 in the box
    service.tick(clock.now)
    send_due(service, clock.now)
    [question] = smtp.sink.to(address)
    body = body_of(question)
    for said in limits[:3]:
        assert said in body, body
    example = _example(body)
    assert "Startreifen harte" not in example and "Reserve 4" not in example
    assert ("box reserve" in example) == (address.startswith("bert"))
    service.receive(plain_mail(address, f"Re: {clean_header(question['Subject'])}",
                               example + "\n"), "smtp")
    service.process_pending()
    send_due(service, clock.now)
    assert limits[3] in body_of(smtp.sink.to(address)[-1])


def test_a_rules_refusal_is_told_with_its_reason_in_mail_status(
        service: MailService, smtp: SmtpServer, database_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    _race(service, clock)
    service.tick(clock.now)
    send_due(service, clock.now)
    [question] = smtp.sink.to("anna@example.net")
    too_much = ("Reifen 4, Bremsen 3, Verbrauch 3, Karosserie 3, Motor 3, Straßenlage 2, "
                "Reserve 4\nStartreifen hart\n")  # the old example: 4 in the box, 2 allowed
    service.receive(plain_mail("anna@example.net", f"Re: {clean_header(question['Subject'])}",
                               too_much), "smtp")
    service.process_pending()
    send_due(service, clock.now)
    assert "höchstens 2 VP in der Box, nicht 4" in body_of(smtp.sink.to("anna@example.net")[-1])
    assert json.loads(_last_in(service).outcome)["refused"] == "race"
    stored = _last_in(service).outcome
    for lang, said, word in (("de", "höchstens 2 VP in der Box, nicht 4", "Regeln"),
                             ("en", "at most 2 points in the box, not 4", "rules")):
        monkeypatch.setenv(LANG_ENV, lang)
        reset_lang()  # a command keeps its language for the rest of the process
        shown = mail_cli._outcome(stored)
        assert shown.startswith(("abgelehnt: von den Regeln abgelehnt (",
                                 "refused: refused by the rules (")[lang == "en"]), shown
        assert said in shown
        table = CliRunner().invoke(app, ["mail", "status", "gp", "--db", database_url])
        assert table.exit_code == 0 and word in table.output, table.output
        assert "unknown race" not in table.output and "Rennen unbekannt" not in table.output


def test_the_bid_mail_says_what_the_bid_is_for(service: MailService) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    seen = races.view(race_id, Reader.seat("car1"))
    bid = BidQuestion("car1", 7, ("car3", "car4"))
    german = question_text(seen, bid, "de", seen.version)
    assert "Sie stehen gleichauf mit Bot A (car3), Bot B (car4)" in german
    assert "fährt in dieser Runde zuerst" in german and "vom Karma abgezogen" in german
    english = question_text(seen, bid, "en", seen.version)
    assert "you are level with Bot A (car3), Bot B (car4)" in english
    assert "the highest bid moves first this round" in english
    assert english.startswith("Your question: the karma bid of car car1")


def test_the_result_mail_is_in_the_readers_language(service: MailService,
                                                    smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    for car in ("car1", "car2"):  # both people leave: their bots drive to the flag at once
        races.assign(race_id, car, kind=SeatKind.BOT, bot="simple")
    assert races.info(race_id).state.value == "finished"
    service.tick(clock.now)
    send_due(service, clock.now)
    german = body_of(smtp.sink.to("anna@example.net")[-1])
    english = body_of(smtp.sink.to("bert@example.net")[-1])
    assert "Ergebnis" in german and "im Ziel" in german and "finished" not in german
    assert "Result" in english and "Runde" not in english and "Punkt" not in english
