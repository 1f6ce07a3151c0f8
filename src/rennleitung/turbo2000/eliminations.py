"""Step 7: parts the teams eliminate, in the notation of April 2000 §6.

Eliminating parts that do not exist has no further consequence (§6); it is only noted.
"""

from __future__ import annotations

from rennleitung.turbo2000.turn import Turn


def run_eliminations(turn: Turn) -> None:
    """After the races, so that worn parts can be thrown away in the same round."""
    turn.begin("7 Elimination")
    for team, sheet in sorted(turn.sheets.items()):
        stock = turn.state.teams[team]
        for line in sheet.eliminations:
            chosen = line.order.choose(stock.stock)
            removed = sum(count for _, count in chosen)
            for part, count in chosen:
                stock.remove(part, count)
            what = ", ".join(f"{count} {part.notation()}" for part, count in chosen) or "nichts"
            turn.say(f"{team}: '{line.text}' eliminiert {what}")
            turn.tell(team, f"Elimination '{line.text}': {what}"
                      + ("" if removed == line.order.count else
                         f" ({removed} von {line.order.count} vorhanden / present)"),
                      f"elimination '{line.text}': " + (", ".join(
                          f"{count} {part.notation()}" for part, count in chosen) or "nothing")
                      + ("" if removed == line.order.count else
                         f" ({removed} of {line.order.count} present)"))
