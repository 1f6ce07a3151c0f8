"""TURBO 2000 by mail: sheets in, checked at once and answered; reports out after evaluation.

The game stays a game directory (``docs/turbo2000/game-master.md``): an accepted sheet is
written into ``inbox/`` exactly as ``turbo submit`` would put it there, so ``turbo evaluate``
reads it with the others. The answer is the same check ``turbo check --game`` shows, in the
team's language: refused as a whole (wrong team, password or round), or accepted, with every
line that will be left out, and whether it replaces an earlier sheet of this round.

After the game master evaluates a round, ``tick`` queues each bound team its report with the
results sheet (Rennanzeiger) attached, once per round and address.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rennleitung.mail import texts
from rennleitung.mail.compose import Attachment, Outgoing
from rennleitung.mail.service import GameInfo, Handled, MailService, Order, reply_subject
from rennleitung.turbo2000.config import GameConfig, config_from_dict
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.intake import check_sheet, sender_problems
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import preview_problems
from rennleitung.turbo2000.state_json import load_state


@dataclass
class TurboDirectory:
    """A game directory as the mail side reads it."""

    path: Path

    def config(self) -> GameConfig:
        return config_from_dict(json.loads((self.path / "config.json")
                                           .read_text(encoding="utf-8")))

    def current_round(self) -> int:
        rounds = sorted(int(p.parent.name) for p in (self.path / "rounds").glob("*/state.json")
                        if p.parent.name.isdigit())
        if not rounds:
            raise FileNotFoundError(f"{self.path}: rounds/*/state.json missing")
        return rounds[-1]

    def state(self, round_number: int) -> GameState:
        return load_state((self.round_dir(round_number) / "state.json")
                          .read_text(encoding="utf-8"))

    def round_dir(self, round_number: int) -> Path:
        return self.path / "rounds" / f"{round_number:03d}"

    def inbox(self) -> list[Path]:
        inbox = self.path / "inbox"
        return sorted(p for p in inbox.iterdir() if p.is_file()) if inbox.exists() else []

    def submit(self, text: str, label: str) -> Path:
        """Put a sheet into the inbox under the next number, never overwriting a file."""
        inbox = self.path / "inbox"
        inbox.mkdir(parents=True, exist_ok=True)
        existing = [p for p in inbox.iterdir() if p.name.endswith(f"-{label}")]
        if existing:
            return existing[0]  # this mail was put there before (processing was repeated)
        number = len(list(inbox.iterdir())) + 1
        while True:
            target = inbox / f"{number:04d}-{label}"
            try:
                with target.open("x", encoding="utf-8", newline="\n") as handle:
                    handle.write(text if text.endswith("\n") else text + "\n")
                return target
            except FileExistsError:
                number += 1


def _read(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


_MAILED = re.compile(r"^\d+-mail\d+-(.+)\.txt$")


def _team_of(path: Path, state: GameState, config: GameConfig) -> str:
    """The team of a sheet in the inbox: from the name of a mailed one, else by reading it."""
    mailed = _MAILED.match(path.name)
    if mailed:
        return mailed.group(1)
    return check_sheet(_read(path), state, config).team


def _problem_lines(language: str, problems: list[Problem]) -> list[str]:
    lines = []
    for problem in problems:
        place = (texts.pick(language, f"Zeile {problem.line}", f"line {problem.line}")
                 if problem.line else texts.pick(language, "Blatt", "sheet"))
        lines.append(f"  {place} [{problem.field}]: {texts.pick(language, problem.de, problem.en)}")
    return lines


class TurboAdapter:
    """The mail face of TURBO 2000 game directories."""

    def __init__(self, preview: bool = True) -> None:
        self.preview = preview

    def handle(self, service: MailService, order: Order) -> Handled:
        game = TurboDirectory(Path(order.binding.game.location))
        language = order.binding.language
        subject = reply_subject(order.decoded.subject)
        config = game.config()
        round_number = game.current_round()
        state = game.state(round_number)
        sender = order.decoded.sender
        if state.finished:
            body = texts.pick(language, "Die Partie ist beendet; Bögen werden nicht mehr "
                              "ausgewertet.", "The game is over; sheets are no longer evaluated.")
            return Handled({"refused": "finished"},
                           [Outgoing(sender, subject, texts.letter(language, body))], "refused")
        sheet = check_sheet(order.text, state, config)
        seat = order.binding.seat
        if sheet.team.lower() != seat.lower():
            body = texts.pick(
                language,
                f"Der Bogen ist für Rennstall '{sheet.team or '?'}', Ihre Adresse ist für "
                f"Rennstall '{seat}' eingetragen. Der Bogen wurde nicht angenommen.",
                f"The sheet is for team '{sheet.team or '?'}', your address is registered for "
                f"team '{seat}'. The sheet has not been accepted.")
            return Handled({"refused": "team", "team": sheet.team, "round": round_number},
                           [Outgoing(sender, subject, texts.letter(language, body))], "refused")
        refused = sender_problems(sheet, state, config)
        if refused:
            head = texts.pick(language, f"Ihr Bogen für Runde {sheet.round} wurde abgelehnt:",
                              f"Your sheet for round {sheet.round} has been refused:")
            body = "\n".join([head, *_problem_lines(language, refused)])
            return Handled({"refused": "sheet", "round": round_number,
                            "problems": len(refused)},
                           [Outgoing(sender, subject, texts.letter(language, body))], "refused")
        earlier = [p for p in game.inbox() if _team_of(p, state, config) == sheet.team]
        path = game.submit(order.text, f"mail{order.mail_id}-{sheet.team}.txt")
        earlier = [p for p in earlier if p != path]
        line_problems = list(sheet.problems)
        preview = (preview_problems(order.text, state, config)
                   if self.preview and not line_problems else [])
        lines = [texts.pick(language, f"Ihr Bogen für Runde {round_number} ist angenommen.",
                            f"Your sheet for round {round_number} has been accepted.")]
        if earlier:
            lines.append(texts.pick(language, "Er ersetzt Ihren früheren Bogen dieser Runde.",
                                    "It replaces your earlier sheet of this round."))
        if line_problems:
            lines += ["", texts.pick(language, "Diese Zeilen werden nicht ausgeführt:",
                                     "These lines will not be carried out:"),
                      *_problem_lines(language, line_problems)]
        elif preview:
            lines += ["", texts.pick(language, "Vorschau, falls kein anderer Rennstall "
                                     "dazwischenkommt:", "Preview, if no other team "
                                     "interferes:"), *_problem_lines(language, preview)]
        else:
            lines.append(texts.pick(language, "Alle Zeilen sind in Ordnung.",
                                    "Every line is fine."))
        lines += ["", texts.pick(language, f"Eingangsnummer: {path.name}",
                                 f"Receipt: {path.name}")]
        outcome: dict[str, object] = {"accepted": path.name, "round": round_number,
                                      "team": sheet.team, "problems": len(line_problems),
                                      "replaces": [p.name for p in earlier]}
        return Handled(outcome, [Outgoing(sender, subject,
                                          texts.letter(language, "\n".join(lines)))])

    def tick(self, service: MailService, game: GameInfo, now: datetime) -> list[Outgoing]:
        """Each bound team's report of the newest evaluated round, with the results sheet."""
        directory = TurboDirectory(Path(game.location))
        try:
            evaluated = directory.current_round() - 1
        except (FileNotFoundError, OSError, ValueError):
            return []
        if evaluated < 1:
            return []
        return self.reports(service, game, evaluated)

    def reports(self, service: MailService, game: GameInfo, round_number: int) -> list[Outgoing]:
        """The report mails of one evaluated round (queued once per round and address)."""
        here = TurboDirectory(Path(game.location)).round_dir(round_number)
        results = here / "rennanzeiger.txt"
        if not results.exists():
            return []
        sheet = results.read_bytes()
        mails = []
        for binding in service.bindings(game.key):
            report = here / "reports" / f"{binding.seat}.txt"
            if not report.exists():
                continue
            language = binding.language
            intro = texts.pick(
                language,
                f"Runde {round_number} ist ausgewertet. Hier ist der Bericht für "
                f"{binding.seat}; der Rennanzeiger hängt an.",
                f"Round {round_number} has been evaluated. Here is the report for "
                f"{binding.seat}; the results sheet is attached.")
            text = texts.letter(language, f"{intro}\n\n{report.read_text(encoding='utf-8')}")
            attachments = [Attachment(f"rennanzeiger-{round_number:03d}.txt", "text/plain",
                                      sheet)]
            html = here / "rennanzeiger.html"
            if html.exists():
                attachments.append(Attachment(f"rennanzeiger-{round_number:03d}.html",
                                              "text/html", html.read_bytes()))
            subject = texts.pick(language, f"TURBO 2000 {game.key}: Runde {round_number}, "
                                 f"Bericht {binding.seat}", f"TURBO 2000 {game.key}: round "
                                 f"{round_number}, report {binding.seat}")
            mails.append(Outgoing(binding.address, subject, text, "report",
                                  ref=f"turbo:{game.id}:{round_number}:{binding.address}",
                                  attachments=attachments))
        return mails
