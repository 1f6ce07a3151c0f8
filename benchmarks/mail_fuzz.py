"""10,000 mutated mails through the mail intake (``rennleitung.mail.fuzz``): broken MIME, wrong
charsets, huge attachments, header injection in names and subjects, random bytes; to a TURBO
2000 game and to a running Formula Dé race.

Checks what the test suite checks on a few hundred: every distinct mail stored, every one
processed (answered or refused, never ``failed``), nothing lost, no header injected into an
answer. Prints the counts, the statuses and the rate; exits 1 if anything is wrong.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.mail.fuzz import add_fd_race, mutated_mail
from rennleitung.mail.service import MailService, content_hash
from rennleitung.mail.settings import MailSettings
from rennleitung.mail.turbo_game import TurboAdapter
from rennleitung.store.mail_tables import MailInRow, MailOutRow

EXAMPLES = Path(__file__).parents[1] / "examples" / "turbo2000"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        service = MailService.open(f"sqlite:///{root / 'fuzz.sqlite3'}",
                                   MailSettings(sender="rennleitung@example.org"))
        service.adapters["turbo"] = TurboAdapter(preview=False)
        CliRunner().invoke(app, ["turbo", "new", str(root / "spiel"), "--teams",
                                 "Ferrari:rosso,Lotus:gruen", "--seed", "1"])
        service.add_game("t", "turbo", str(root / "spiel"), secret="fuzzgeheim")
        service.bind("t", "enzo@example.net", "Ferrari", "de")
        service.bind("t", "colin@example.net", "Lotus", "en")
        others = add_fd_race(service, "fuzzgeheim")
        sheet = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
        rng = random.Random(args.seed)
        hashes: set[str] = set()
        crashes = 0
        start = time.perf_counter()
        for number in range(args.count):
            raw = mutated_mail(rng, sheet, "fuzzgeheim", others)
            hashes.add(content_hash(raw))
            try:
                service.receive(raw, "fuzz")
            except Exception as error:  # counted: the intake must never raise
                crashes += 1
                print(f"mail {number}: {type(error).__name__}: {error}", file=sys.stderr)
            if number % 500 == 499:
                service.process_pending()
        service.process_pending()
        seconds = time.perf_counter() - start
        with service.store.sessions.read() as session:
            rows = session.execute(select(MailInRow.status, MailInRow.sender,
                                          MailInRow.outcome)).all()
            answered = session.scalar(select(func.count(func.distinct(MailOutRow.reply_to_in))))
            injected = sum(1 for raw in session.scalars(select(MailOutRow.raw))
                           if b"\nBcc:" in raw.split(b"\r\n\r\n", 1)[0])
        service.engine.dispose()
    statuses = Counter(status for status, _s, _o in rows)
    reasons = Counter(outcome[:120] for status, _s, outcome in rows if status == "failed")
    for reason, count in reasons.most_common(3):
        print(f"failed {count}x: {reason}")
    expected = sum(1 for status, sender, outcome in rows if status != "duplicate" and sender
                   and outcome != '{"refused": "automatic"}')
    print(f"{args.count} mutated mails, {len(hashes)} distinct, {len(rows)} stored, "
          f"{answered} answered (expected {expected}), in {seconds:.0f} s "
          f"({args.count / seconds:.0f} mails/s)")
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    print(f"intake exceptions: {crashes}; answers with an injected header: {injected}")
    ok = (len(rows) == len(hashes) and not crashes and not injected and answered == expected
          and set(statuses) <= {"processed", "refused", "duplicate"})
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
