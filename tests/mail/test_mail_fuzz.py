"""Five hundred mutated mails (to a TURBO 2000 game and a Formula Dé race): each stored, each
answered or refused cleanly, none lost. (``benchmarks/mail_fuzz.py`` runs the 10,000.)"""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import func, select
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.mail.fuzz import add_fd_race, mutated_mail
from rennleitung.mail.service import MailService, content_hash
from rennleitung.store.mail_tables import MailInRow, MailOutRow

EXAMPLES = Path(__file__).parents[2] / "examples" / "turbo2000"


def test_mutated_mails_are_kept_and_answered_cleanly(service: MailService,
                                                     tmp_path: Path) -> None:
    game_dir = tmp_path / "spiel"
    CliRunner().invoke(app, ["turbo", "new", str(game_dir), "--teams",
                             "Ferrari:rosso,Lotus:gruen", "--seed", "1"])
    service.add_game("t", "turbo", str(game_dir), secret="fuzzgeheim")
    service.bind("t", "enzo@example.net", "Ferrari", "de")
    service.bind("t", "colin@example.net", "Lotus", "en")
    others = add_fd_race(service, "fuzzgeheim")
    sheet = (EXAMPLES / "ferrari-runde-1.txt").read_text(encoding="utf-8")
    rng = random.Random(14)
    mails = [mutated_mail(rng, sheet, "fuzzgeheim", others) for _ in range(500)]
    for raw in mails:
        service.receive(raw, "fuzz")
    service.process_pending()
    distinct = {content_hash(raw) for raw in mails}
    with service.store.sessions.read() as session:
        rows = session.scalars(select(MailInRow)).all()
        assert len(rows) == len(distinct)
        assert {content_hash(r.raw) for r in rows} == distinct
        statuses = {r.status for r in rows}
        assert statuses <= {"processed", "refused", "duplicate"}, statuses
        answered = session.scalar(select(func.count(func.distinct(MailOutRow.reply_to_in))))
        expected = [r for r in rows if r.status != "duplicate" and r.sender
                    and r.outcome != '{"refused": "automatic"}'
                    and '"answer_held"' not in r.outcome]  # a repeated refusal: kept, quiet
        assert answered == len(expected)
        for out in session.scalars(select(MailOutRow)):
            head = out.raw.split(b"\r\n\r\n", 1)[0]
            assert b"\nBcc:" not in head and b"victim" not in head
