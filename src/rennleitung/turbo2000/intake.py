"""Step 1: take in the order sheets, check who sent them, keep the last one of each team.

A sheet with ``Einstieg`` creates a new team (name rules of June 1996) in this round.

A sheet with an unknown team, a wrong password or a wrong round is refused as a whole; every
problem inside an accepted sheet only drops its own line (see ``sheet.parse_sheet``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.driver_names import driver_names
from rennleitung.turbo2000.errors import Problem, TurboError
from rennleitung.turbo2000.game import check_team_name
from rennleitung.turbo2000.model import Driver, GameState, Team
from rennleitung.turbo2000.notation import PartSpec
from rennleitung.turbo2000.sheet import OrderSheet, contacts_too_long, parse_sheet
from rennleitung.turbo2000.turn import Turn


def _joining_problems(sheet: OrderSheet, state: GameState, config: GameConfig) -> list[Problem]:
    problems = []
    known = state.teams.get(sheet.team)
    if known and known.entry_round == state.round and known.password == sheet.password:
        return []  # a second sheet of a team that joined this round replaces its first
    if any(name.lower() == sheet.team.lower() for name in state.teams):
        problems.append(Problem(sheet.join_line, "Einstieg", f"Rennstall '{sheet.team}' gibt es "
                                "schon", f"team '{sheet.team}' already exists"))
    try:
        check_team_name(sheet.team, config)
    except TurboError as error:
        problems.append(Problem(sheet.join_line, "Rennstall", error.de, error.en))
    if sheet.round != state.round:
        problems.append(Problem(0, "Runde", f"Blatt für Runde {sheet.round}, ausgewertet wird "
                                f"Runde {state.round}", f"sheet for round {sheet.round}, "
                                f"round {state.round} is being evaluated"))
    return problems


def take_reserve(sheet: OrderSheet, state: GameState, config: GameConfig) -> OrderSheet:
    """June 1996: a joining team whose name is taken plays under its reserve name (setting
    ``reserve_team_names``); a second sheet of a team that joined this round keeps its name."""
    known = next((team for name, team in state.teams.items()
                  if name.lower() == sheet.team.lower()), None)
    if sheet.join_line and sheet.reserve and config.reserve_team_names and known \
            and not (known.entry_round == state.round and known.password == sheet.password):
        sheet.team = _canonical([*state.teams], sheet.reserve)
    return sheet


def sender_problems(sheet: OrderSheet, state: GameState,
                    config: GameConfig | None = None) -> list[Problem]:
    """Why a sheet cannot be accepted at all (empty list: it can)."""
    if sheet.join_line and config is not None:
        return _joining_problems(sheet, state, config)
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


def later_round(text: str, state: GameState, config: GameConfig) -> int:
    """The later round a sheet is written for (0: this round or no round). Such a sheet waits
    in the inbox for its round instead of being refused now: a team may send next round's
    orders early, also while the game master undoes and re-evaluates a round."""
    written = parse_sheet(text, config).round
    return written if written > state.round else 0


def check_sheet(text: str, state: GameState | None, config: GameConfig) -> OrderSheet:
    """What ``turbo check`` shows: the parse problems plus, with a game, the sender checks."""
    sheet = parse_sheet(text, config)
    if state is not None:
        canonical_names(take_reserve(sheet, state, config), state, config.reserved_maker)
    if state is not None and sheet.team:
        sheet.problems[:0] = sender_problems(sheet, state, config)
    return sheet


def _join(turn: Turn, sheet: OrderSheet) -> None:
    """A team joins (April 2000 §16 speaks of its entry turn); the pool gets new free drivers."""
    state, config = turn.state, turn.config
    state.teams[sheet.team] = Team(sheet.team, sheet.password, config.start_money,
                                   entry_round=state.round)
    state.wm_points[sheet.team] = 0
    known = len(state.drivers)
    for name in driver_names(known + config.joining_drivers)[known:]:
        state.drivers[name] = Driver(name, config.start_driver_rating)
    turn.say(f"{sheet.team} steigt ein / joins the game")
    turn.publish("Rennställe", f"{sheet.team} steigt in die Partie ein",
                 f"{sheet.team} joins the game")


def _flag_contacts(turn: Turn, team: str, sheet: OrderSheet) -> None:
    """April 2000 §18: contacts beyond the game master's ``contact_limit`` are flagged for him
    in the log; they are published whole (every contact, a second one too), never cut."""
    if contacts_too_long(sheet, turn.config):
        total = sum(len(text) for _, text in sheet.contacts)
        turn.say(f"Spielleiter / game master: {team}: Kontakte {total} Zeichen über "
                 f"{turn.config.contact_limit} (§18) / contacts of {total} characters beyond "
                 f"{turn.config.contact_limit} (§18)")
        turn.count("contacts_flagged")


def _canonical(names: list[str], written: str) -> str:
    """The name as the game spells it, if the sheet wrote it in other letter case."""
    return next((name for name in names if name.lower() == written.lower()), written)


def canonical_names(sheet: OrderSheet, state: GameState, reserved: str) -> OrderSheet:
    """Team and driver names in the game's spelling: "an honda:" means Honda."""
    teams = [*state.teams, reserved]
    drivers = list(state.drivers)
    sheet.team = _canonical(teams, sheet.team)

    def maker(spec: PartSpec) -> PartSpec:
        return replace(spec, maker=_canonical(teams, spec.maker)) if spec.maker else spec

    sheet.entries[:] = [replace(e, driver=_canonical(drivers, e.driver), car=maker(e.car),
                                engine=maker(e.engine), tyres=maker(e.tyres))
                        for e in sheet.entries]
    sheet.eliminations[:] = [
        replace(e, order=replace(e.order, maker=_canonical(teams, e.order.maker)))
        if e.order.maker else e for e in sheet.eliminations]
    sheet.training[:] = [replace(t, driver=_canonical(drivers, t.driver))
                         for t in sheet.training]
    sheet.contracts[:] = [replace(c, driver=_canonical(drivers, c.driver))
                          for c in sheet.contracts]
    sheet.trades[:] = [
        replace(t, to=_canonical(teams, t.to) if t.to else None,
                part=maker(t.part) if t.part else None,
                factory_owner=_canonical(teams, t.factory_owner) if t.factory_owner else None)
        for t in sheet.trades]
    return sheet


def take_in(turn: Turn, texts: Sequence[str]) -> None:
    """Parse the sheets in the order received; a later sheet of a team replaces the earlier."""
    turn.begin("1 Zugabgabe")
    for index, text in enumerate(texts, start=1):
        sheet = canonical_names(take_reserve(parse_sheet(text, turn.config), turn.state,
                                             turn.config), turn.state, turn.config.reserved_maker)
        refused = sender_problems(sheet, turn.state, turn.config)
        label = sheet.team or "?"
        if sheet.join_line and not refused and sheet.team not in turn.state.teams:
            _join(turn, sheet)
        if refused:
            turn.say(f"Blatt {index} ({label}) abgelehnt / refused: "
                     + "; ".join(p.text() for p in refused))
            if sheet.team in turn.state.teams and turn.state.teams[sheet.team].active:
                for problem in refused:
                    turn.tell(sheet.team, f"Blatt {index} abgelehnt / sheet {index} refused: "
                              + problem.text(), f"sheet {index} refused: {problem.text_en()}")
            continue
        if sheet.team in turn.sheets:
            turn.say(f"Blatt {index} ersetzt das frühere Blatt von {label} / replaces the "
                     "earlier sheet")
        turn.sheets[sheet.team] = sheet
        turn.say(f"Blatt {index} von {label} angenommen / accepted")
    for name, sheet in sorted(turn.sheets.items()):
        for problem in sheet.problems:
            turn.reject(name, problem)
        _flag_contacts(turn, name, sheet)
    for team in turn.state.active_teams():
        if team.name not in turn.sheets:
            turn.say(f"{team.name}: kein Blatt / no sheet")
            turn.tell(team.name, "Kein Zug abgegeben / no orders received")


@dataclass(frozen=True)
class TeamSheetStatus:
    """What the evaluation would make of a team's sheets in the inbox (``turbo status``).

    ``status`` is "accepted", "refused" or "missing"; ``sheet`` the index (1-based) of the sheet
    that counts or was refused last; ``reasons`` why it was refused; ``problems`` the number of
    faulty lines of an accepted sheet.
    """

    team: str
    status: str
    sheet: int = 0
    reasons: tuple[Problem, ...] = ()
    problems: int = 0
    leaving: bool = False
    long_contact: int = 0
    """Characters of contacts beyond the game master's limit (§18), 0 if within it."""


def inbox_status(texts: Sequence[str], state: GameState, config: GameConfig
                 ) -> list[TeamSheetStatus]:
    """Per team, in the order ``take_in`` reads: accepted, refused (why) or missing.

    A later accepted sheet replaces an earlier one; a refused sheet never replaces an accepted
    one. Sheets whose team is not in the game appear under the name they give (or "?").
    """
    found: dict[str, TeamSheetStatus] = {}
    for index, text in enumerate(texts, start=1):
        sheet = canonical_names(take_reserve(parse_sheet(text, config), state, config), state,
                                config.reserved_maker)
        refused = sender_problems(sheet, state, config)
        name = sheet.team or "?"
        if not refused:
            over = sum(len(text) for _, text in sheet.contacts) \
                if contacts_too_long(sheet, config) else 0
            found[name] = TeamSheetStatus(name, "accepted", index, (), len(sheet.problems),
                                          bool(sheet.leave_line), over)
        elif found.get(name, TeamSheetStatus(name, "missing")).status != "accepted":
            found[name] = TeamSheetStatus(name, "refused", index, tuple(refused))
    for team in state.active_teams():
        found.setdefault(team.name, TeamSheetStatus(team.name, "missing"))
    return sorted(found.values(), key=lambda s: s.team.lower())


def missing_teams(statuses: Sequence[TeamSheetStatus], state: GameState) -> list[str]:
    """Active teams without an accepted sheet: ``evaluate`` needs ``--force`` for them."""
    counted = {s.team for s in statuses if s.status == "accepted"}
    return sorted(t.name for t in state.active_teams() if t.name not in counted)
