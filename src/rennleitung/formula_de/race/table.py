"""A race on a real table (issue 29): the dice are the table's, everything else the engine's.

A table race (``RaceConfig.table``) rolls through ``TableDice``, which draws nothing: when the
flow needs a die it has no entered number for, ``RollWanted`` ends the flow there and the race
asks a ``RollQuestion`` ("the number die X showed for purpose Y of car Z"). The answer, a
``RollEntry``, is kept among the decisions like any other answer; the race then rebuilds
itself from its last round boundary (``RaceState``) by replaying the decisions since, each
followed by the numbers entered after it, and goes on to the next question. So the store,
snapshots, records and ``race verify`` see one list of decisions, as in any race.

``TakeBack`` takes back the latest entry not yet taken back, within the round of play under
way (the boundary before it is the state the race rebuilds from) or, when the round has no
entry yet, the last entry of the round before (the entry that ended it: the race then
rebuilds from the boundary before that round, and ``take_rewind`` tells the store that the
later boundary no longer holds): the race replays without it and asks its question again;
both stay in the decisions, and the rebuilt race tells the take-back as an event, so the log
keeps what was taken back.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.dice import DICE, RollWanted, TableDice, check_face
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race.core import RaceCore
from rennleitung.formula_de.race_decisions import (
    DECISION_KIND,
    Decision,
    DecisionError,
    Halt,
    RollEntry,
    TakeBack,
)
from rennleitung.formula_de.race_questions import RollQuestion

TABLE_ENTRIES = (RollEntry, TakeBack)
"""The entries that are not answers to the race's own questions: numbers read off a die and
take-backs. A replay logs them after the decision they followed."""


def taken_back(entries: Sequence[tuple[str, Decision]]) -> set[int]:
    """The positions in ``entries`` that a later ``TakeBack`` took back: each takes back the
    latest entry before it that is neither a take-back nor taken back already."""
    live: list[int] = []
    taken: set[int] = set()
    for n, (_, decision) in enumerate(entries):
        if isinstance(decision, TakeBack):
            if live:
                taken.add(live.pop())
        else:
            live.append(n)
    return taken


class TablePhase(RaceCore):
    """Asking for the table's dice, taking the numbers entered, taking an entry back."""

    @property
    def at_table(self) -> bool:
        """Whether the dice are the table's (``RaceConfig.table``)."""
        return self.config.table

    def _roll_wanted(self, wanted: RollWanted) -> None:
        """The flow stopped at a roll the table has not entered: ask it."""
        die = wanted.die
        self._batch = False
        self._answers = {}
        self._open = (
            RollQuestion(
                car=wanted.car or self.config.entries[0].id,
                die=die.name,
                purpose=wanted.purpose,
                faces=tuple(sorted(set(die.faces))),
                colour_de=die.colour_de,
                colour_en=die.colour_en,
            ),
        )

    def check_roll(self, entry: RollEntry) -> None:
        """Refuse a number the asked die does not show (naming the die), or an entry when no
        roll is asked; change nothing."""
        if not self.at_table:
            raise DecisionError(
                "in diesem Rennen würfelt der Server",
                "the server rolls the dice in this race",
                "table",
            )
        ask = self.pending
        if not isinstance(ask, RollQuestion):
            raise DecisionError(
                "jetzt ist kein Würfelergebnis gefragt",
                "no roll is asked for now",
                "table.roll",
            )
        try:
            check_face(DICE[ask.die], entry.result)
        except RennleitungError as error:  # a DiceError, refused as a decision
            raise DecisionError(error.de, error.en, error.where or ask.die) from None

    def _table_entry(self, car: str | None, entry: RollEntry | TakeBack) -> None:
        """Take a number read off a die, or a take-back; both are kept among the decisions."""
        if self._replaying:
            self._replaying -= 1
            self._log_entry(car or "", entry)
            return
        if isinstance(entry, RollEntry):
            self.check_roll(entry)
            ask = self.pending
            assert ask is not None
            self._decisions.append((ask.car, entry))
        else:
            car, across = self._take_back_target()
            self._decisions.append((car, entry))
            if across:  # the entry ended the last round: rebuilt from the boundary before it
                back = self._prev_base
                self._base, self._prev_base, self._prev_known = back, None, False
                self._rewound = (
                    (back.version, (back.events, back.rolls)) if back is not None else (0, (0, 0))
                )
        self._rebuild()

    def _log_entry(self, car: str, entry: Decision) -> None:
        """A replayed table entry (or a decision taken back): logged; a take-back also told
        as an event."""
        start = self._base.version if self._base is not None else 0
        self._decisions.append((car, entry))
        if isinstance(entry, TakeBack):
            since = self._decisions.since(start)
            for gone in taken_back(since) - taken_back(since[:-1]):
                self._emit_taken_back(since[gone], gone + start)

    def _emit_taken_back(self, taken: tuple[str, Decision], number: int) -> None:
        """The event of a take-back: which entry (its kind, a roll's number), its car and its
        place among the decisions (1-based)."""
        car, decision = taken
        kind = DECISION_KIND.get(type(decision))
        self._emit(
            EventKind.TAKEN_BACK,
            car if car in self.entries else "",
            entry=kind.value if kind else "halt",
            value=decision.result if isinstance(decision, RollEntry) else "",
            decision=number + 1,
        )

    def take_back_car(self) -> str:
        """The car of the entry a ``TakeBack`` would take back now; ``DecisionError`` when
        there is none in the round under way."""
        return self._check_take_back()

    def _check_take_back(self) -> str:
        """The car of the entry a take-back now would take back; refused when there is none."""
        return self._take_back_target()[0]

    def _take_back_target(self) -> tuple[str, bool]:
        """The car of the entry a take-back now would take back, and whether it lies before
        the last round boundary (the entry that ended the round before: taken back only while
        the round under way has no entry of its own); refused when there is none."""
        if not self.at_table:
            raise DecisionError(
                "nur am Tisch lässt sich eine Eingabe zurücknehmen",
                "only a race at the table takes entries back",
                "table",
            )
        for base, across in ((self._base, False), (self._prev_base, True)):
            if across and (not self._prev_known or self._base is None):
                break
            start = base.version if base is not None else 0
            since = self._decisions.since(start)
            gone = taken_back(since)
            live = [
                n
                for n, (_, d) in enumerate(since)
                if n not in gone and not isinstance(d, TakeBack | Halt)
            ]
            if live:
                return since[live[-1]][0], across
        raise DecisionError(
            "in dieser Spielrunde ist keine Eingabe mehr zurückzunehmen",
            "there is no entry left to take back in this round of play",
            "table.take_back",
        )

    def _fed_replay(self, entries: Sequence[tuple[str, Decision]]) -> None:
        """Apply ``entries`` (since the race's state) as they came: each decision with the
        numbers entered after it fed to the dice first and those entries logged right after
        it, before the flow goes on, so a round boundary the flow passes counts them."""
        gone = taken_back(entries)
        dice = self.dice
        assert isinstance(dice, TableDice)
        skip = 0
        for n, (car, decision) in enumerate(entries):
            if skip:
                skip -= 1
                continue
            if isinstance(decision, TABLE_ENTRIES):
                self._table_entry(car, decision)
                continue
            if n in gone:  # taken back: logged, not applied; the entries after it likewise
                follow = 0
                for later in entries[n + 1 :]:
                    if not isinstance(later[1], TABLE_ENTRIES):
                        break
                    follow += 1
                self._decisions.append((car, decision))
                self._replaying += follow
                continue
            # what follows up to the next decision applied: the numbers entered, take-backs
            # and the decisions they took back (a number entered again after a take-back of
            # the decision after it still belongs to this one's roll)
            follow = 0
            for m, (_, item) in enumerate(entries[n + 1 :], start=n + 1):
                if not isinstance(item, TABLE_ENTRIES) and m not in gone:
                    break
                follow += 1
            dice.feed(
                d.result
                for m, (_, d) in enumerate(entries[n + 1 : n + 1 + follow], start=n + 1)
                if isinstance(d, RollEntry) and m not in gone
            )
            self._after = list(entries[n + 1 : n + 1 + follow])
            self._apply_entry(car, decision)
            skip = follow

    @abstractmethod
    def _rebuild(self) -> None: ...
