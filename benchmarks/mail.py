"""Mails processed per second, from intake to stored answer, with 100 games running (target:
at least 50 mails/s).

100 TURBO 2000 games (three bound teams each) and a few Formula Dé races by mail are set up in
one SQLite database (or ``--db URL``). The mails are delivered over LMTP to the real listener on
loopback, one connection, as a local MTA would; the clock stops when every mail is stored,
processed and its answer queued in the outbox. The mix: valid sheets, sheets with faulty lines,
sheets of the wrong team, unknown senders. Prints mails/s by wall clock and by CPU time (on a
shared machine the CPU figure is the fairer one: the server's CPU only, the delivering MTA
runs in a process of its own); asserts nothing about time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import smtplib
import socket
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import func, select
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.mail.listener import start_listener
from rennleitung.mail.service import MailService
from rennleitung.mail.settings import MailSettings
from rennleitung.store.mail_tables import MailInRow, MailOutRow

GAMES = 100
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


def _mails(rng: random.Random) -> list[bytes]:
    ferrari = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    honda = (EXAMPLES / "honda-runde-1.txt").read_text(encoding="utf-8")
    faulty = (EXAMPLES / "fehlerhaft.txt").read_text(encoding="utf-8")
    mails = []
    for index in range(MAILS):
        game = rng.randrange(GAMES)
        kind = index % 6
        if kind in (0, 1):
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--preview", action="store_true",
                        help="also run the evaluation preview for every clean sheet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        url = args.db or f"sqlite:///{root / 'mail.sqlite3'}"
        service = MailService.open(url, MailSettings(sender="rennleitung@example.org"))
        from rennleitung.mail.turbo_game import TurboAdapter

        service.adapters["turbo"] = TurboAdapter(preview=args.preview)
        print(f"setting up {GAMES} TURBO 2000 games ...", file=sys.stderr)
        _setup(service, root)
        mails = _mails(random.Random(1))
        port = _port()
        listener = start_listener(service, "127.0.0.1", port, "lmtp")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        sender = multiprocessing.Process(target=_deliver, args=(port, mails))
        sender.start()  # the MTA side runs in a process of its own: its CPU is not counted
        sender.join()
        while True:
            with service.read() as session:
                waiting = session.scalar(select(func.count()).select_from(MailInRow)
                                         .where(MailInRow.status == "new"))
            if not waiting:
                break
            time.sleep(0.05)
        service.process_pending()
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0
        listener.stop()
        with service.read() as session:
            stored = session.scalar(select(func.count()).select_from(MailInRow))
            answers = session.scalar(select(func.count()).select_from(MailOutRow))
        service.engine.dispose()
    print(f"mail intake to stored answer, {GAMES} games, {len(mails)} mails over LMTP "
          f"({'with' if args.preview else 'without'} evaluation preview):")
    print(f"  stored {stored}, answers queued {answers}")
    print(f"  {len(mails) / wall:.0f} mails/s wall clock ({wall:.1f} s), "
          f"{len(mails) / cpu:.0f} mails/s per CPU second ({cpu:.1f} s); target >= 50/s")


if __name__ == "__main__":
    main()
