"""The race's side facing its drivers: which questions are open, which answers they accept,
taking an answer (or a batch of simultaneous answers) and handing it to the flow, and halting a
car (Dresden "FD Blitz"). An answer is validated completely before anything changes, so a
refused answer leaves the race as it was.
"""

from __future__ import annotations

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.dice import RollWanted
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.movecheck import check_move
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race.core import RACING, Answer, RaceCore, TurnCut
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BidChoice,
    BoxChoice,
    Decision,
    DecisionError,
    Halt,
    KarmaChoice,
    MoveChoice,
    PitChoice,
    RollEntry,
    SetupChoice,
    StaleVersion,
    TakeBack,
    TurnChoice,
)
from rennleitung.formula_de.race_pit import all_plans, check_plan
from rennleitung.formula_de.race_questions import (
    BidQuestion,
    BoxQuestion,
    KarmaQuestion,
    MoveQuestion,
    PitQuestion,
    Question,
    RollQuestion,
    SetupQuestion,
    TurnQuestion,
)

_CUT_SHORT = frozenset({AskKind.TURN, AskKind.MOVE, AskKind.PIT})
"""Questions asked only inside the asked car's own turn: ``halt`` may end that turn there."""


class Answers(RaceCore):
    """Open questions, legal decisions, ``check``, ``apply`` and ``halt``."""

    def legal_decisions(self, car: str | None = None) -> list[Decision]:
        """The decisions the open question of ``car`` (default: ``pending``) accepts. Setups,
        pit plans and move paths are open sets: the list holds the standard setup per tyre,
        every plan worth listing and the generator's paths; ``apply`` accepts any setup the
        ruleset allows and any path the driving rules allow."""
        ask = self._question(car) if car is not None else self.pending
        if ask is None:
            return []
        if isinstance(ask, SetupQuestion):
            return [SetupChoice(ask.fixed or ask.suggested, tyre) for tyre in Tyre]
        if isinstance(ask, BoxQuestion):
            return [BoxChoice(b) for b in ask.boxes]
        if isinstance(ask, MoveQuestion):
            return [MoveChoice(o.path) for o in ask.moves]
        if isinstance(ask, KarmaQuestion):
            return [KarmaChoice(a) for a in ask.karma_actions]
        if isinstance(ask, BidQuestion):
            return [BidChoice(k) for k in range(ask.karma + 1)]
        if isinstance(ask, RollQuestion):
            return [RollEntry(face) for face in ask.faces]
        if isinstance(ask, PitQuestion):
            plans = all_plans(self.ruleset, self.cars[ask.car], self.info[ask.car].start_wear)
            return [PitChoice(p) for p in plans]
        found: list[Decision] = []
        for gear in ask.gears:
            for boost in (False, True) if ask.boost else (False,):
                for soft in (False, True) if ask.soft_bonus else (False,):
                    for launch in (True, False) if ask.launch_optional else (True,):
                        found.append(TurnChoice(gear, boost, soft, launch))
        return found

    def check(self, decision: Decision, *, car: str | None = None) -> None:
        """Raise ``DecisionError`` naming the rule or field if ``apply`` would refuse this
        answer now; change nothing."""
        if isinstance(decision, Halt):
            return
        if isinstance(decision, RollEntry):
            self.check_roll(decision)
            return
        if isinstance(decision, TakeBack):
            self._check_take_back()
            return
        self._validate(self._asked(car), decision)
        self._chosen = None

    def apply(
        self, decision: Decision, *, car: str | None = None, expected_version: int | None = None
    ) -> None:
        """Answer the open question of ``car`` (default: ``pending``'s car). Answers to
        simultaneous questions come in any order; the race goes on when all are in, in the
        rules' order. With ``expected_version`` the answer must have been made against this
        version (else ``StaleVersion``). An illegal answer raises ``DecisionError`` naming the
        rule or field; a refused answer leaves the race unchanged."""
        if expected_version is not None and expected_version != self.version:
            raise StaleVersion(expected_version, self.version)
        if isinstance(decision, Halt):
            asked = self.pending
            if asked is None:
                raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
            self.halt(asked.car if car is None else car)
            return
        if isinstance(decision, RollEntry | TakeBack):
            self._table_entry(car, decision)
            return
        ask = self._asked(car)
        self._validate(ask, decision)
        self._decisions.append((ask.car, decision))
        after, self._after = self._after, []
        for entry in after:  # a table race's replay: the numbers entered after this one
            self._log_entry(*entry)
        if not self._batch:
            self._send(decision)
            return
        self._answers[ask.car] = decision
        if all(q.car in self._answers for q in self._open):
            self._send(dict(self._answers))

    def _asked(self, car: str | None) -> Question:
        """The open, unanswered question of ``car`` (default: ``pending``)."""
        if self.finished:
            raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
        ask = self.pending if car is None else self._question(car)
        if ask is None:
            assert car is not None
            if car not in self.cars:
                raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "car")
            raise DecisionError(
                f"an {self.driver(car)} ist jetzt keine Frage offen",
                f"no question is open for {self.driver(car)} now",
                "car",
            )
        return ask

    def _question(self, car: str) -> Question | None:
        return next((q for q in self.questions() if q.car == car), None)

    def _open_now(self, asked: Question | tuple[Question, ...]) -> None:
        self._batch = isinstance(asked, tuple)
        self._open = asked if isinstance(asked, tuple) else (asked,)
        self._answers = {}
        if self._batch and not self._open:  # nobody left to ask
            self._send({})

    def _send(self, answer: Answer) -> None:
        try:
            self._open_now(self._proc.send(answer))
        except StopIteration:
            self._open = ()
            self._answers = {}
        except RollWanted as wanted:  # a race at the table: ask the die (race/table.py)
            self._roll_wanted(wanted)

    def _apply_entry(self, car: str, decision: Decision) -> None:
        """One decision of a replay, halts included."""
        if isinstance(decision, Halt):
            self.halt(car)
        else:
            self.apply(decision, car=car)

    def halt(self, car: str) -> None:
        """Stop ``car`` for the rest of the race: it makes no more turns and stands where it is,
        an obstacle like any car (Dresden "FD Blitz": a player whose time is up "muß sofort
        seinen Zug beenden. Das Auto bleibt dort stehen, wo es gerade steht"). If the car's own
        gear, move or pit question is pending, its turn ends there: what is rolled stays rolled,
        the rest is not done. A secret bid not yet made is dropped (no bid); any other open
        question of the car is answered first. The halt is kept among the decisions, so the
        record replays it at the same moment."""
        if self.finished:
            raise DecisionError("das Rennen ist vorbei", "the race is over", "race")
        if car not in self.cars:
            raise DecisionError(f"unbekanntes Auto {car!r}", f"unknown car {car!r}", "halt")
        if self.round == 0:
            raise DecisionError(
                "vor dem Start hält kein Auto an",
                "no car can be halted before the start",
                "Dresden FD Blitz",
            )
        if car in self.halted or self.cars[car].status not in RACING:
            raise DecisionError(
                f"{self.driver(car)} fährt nicht mehr",
                f"{self.driver(car)} is no longer moving",
                "Dresden FD Blitz",
            )
        own = self._question(car)
        batch = self._batch
        cut = own is not None and not batch
        if own is not None and not batch and own.kind not in _CUT_SHORT:
            raise DecisionError(
                "erst die offene Frage beantworten",
                "answer the pending question first",
                f"race.{car}",
            )
        self.halted.add(car)
        self._decisions.append((car, Halt()))
        self._emit(EventKind.HALTED, car, rule="Dresden FD Blitz")
        if own is not None and batch:
            self._open = tuple(q for q in self._open if q.car != car)
            if all(q.car in self._answers for q in self._open):
                self._send(dict(self._answers))
        elif cut:
            try:
                self._open_now(self._proc.throw(TurnCut()))
            except StopIteration:
                self._open = ()
            except RollWanted as wanted:
                self._roll_wanted(wanted)

    def _validate(self, ask: Question, decision: Decision) -> None:
        self._chosen = None
        rule = {
            AskKind.SETUP: SetupChoice,
            AskKind.BOX: BoxChoice,
            AskKind.TURN: TurnChoice,
            AskKind.MOVE: MoveChoice,
            AskKind.PIT: PitChoice,
            AskKind.KARMA: KarmaChoice,
            AskKind.BID: BidChoice,
            AskKind.ROLL: RollEntry,
        }[ask.kind]
        if not isinstance(decision, rule):
            raise DecisionError(
                f"erwartet wird eine Entscheidung der Art {ask.kind.value}",
                f"a decision of kind {ask.kind.value} is expected",
                f"race.{ask.car}",
            )
        if isinstance(ask, SetupQuestion) and isinstance(decision, SetupChoice):
            try:
                decision.wear.validate_setup(
                    total=ask.points,
                    box_max=ask.box_max,
                    area_minimum=ask.area_minimum,
                    fixed=ask.fixed,
                )
            except RennleitungError as error:
                raise DecisionError(error.de, error.en, error.where or "setup") from None
        elif isinstance(ask, BoxQuestion) and isinstance(decision, BoxChoice):
            if decision.box not in ask.boxes:
                raise DecisionError(
                    f"Box {decision.box} ist nicht frei",
                    f"box {decision.box} is not free",
                    "Dresden Rennen",
                )
        elif isinstance(ask, TurnQuestion) and isinstance(decision, TurnChoice):
            self._validate_turn(ask, decision)
        elif isinstance(ask, MoveQuestion) and isinstance(decision, MoveChoice):
            self._chosen = self._move_option(ask, decision.path)
        elif isinstance(ask, BidQuestion) and isinstance(decision, BidChoice):
            if not 0 <= decision.karma <= ask.karma:
                raise DecisionError(
                    f"Gebot zwischen 0 und {ask.karma} Karma",
                    f"a bid between 0 and {ask.karma} karma",
                    "Dresden Kopf an Kopf",
                )
        elif isinstance(decision, PitChoice):
            car = self.cars[ask.car]
            check_plan(self.ruleset, car, self.info[ask.car].start_wear, decision.plan)
        elif (
            isinstance(ask, KarmaQuestion)
            and isinstance(decision, KarmaChoice)
            and decision.action not in ask.karma_actions
        ):
            raise DecisionError(
                "nicht genug Karma dafür", "not enough karma for that", "Dresden Karmapool"
            )

    def _move_option(self, ask: MoveQuestion, path: tuple[int, ...]) -> MoveOption:
        """The option a path stands for: the offered one with this path, else any path the
        literal rules accept (``movecheck.check_move``) at its cost; a path that breaks a rule
        is refused with the first rule it breaks (Masters 7, 11, 12, 18, 19)."""
        offered = next((o for o in ask.moves if o.path == path), None)
        if offered is not None:
            return offered
        first: RennleitungError | None = None
        for request in self._requests:
            try:
                return check_move(self.track, request, path)[0]
            except RennleitungError as error:
                first = first or error
        assert first is not None  # a move question always has its request
        raise DecisionError(first.de, first.en, first.where)

    def _validate_turn(self, ask: TurnQuestion, choice: TurnChoice) -> None:
        if choice.gear not in ask.gears:
            allowed = ", ".join(map(str, ask.gears))
            raise DecisionError(
                f"Gang {choice.gear} nicht erlaubt (möglich: {allowed})",
                f"gear {choice.gear} not allowed (possible: {allowed})",
                "Dresden Auto; Masters 6-2, 13",
            )
        if choice.boost and not ask.boost:
            raise DecisionError(
                "Motor-Boost nicht erlaubt (nicht mit dem letzten Motorpunkt)",
                "engine boost not allowed (not with the last engine point)",
                "Dresden Verschleiß",
            )
        if choice.soft_bonus and not ask.soft_bonus:
            raise DecisionError(
                "der Weichreifen-Bonus gilt nur in der ersten Runde des Satzes bei Sonne",
                "the soft-tyre bonus only applies on the set's first lap in sunshine",
                "Dresden Reifen",
            )
        if not choice.launch and not ask.launch_optional:
            raise DecisionError(
                "der Startbonus des Profils ist hier nicht wählbar",
                "the profile's launch bonus is not optional here",
                "Dresden Fahrerprofile",
            )
        if choice.pit is not None:
            if not ask.pit_plans:
                raise DecisionError(
                    "jetzt ist keine Boxenansage möglich",
                    "no pit announcement possible now",
                    "Dresden Boxenstopp",
                )
            car = self.cars[ask.car]
            check_plan(self.ruleset, car, self.info[ask.car].start_wear, choice.pit)
