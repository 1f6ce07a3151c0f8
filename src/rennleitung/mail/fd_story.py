"""What happened since a player's last mail, told at the top of the next one (issue 24).

A mail player sees the race only through his mails, so each question mail starts with the
events since the last mail to his seat: gears, rolls, moves, pit stops, weather, retirements of
every car, with the drivers' names (bots by their name). The events come from the reader's own
view (``View.events``), so a secret (a bid, a setup before the reveal) is told only when that
view may show it. How many events a mail had told is kept in the end of its queue ``ref``
(``:eN``), so the next mail starts where the last one stopped, also after a restart.
"""

from __future__ import annotations

import re

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.event_text import render
from rennleitung.mail.texts import pick
from rennleitung.play.views import View

MAX_LINES = 60
"""Events told at most in one mail; older ones are counted, not listed."""
_TOLD = re.compile(r":e(\d{1,9})$")
OUT = frozenset({CarStatus.OUT, CarStatus.WRECK})
"""A car in one of these has left the race: its driver is told at once."""


def told(ref: str | None) -> int | None:
    """How many events the mail with ``ref`` had told (None: a ref of an older form)."""
    found = _TOLD.search(ref or "")
    return int(found.group(1)) if found else None


def story(seen: View, since: int | None, language: str) -> list[str]:
    """The lines telling the events from number ``since`` on (None: the last mail is not
    known to have told any, so the newest ten), oldest first, under a heading; no lines when
    nothing happened."""
    events = seen.events
    start = max(0, len(events) - 10) if since is None else min(since, len(events))
    new = events[start:]
    if not new:
        return []
    lang = "de" if language == "de" else "en"
    lines = [pick(language, "Seit Ihrer letzten Mail:", "Since your last mail:")
             if since else pick(language, "Bisher im Rennen:", "So far in the race:")]
    if len(new) > MAX_LINES:
        skipped = len(new) - MAX_LINES
        lines.append(pick(language, f"  … {skipped} frühere Ereignisse", f"  … {skipped} "
                          "earlier events"))
        new = new[-MAX_LINES:]
    lines += ["  " + render(event, lang, seen.names) for event in new]
    return [*lines, ""]


def out_of_race(seen: View, car: str) -> bool:
    """Whether ``car`` has left the race (retired, eliminated) in the reader's view."""
    line = seen.car(car)
    return line is not None and line.status in OUT


def out_text(seen: View, car: str, since: int | None, language: str) -> str:
    """The mail telling a player his car is out, with what happened since his last mail."""
    lines = [pick(language, f"Wagen {car} ({seen.driver(car)}) ist aus dem Rennen; es wird "
                  "ohne ihn zu Ende gefahren, das Ergebnis kommt mit der Zielflagge.",
                  f"Car {car} ({seen.driver(car)}) is out of the race; the race goes on "
                  "without it, the result follows at the flag."), ""]
    return "\n".join(lines + story(seen, since, language)).rstrip()
