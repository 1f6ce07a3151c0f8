"""A TURBO 2000 round by mail: three teams, one faulty sheet answered and sent again, the game
master's evaluation, every team's report with the results sheet in its mailbox."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.mail.outbox import send_due
from rennleitung.mail.service import MailService
from rennleitung.mail.turbo_game import TurboAdapter, queue_reports

from .conftest import SmtpServer, attachment_names, body_of, plain_mail

EXAMPLES = Path(__file__).parents[2] / "examples" / "turbo2000"


def _new_game(tmp_path: Path) -> Path:
    game = tmp_path / "spiel"
    result = CliRunner().invoke(app, ["turbo", "new", str(game), "--teams",
                                      "Ferrari:rosso,Honda:ichi,Lotus:gruen", "--seed", "7"])
    assert result.exit_code == 0, result.output
    return game


def _sheet_mail(sender: str, sheet: str, secret: str, *, attach: bool = False) -> bytes:
    if attach:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, "s@x.org", f"Zug {secret}"
        message.set_content("anbei\n")
        message.add_attachment(sheet.encode("cp1252"), maintype="text", subtype="plain",
                               filename="bogen.txt")
        return message.as_bytes()
    return plain_mail(sender, "Zugbogen", f"Geheimwort: {secret}\n{sheet}", charset="latin-1")


def test_a_round_by_mail(service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    game_dir = _new_game(tmp_path)
    game = service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "de")
    service.bind("t2000", "soichiro@example.net", "Honda", "en")
    service.bind("t2000", "colin@example.net", "Lotus", "de")
    assert send_due(service).sent == 3  # the welcomes
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    honda = (EXAMPLES / "honda-runde-1.txt").read_text(encoding="utf-8")
    faulty = (EXAMPLES / "fehlerhaft.txt").read_text(encoding="utf-8")
    service.receive(_sheet_mail("Enzo <enzo@example.net>", ferrari, "boxenluder"), "lmtp")
    service.receive(_sheet_mail("soichiro@example.net", honda, "boxenluder", attach=True), "imap")
    service.receive(_sheet_mail("colin@example.net", faulty, "boxenluder"), "lmtp")
    assert service.process_pending() == 3
    assert send_due(service).sent == 3

    [colin] = smtp.sink.to("colin@example.net")
    text = body_of(colin)
    # line 1 of the mail is the secret, the sheet's "Bau X: 3" is line 9 of the mail body
    assert "angenommen" in text and "Zeile 9 [Bau]" in text
    [soichiro] = smtp.sink.to("soichiro@example.net")
    assert "accepted" in body_of(soichiro) and "Every line is fine" in body_of(soichiro)

    fixed = "\n".join(line for line in faulty.split("\n")
                      if not line.startswith(("Bau X", "Elimination", "Abstimmung")))
    service.receive(_sheet_mail("colin@example.net", fixed, "boxenluder"), "lmtp")
    service.process_pending()
    send_due(service)
    second = body_of(smtp.sink.to("colin@example.net")[1])
    assert "ersetzt Ihren früheren Bogen" in second

    inbox = sorted(p.name for p in (game_dir / "inbox").iterdir())
    assert len(inbox) == 4
    shown = CliRunner().invoke(app, ["turbo", "status", str(game_dir)], env={"COLUMNS": "200"})
    assert "Mail 1" in shown.output and "Mail 4" in shown.output  # what arrived by mail, when
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    assert service.tick() == 0  # reports wait for the game master
    assert len(queue_reports(service, "t2000")) == 3
    assert queue_reports(service, "t2000") == []  # once per round and team
    assert sorted(p.name for p in (game_dir / "rounds" / "001" / "sent").iterdir()) == \
        ["Ferrari", "Honda", "Lotus"]
    undo = CliRunner().invoke(app, ["turbo", "undo", str(game_dir)])
    assert undo.exit_code != 0  # the reports are out: the round stands
    send_due(service)
    for address, team in (("enzo@example.net", "Ferrari"), ("soichiro@example.net", "Honda"),
                          ("colin@example.net", "Lotus")):
        report = smtp.sink.to(address)[-1]
        assert team in str(report["Subject"])
        assert "rennanzeiger-001.txt" in attachment_names(report)
    rows = service.game_mail(game.id)
    assert [r.seat for r in rows] == ["Ferrari", "Honda", "Lotus", "Lotus"]
    assert json.loads(rows[3].outcome)["replaces"]


def test_wrong_team_and_wrong_password_are_refused(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "en")
    honda = (EXAMPLES / "honda-runde-1.txt").read_text(encoding="utf-8")
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    service.receive(_sheet_mail("enzo@example.net", honda, "boxenluder"), "lmtp")
    service.receive(_sheet_mail("enzo@example.net", ferrari.replace("rosso", "blu"),
                                "boxenluder"), "lmtp")
    service.process_pending()
    send_due(service)
    first, second = (body_of(m) for m in smtp.sink.to("enzo@example.net"))
    assert "registered for team 'Ferrari'" in first
    assert "refused" in second and "wrong password" in second
    assert not list((game_dir / "inbox").iterdir())


def test_a_sheet_for_the_next_round_waits_in_the_inbox(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    # issue 28: a next-round sheet (sent early, or while the game master undoes a round) was
    # refused on arrival, and its orders were lost
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "en")
    early = "Rennstall: Ferrari\nPasswort: rosso\nRunde: 2\nKontakt: Ferrari ist bereit.\n"
    service.receive(_sheet_mail("enzo@example.net", early, "boxenluder"), "lmtp")
    service.receive(_sheet_mail("enzo@example.net", early.replace("rosso", "blu"),
                                "boxenluder"), "lmtp")
    service.process_pending()
    send_due(service)
    first, second = (body_of(m) for m in smtp.sink.to("enzo@example.net"))
    assert "sheet for round 2 has been accepted" in first and "waits for its round" in first
    assert "refused" in second and "wrong password" in second
    [waiting] = list((game_dir / "inbox").iterdir())
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    assert waiting.exists()  # round 1 left it for round 2
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    assert "Ferrari ist bereit" in (game_dir / "rounds" / "002" / "rennanzeiger.txt").read_text()


def test_a_first_line_secret_is_blanked_when_the_subject_has_it_too(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    """Issue 24: "Zeile 1 [Geheimwort]: unbekannte Zeile" when subject and first line both
    carried the secret."""
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "de")
    send_due(service)
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    service.receive(plain_mail("enzo@example.net", "Zug boxenluder",
                               f"Geheimwort: boxenluder\n{ferrari}"), "smtp")
    service.process_pending()
    send_due(service)
    answer = body_of(smtp.sink.to("enzo@example.net")[-1])
    assert "Zeile 1" not in answer, answer
    assert "angenommen" in answer.lower(), answer


def _dated_mail(sender: str, sheet: str, date: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "s@x.org", "Zug boxenluder"
    message["Date"] = date
    message.set_content(sheet)
    return message.as_bytes()


@pytest.mark.parametrize(("language", "older", "counts"), [
    ("de", "ist älter als Ihr Bogen", "Es zählt der später geschriebene: "),
    ("en", "is older than your sheet", "The later-written one counts: ")])
def test_an_older_sheet_delivered_later_does_not_replace_the_newer(
        service: MailService, smtp: SmtpServer, tmp_path: Path, language: str, older: str,
        counts: str) -> None:
    """Issue 24: mail can overtake mail; the later-written sheet (by Date) counts, not the one
    that arrived last."""
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", language)
    send_due(service)
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    newer = ferrari + "Kontakt: der neue Bogen\n"
    old = ferrari + "Kontakt: der alte Bogen\n"
    service.receive(_dated_mail("enzo@example.net", newer, "Tue, 01 Dec 2026 20:30:00 +0100"),
                    "lmtp")
    service.process_pending()
    service.receive(_dated_mail("enzo@example.net", old, "Tue, 01 Dec 2026 19:10:00 +0000"),
                    "lmtp")
    service.process_pending()
    send_due(service)
    first, second = (body_of(m) for m in smtp.sink.to("enzo@example.net")[-2:])
    [kept] = list((game_dir / "inbox").iterdir())
    assert kept.name in first and "der neue Bogen" in kept.read_text(encoding="utf-8")
    assert older in second and f"{counts}{kept.name}" in second, second
    assert "2026-12-01 19:30:00 UTC" in second and "2026-12-01 19:10:00 UTC" in second
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    report = (game_dir / "rounds" / "001" / "rennanzeiger.txt").read_text(encoding="utf-8")
    assert "der neue Bogen" in report and "der alte Bogen" not in report


def test_a_newer_sheet_delivered_later_replaces_and_says_it_counts(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "en")
    send_due(service)
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    service.receive(_dated_mail("enzo@example.net", ferrari, "Tue, 01 Dec 2026 19:10:00 +0000"),
                    "lmtp")
    service.receive(_dated_mail("enzo@example.net", ferrari, "not a date"), "lmtp")
    service.process_pending()
    send_due(service)
    second = body_of(smtp.sink.to("enzo@example.net")[-1])
    assert "replaces your earlier sheet" in second and "this one counts" in second, second
    assert len(list((game_dir / "inbox").iterdir())) == 2


@pytest.mark.parametrize(("language", "place", "needs", "bought"), [
    ("de", "Zeile", "braucht W, M oder R", "nichts gekauft (§11) (Vorschau)"),
    ("en", "line", "needs W, M or R", "nothing bought (§11) (preview)")])
def test_the_answer_lists_every_problem_in_one_pass_in_line_order(
        service: MailService, smtp: SmtpServer, tmp_path: Path, language: str, place: str,
        needs: str, bought: str) -> None:
    """Issue 24: a sheet with a faulty line got no preview, so the trial evaluation's
    refusals came only with the next sheet; now both come at once, in line order."""
    service.adapters["turbo"] = TurboAdapter()  # with the trial evaluation, as `mail serve`
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", language)
    send_due(service)
    sheet = ("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nBau X: 2\nErrichtung: M\n"
             "Bau M: 1000\nBau Y: 3\n")
    service.receive(_sheet_mail("enzo@example.net", sheet, "boxenluder"), "lmtp")
    service.process_pending()
    send_due(service)
    answer = body_of(smtp.sink.to("enzo@example.net")[-1])
    listed = [line.strip() for line in answer.splitlines() if line.strip().startswith(place)]
    numbers = [int(line.split()[1]) for line in listed]
    # the mail's line 1 is the secret: the sheet's lines 4, 6, 7 are the mail's 5, 7, 8
    assert numbers == sorted(numbers) and {5, 7, 8} <= set(numbers), answer
    assert needs in answer and bought in answer, answer
    assert any(bought in line for line in listed) and not all("(" in line for line in listed)


def test_an_english_teams_report_has_no_german_entries(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    """Issue 24: "Kauf Turbo-W18 von Turbo", "Platz 4, Verschleiß M" in an English report."""
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "en")
    service.bind("t2000", "soichiro@example.net", "Honda", "de")
    send_due(service)
    for sender, name in (("enzo@example.net", "ferrari"), ("soichiro@example.net", "honda")):
        sheet = (EXAMPLES / f"{name}-runde-1.txt").read_text(encoding="utf-8")
        service.receive(_sheet_mail(sender, sheet, "boxenluder"), "lmtp")
    service.process_pending()
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    assert len(queue_reports(service, "t2000")) == 2
    send_due(service)
    german = (game_dir / "rounds" / "001" / "reports" / "Ferrari.txt").read_text(encoding="utf-8")
    # the round had a purchase from Turbo and a race with a place and wear
    assert "Kauf Turbo-" in german and "Platz " in german and "Verschleiß" in german
    english = body_of(smtp.sink.to("enzo@example.net")[-1])
    assert "purchase Turbo-" in english and "place " in english and "wear " in english
    for word in ("Kauf", "Platz", "Verschleiß", "Konto", "Rennen", "Würfel", "zurück"):
        assert word not in english, (word, english)
    honda = body_of(smtp.sink.to("soichiro@example.net")[-1])
    assert "Konto / account" in honda  # a German team keeps the report in both languages


def _attached(message: object, name: str) -> str:
    """One attachment of a received mail, as text."""
    for part in message.walk():  # type: ignore[attr-defined]
        if part.get_filename() == name:
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            return data.decode("utf-8")
    raise AssertionError(f"no attachment {name}")


GERMAN_WORDS = ("Rennställe", "Rennausschreibung", "Abschnitte", "Startplätze", "Preise",
                "Trainingsplätze", "verkauft", "Vertraglose", "Startkapital", "je Runde",
                "Kennzahl", "Baukosten", "Fabriken", "Runde /", "Platz", "Meldungen",
                "Rennen /", "Konto", "keine")
"""Words of the bilingual sheets and reports that an English team must not see (the trade
lines keep the sheet's keywords, "an alle: Biete … zu …", as a sheet answers them)."""


@pytest.mark.parametrize(("language", "sheet", "how", "german"), [
    ("de", "startbogen-000.txt", "So spielen Sie per Mail", True),
    ("en", "start-sheet-000.txt", "How to play by mail", False),
])
def test_binding_a_team_sends_the_welcome_with_the_start_sheet(
        service: MailService, smtp: SmtpServer, tmp_path: Path, language: str, sheet: str,
        how: str, german: bool) -> None:
    """Issue 24: binding sent nothing for TURBO 2000 and the start sheet went by hand."""
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", language)
    assert send_due(service).sent == 1
    [welcome] = smtp.sink.to("enzo@example.net", welcome=True)
    text = body_of(welcome)
    assert how in text and "Rennstall: Ferrari" in text and "Runde: 1" in text, text
    assert sheet.replace(".txt", ".html") in attachment_names(welcome)
    start = _attached(welcome, sheet)
    assert "F1" in start and "Ferrari, Honda, Lotus" in start  # the races of round 1, teams
    if german:
        assert "Rennausschreibung Runde 1 / races" in start, start
    else:
        assert "races of round 1" in start and "sections" in start, start
        for word in (*GERMAN_WORDS, " zu "):
            assert word not in start, (word, start)
        page = _attached(welcome, sheet.replace(".txt", ".html"))
        assert 'lang="en"' in page and "Rennställe" not in page


def test_a_game_made_before_english_start_sheets_still_sends_one(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    """A game directory without ``rennanzeiger.en.txt`` (made before): drawn from round 1's
    state, the same as ``turbo new`` writes now."""
    game_dir = _new_game(tmp_path)
    written = (game_dir / "rounds" / "000" / "rennanzeiger.en.txt").read_text(encoding="utf-8")
    for suffix in ("txt", "html"):
        (game_dir / "rounds" / "000" / f"rennanzeiger.en.{suffix}").unlink()
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "colin@example.org", "Lotus", "en")
    send_due(service)
    [welcome] = smtp.sink.to("colin@example.org", welcome=True)
    assert _attached(welcome, "start-sheet-000.txt") == written


def test_an_english_team_gets_results_sheet_notes_and_html_report_in_english(
        service: MailService, smtp: SmtpServer, tmp_path: Path) -> None:
    """Issue 24: the notes lines, the HTML team report and the results sheet were German (or
    both languages) for an English team; a German team keeps them as they were."""
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", "de")
    service.bind("t2000", "soichiro@example.net", "Honda", "en")
    service.bind("t2000", "colin@example.org", "Lotus", "en")  # sends no sheet: a note
    send_due(service)
    for sender, name in (("enzo@example.net", "ferrari"), ("soichiro@example.net", "honda")):
        sheet = (EXAMPLES / f"{name}-runde-1.txt").read_text(encoding="utf-8")
        service.receive(_sheet_mail(sender, sheet, "boxenluder"), "lmtp")
    service.process_pending()
    result = CliRunner().invoke(app, ["turbo", "evaluate", str(game_dir), "--force"])
    assert result.exit_code == 0, result.output
    assert len(queue_reports(service, "t2000")) == 3
    send_due(service)
    honda = body_of(smtp.sink.to("soichiro@example.net")[-1])
    # the year-end hint says in English what to write (the sheet's keyword stays German)
    assert "'Vertrag: NAME AMOUNT Folgejahr' (the sheet's keywords stay German: Folgejahr = " \
        "next year)" in honda and "Verträge enden" not in honda, honda
    assert "  contract: Alboreto-F10.0 for 12.000 (this year)" in honda
    lotus = smtp.sink.to("colin@example.org")[-1]
    assert "  no orders received" in body_of(lotus)
    assert "Kein Zug" not in body_of(lotus)
    for address in ("soichiro@example.net", "colin@example.org"):
        report = smtp.sink.to(address)[-1]
        assert "report-001.html" in attachment_names(report)
        results = _attached(report, "rennanzeiger-001.txt")
        assert "TURBO 2000 - results round 1" in results and "race: " in results, results
        for word in GERMAN_WORDS:
            assert word not in results, (word, results)
        page = _attached(report, "report-001.html")
        assert 'lang="en"' in page and "account" in page
        for word in ("Konto", "Runde / round", "Fahrer /", "Meldungen"):
            assert word not in page, (word, address)
    enzo = smtp.sink.to("enzo@example.net")[-1]
    assert "Rennen / race" in _attached(enzo, "rennanzeiger-001.txt")  # German stays
    assert "Konto / account" in _attached(enzo, "bericht-001.html")
    replay = CliRunner().invoke(app, ["turbo", "replay", str(game_dir)])
    assert replay.exit_code == 0, replay.output  # the English files are checked too


@pytest.mark.parametrize(("language", "accepted"), [
    ("de", "Ihr Bogen für Runde 1 ist angenommen."),
    ("en", "Your sheet for round 1 has been accepted."),
])
def test_a_sheet_through_the_mailbox_is_answered_in_the_teams_language(
        service: MailService, smtp: SmtpServer, tmp_path: Path, language: str,
        accepted: str) -> None:
    """A Reply to the welcome (its subject carries the code) delivered to the real Dovecot
    and polled over IMAP, answered over SMTP in the team's language."""
    import os
    import uuid
    from dataclasses import replace

    from imapclient import IMAPClient  # type: ignore[import-untyped]

    from rennleitung.mail.imap import poll_imap

    if not os.environ.get("RENNLEITUNG_TEST_IMAP"):
        pytest.fail("RENNLEITUNG_TEST_IMAP is not set: run `sh scripts/services.sh`")
    host, port, user, password = os.environ["RENNLEITUNG_TEST_IMAP"].split(":")
    folder = f"t{uuid.uuid4().hex[:12]}"
    settings = replace(service.settings, imap_host=host, imap_port=int(port),
                       imap_security="none", imap_user=user, imap_password=password,
                       imap_folder=folder)
    game_dir = _new_game(tmp_path)
    service.add_game("t2000", "turbo", str(game_dir), secret="boxenluder")
    service.bind("t2000", "enzo@example.net", "Ferrari", language)
    send_due(service)
    [welcome] = smtp.sink.to("enzo@example.net", welcome=True)
    sheet = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    client = IMAPClient(host, port=int(port), ssl=False)
    client.login(user, password)
    try:
        client.create_folder(folder)
        client.append(folder, plain_mail("enzo@example.net", f"Re: {welcome['Subject']}",
                                         sheet))
        assert poll_imap(service, settings) == 1
    finally:
        client.select_folder("INBOX")
        client.delete_folder(folder)
        client.logout()
    assert service.process_pending() == 1
    send_due(service)
    answer = smtp.sink.to("enzo@example.net", welcome=True)[-1]  # its subject: Re: welcome
    assert accepted in body_of(answer), body_of(answer)
    assert list((game_dir / "inbox").iterdir())
