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

import contextlib
import copy
import re
from datetime import UTC, datetime
from pathlib import Path

from rennleitung.errors import RennleitungError
from rennleitung.mail import texts
from rennleitung.mail.game import Handled, Mailroom, Order, reply_subject
from rennleitung.render.mail_message import Attachment, Outgoing
from rennleitung.render.turbo_html import document_page
from rennleitung.store.mail_store import Binding, GameInfo
from rennleitung.store.turbo_games import GameDir
from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.document import as_text
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.intake import check_sheet, later_round, sender_problems
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import preview_problems
from rennleitung.turbo2000.reports import start_document

_MAILED = re.compile(r"^\d+-mail\d+-(.+)\.txt$")


def _team_of(path: Path, state: GameState, config: GameConfig) -> str:
    """The team of a sheet in the inbox: from the name of a mailed one, else by reading it."""
    mailed = _MAILED.match(path.name)
    if mailed:
        return mailed.group(1)
    return check_sheet(GameDir.sheet_text(path), state, config).team


def _written(order: Order) -> datetime:
    """When a mailed sheet was written: its Date header, else (none, or unreadable) arrival."""
    when = order.decoded.written_at or order.received_at
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def _problem_lines(language: str, problems: list[Problem],
                   preview: list[Problem] | None = None) -> list[str]:
    """The problems and the (marked) preview's, in line order; the sheet's own first on a line."""
    found = sorted([(p.line, 0, p) for p in problems] + [(p.line, 1, p) for p in preview or []],
                   key=lambda item: item[:2])
    mark = texts.pick(language, " (Vorschau)", " (preview)")
    lines = []
    for _, from_preview, problem in found:
        place = (texts.pick(language, f"Zeile {problem.line}", f"line {problem.line}")
                 if problem.line else texts.pick(language, "Blatt", "sheet"))
        said = texts.pick(language, problem.de, problem.en)
        lines.append(f"  {place} [{problem.field}]: {said}{mark if from_preview else ''}")
    return lines


def _english_start(game: GameDir, suffix: str) -> bytes:
    """The start sheet in English, made from the state before round 1 (a game directory made
    before ``turbo new`` wrote ``rennanzeiger.en.txt``)."""
    document = start_document(game.state(1), game.config(1), "en")
    text = as_text(document) if suffix == "txt" else document_page(document, language="en")
    return text.encode("utf-8")


class TurboAdapter:
    """The mail face of TURBO 2000 game directories."""

    def __init__(self, preview: bool = True) -> None:
        self.preview = preview
        self._cache: dict[Path, tuple[tuple[int, ...], GameConfig, int, GameState]] = {}

    def _game(self, game: GameDir) -> tuple[GameConfig, int, GameState]:
        """Settings, current round and its state; read again only when the files change."""
        round_number = game.current_round()
        stamp = (round_number, *game.state_stamp(round_number))
        known = self._cache.get(game.path)
        if known is None or known[0] != stamp:
            known = (stamp, game.config(), round_number, game.state(round_number))
            self._cache[game.path] = known
        # the checks only read the state; the preview's evaluation gets a copy of its own
        return known[1], known[2], copy.deepcopy(known[3]) if self.preview else known[3]

    def handle(self, service: Mailroom, order: Order) -> Handled:
        game = GameDir(Path(order.binding.game.location))
        language = order.binding.language
        subject = reply_subject(order.decoded.subject)
        config, round_number, state = self._game(game)
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
        waits = later_round(order.text, state, config)
        if waits and all(problem.field == "Runde" for problem in refused):
            return self._waiting(game, order, sheet.team, waits, round_number)
        if refused:
            head = texts.pick(language, f"Ihr Bogen für Runde {sheet.round} wurde abgelehnt:",
                              f"Your sheet for round {sheet.round} has been refused:")
            body = "\n".join([head, *_problem_lines(language, refused)])
            return Handled({"refused": "sheet", "round": round_number,
                            "problems": len(refused)},
                           [Outgoing(sender, subject, texts.letter(language, body))], "refused")
        earlier = [p for p in game.inbox() if _team_of(p, state, config) == sheet.team
                   and not p.name.endswith(f"-mail{order.mail_id}-{sheet.team}.txt")]
        written = _written(order)
        newer = [p for p in earlier if game.written(p) > written]
        if newer:
            return self._older(order, sheet.round, written, newer[-1], game.written(newer[-1]))
        path = game.submit(order.text, f"mail{order.mail_id}-{sheet.team}.txt", written)
        line_problems = list(sheet.problems)
        # one pass, in line order, as ``turbo check --game``: the sheet's own problems and
        # (marked) what the trial evaluation refuses; it runs even when some lines are faulty
        preview = (preview_problems(order.text, state, config)
                   if self.preview and not any(p.line == 0 for p in line_problems) else [])
        lines = [texts.pick(language, f"Ihr Bogen für Runde {round_number} ist angenommen.",
                            f"Your sheet for round {round_number} has been accepted.")]
        if earlier:
            lines.append(texts.pick(
                language, "Er ersetzt Ihren früheren Bogen dieser Runde; es zählt dieser, "
                f"geschrieben {_when(written)}.", "It replaces your earlier sheet of this "
                f"round; this one counts, written {_when(written)}."))
        if line_problems or preview:
            lines += ["", texts.pick(language, "Diese Zeilen werden nicht ausgeführt:",
                                     "These lines will not be carried out:")]
            if preview:
                lines.append(texts.pick(
                    language, "(Vorschau: so, falls kein anderer Rennstall dazwischenkommt)",
                    "(preview: so, if no other team interferes)"))
            lines += _problem_lines(language, line_problems, preview)
        else:
            lines.append(texts.pick(language, "Alle Zeilen sind in Ordnung.",
                                    "Every line is fine."))
        lines += ["", texts.pick(language, f"Eingangsnummer: {path.name}",
                                 f"Receipt: {path.name}")]
        outcome: dict[str, object] = {"accepted": path.name, "round": round_number,
                                      "team": sheet.team, "problems": len(line_problems),
                                      "preview": len(preview),
                                      "replaces": [p.name for p in earlier]}
        return Handled(outcome, [Outgoing(sender, subject,
                                          texts.letter(language, "\n".join(lines)))])

    def _older(self, order: Order, round_number: int, written: datetime, newer: Path,
               newer_written: datetime) -> Handled:
        """A sheet written before one already in the inbox (mail can overtake mail): the
        later-written counts, by the mails' Date as Eressea does (issue 24), so this one is
        not put in, and the answer names the sheet that counts."""
        language = order.binding.language
        body = texts.pick(
            language, f"Ihr Bogen für Runde {round_number}, geschrieben {_when(written)}, ist "
            f"älter als Ihr Bogen {newer.name}, geschrieben {_when(newer_written)}. Es zählt "
            f"der später geschriebene: {newer.name}. Dieser Bogen wurde nicht übernommen.",
            f"Your sheet for round {round_number}, written {_when(written)}, is older than "
            f"your sheet {newer.name}, written {_when(newer_written)}. The later-written one "
            f"counts: {newer.name}. This sheet has not been taken.")
        return Handled({"refused": "older", "round": round_number, "counts": newer.name},
                       [Outgoing(order.decoded.sender, reply_subject(order.decoded.subject),
                                 texts.letter(language, body))], "refused")

    def _waiting(self, game: GameDir, order: Order, team: str, waits: int,
                 round_number: int) -> Handled:
        """A sheet for a later round (sent early, or while the game master undoes a round,
        issue 28) goes into the inbox and waits for its round, as ``turbo submit`` keeps it;
        refusing it lost the orders."""
        language = order.binding.language
        path = game.submit(order.text, f"mail{order.mail_id}-{team}.txt", _written(order))
        body = texts.pick(
            language, f"Ihr Bogen für Runde {waits} ist angenommen. Ausgewertet wird jetzt Runde "
            f"{round_number}; er wartet auf seine Runde.\n\nEingangsnummer: {path.name}",
            f"Your sheet for round {waits} has been accepted. Round {round_number} is being "
            f"evaluated now; it waits for its round.\n\nReceipt: {path.name}")
        return Handled({"accepted": path.name, "round": waits, "waits": True, "team": team},
                       [Outgoing(order.decoded.sender, reply_subject(order.decoded.subject),
                                 texts.letter(language, body))])

    def welcome_parts(self, binding: Binding) -> tuple[str, list[Attachment]]:
        """What the welcome mail of a team adds (issue 24): how to send a sheet by mail, and
        the start sheet (``rounds/000/rennanzeiger``: teams, free drivers, the races of round
        1), in the team's language; once rounds are evaluated, the newest results sheet
        too, which announces the races of the round now asked for."""
        game = GameDir(Path(binding.game.location))
        language = binding.language
        try:
            current = game.current_round()
        except (RennleitungError, OSError):
            return "", []  # the directory cannot be read now: the welcome goes without it
        text = texts.pick(
            language,
            f"So spielen Sie per Mail: schicken Sie Ihren Bogen für Runde {current} als "
            "Text der Mail (oder als .txt-Anhang), am einfachsten als Antwort auf diese Mail. "
            f"Er beginnt mit\n\n  Rennstall: {binding.seat}\n  Passwort: (Ihr Passwort von der "
            f"Spielleitung)\n  Runde: {current}\n\ndann eine Anweisung je Zeile (siehe die "
            "Anleitung zu den Bögen). Jeder Bogen wird sofort geprüft; die Antwort nennt jede "
            "Zeile, die nicht ausgeführt wird. Ein späterer Bogen derselben Runde ersetzt den "
            "früheren. Nach jeder Auswertung bekommen Sie Ihren Bericht und den Rennanzeiger.",
            f"How to play by mail: send your sheet for round {current} as the text of a mail "
            "(or as a .txt attachment), most simply as a reply to this mail. It starts with"
            f"\n\n  Rennstall: {binding.seat}\n  Passwort: (your password from the game master)"
            f"\n  Runde: {current}\n\nthen one order per line (see the guide to the sheets; "
            "the sheet's keywords stay German). Each sheet is checked at once; the answer "
            "names every line that will not be carried out. A later sheet of the same round "
            "replaces the earlier one. After each evaluation you get your report and the "
            "results sheet.")
        files = []
        for number, name in ((0, texts.pick(language, "startbogen", "start-sheet")),
                             (current - 1, "rennanzeiger")):
            if number < 0 or (number == 0 and name == "rennanzeiger"):
                continue
            for suffix, mime in (("txt", "text/plain"), ("html", "text/html")):
                data = game.results_sheet(number, suffix, language)
                if number == 0 and language == "en" and not game.results_sheet(
                        0, f"en.{suffix}"):  # a game made before English start sheets
                    with contextlib.suppress(RennleitungError, OSError):
                        data = _english_start(game, suffix)
                if data is not None:
                    files.append(Attachment(f"{name}-{number:03d}.{suffix}", mime, data))
        names = ", ".join(item.filename for item in files if item.filename.endswith(".txt"))
        if names:
            text += "\n\n" + texts.pick(language, f"Anbei: {names} (auch als Seite, .html).",
                                         f"Attached: {names} (also as a page, .html).")
        return text, files

    def tick(self, service: Mailroom, game: GameInfo, now: datetime) -> list[Outgoing]:
        """Nothing by itself: reports go out when the game master says so (``mail reports``),
        because until then ``turbo undo`` may still take the round back."""
        return []


def queue_reports(service: Mailroom, key: str, round_number: int = 0) -> list[int]:
    """Queue every bound team its report of an evaluated round (the newest if 0), with the
    results sheet attached; mark the round as sent (``rounds/NNN/sent/TEAM``) so that
    ``turbo undo`` refuses from now on. A report queued before is not queued again."""
    info = service.game(key)
    if info.kind != "turbo":
        raise RennleitungError(f"{key} ist keine TURBO-2000-Partie",
                               f"{key} is not a TURBO 2000 game", "game")
    game = GameDir(Path(info.location))
    evaluated = round_number or game.current_round() - 1
    here = game.round_dir(evaluated)
    sheet = game.results_sheet(evaluated)
    if evaluated < 1 or evaluated >= game.current_round() or sheet is None:
        raise RennleitungError(f"Runde {evaluated} ist nicht ausgewertet",
                               f"round {evaluated} has not been evaluated", str(here))
    queued = []
    for binding in service.bindings(key):
        report = game.team_report(evaluated, binding.seat, binding.language)
        if report is None:
            continue
        language = binding.language
        # an English team gets the results sheet and its HTML report in English (issue 24)
        sheet = game.results_sheet(evaluated, "txt", language) or sheet
        html = game.results_sheet(evaluated, "html", language)
        page = game.team_report(evaluated, binding.seat, language, "html")
        intro = texts.pick(
            language,
            f"Runde {evaluated} ist ausgewertet. Hier ist der Bericht für {binding.seat}; "
            + ("der Rennanzeiger und der Bericht als Seite (HTML) hängen an" if page else
               "der Rennanzeiger hängt an") + f". Ihr nächster Bogen ist für Runde "
            f"{evaluated + 1}.",
            f"Round {evaluated} has been evaluated. Here is the report for {binding.seat}; "
            + ("the results sheet and the report as a page (HTML) are attached" if page else
               "the results sheet is attached") + f". Your next sheet is for round "
            f"{evaluated + 1}.")
        text = texts.letter(language, f"{intro}\n\n{report}")
        attachments = [Attachment(f"rennanzeiger-{evaluated:03d}.txt", "text/plain", sheet)]
        if html is not None:
            attachments.append(Attachment(f"rennanzeiger-{evaluated:03d}.html", "text/html",
                                          html))
        if page is not None:
            attachments.append(Attachment(
                texts.pick(language, f"bericht-{evaluated:03d}.html",
                           f"report-{evaluated:03d}.html"), "text/html", page.encode("utf-8")))
        subject = texts.pick(language, f"TURBO 2000 {key}: Runde {evaluated}, Bericht "
                             f"{binding.seat}", f"TURBO 2000 {key}: round {evaluated}, report "
                             f"{binding.seat}")
        if binding.token:  # a Reply with the next sheet carries the team's code
            subject += texts.pick(language, f" [Code {binding.token}]",
                                  f" [code {binding.token}]")
        out_id = service.enqueue(Outgoing(binding.address, subject, text, "report",
                                          ref=f"turbo:{info.id}:{evaluated}:{binding.address}",
                                          attachments=attachments), info.id)
        if game.sent_by_hand(evaluated):
            continue  # the game master noted by hand that the reports went out
        game.note_sent(evaluated, binding.seat,
                       None if out_id is None else f"{binding.address} mail_out {out_id}\n")
        if out_id is not None:
            queued.append(out_id)
    return queued
