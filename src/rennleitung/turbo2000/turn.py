"""The working context of one evaluation: state being changed, dice, log, report notes.

Every die and every lot goes through ``Turn`` so that the log shows it; the random generator is
seeded from the game's seed and the round number, never the global one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.sheet import OrderSheet


def round_random(seed: str, round_number: int) -> random.Random:
    """The one generator of a round: the same seed and round give the same dice."""
    return random.Random(f"turbo2000:{seed}:{round_number}")


@dataclass
class RaceSheet:
    """One race on the results sheet: its heading, the result table, and lines that belong to it
    (a constructors' prize, the early end of a Rallye)."""

    title: str
    score_label: str
    rows: list[tuple[str, ...]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    title_en: str = ""
    """The heading for the English results sheet (issue 24); empty: the German one."""


@dataclass
class Turn:
    """State, settings, dice, log and notes of the evaluation in progress."""

    state: GameState
    config: GameConfig
    rng: random.Random
    sheets: dict[str, OrderSheet] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)
    ledger: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    news: dict[str, list[str]] = field(default_factory=dict)
    rejections: dict[str, list[Problem]] = field(default_factory=dict)
    races: list[RaceSheet] = field(default_factory=list)
    race_log: dict[str, list[str]] = field(default_factory=dict)
    english: dict[str, str] = field(default_factory=dict)
    """English for German-only report lines (ledger entries, race lines): an English team's
    report (``reports/TEAM.en.txt``) uses it, the bilingual one keeps the German (issue 24)."""
    tally: dict[str, int] = field(default_factory=dict)
    """Counts for the balance study (sections, risk-table rows, Formel N caps); not reported."""
    """What happened to each team's cars, section by section (the team report's race part)."""
    step: str = ""

    def begin(self, step: str) -> None:
        """Start a step of the turn; its log lines carry its name."""
        self.step = step
        self.log.append(f"== {step}")

    def say(self, text: str) -> None:
        """A line for the game master's log."""
        self.log.append(f"[{self.step}] {text}")

    def tell(self, team: str, text: str, english: str = "") -> None:
        """A line for one team's report; ``english`` words it for an English report."""
        self.notes.setdefault(team, []).append(text)
        if english:
            self.english[text] = english

    def publish(self, section: str, text: str, english: str = "") -> None:
        """A line for the public results sheet (Rennanzeiger), with its English wording."""
        self.news.setdefault(section, []).append(text)
        if english:
            self.english[text] = english

    def count(self, key: str, number: int = 1) -> None:
        """Add to a tally of the balance study."""
        self.tally[key] = self.tally.get(key, 0) + number

    def race_note(self, text: str, english: str = "") -> None:
        """A line for the results sheet under the race being run, with its English wording."""
        self.races[-1].lines.append(text)
        if english:
            self.english[text] = english

    def tell_race(self, team: str, lines: list[str], english: list[str] | None = None) -> None:
        """A race as one team's cars lived it, for its report (with English where given)."""
        self.race_log.setdefault(team, []).extend(lines)
        for german, said in zip(lines, english or [], strict=False):
            self.english[german] = said

    def reject(self, team: str, problem: Problem) -> None:
        """An order that cannot be carried out: logged and told to the team in both languages."""
        self.say(f"{team}: {problem.text()}")
        self.tell(team, problem.text(), problem.text_en())
        self.rejections.setdefault(team, []).append(problem)

    def roll(self, sides: int, purpose: str) -> int:
        """One die, logged with its purpose."""
        value = self.rng.randint(1, sides)
        self.say(f"W{sides} {purpose}: {value}")
        return value

    def roll_many(self, count: int, sides: int, purpose: str) -> list[int]:
        """Several dice, logged on one line."""
        values = [self.rng.randint(1, sides) for _ in range(count)]
        if values:
            self.say(f"{count}W{sides} {purpose}: {' '.join(map(str, values))}")
        return values

    def lot(self, purpose: str) -> float:
        """A lot to break ties, drawn for every candidate and logged like a die."""
        value = self.rng.random()
        self.say(f"Los {purpose}: {value:.6f}")
        return value

    def pay(self, team: str, amount: int, why: str, english: str = "") -> None:
        """Move money: positive is income, negative an expense; ``english`` words ``why`` for
        an English report."""
        if english:
            self.english[why] = english
        self.state.teams[team].money += amount
        self.ledger.setdefault(team, []).append((why, amount))

    def can_pay(self, team: str, amount: int) -> bool:
        """Orders that cost money need it on the account at that moment."""
        return self.state.teams[team].money >= amount
