"""Answers as mail programs write them (issue 24): Thunderbird, Outlook (the original unquoted
below "Von:/Gesendet:/Betreff:" or "-----Original Message-----"), Gmail (a two-line
attribution), Apple Mail ("Gesendet von meinem iPhone"), with greetings and closings, German
and English. The fixtures in ``fixtures/`` are those mails with placeholders for what changes
per question (sender, subject, orders, the quoted question); they are delivered over LMTP to
the real listener and answered through aiosmtpd."""

from __future__ import annotations

import email
import html
import json
import quopri
import re
import smtplib
from base64 import encodebytes
from email import policy
from email.header import Header
from pathlib import Path

from rennleitung.mail.decode import clean_header, decode
from rennleitung.mail.listener import start_listener
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.play.views import Reader

from .conftest import SmtpServer, body_of, free_port
from .test_mail_fd import PLAYERS, Clock, _answer, _race
from .test_mail_seat_tokens import _last_in

FIXTURES = Path(__file__).parent / "fixtures"
CLIENTS = {"de": ["thunderbird-de", "outlook-de", "gmail-de", "apple-de"],
           "en": ["outlook-en", "gmail-en", "apple-en"]}
IGNORED = {"thunderbird-de": ["'Hallo Rennleitung,'", "'Viele Grüße'", "'Anna'"],
           "outlook-de": ["'Viele Grüße'", "'Anna Schmidt'", "'Tel. 0351 1234567'"],
           "gmail-de": ["'LG Anna'"], "apple-de": [],
           "outlook-en": ["'Cheers,'", "'Bert'"], "gmail-en": ["'Hi,'", "'Thanks!'"],
           "apple-en": ["'Cheers'"]}


def written(client: str, sender: str, subject: str, orders: str, question: str,
            number: int = 0) -> bytes:
    """The fixture of ``client`` filled in, each part encoded as its headers declare."""
    lines = question.rstrip("\n").split("\n")
    quoted = "\n".join(f"> {line}" if line else ">" for line in lines)
    values = {"%FROM%": sender, "%SUBJECT%": subject, "%ORDERS%": orders, "%QUOTED%": quoted,
              "%ORIGINAL%": question.rstrip("\n"), "%MSGID%": f"{client}.{number}",
              "%HTMLORDERS%": "<br>".join(html.escape(o) for o in orders.split("\n")),
              "%HTMLORIGINAL%": "<br>".join(html.escape(line) for line in lines)}
    text = (FIXTURES / f"{client}.eml").read_text(encoding="utf-8")
    head, body = text.split("\n\n", 1)
    for key, value in values.items():
        body = body.replace(key, value)
        if key != "%SUBJECT%":
            head = head.replace(key, value)
    head = head.replace("%SUBJECT%", Header(subject, "utf-8").encode())
    message = email.message_from_string(f"{head}\n\n{body}", policy=policy.compat32)
    for part in message.walk():
        if part.is_multipart():
            continue
        charset = part.get_content_charset() or "us-ascii"
        encoding = str(part.get("Content-Transfer-Encoding", "7bit")).lower()
        payload = str(part.get_payload()).encode(charset)
        if encoding == "quoted-printable":
            part.set_payload(quopri.encodestring(payload).decode("ascii"))
        elif encoding == "base64":
            part.set_payload(encodebytes(payload).decode("ascii"))
        else:
            part.set_payload(payload.decode("ascii", "surrogateescape"))
    return message.as_bytes(policy=policy.compat32.clone(linesep="\r\n"))  # as sent


def test_each_mail_program_answers_and_the_confirmation_names_what_was_left_out(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    port = free_port()
    listener = start_listener(service, "127.0.0.1", port, "lmtp")
    left = {car: list(CLIENTS[language]) for car, (_a, language) in PLAYERS.items()}
    seen = 0
    confirmed: dict[str, str] = {}
    try:
        for _step in range(200):
            if not any(left.values()):
                break
            service.process_pending()
            service.tick(clock.now)
            send_due(service, clock.now)
            new, seen = smtp.sink.mails[seen:], len(smtp.sink.mails)
            for recipients, mail in new:
                subject = clean_header(mail["Subject"])
                if "[v" not in subject or subject.startswith("Re:"):
                    continue
                car = re.search(r"(car\d)", subject).group(1)  # type: ignore[union-attr]
                asked = races.view(race_id, Reader.seat(car)).question()
                if not left[car] or asked is None or f"[v{asked.opened}]" not in subject:
                    continue  # answered already (a mail of an earlier version)
                client = left[car].pop(0)
                orders = _answer(races, race_id, mail, car)
                raw = written(client, recipients[0], subject, orders, body_of(mail))
                with smtplib.LMTP("127.0.0.1", port) as lmtp:
                    lmtp.sendmail(recipients[0], ["gp@example.org"], raw)
                service.process_pending()
                send_due(service, clock.now)
                row = _last_in(service)
                answer = body_of(smtp.sink.to(recipients[0])[-1])
                assert row.status == "processed", (client, row.outcome, answer)
                confirmed[client] = answer
    finally:
        listener.stop()
    assert set(confirmed) == {c for clients in CLIENTS.values() for c in clients}
    for client, answer in confirmed.items():
        german = client.endswith("-de")
        assert ("Angenommen" if german else "Accepted") in answer, client
        for line in IGNORED[client]:
            assert line in answer, (client, answer)
        if not IGNORED[client]:
            assert "Nicht als Angabe gelesen" not in answer


def test_a_line_that_looks_like_an_order_and_is_wrong_still_refuses(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    races, race_id = _race(service, clock)
    service.tick(clock.now)
    send_due(service, clock.now)
    [question] = smtp.sink.to("anna@example.net")
    subject = clean_header(question["Subject"])
    setup = _answer(races, race_id, question, "car1")
    cases = [("thunderbird-de", f"{setup}\nReifen viele",
              "Zeile 5: nicht verstanden: 'Reifen viele'"),
             ("outlook-de", f"{setup}\nKarma +1", "Zeile 3: passt nicht zur Frage"),
             ("gmail-de", f"{setup}\nStartreifen weich",
              "Zeile 3: zweite Antwort (die erste steht in Zeile 2)")]
    for number, (client, orders, expected) in enumerate(cases):
        service.receive(written(client, "anna@example.net", subject, orders, body_of(question),
                                number), "lmtp")
        service.process_pending()
        send_due(service, clock.now)
        row = _last_in(service)
        refusal = body_of(smtp.sink.to("anna@example.net")[-1])
        assert row.status == "refused" and json.loads(row.outcome)["refused"] == "orders"
        assert expected in refusal, (client, refusal)
        assert "Grüße" not in refusal  # the closing is not a problem


def test_the_original_below_an_outlook_header_block_is_not_read() -> None:
    question = "Gefragt ist: Karma\n\nKarma: 30\nGang 5\n\n-- \nRennleitung\n"
    for client in ("outlook-de", "outlook-en"):
        raw = written(client, "anna@example.net", "Formula Dé gp: Frage [v3]", "Gang 4",
                      question)
        text = decode(raw).body
        assert "Karma" not in text and "Gang 5" not in text, (client, text)
        assert text.split("\n")[0] == "Gang 4"
    for client in ("gmail-de", "gmail-en", "apple-de", "apple-en", "thunderbird-de"):
        text = decode(written(client, "a@example.net", "Frage", "Gang 4", question)).body
        assert "Karma" not in text and "schrieb" not in text and "wrote" not in text, (
            client, text)
        assert "Rennleitung <" not in text and "rennleitung@example.org" not in text, text
