"""Mails processed per second, from intake to stored answer, with 100 games running (target:
at least 50 mails/s).

100 TURBO 2000 games (three bound teams each) and five Formula Dé races by mail (two people
bound, two bots) are set up in one SQLite database (or ``--db URL``). The mails are delivered
over LMTP to the real listener on loopback, one connection, as a local MTA would; the clock
stops when every mail is stored, processed and its answer queued in the outbox. The mix: valid
sheets, sheets with faulty lines, sheets of the wrong team, unknown senders, and for the races
each person's setup (both are asked at once) and orders that do not answer the question asked.
Prints mails/s by wall clock and by CPU time (on a shared machine the CPU figure is the fairer
one: the server's CPU only, the delivering MTA runs in a process of its own); asserts nothing
about time.

Then Formula Dé by mail in and out, as ``mail serve`` runs it (issue 24): five races, two people
each answering every question mail by reply over LMTP, the games' ticks drawing each question's
picture (the part of the board that matters, PNG by librsvg in the gateway's process, or by
``rsvg-convert`` where the library cannot be loaded: ``mail/pictures.py``) and every answer and
question sent over SMTP to the players' aiosmtpd server. The players' side (that server, and
their answers, made by reading the subject and asking the race) runs in a process of its own,
as it does on the players' machines, and its CPU is not counted. Prints mails in, mails out and
mails/s (in + out) by CPU time and by wall clock, and the largest question mail; then (unless
``--no-before``) the same races with each picture drawn and waited for as its mail is made, as
before ``mail/pictures.py``, and how many times faster the pictures drawn side by side and
cached make it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import smtplib
import socket
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from pathlib import Path

from sqlalchemy import func, select
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race_decisions import decision_to_data
from rennleitung.mail.fd_game import FdAdapter
from rennleitung.mail.fd_orders import order_text
from rennleitung.mail.listener import start_listener
from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.play import RaceService, RaceSpec, SeatKind, SeatSpec
from rennleitung.play.engine import opened_at, question_of
from rennleitung.store.mail_tables import MailInRow, MailOutRow

GAMES = 100
RACES = 5
MAILS = 600
EXAMPLES = Path(__file__).parents[1] / "examples" / "turbo2000"
TEAMS = (("Ferrari", "rosso"), ("Honda", "ichi"), ("Lotus", "gruen"))


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _mail(sender: str, subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "spiel@example.org", subject
    message["Message-ID"] = make_msgid(domain="player.example")
    message.set_content(body, charset="utf-8")
    return message.as_bytes()


def _setup(service: MailService, root: Path) -> None:
    runner = CliRunner()
    teams = ",".join(f"{t}:{p}" for t, p in TEAMS)
    for number in range(GAMES):
        game = root / f"g{number}"
        runner.invoke(app, ["turbo", "new", str(game), "--teams", teams, "--seed", str(number)])
        service.add_game(f"g{number}", "turbo", str(game), secret=f"geheim{number:03d}")
        for team, _password in TEAMS:
            service.bind(f"g{number}", f"{team.lower()}{number}@example.net", team,
                         ("de", "en")[number % 2])


def _setup_races(service: MailService) -> dict[int, list[tuple[str, str, str]]]:
    """Five running races; per race the (address, valid setup answer, seat code) of its two
    people."""
    races = RaceService(service.engine)
    service.adapters["fd"] = FdAdapter(races, png=False)
    answers: dict[int, list[tuple[str, str, str]]] = {}
    for number in range(RACES):
        seats = (SeatSpec("car1", "Anna"), SeatSpec("car2", "Bert"),
                 SeatSpec("car3", "Bot A", kind=SeatKind.BOT, bot="simple"),
                 SeatSpec("car4", "Bot B", kind=SeatKind.BOT, bot="strong"))
        race_id = races.create_race(RaceSpec("monaco", "dresden-2006", seats, laps=1),
                                    seed=f"bench{number}")
        service.add_game(f"gp{number}", "fd", str(race_id), secret=f"flagge{number:03d}")
        for car, person in (("car1", "anna"), ("car2", "bert")):
            service.bind(f"gp{number}", f"{person}{number}@example.net", car,
                         ("de", "en")[car == "car2"])
        races.start(race_id)
        race = races.race(race_id)
        answers[number] = []
        codes = {b.seat: b.token for b in service.bindings(f"gp{number}")}
        for car, person in (("car1", "anna"), ("car2", "bert")):
            ask = question_of(race, car)
            assert ask is not None, "the setup is asked of every car at the start"
            decision = make_bot("simple").decide(race, ask)
            answers[number].append((f"{person}{number}@example.net", order_text(
                decision_to_data(race.track, decision), ("de", "en")[car == "car2"]),
                codes[car]))
    return answers


def _mails(rng: random.Random,
           setups: dict[int, list[tuple[str, str, str]]]) -> list[bytes]:
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    honda = (EXAMPLES / "honda-runde-1.txt").read_text(encoding="utf-8")
    faulty = (EXAMPLES / "fehlerhaft.txt").read_text(encoding="utf-8")
    mails = []
    setups = {race: list(answers) for race, answers in setups.items()}
    for index in range(MAILS):
        game = rng.randrange(GAMES)
        kind = index % 7
        if kind == 6:
            race = rng.randrange(RACES)
            address, text, code = setups[race].pop() if setups[race] else (
                f"{rng.choice(['anna', 'bert'])}{race}@example.net", "Gang 4\nZiel C57",
                f"flagge{race:03d}")
            mails.append(_mail(address, f"Re: Frage [Code {code}]", text))
        elif kind in (0, 1):
            mails.append(_mail(f"ferrari{game}@example.net", f"Zug geheim{game:03d}", ferrari))
        elif kind == 2:
            mails.append(_mail(f"honda{game}@example.net", f"Zug geheim{game:03d}", honda))
        elif kind == 3:
            mails.append(_mail(f"lotus{game}@example.net", f"Zug geheim{game:03d}", faulty))
        elif kind == 4:
            mails.append(_mail(f"lotus{game}@example.net", f"Zug geheim{game:03d}", ferrari))
        else:
            mails.append(_mail(f"fremd{index}@example.org", "Hallo", "Gang 4"))
    return mails


def _deliver(port: int, mails: list[bytes]) -> None:
    with smtplib.LMTP("127.0.0.1", port) as client:
        for raw in mails:
            client.sendmail("player@example.net", ["spiel@example.org"], raw)


class _OneByOne(FdAdapter):
    """The pictures as before issue 24's last change: each drawn and waited for when its
    mail is made, one at a time (the comparison the benchmark prints)."""

    def tick(self, service, game, now):  # type: ignore[no-untyped-def]
        mails = super().tick(service, game, now)
        for mail in mails:
            for item in mail.attachments:
                item.data  # noqa: B018 - waits for the picture
        return mails


def _players(smtp_port: int, lmtp_port: int, answers: int,
             setup: multiprocessing.Queue[tuple[str, dict[str, tuple[int, str, str]]]],
             received: multiprocessing.Queue[tuple[str, int, bool]],
             answered: Synchronized[int], ready: Event) -> None:
    """The players' side, in a process of its own as their mail server and their heads are on
    other machines: an aiosmtpd server takes every mail the gateway sends (and tells the
    benchmark its recipient and size), and each person answers each question mail of theirs
    by reply over LMTP, until ``answers`` answers went in. The players read the subject only
    and ask the race directly, so the run measures the gateway rather than the players."""
    import re
    import threading
    from email.parser import BytesHeaderParser

    from aiosmtpd.controller import Controller

    from rennleitung.render.mail_message import clean_header

    mails: queue.Queue[tuple[str, str]] = queue.Queue()
    headers = BytesHeaderParser()

    class Sink:
        async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
            recipient, raw = envelope.rcpt_tos[0], envelope.content  # type: ignore[attr-defined]
            subject = clean_header(headers.parsebytes(raw)["Subject"])
            question = "[v" in subject and not subject.startswith("Re:")
            received.put((recipient, len(raw), question))
            if question:
                mails.put((recipient, subject))
            return "250 OK"

    controller = Controller(Sink(), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    ready.set()
    url, people = setup.get()
    races = RaceService.open(url)
    bot = make_bot("simple")

    def answer_all() -> None:
        with smtplib.LMTP("127.0.0.1", lmtp_port) as client:
            while answered.value < answers:
                recipient, subject = mails.get()
                race_id, car, language = people[recipient]
                race = races.race(race_id)
                ask = question_of(race, car)
                if ask is None or not re.search(rf"\[v{opened_at(race)}\]", subject):
                    continue
                text = order_text(decision_to_data(race.track, bot.decide(race, ask)),
                                  language)
                client.sendmail(recipient, ["spiel@example.org"],
                                _mail(recipient, f"Re: {subject}", text))
                with answered.get_lock():
                    answered.value += 1

    threading.Thread(target=answer_all, daemon=True).start()
    while True:
        time.sleep(3600)


def _drain(received: multiprocessing.Queue[tuple[str, int, bool]],
           outgoing: list[tuple[str, int, bool]]) -> int:
    """Take what the players' server received so far; returns how many."""
    before = len(outgoing)
    while True:
        try:
            outgoing.append(received.get_nowait())
        except queue.Empty:
            return len(outgoing) - before


def _cpu(children_only: bool = False) -> float:
    """CPU seconds of this process and of its finished children (rsvg-convert runs, where the
    pictures are drawn by the program)."""
    used = os.times()
    children = used.children_user + used.children_system
    return children if children_only else used.user + used.system + children


def _fd_in_and_out(url: str, answers: int, one_by_one: bool = False) -> float:
    """Formula Dé races played by mail with pictures until ``answers`` answers went in;
    returns the mails/s (in + out)."""
    from datetime import timedelta

    from rennleitung.mail.outbox import send_due

    outgoing: list[tuple[str, int, bool]] = []
    smtp_port, port = _port(), _port()
    setup: multiprocessing.Queue[tuple[str, dict[str, tuple[int, str, str]]]] = \
        multiprocessing.Queue()
    received: multiprocessing.Queue[tuple[str, int, bool]] = multiprocessing.Queue()
    answered: Synchronized[int] = multiprocessing.Value("i", 0)  # type: ignore[assignment]
    ready = multiprocessing.Event()
    players = multiprocessing.Process(
        target=_players, args=(smtp_port, port, answers, setup, received, answered, ready),
        daemon=True)
    players.start()  # forked before the gateway opens its database and starts its threads
    ready.wait(30)
    settings = MailSettings(sender="rennleitung@example.org", smtp_host="127.0.0.1",
                            smtp_port=smtp_port)
    service = MailService.open(url, settings)
    races = RaceService(service.engine)
    from rennleitung.mail import board_tiles, pictures

    pictures.forget()  # each run draws its pictures afresh
    board_tiles.forget()
    service.adapters["fd"] = (_OneByOne if one_by_one else FdAdapter)(races, png=True)
    people = {}
    for number in range(RACES):
        seats = (SeatSpec("car1", "Anna"), SeatSpec("car2", "Bert"),
                 SeatSpec("car3", "Bot A", kind=SeatKind.BOT, bot="simple"),
                 SeatSpec("car4", "Bot B", kind=SeatKind.BOT, bot="strong"))
        race_id = races.create_race(RaceSpec("monaco", "dresden-2006", seats, laps=1),
                                    seed=f"inout{number}")
        service.add_game(f"io{number}", "fd", str(race_id), secret=f"inout{number:03d}")
        for car, person in (("car1", "anna"), ("car2", "bert")):
            address = f"{person}.io{number}@example.net"
            service.bind(f"io{number}", address, car, ("de", "en")[car == "car2"])
            people[address] = (race_id, car, ("de", "en")[car == "car2"])
        races.start(race_id)
    listener = start_listener(service, "127.0.0.1", port, "lmtp")
    setup.put((url, people))
    wall0, cpu0, drawn0 = time.perf_counter(), _cpu(), _cpu(children_only=True)
    try:
        while answered.value < answers:
            service.process_pending()
            service.tick()
            send_due(service, service.clock() + timedelta(days=1))
            if not _drain(received, outgoing):
                time.sleep(0.01)
                if all(races.info(r).state.value != "running" for r, _c, _l in people.values()):
                    break
        time.sleep(0.2)  # the last answer's mail in
        service.process_pending()
        service.tick()
        send_due(service, service.clock() + timedelta(days=1))
    finally:
        listener.stop()
        time.sleep(0.2)
        _drain(received, outgoing)
        players.terminate()
    sent_in = answered.value
    largest = max((size for _to, size, question in outgoing if question), default=0)
    wall, cpu = time.perf_counter() - wall0, _cpu() - cpu0  # the sink not joined: not in it
    drawn = _cpu(children_only=True) - drawn0
    players.join()
    service.engine.dispose()
    total = sent_in + len(outgoing)
    if one_by_one:
        print(f"  before (pictures one at a time, waited for as each mail is made): "
              f"{total / wall:.0f} mails/s in and out ({sent_in} in, {len(outgoing)} out, "
              f"{wall:.1f} s)")
        return total / wall
    print(f"Formula Dé by mail with pictures ({RACES} races, PNG as `mail serve` sends it, drawn "
          f"by {pictures.renderer()}):")
    print(f"  {sent_in} answers in over LMTP, {len(outgoing)} mails out over SMTP "
          f"(answers, questions with their picture, welcomes) in {wall:.1f} s")
    print(f"  {total / cpu:.0f} mails/s in and out by CPU time ({cpu:.1f} s: the gateway's "
          f"process with its picture threads and every rsvg-convert run: {drawn:.1f} s; not the "
          "players' side with its SMTP server)")
    print(f"  {total / wall:.0f} mails/s in and out by wall clock; target >= 50/s; largest "
          f"question mail {largest / 1000:.0f} KB (limit 200 KB)")
    return total / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--preview", action="store_true",
                        help="also run the evaluation preview for every clean sheet")
    parser.add_argument("--fd-answers", type=int, default=200,
                        help="answers sent in the Formula Dé in-and-out run (0: skip it)")
    parser.add_argument("--no-before", action="store_true",
                        help="skip the comparison run with pictures drawn one at a time")
    parser.add_argument("--intake-only", action="store_true",
                        help="only the intake run (no Formula Dé in and out)")
    parser.add_argument("--fd-only", action="store_true",
                        help="only Formula Dé in and out (no intake run)")
    args = parser.parse_args()
    if args.fd_only:
        _fd_runs(args)
        return
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        url = args.db or f"sqlite:///{root / 'mail.sqlite3'}"
        service = MailService.open(url, MailSettings(sender="rennleitung@example.org"))
        from rennleitung.mail.turbo_game import TurboAdapter

        service.adapters["turbo"] = TurboAdapter(preview=args.preview)
        print(f"setting up {GAMES} TURBO 2000 games ...", file=sys.stderr)
        _setup(service, root)
        mails = _mails(random.Random(1), _setup_races(service))
        port = _port()
        listener = start_listener(service, "127.0.0.1", port, "lmtp")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        sender = multiprocessing.Process(target=_deliver, args=(port, mails))
        sender.start()  # the MTA side runs in a process of its own: its CPU is not counted
        sender.join()
        while True:
            with service.store.sessions.read() as session:
                waiting = session.scalar(select(func.count()).select_from(MailInRow)
                                         .where(MailInRow.status == "new"))
            if not waiting:
                break
            time.sleep(0.05)
        service.process_pending()
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0
        listener.stop()
        with service.store.sessions.read() as session:
            stored = session.scalar(select(func.count()).select_from(MailInRow))
            answers = session.scalar(select(func.count()).select_from(MailOutRow))
            applied = session.scalar(select(func.count()).select_from(MailInRow)
                                     .where(MailInRow.outcome.like('{"applied"%')))
        service.engine.dispose()
    print(f"mail intake to stored answer, {GAMES} games and {RACES} races, {len(mails)} mails "
          "over LMTP "
          f"({'with' if args.preview else 'without'} evaluation preview):")
    print(f"  stored {stored}, answers queued {answers}, race answers applied {applied} "
          f"(of {2 * RACES})")
    print(f"  {len(mails) / wall:.0f} mails/s wall clock ({wall:.1f} s), "
          f"{len(mails) / cpu:.0f} mails/s per CPU second ({cpu:.1f} s); target >= 50/s")
    if not args.intake_only:
        _fd_runs(args)


def _fd_runs(args: argparse.Namespace) -> None:
    """Formula Dé in and out, then (unless ``--no-before``) the same one picture at a time."""
    if args.fd_answers:
        with tempfile.TemporaryDirectory() as temp:
            after = _fd_in_and_out(args.db or f"sqlite:///{Path(temp) / 'inout.sqlite3'}",
                                   args.fd_answers)
        if not args.no_before and not args.db:  # a given database holds the first run's races
            with tempfile.TemporaryDirectory() as temp:
                before = _fd_in_and_out(f"sqlite:///{Path(temp) / 'before.sqlite3'}",
                                        args.fd_answers, one_by_one=True)
            print(f"  pictures drawn side by side and cached: {after / before:.1f} times the "
                  "mails/s of one at a time")


if __name__ == "__main__":
    main()
