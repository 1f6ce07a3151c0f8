"""Mutated mails for robustness checks (tests and ``benchmarks/mail_fuzz.py``).

Each mail starts from a plausible order mail and is bent in one or more of the ways real mail
gets bent: broken MIME boundaries and encodings, wrong or unknown charsets, random bytes, cut
off, huge attachments, header injection in display names and subjects, deep nesting.
"""

from __future__ import annotations

import base64
import random

from rennleitung.mail.fd_game import FdAdapter
from rennleitung.mail.service import MailService
from rennleitung.play import RaceService, RaceSpec, SeatKind, SeatSpec

SENDERS = ("enzo@example.net", "colin@example.net", "fremd@example.net", "")


def _headers(rng: random.Random, sender: str, secret: str) -> list[bytes]:
    name = rng.choice(["Enzo", "J\xfcrgen", "Evil\r\nBcc: victim@example.org",
                       "=?utf-8?q?A=0D=0ABcc=3A_x=40y=2Ez?=", "\"Quote", "<>", "a" * 3000])
    subject = rng.choice([f"Zug {secret}", secret, "=?unknown?b?!!!?=",
                          f"x\r\nBcc: v@w.de {secret}", "",
                          "=?utf-8?b?" + base64.b64encode("Züge".encode()).decode() + "?="])
    lines = [f"From: {name} <{sender}>" if sender else "From: nobody",
             "To: spiel@example.org", f"Subject: {subject}",
             f"Message-ID: <{rng.getrandbits(64):x}@fuzz>"]
    if rng.random() < 0.05:
        lines.append("Auto-Submitted: auto-replied")
    return [line.encode("utf-8", errors="surrogateescape") for line in lines]


def _body(rng: random.Random, sheet: str, secret: str) -> list[bytes]:
    text = f"{secret}\n{sheet}"
    kind = rng.randrange(9)
    if kind == 0:  # plain, some charset, maybe lying about it
        charset = rng.choice(["utf-8", "iso-8859-1", "windows-1252", "x-bogus", "utf-16"])
        data = text.encode(rng.choice(["utf-8", "cp1252", "latin-1"]), errors="replace")
        return [f"Content-Type: text/plain; charset={charset}".encode(), b"", data]
    if kind == 1:  # quoted-printable, maybe broken
        qp = text.replace("ü", "=FC").replace("\n", "=\n" if rng.random() < 0.3 else "\n")
        return [b"Content-Type: text/plain; charset=iso-8859-1",
                b"Content-Transfer-Encoding: quoted-printable", b"",
                qp.encode("latin-1", "replace")]
    if kind == 2:  # base64, maybe cut
        data = base64.b64encode(text.encode("utf-8"))
        if rng.random() < 0.5:
            data = data[: rng.randrange(len(data) + 1)]
        return [b"Content-Type: text/plain; charset=utf-8", b"Content-Transfer-Encoding: base64",
                b"", data]
    if kind == 3:  # HTML only
        html = "<html><body>" + "".join(f"<p>{line}</p>" for line in text.split("\n"))
        return [b"Content-Type: text/html; charset=utf-8", b"", html.encode()]
    if kind == 4:  # multipart with broken boundary
        return [b'Content-Type: multipart/mixed; boundary="b1"', b"", b"--b1",
                b"Content-Type: text/plain", b"", text.encode(), b"--b2--"]
    if kind == 5:  # huge attachment
        size = rng.choice([10_000, 300_000, 2_000_000])
        return [b'Content-Type: multipart/mixed; boundary="b"', b"", b"--b",
                b"Content-Type: text/plain", b"", secret.encode(), b"--b",
                b"Content-Type: text/plain; name=bogen.txt",
                b"Content-Disposition: attachment; filename=\"bogen\r\n.txt\"", b"",
                (sheet + "\nKontakt: " + "x" * size).encode(), b"--b--"]
    if kind == 6:  # deep nesting
        depth = rng.randrange(1, 60)
        parts = [f'Content-Type: multipart/mixed; boundary="n{i}"\r\n\r\n--n{i}'.encode()
                 for i in range(depth)]
        return [*parts, b"Content-Type: text/plain", b"", text.encode()]
    if kind == 7:  # random bytes
        return [b"", bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 2000)))]
    return [b"", text.encode("utf-8")]  # no MIME headers at all


def mutated_mail(rng: random.Random, sheet: str, secret: str,
                 others: dict[str, str] | None = None) -> bytes:
    """One mutated mail. ``others`` adds senders, each with the text he sends (e.g. a Formula
    Dé player's orders) instead of ``sheet``."""
    senders = SENDERS + tuple(others or ())
    sender = rng.choice(senders)
    text = (others or {}).get(sender, sheet)
    lines = _headers(rng, sender, secret) + _body(rng, text, secret)
    raw = b"\r\n".join(lines)
    if rng.random() < 0.15:  # flip some bytes
        data = bytearray(raw)
        for _ in range(rng.randrange(1, 20)):
            data[rng.randrange(len(data))] = rng.getrandbits(8)
        raw = bytes(data)
    if rng.random() < 0.1:  # cut off
        raw = raw[: rng.randrange(len(raw) + 1)]
    if rng.random() < 0.1:  # bare LF
        raw = raw.replace(b"\r\n", b"\n")
    return raw


FD_ORDERS = ("Gang 4\nBoost\nWenn zu viel: bremsen, Spur halten\nBox: 8 Punkte, weiche Reifen\n"
             "Ziel C57\nB21,A22,B22\nKarma +1\nGebot 3\nReifen 4, Bremsen 3\nStartreifen hart\n")
"""Formula Dé orders of every kind at once, for a player's mutated mails (never all fitting
the question asked: the answer names the lines)."""


def add_fd_race(service: MailService, secret: str) -> dict[str, str]:
    """A running Formula Dé race by mail, game ``gp`` (anna@example.net in car1, three bots),
    for mutated mails; returns the extra sender with the orders she sends."""
    races = RaceService(service.engine)
    service.adapters["fd"] = FdAdapter(races, png=False)
    seats = (SeatSpec("car1", "Anna"),
             *(SeatSpec(f"car{n}", f"Bot {n}", kind=SeatKind.BOT, bot="simple")
               for n in (2, 3, 4)))
    race_id = races.create_race(RaceSpec("monaco", "dresden-2006", seats, laps=1), seed="fuzz")
    service.add_game("gp", "fd", str(race_id), secret=secret)
    service.bind("gp", "anna@example.net", "car1", "de")
    races.start(race_id)
    return {"anna@example.net": FD_ORDERS}
