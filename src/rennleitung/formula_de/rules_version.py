"""Which version of the race rules a race was played under.

A fix of a rule changes how some races unfold, so an old record may no longer replay. Every
fix that changes a race bumps ``RULES_VERSION`` by one and adds its line to ``CHANGES``; a
record names the version it was played under (``record.py``), and ``race verify`` of an older
record that departs names the fixes made since (``replay.verify``). Records without the field
were made under version 1, before the first of these fixes (issue 11).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One behaviour change: the version it introduced, the rule it follows, what changed."""

    version: int
    rule: str
    de: str
    en: str


CHANGES: tuple[RuleChange, ...] = (
    RuleChange(
        2,
        "Masters 8-4-1; Dresden Reifen",
        "frische Reifen aus einer Box vor der Linie altern beim Überqueren der Linie nicht",
        "fresh tyres from a box before the line do not age when crossing the line",
    ),
    RuleChange(
        3,
        "Dresden Verschleiß (over Masters 10-4-2)",
        "ohne VP Reifen scheidet ein Dresdner Auto beim Überschießen aus, statt erneut zu drehen",
        "a Dresden car without tyre points that overshoots retires instead of spinning again",
    ),
    RuleChange(
        4,
        "Dresden Blockierte Spur; Masters 12-1-1, 20-2-1",
        "ein blockiertes Auto ohne den geschuldeten VP Reifen scheidet aus, statt zu drehen",
        "a blocked car without the tyre point it owes retires instead of spinning",
    ),
    RuleChange(
        5,
        "Masters 12-1-2, 12-1-5, 20-2-2; Dresden Ausfälle",
        "die Autos neben einem durch Blockade ausgeschiedenen Wrack würfeln den Kollisionscheck",
        "the cars touching a car eliminated by blocking roll their collision test",
    ),
    RuleChange(
        6,
        "Masters 16-0-5, 18-1-7, 18-1-8",
        "ein Auto mit eben geplatztem Motor bietet bis zu seinem Ausrollzug Windschatten; "
        "im Ausrollzug selbst kein Windschatten",
        "a car whose engine just blew can be slipstreamed until its roll-out move; the roll-out "
        "move itself takes no slipstream",
    ),
    RuleChange(
        7,
        "Masters 16-0-3, 16-0-4, 20-4-2, 14-4",
        "der Trägheitszug fährt so weit wie möglich (um Autos herum, 12-1-3) statt zu bremsen, "
        "und das ausrollende Auto würfelt seinen eigenen Kollisionscheck",
        "the inertia move goes as far as possible (round cars, 12-1-3) instead of braking, and "
        "the car rolling on rolls its own collision test",
    ),
    RuleChange(
        8,
        "Dresden Ausfälle",
        "jedes ausgeschiedene Auto bleibt als Wrack liegen, bis alle es passiert haben",
        "every retired car stays as a wreck until everyone has passed it",
    ),
    RuleChange(
        9,
        "Dresden Boxenstopp",
        "höchstens 4. Gang auch für ein Auto, das noch in seiner Box steht",
        "at most 4th gear also for a car still standing in its box",
    ),
    RuleChange(
        10,
        "Masters 19-1-3, annex 3 (2002)",
        "ein Windschatten darf in die Boxengasse führen",
        "a slipstream may carry the car into the pit lane",
    ),
    RuleChange(
        11,
        "Masters 19-3",
        "der Wurf des schnellen Boxenstopps ist ein Ereignis (quick_stop)",
        "the quick-stop roll is an event (quick_stop)",
    ),
    RuleChange(
        12,
        "Dresden Rennen, Qualifizierung",
        "jeder Wurf nennt das Auto: Würfelliste, Wetter- und Startplatz-Ereignisse",
        "every roll names its car: the roll list, the weather and grid events",
    ),
    RuleChange(
        13,
        "Dresden Neustart",
        "beim kompletten Neustart bekommt jeder ausgeschiedene Fahrer ein T-Car auf seinem "
        "Startplatz (eins je Mannschaft)",
        "a complete restart offers every driver out a T-car on his grid slot (one per team)",
    ),
    RuleChange(
        14,
        "Dresden Open Rennen",
        "in dresden-open wählt jeder Fahrer eine eigene Box",
        "in dresden-open every driver chooses a box of his own",
    ),
    RuleChange(
        15,
        "Entscheidung/decision; Masters 16-0-6",
        "ein Dresdner Auto, das nach Motorschaden in der letzten Runde über die Linie rollt, "
        "kommt ins Ziel",
        "a Dresden car rolling over the line on its last lap after an engine failure finishes",
    ),
    RuleChange(
        16,
        "Masters 12-1-3",
        "blockiert: in masters-2002 nur das weiteste Feld, von dem aus man zuerst am Zug wäre",
        "blocked: in masters-2002 only the farthest end that would play first",
    ),
    RuleChange(
        17,
        "Masters 18-3-1, 18-3-2, 18-5-1",
        "der Weichreifen-Bonus (+1) darf auch nach oder zwischen Windschatten genutzt werden",
        "the soft-tyre +1 may also be spent after or between slipstreams",
    ),
    RuleChange(
        18,
        "Dresden Boxenstopp; Masters 19-1-5 (Entscheidung/decision)",
        "wer in der Boxengasse hinter einem Auto oder vor der besetzten eigenen Box hält, "
        "beendet dort den Zug ohne Brems- oder Reifenpunkte (auch mit 0 VP Bremsen)",
        "a car stopping in the pit lane behind a car or before its occupied own box ends its "
        "move there at no brake or tyre cost (also with 0 brakes)",
    ),
    RuleChange(
        19,
        "Dresden Neustart, Fahrregeln (Entscheidung/decision)",
        "die erste Runde nach einem Neustart geht in Rennreihenfolge, der Führende zuerst, "
        "ohne Kopf-an-Kopf-Gebote",
        "the first round after a restart is played in race order, the leader first, without "
        "head-to-head bids",
    ),
    RuleChange(
        20,
        "Masters 19-1-3, 19-2-2 (Entscheidung/decision)",
        "ein Windschatten in der Boxengasse darf in die eigene Box führen",
        "a slipstream in the pit lane may carry the car into its own box",
    ),
    RuleChange(
        21,
        "Masters 12-1-1, 20-2-1",
        "in masters-2002 nennt ein Ausscheiden durch Blockade die Masters-Regel, nicht Dresden",
        "in masters-2002 an elimination for blocking cites the Masters rule, not Dresden's",
    ),
    RuleChange(
        22,
        "Dresden Fahrregeln; Masters 18-1-7 (Entscheidung/decision)",
        "in den Dresdner Regelwerken gibt ein ausrollendes Auto im 4. Gang oder höher "
        "Windschatten",
        "in the Dresden presets a car rolling out in 4th gear or higher gives slipstream",
    ),
    RuleChange(
        23,
        "Dresden Verschleiß (Entscheidung/decision)",
        "ein Auto ohne Benzin bleibt als normales Wrack liegen, ohne gefährliches Feld",
        "a car that runs dry stays as a normal wreck, without a dangerous space",
    ),
    RuleChange(
        24,
        "Dresden Open Wetter (Entscheidung/decision)",
        "in dresden-open wird wechselhaftes Wetter gleich nach der 20 bzw. 30 neu gewürfelt",
        "in dresden-open changeable weather is rolled again right after the 20 or 30",
    ),
    RuleChange(
        25,
        "Dresden FD Blitz (Entscheidung/decision)",
        "beim Start nebeneinander (dritter Lauf) keine Kopf-an-Kopf-Gebote in der ersten Runde",
        "side by side at the start (third heat): no head-to-head bids in the first round",
    ),
    RuleChange(
        26,
        "Dresden Rennen; Masters 21-1-3 (Entscheidung/decision)",
        "nach dem Sieger kommt jedes Auto beim nächsten Überqueren der Linie ins Ziel, mit den "
        "gefahrenen Runden",
        "once the winner is home, every car finishes the next time it crosses the line, with "
        "the laps it has completed",
    ),
)
"""Every behaviour change since version 1, oldest first; the version numbers run 2, 3, …"""

RULES_VERSION = CHANGES[-1].version if CHANGES else 1
"""The version of the rules this code plays."""


def changes_since(version: int) -> tuple[RuleChange, ...]:
    """The fixes a race played under ``version`` has not seen."""
    return tuple(c for c in CHANGES if c.version > version)
