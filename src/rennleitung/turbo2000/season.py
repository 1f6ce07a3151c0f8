"""Step 8 and the calendar: year end (+2 per driver, contracts roll over), the end-of-game vote
(April 2000 §20), and the races announced for the next round.

The vote: in the second-last round of each year from the second year on, the game master calls
it; the sheets of the year's last round vote; a simple majority of the votes cast decides, a tie
is the game master's setting. If the game is to end, the following year is played in full.
"""

from __future__ import annotations

from rennleitung.turbo2000.config import GameConfig
from rennleitung.turbo2000.model import Announcement, GameState
from rennleitung.turbo2000.turn import Turn


def vote_decides_end(votes: list[bool], config: GameConfig) -> bool:
    """Simple majority of the votes cast (True = end)."""
    yes = sum(votes)
    no = len(votes) - yes
    return yes > no or (yes == no and bool(votes) and config.vote_tie_ends_game)


def calls_vote(round_number: int, state: GameState, config: GameConfig) -> bool:
    """The evaluation of this round calls the vote (April 2000 §20: round 11, 17, …)."""
    return (config.round_in_year(round_number) == config.rounds_per_year - 1
            and config.year_of(round_number) >= config.first_vote_year
            and not state.end_after_round)


def announcements_for(round_number: int, state: GameState, config: GameConfig
                      ) -> list[Announcement]:
    """The races of a round; Rallye stages are numbered by the year's calendar (§4.6)."""
    index = config.round_in_year(round_number) - 1
    result = []
    for code in config.calendar[index]:
        template = config.race(code)
        if template.series != "rallye":
            result.append(Announcement(code))
            continue
        rounds = [i for i, day in enumerate(config.calendar) if code in day]
        stage = rounds.index(index) + 1
        if stage > 1 and (state.rally_closed or state.rally_stage_done != stage - 1):
            continue
        result.append(Announcement(code, stage, len(rounds)))
    return result


def close_round(turn: Turn) -> None:
    """Vote, year end, end of the game, then the next round's announcements."""
    turn.begin("8 Jahresende und Abstimmung")
    state, config = turn.state, turn.config
    current = state.round
    if state.vote_open:
        votes = [sheet.vote for sheet in turn.sheets.values() if sheet.vote is not None]
        ends = vote_decides_end(votes, config)
        yes = sum(votes)
        turn.say(f"Abstimmung: {yes} für Ende, {len(votes) - yes} dagegen")
        turn.publish("Abstimmung", f"{yes} Stimmen für, {len(votes) - yes} gegen das Ende",
                     f"{yes} votes for the end, {len(votes) - yes} against")
        if ends:
            # §20: the following year is played in full, and a game lasts min_years at least
            state.end_after_round = max(current + config.rounds_per_year,
                                        config.min_years * config.rounds_per_year)
            turn.publish("Abstimmung", f"Die Partie endet nach Runde {state.end_after_round}",
                         f"The game ends after round {state.end_after_round}")
        state.vote_open = False
    if config.round_in_year(current) == config.rounds_per_year:
        for driver in state.drivers.values():
            driver.rating += config.year_end_gain
            if driver.team and driver.team != driver.next_team:
                turn.tell(driver.team, f"Vertrag von {driver.name} endete mit dem Jahr "
                          f"{config.year_of(current)}; er fährt nicht mehr für Sie / "
                          f"{driver.name}'s contract ended with year {config.year_of(current)}")
            driver.team, driver.salary = driver.next_team, driver.next_salary
            driver.next_team, driver.next_salary = None, 0
        state.rally, state.rally_stage_done, state.rally_closed = {}, 0, False
        turn.say(f"Jahresende {config.year_of(current)}: +{config.year_end_gain / 10:.1f} für "
                 "alle Fahrer, Verträge des Folgejahres gelten")
    if state.end_after_round and current >= state.end_after_round:
        state.finished = True
        turn.publish("Abstimmung", "Die Partie ist beendet / the game is over")
    if calls_vote(current, state, config):
        state.vote_open = True
        turn.publish("Abstimmung", f"Abstimmung über das Partieende mit dem Zug zu Runde "
                     f"{current + 1}: 'Abstimmung: ja' (Ende nach dem folgenden Jahr) oder "
                     "'Abstimmung: nein'", f"Vote on the end of the game with the sheet for round "
                     f"{current + 1}: 'Abstimmung: ja' (end after the following year) or "
                     "'Abstimmung: nein'")
    state.round = current + 1
    state.announcements = announcements_for(state.round, state, config)
