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


def _seat_of(text: str) -> tuple[str, str, str, str]:
    """``car1=anna@example.net:de:Anna`` or ``car3=bot:strong`` → (car, address or "bot",
    language or bot name, driver)."""
    car, _eq, rest = text.partition("=")
    parts = rest.split(":")
    if not car.strip() or not rest or len(parts) > 3:
        raise RennleitungError(
            f"Platz {text!r}: WAGEN=ADRESSE[:SPRACHE[:NAME]] oder WAGEN=bot[:BOT]",
            f"seat {text!r}: CAR=ADDRESS[:LANGUAGE[:NAME]] or CAR=bot[:BOT]", "--seat")
    who = parts[0].strip()
    if who.lower() == "bot":
        return car.strip(), "bot", (parts[1].strip() if len(parts) > 1 else "simple"), \
            (parts[2].strip() if len(parts) > 2 else "")
    return car.strip(), who, (parts[1].strip() if len(parts) > 1 else "de"), \
        (parts[2].strip() if len(parts) > 2 else "")


@app.command("race")
def race(
    key: str = typer.Argument(..., help="Name der Partie / game name"),
    seat: list[str] = typer.Option(..., "--seat", help="WAGEN=ADRESSE[:de|en[:NAME]] oder/or "
                                                       "WAGEN=bot[:BOT], je Wagen / per car"),
    track: str = typer.Option("monaco", "--track", help="Strecke / track"),
    ruleset: str = typer.Option("dresden-2006", "--ruleset", help="Regelwerk / ruleset"),
    laps: int = typer.Option(0, "--laps", help="Runden (0: die des Regelwerks) / laps"),
    seconds: int = typer.Option(0, "--seconds", help="Zeit je Entscheidung, dann der Bot "
                                                     "(0: keine) / time per decision"),
    secret: str = typer.Option("", "--secret", help="Geheimwort / secret"),
    start: bool = typer.Option(True, "--start/--no-start", help="gleich starten / start now"),
    db: DbOption = None,
) -> None:
    """Formula-Dé-Rennen für Mail anlegen und starten / create and start a race for mail."""
    from rennleitung.play import RaceService, RaceSpec, SeatKind, SeatSpec

    def act() -> None:
        service = _service(db)
        read = [_seat_of(text) for text in seat]
        from rennleitung.mail.decode import clean_address

        for _car, who, how, _name in read:  # all checked before anything is made
            if who != "bot" and not clean_address(who):
                raise RennleitungError(f"{who!r} ist keine Mailadresse",
                                       f"{who!r} is not a mail address", "--seat")
            if who != "bot" and how not in ("de", "en"):
                raise RennleitungError(f"Sprache {how!r}: de oder en",
                                       f"language {how!r}: de or en", "--seat")
        if len({car for car, *_rest in read}) != len(read):
            raise RennleitungError("ein Wagen ist doppelt genannt", "a car is named twice",
                                   "--seat")
        specs = tuple(SeatSpec(car, name or car, kind=SeatKind.BOT, bot=how)
                      if who == "bot" else SeatSpec(car, name or who.split("@")[0])
                      for car, who, how, name in read)
        races = RaceService(service.engine)
        race_id = races.create_race(RaceSpec(track, ruleset, specs, laps=laps,
                                             decision_seconds=seconds or None, name=key))
        info = service.add_game(key, "fd", str(race_id), secret)
        say(f"Rennen {race_id} angelegt, Partie {info.key}, Geheimwort {info.secret}",
            f"race {race_id} created, game {info.key}, secret {info.secret}")
        for car, who, how, name in read:
            if who != "bot":
                bound = service.bind_seat(key, who, car, how, name=name)
                say(bound.text("de"), bound.text("en"))
        if start:
            races.start(race_id)
            say(f"Rennen {race_id} gestartet; die Fragen gehen mit dem nächsten Lauf von "
                "`mail serve` (oder `mail process` und `mail send`) hinaus",
                f"race {race_id} started; the questions go out with the next run of `mail "
                "serve` (or `mail process` and `mail send`)")
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
            shown = (pick("vielleicht gesendet", "perhaps sent") if row.leased
                     else _status(row.status))  # in flight at a kill: sent again, at least once
            table.add_row(str(row.id), row.recipient, row.subject[:50], shown,
                          str(row.attempts),
                          f"{row.sent_at:%Y-%m-%d %H:%M:%S}" if row.sent_at else "",
                          row.last_error[:40])
        _show(table, "Der Ausgang ist leer.", "The outbox is empty.")
    run_guarded(act)


def _gateway_lines(service: MailService) -> list[str]:
    """How the gateway's parts fared (a mailbox that cannot be read, and the next try)."""
    lines = []
    for part in service.store.parts():
        if part.ok:
            lines.append(pick(f"{part.part.upper()}: in Ordnung "
                              f"({part.updated_at:%Y-%m-%d %H:%M:%S} UTC)",
                              f"{part.part.upper()}: working "
                              f"({part.updated_at:%Y-%m-%d %H:%M:%S} UTC)"))
            continue
        retry = f"{part.next_try_at:%H:%M:%S} UTC" if part.next_try_at else "-"
        lines.append(pick(f"{part.part.upper()}: Fehler ({part.failures}× hintereinander, "
                          f"zuletzt {part.updated_at:%Y-%m-%d %H:%M:%S} UTC): "
                          f"{part.last_error}; nächster Versuch {retry}",
                          f"{part.part.upper()}: failing ({part.failures} times in a row, "
                          f"last {part.updated_at:%Y-%m-%d %H:%M:%S} UTC): {part.last_error}; "
                          f"next try {retry}"))
    return lines


@app.command("status")
def status(key: str | None = typer.Argument(None, help="Partie / game (ohne: nur das Gateway / "
                                                "without: the gateway only)"),
           db: DbOption = None) -> None:
    """Je Platz: welche Mail wann einging und was daraus wurde / per seat what arrived when."""
    def act() -> None:
        service = _service(db)
        for line in _gateway_lines(service):
            console.print(escape(line))
        if key is None:
            return
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
    from rennleitung.mail.imap import poll_guarded
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
                if s.imap_host:  # a mailbox fault: one line, a growing wait, never the end
                    said = poll_guarded(service, service.clock(), interval)
                    if said:
                        console.print(escape(f"{time.strftime('%H:%M:%S')} {said}"))
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
