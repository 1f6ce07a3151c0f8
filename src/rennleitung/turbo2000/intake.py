"""Step 1: take in the order sheets, check who sent them, keep the last one of each team.

A sheet with an unknown team, a wrong password or a wrong round is refused as a whole; every
problem inside an accepted sheet only drops its own line (see ``sheet.parse_sheet``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.sheet import OrderSheet, parse_sheet
from rennleitung.turbo2000.turn import Turn


def sender_problems(sheet: OrderSheet, state: GameState) -> list[Problem]:
    """Why a sheet cannot be accepted at all (empty list: it can)."""
    team = state.teams.get(sheet.team)
    if team is None:
        return [Problem(0, "Rennstall", f"Rennstall '{sheet.team}' spielt nicht mit",
                        f"team '{sheet.team}' is not in this game")]
    problems: list[Problem] = []
    if not team.active:
        problems.append(Problem(0, "Rennstall", "Rennstall ist ausgestiegen (§19)",
                                "team has left the game (§19)"))
    if sheet.password != team.password:
        problems.append(Problem(0, "Passwort", "falsches Passwort", "wrong password"))
    if sheet.round != state.round:
        problems.append(Problem(0, "Runde", f"Blatt für Runde {sheet.round}, ausgewertet wird "
                                f"Runde {state.round}", f"sheet for round {sheet.round}, "
                                f"round {state.round} is being evaluated"))
    return problems


def check_sheet(text: str, state: GameState | None, config: GameConfig) -> OrderSheet:
    """What ``turbo check`` shows: the parse problems plus, with a game, the sender checks."""
    sheet = parse_sheet(text, config)
    if state is not None and sheet.team:
        sheet.problems[:0] = sender_problems(sheet, state)
    return sheet


def take_in(turn: Turn, texts: Sequence[str]) -> None:
    """Parse the sheets in the order received; a later sheet of a team replaces the earlier."""
    turn.begin("1 Zugabgabe")
    for index, text in enumerate(texts, start=1):
        sheet = parse_sheet(text, turn.config)
        refused = sender_problems(sheet, turn.state)
        label = sheet.team or "?"
        if refused:
            turn.say(f"Blatt {index} ({label}) abgelehnt / refused: "
                     + "; ".join(p.text() for p in refused))
            if sheet.team in turn.state.teams and turn.state.teams[sheet.team].active:
                for problem in refused:
                    turn.tell(sheet.team, f"Blatt {index} abgelehnt / sheet {index} refused: "
                              + problem.text())
            continue
        if sheet.team in turn.sheets:
            turn.say(f"Blatt {index} ersetzt das frühere Blatt von {label} / replaces the "
                     "earlier sheet")
        turn.sheets[sheet.team] = sheet
        turn.say(f"Blatt {index} von {label} angenommen / accepted")
    for name, sheet in sorted(turn.sheets.items()):
        for problem in sheet.problems:
            turn.reject(name, problem)
    for team in turn.state.active_teams():
        if team.name not in turn.sheets:
            turn.say(f"{team.name}: kein Blatt / no sheet")
            turn.tell(team.name, "Kein Zug abgegeben / no orders received")
