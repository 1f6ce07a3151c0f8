"""A team leaving the game (April 2000 §19), right after the sheets are taken in.

Its drivers become free drivers of the running year, its contracts and bids for the next year
are struck, and the game master offers all its material to all at price 0 (``market``); what is
not sold in the following round is eliminated.
"""

from __future__ import annotations

from rennleitung.turbo2000.turn import Turn


def run_departures(turn: Turn) -> list[str]:
    """Teams leaving now; their other orders are not carried out."""
    leaving = [team for team, sheet in sorted(turn.sheets.items()) if sheet.leave_line]
    if not leaving:
        return []
    turn.begin("1 Ausstieg")
    for name in leaving:
        turn.state.teams[name].active = False
        del turn.sheets[name]
        for driver in turn.state.drivers.values():
            if driver.team == name:
                driver.team, driver.salary = None, 0
                turn.publish("Verträge", f"{driver.notation()} ist vertraglos / free")
            if driver.next_team == name:
                driver.next_team, driver.next_salary = None, 0
        turn.say(f"{name} steigt aus / leaves the game")
        turn.tell(name, "Ihr Rennstall ist auf eigenen Wunsch ausgestiegen (§19); weitere "
                  "Anweisungen dieses Bogens wurden nicht ausgeführt / your team has left the game "
                  "as asked (§19); no other order of this sheet was carried out")
        turn.publish("Rennställe", f"{name} steigt aus der Partie aus (§19)",
                     f"{name} leaves the game (§19)")
    return leaving
