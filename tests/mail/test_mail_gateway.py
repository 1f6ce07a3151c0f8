"""The gateway keeps running (issue 24): IMAP faults against the real Dovecot (wrong password,
no STARTTLS, a missing folder) are one-line messages, `mail serve` goes on with a growing wait
and `mail status` shows it; refusals are not repeated within the hour, and refusals to unbound
senders are limited; `mail race` creates, seats and starts a race for mail."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.mail.imap import poll_guarded, poll_imap, wait_after
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import UNBOUND_PER_HOUR, MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.play import RaceService, RaceState
from rennleitung.store.mail_tables import MailInRow

from .conftest import SmtpServer, body_of, plain_mail
from .test_mail_fd import Clock, _race

ENV = "RENNLEITUNG_TEST_IMAP"


def _imap(settings: MailSettings) -> tuple[MailSettings, str, str]:
    if not os.environ.get(ENV):
        pytest.fail(f"{ENV} is not set: run `sh scripts/services.sh && . ./.services.env`")
    host, port, user, password = os.environ[ENV].split(":")
    return (replace(settings, imap_host=host, imap_port=int(port), imap_security="none",
                    imap_user=user, imap_password=password), user, password)


def test_imap_faults_are_one_line_each(service: MailService) -> None:
    good, _user, password = _imap(service.settings)
    faults = [(replace(good, imap_password=password + "-falsch"),
               "login as", "Anmeldung als"),
              (replace(good, imap_security="starttls"), "STARTTLS", "STARTTLS"),
              (replace(good, imap_folder="gibt-es-nicht"), "folder 'gibt-es-nicht'",
               "Ordner 'gibt-es-nicht'"),
              (replace(good, imap_port=1), "unreachable", "nicht erreichbar")]
    for settings, english, german in faults:
        with pytest.raises(RennleitungError) as fault:
            poll_imap(service, settings)
        assert english in fault.value.message_en and german in fault.value.message_de
        assert "\n" not in fault.value.message_en and "Traceback" not in fault.value.message_en
    assert poll_imap(service, good) >= 0  # the right settings still work


def test_a_failing_mailbox_waits_longer_each_time_and_status_shows_it(
        service: MailService, database_url: str) -> None:
    good, _user, password = _imap(service.settings)
    service.settings = replace(good, imap_password=password + "-falsch")
    clock = Clock()
    service.clock = clock
    said = poll_guarded(service, clock.now, 10)
    assert "login as" in said and "\n" not in said
    [part] = service.store.parts()
    assert (part.ok, part.failures) == (False, 1)
    assert part.next_try_at == part.updated_at + timedelta(seconds=20)
    assert poll_guarded(service, clock.now + timedelta(seconds=5), 10) == ""  # waits
    clock.now += timedelta(seconds=21)
    poll_guarded(service, clock.now, 10)
    [part] = service.store.parts()
    assert part.failures == 2
    assert part.next_try_at == part.updated_at + timedelta(seconds=40)
    assert wait_after(30, 10) == timedelta(hours=1)
    shown = CliRunner().invoke(app, ["mail", "status", "--db", database_url, "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert "IMAP: failing (2 times in a row" in " ".join(shown.output.split())
    service.settings = good
    clock.now += timedelta(minutes=5)
    poll_guarded(service, clock.now, 10)
    [part] = service.store.parts()
    assert part.ok and part.failures == 0 and part.next_try_at is None


def test_mail_serve_keeps_running_with_a_wrong_imap_password(database_url: str) -> None:
    good, _user, password = _imap(MailSettings())
    env = {**os.environ, "RENNLEITUNG_DB": database_url,
           "RENNLEITUNG_IMAP_HOST": good.imap_host, "RENNLEITUNG_IMAP_PORT": str(good.imap_port),
           "RENNLEITUNG_IMAP_SECURITY": "none", "RENNLEITUNG_IMAP_USER": good.imap_user,
           "RENNLEITUNG_IMAP_PASSWORD": password + "-falsch",
           "RENNLEITUNG_LMTP_PORT": str(_free()), "RENNLEITUNG_SMTP_PORT": str(_free())}
    command = str(Path(sys.executable).parent / "rennleitung")
    serve = subprocess.Popen([command, "mail", "serve", "--interval", "0.3"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[tuple[float, str]] = []
    reader = threading.Thread(target=_read_lines, args=(serve, lines), daemon=True)
    reader.start()
    try:
        # the window is counted from the first fault, so a slow start (a loaded machine) does
        # not eat into it
        started = time.monotonic()
        while not _faults(lines) and time.monotonic() - started < 90 and serve.poll() is None:
            time.sleep(0.1)
        first = _faults(lines)[0][0] if _faults(lines) else time.monotonic()
        time.sleep(max(0.0, first + 9.5 - time.monotonic()))
        assert serve.poll() is None, _text(lines)  # still running
        faults = [moment for moment, _ in _faults(lines) if moment <= first + 9.5]
    finally:
        serve.terminate()
        serve.wait(timeout=30)
        reader.join(timeout=30)
    output = _text(lines)
    # 0.6, 1.2, 2.4, 4.8 … seconds apart (and the server's delay after a failed login), not
    # every 0.3 s (which would be some 30 in the window)
    assert 2 <= len(faults) <= 6, output
    assert "Traceback" not in output


def _read_lines(process: subprocess.Popen[str], lines: list[tuple[float, str]]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.append((time.monotonic(), line.rstrip("\n")))


def _faults(lines: list[tuple[float, str]]) -> list[tuple[float, str]]:
    return [(moment, line) for moment, line in list(lines) if "login as" in line]


def _text(lines: list[tuple[float, str]]) -> str:
    return "\n".join(line for _, line in list(lines))


def _free() -> int:
    from tests.conftest import free_port

    return free_port()


def test_the_same_refusal_is_not_repeated_within_the_hour(
        service: MailService, smtp: SmtpServer) -> None:
    clock = Clock()
    _race(service, clock)
    send_due(service, clock.now)
    for attempt in range(3):  # a dumb autoresponder without auto headers; no code: refused
        service.receive(plain_mail("anna@example.net", "Antwort", f"Gang 4\n\n#{attempt}"),
                        "smtp")
        service.process_pending()
    send_due(service, clock.now)
    refusals = [m for m in smtp.sink.to("anna@example.net")
                if "Geheimwort" in body_of(m)]
    assert len(refusals) == 1
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailInRow).order_by(MailInRow.id)).all()
    assert [json.loads(r.outcome).get("answer_held") for r in rows] == [
        None, "same refusal within the hour", "same refusal within the hour"]
    clock.now += timedelta(minutes=61)
    service.receive(plain_mail("anna@example.net", "Antwort", "Gang 4\n\n#later"), "smtp")
    service.process_pending()
    send_due(service, clock.now)
    assert len([m for m in smtp.sink.to("anna@example.net") if "Geheimwort" in body_of(m)]) == 2


def test_refusals_to_unbound_senders_are_limited(service: MailService) -> None:
    for number in range(UNBOUND_PER_HOUR + 5):
        for again in range(2):
            service.receive(plain_mail(f"fremd{number}@example.net", f"Hallo {again}",
                                       "Gang 4"), "smtp")
    service.process_pending()
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailInRow)).all()
    held = [json.loads(r.outcome).get("answer_held") for r in rows]
    assert held.count(None) == UNBOUND_PER_HOUR  # answered
    assert held.count("unbound sender refused within the day") == UNBOUND_PER_HOUR
    assert held.count("refusals to unbound senders at their limit") == 10
    assert all(r.status == "refused" for r in rows)  # every mail kept


def test_mail_race_creates_seats_and_starts_a_race(database_url: str, smtp: SmtpServer) -> None:
    runner = CliRunner()
    made = runner.invoke(app, ["mail", "race", "gp", "--seat", "car1=anna@example.net:de:Anna",
                               "--seat", "car2=bert@example.net:en", "--seat",
                               "car3=bot:strong", "--laps", "1", "--db", database_url,
                               "--lang", "en"])
    assert made.exit_code == 0, made.output
    assert "race 1 created, game gp" in made.output and "race 1 started" in made.output
    assert "anna@example.net plays car1 in gp (de), code " in made.output
    service = MailService.open(database_url, MailSettings(
        sender="rennleitung@example.org", smtp_host="127.0.0.1", smtp_port=smtp.port))
    try:
        races = RaceService(service.engine)
        info = races.info(1)
        assert info.state is RaceState.RUNNING
        assert info.seat("car1").driver == "Anna" and info.seat("car2").driver == "bert"
        assert info.seat("car3").kind.value == "bot"
        service.tick()
        send_due(service)
        assert any("Wagen car1, Frage" in str(m["Subject"]) or "=?utf-8?" in str(m["Subject"])
                   for m in smtp.sink.to("anna@example.net"))
    finally:
        service.engine.dispose()
    bad = runner.invoke(app, ["mail", "race", "gp2", "--seat", "car1=x", "--db", database_url,
                              "--lang", "en"])
    assert bad.exit_code != 0 and "'x' is not a mail address" in bad.output
    assert "Traceback" not in bad.output
