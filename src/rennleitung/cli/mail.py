"""`rennleitung mail`: games by e-mail. Register games and addresses, take mail in, send the queue.

Mail settings come from the environment (see ``rennleitung.mail.settings`` and docs/mail.md);
the database from ``--db`` or ``RENNLEITUNG_DB`` like every other command.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from datetime import UTC
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rennleitung.cli.common import DbOption, counted, pick, run_guarded, say
from rennleitung.errors import RennleitungError
from rennleitung.mail.service import MailService
from rennleitung.mail.settings import settings_from_env
from rennleitung.store.database import resolve_url

app = typer.Typer(
    name="mail",
    help="Spielen per Mail / play by e-mail: Partien, Adressen, Eingang, Ausgang.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False, soft_wrap=True)


def _service(db: str | None) -> MailService:
    return MailService.open(resolve_url(db), settings_from_env())


@app.command("game")
def game(
    key: str = typer.Argument(..., help="Name der Partie / game name"),
    kind: str = typer.Option(..., "--kind", help="turbo oder/or fd"),
    location: str = typer.Option(..., "--location",
                                 help="TURBO: Spielverzeichnis / game directory; FD: race id"),
    secret: str = typer.Option("", "--secret", help="Geheimwort (leer: wird gezogen) / secret"),
    db: DbOption = None,
) -> None:
    """Partie für Mail anmelden / make a game playable by mail."""
    def act() -> None:
        if kind == "turbo" and not (Path(location) / "config.json").exists():
            raise RennleitungError("kein TURBO-Spielverzeichnis", "not a TURBO game directory",
                                   location)
        stored_location = str(Path(location).absolute()) if kind == "turbo" else location
        info = _service(db).add_game(key, kind, stored_location, secret)
        say(f"Partie {info.key} angemeldet, Geheimwort: {info.secret}",
            f"game {info.key} registered, secret: {info.secret}")
    run_guarded(act)


def _show(table: Table, empty_de: str, empty_en: str) -> None:
    """The table, or one sentence saying there is nothing yet (was an empty frame, which read
    like a failure)."""
    if table.row_count:
        console.print(table)
    else:
        say(empty_de, empty_en)


@app.command("bind")
def bind(
    key: str = typer.Argument(..., help="Partie / game"),
    address: str = typer.Argument(..., help="Mailadresse / mail address"),
    seat: str = typer.Argument(..., help="Rennstall oder Wagen / team or car"),
    language: str | None = typer.Option(None, "--language",
                                        help="de oder/or en (ohne: bleibt / kept; neu/new: de)"),
    replace: bool = typer.Option(False, "--replace",
                                 help="Platz einer anderen Adresse übernehmen / take the seat "
                                      "from another address"),
    name: str = typer.Option("", "--name", help="Formula Dé: Name des Fahrers vor dem Start / "
                                                "the driver's name before the start"),
    db: DbOption = None,
) -> None:
    """Adresse an einen Platz binden / bind an address to a seat."""
    def act() -> None:
        service = _service(db)
        bound = service.bind_seat(key, address, seat, language, replace, name)
        say(bound.text("de"), bound.text("en"))
    run_guarded(act)


@app.command("bindings")
def bindings(key: str = typer.Argument(None, help="Partie / game"), db: DbOption = None) -> None:
    """Angemeldete Adressen zeigen / list bound addresses."""
    def act() -> None:
        table = Table(pick("Partie", "game"), pick("Adresse", "address"), pick("Platz", "seat"),
                      pick("Sprache", "language"), "Code")
        for b in _service(db).bindings(key):
            table.add_row(b.game.key, b.address, b.seat, b.language, b.token)
        _show(table, "Noch keine Adresse angemeldet.", "No address bound yet.")
    run_guarded(act)


@app.command("receive")
def receive(
    files: list[Path] = typer.Argument(None, help="Mails (.eml); ohne: von stdin / from stdin"),
    source: str = typer.Option("file", "--source", help="Herkunft / source label"),
    db: DbOption = None,
) -> None:
    """Mails speichern und beantworten (z. B. aus procmail) / store and answer mails."""
    def act() -> None:
        service = _service(db)
        raws = [p.read_bytes() for p in files] if files else [sys.stdin.buffer.read()]
        for raw in raws:
            got = service.receive(raw, source[:20])
            say(f"Mail {got.id} gespeichert" + (" (schon bekannt)" if got.duplicate else ""),
                f"mail {got.id} stored" + (" (known before)" if got.duplicate else ""))
        service.process_pending()
    run_guarded(act)


@app.command("process")
def process(db: DbOption = None) -> None:
    """Gespeicherte, unbearbeitete Mails bearbeiten / process stored mails still waiting."""
    def act() -> None:
        service = _service(db)
        done = service.process_pending()
        queued = service.tick()
        say(f"{counted(done, 'Mail', 'Mails')} bearbeitet, "
            f"{counted(queued, 'Mail', 'Mails')} von Partien eingereiht",
            f"{counted(done, 'mail', 'mails')} processed, "
            f"{counted(queued, 'mail', 'mails')} queued by games")
    run_guarded(act)


@app.command("reports")
def reports(
    key: str = typer.Argument(..., help="TURBO-2000-Partie / TURBO 2000 game"),
    round_number: int = typer.Option(0, "--round", help="Runde / round (0: die letzte)"),
    db: DbOption = None,
) -> None:
    """Berichte einer ausgewerteten Runde verschicken / queue the reports of a round."""
    from rennleitung.mail.outbox import send_due
    from rennleitung.mail.turbo_game import queue_reports

    def act() -> None:
        service = _service(db)
        queued = queue_reports(service, key, round_number)
        result = send_due(service)
        say(f"{counted(len(queued), 'Bericht', 'Berichte')} eingereiht, {result.sent} gesendet, "
            f"{result.waiting} {'wartet' if result.waiting == 1 else 'warten'}",
            f"{counted(len(queued), 'report', 'reports')} queued, {result.sent} sent, "
            f"{result.waiting} waiting")
    run_guarded(act)


@app.command("send")
def send(db: DbOption = None) -> None:
    """Fällige Mails über SMTP versenden / send the due mails through SMTP."""
    from rennleitung.mail.outbox import send_due

    def act() -> None:
        result = send_due(_service(db))
        say(f"{result.sent} gesendet, {result.failed} fehlgeschlagen, {result.waiting} "
            + ("wartet" if result.waiting == 1 else "warten"),
            f"{result.sent} sent, {result.failed} failed, {result.waiting} waiting")
    run_guarded(act)


@app.command("poll")
def poll(db: DbOption = None) -> None:
    """IMAP-Postfach abholen / fetch the IMAP mailbox."""
    from rennleitung.mail.imap import poll_imap

    def act() -> None:
        service = _service(db)
        if not service.settings.imap_host:
            raise RennleitungError("RENNLEITUNG_IMAP_HOST ist nicht gesetzt",
                                   "RENNLEITUNG_IMAP_HOST is not set", "IMAP")
        try:
            count = poll_imap(service)
        except OSError as error:
            raise RennleitungError(f"IMAP-Server nicht erreichbar: {error}",
                                   f"IMAP server unreachable: {error}", "IMAP") from error
        service.process_pending()
        say(f"{counted(count, 'neue Mail', 'neue Mails')} abgeholt",
            f"{counted(count, 'new mail', 'new mails')} fetched")
    run_guarded(act)


STATUS_WORDS = {
    "new": ("neu", "new"), "processed": ("bearbeitet", "processed"),
    "refused": ("abgelehnt", "refused"), "duplicate": ("doppelt", "duplicate"),
    "failed": ("fehlgeschlagen", "failed"), "queued": ("wartet", "queued"),
    "sent": ("gesendet", "sent"),
}
"""Stored status codes of incoming and outgoing mail, as the reader's language says them."""


def _status(code: str) -> str:
    words = STATUS_WORDS.get(code)
    return pick(*words) if words else code


REFUSAL_WORDS = {
    "automatic": ("automatische Mail, nicht beantwortet", "automatic mail, not answered"),
    "no sender address": ("kein Absender lesbar", "no sender address"),
    "unknown sender": ("unbekannter Absender", "unknown sender"),
    "secret": ("Geheimwort fehlt", "secret missing"),
    "too long": ("zu lang", "too long"),
    "finished": ("Partie beendet", "game over"),
    "team": ("falscher Rennstall", "wrong team"),
    "sheet": ("Bogen abgelehnt", "sheet refused"),
    "orders": ("Befehle fehlerhaft", "faulty orders"),
    "not asked": ("nicht gefragt", "not asked"),
    "race": ("von den Regeln abgelehnt", "refused by the rules"),
    "secret alone": ("nur das Geheimwort, Code fehlt", "game secret only, code missing"),
    "other seat's code": ("Code eines anderen Platzes", "another seat's code"),
    "state": ("Rennen läuft nicht", "race not running"),
}
"""Refusal codes stored with a mail's outcome, in words."""


def _outcome(stored: str) -> str:
    """What became of a mail, in words; the stored JSON itself when it is of another shape."""
    try:
        data = json.loads(stored) if stored else {}
    except ValueError:
        return stored
    if not isinstance(data, dict):
        return stored
    if "accepted" in data:
        lines = data.get("problems", 0)
        return pick(f"angenommen als {data['accepted']}, "
                    f"{counted(lines, 'Zeile', 'Zeilen')} ausgelassen",
                    f"accepted as {data['accepted']}, {counted(lines, 'line', 'lines')} left out")
    if "applied" in data:
        return pick(f"angewendet, Version {data.get('version')}",
                    f"applied, version {data.get('version')}")
    if "refused" in data:
        words = REFUSAL_WORDS.get(str(data["refused"]))
        said = pick("abgelehnt", "refused") + ": " + (pick(*words) if words
                                                      else str(data["refused"]))
        reason = pick(str(data.get("reason_de", "")), str(data.get("reason_en", "")))
        return f"{said} ({reason})" if reason else said
    if "error" in data:
        return pick("Fehler", "error") + ": " + str(data["error"])
    return stored


@app.command("inbox")
def inbox(limit: int = typer.Option(30, "--limit"), db: DbOption = None) -> None:
    """Eingegangene Mails zeigen / list received mails."""
    def act() -> None:
        service = _service(db)
        table = Table("#", pick("Eingang", "received"), pick("Quelle", "source"),
                      pick("Absender", "sender"), pick("Platz", "seat"),
                      pick("Stand", "status"))
        for row in service.store.received(limit):
            table.add_row(str(row.id), f"{row.received_at:%Y-%m-%d %H:%M:%S}", row.source,
                          row.sender, row.seat, _status(row.status))
        _show(table, "Noch keine Mail eingegangen.", "No mail received yet.")
    run_guarded(act)


@app.command("outbox")
def outbox(limit: int = typer.Option(30, "--limit"), db: DbOption = None) -> None:
    """Ausgehende Mails zeigen: was, an wen, wann, Ergebnis / list outgoing mail."""
    def act() -> None:
        service = _service(db)
        table = Table("#", pick("An", "to"), pick("Betreff", "subject"), pick("Stand", "status"),
                      pick("Versuche", "attempts"),
                      pick("Gesendet", "sent"), pick("Fehler", "error"))
        for row in service.queue.recent(limit):
            table.add_row(str(row.id), row.recipient, row.subject[:50], _status(row.status),
                          str(row.attempts),
                          f"{row.sent_at:%Y-%m-%d %H:%M:%S}" if row.sent_at else "",
                          row.last_error[:40])
        _show(table, "Der Ausgang ist leer.", "The outbox is empty.")
    run_guarded(act)


@app.command("status")
def status(key: str = typer.Argument(..., help="Partie / game"), db: DbOption = None) -> None:
    """Je Platz: welche Mail wann einging und was daraus wurde / per seat what arrived when."""
    def act() -> None:
        service = _service(db)
        info = service.game(key)
        table = Table(pick("Platz", "seat"), pick("Eingang", "received"), pick("Stand", "status"),
                      pick("Ergebnis", "outcome"), title=f"{info.key} ({info.kind})")
        for row in service.game_mail(info.id):
            table.add_row(row.seat, f"{row.received_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC",
                          _status(row.status), _outcome(row.outcome)[:120])
        if not table.row_count:
            console.print(escape(f"{info.key} ({info.kind})"))
        _show(table, "Noch keine Mail zu dieser Partie.", "No mail for this game yet.")
    run_guarded(act)


@app.command("serve")
def serve(
    interval: float = typer.Option(10.0, "--interval",
                                   help="Sekunden zwischen Läufen / seconds between runs"),
    db: DbOption = None,
) -> None:
    """LMTP/SMTP annehmen, IMAP abholen, Ausgang senden / run intake and outbox."""
    from rennleitung.mail.imap import poll_imap
    from rennleitung.mail.listener import start_listener
    from rennleitung.mail.outbox import send_due

    service = run_guarded(lambda: _service(db))
    s = service.settings
    controller = start_listener(service, s.listen_host, s.listen_port, s.listen_protocol)
    say(f"{s.listen_protocol.upper()} auf {s.listen_host}:{s.listen_port}",
        f"{s.listen_protocol.upper()} on {s.listen_host}:{s.listen_port}")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.is_set():
            try:
                if s.imap_host:
                    poll_imap(service)
                service.process_pending()
                service.tick()
                send_due(service)
            except (OSError, RennleitungError) as error:
                console.print(f"{time.strftime('%H:%M:%S')} {error}")
            stop.wait(interval)
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()
