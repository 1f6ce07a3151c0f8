"""The kinds of question a race asks and the karma actions: shared by the questions
(``race_questions``) and the answers (``race_decisions``)."""

from __future__ import annotations

from enum import StrEnum


class AskKind(StrEnum):
    """The kinds of question a race asks a driver."""

    SETUP = "setup"  # 22 points and the starting tyres (Dresden "Rennen"; Masters 5)
    BOX = "box"  # box choice in grid order (Dresden "Rennen")
    TURN = "turn"  # gear, boost, soft bonus, launch, pit announcement (Masters 6-3 1–3)
    MOVE = "move"  # which legal move (Masters 6-3 5–8)
    PIT = "pit"  # what the crew does, on arrival (Dresden "Boxenstopp"; Masters 19-3, 19-4)
    KARMA = "karma"  # spend karma on a failed own event roll (Dresden "Karmapool")
    BID = "bid"  # secret karma bid when level with other cars (Dresden "Kopf an Kopf")
    ROLL = "roll"  # the number a real die showed, in a race at the table (issue 29)


class KarmaAction(StrEnum):
    NONE = "none"
    PLUS_ONE = "plus_one"
    REROLL = "reroll"
