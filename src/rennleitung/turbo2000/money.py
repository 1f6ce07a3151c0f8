"""Step 2: money that flows every round: sponsor money in, salaries, the fee for drivers beyond
the third and storage fees out.

Sponsor money is April 2000 §17; salaries, the extra-driver fee (rules version 3) and storage
fees are reconstructed. These are
obligations, so they are booked even when the account goes below zero; a team in debt cannot pay
for anything it orders (every order checks the account first).
"""

from __future__ import annotations

from rennleitung.turbo2000.turn import Turn


def settle_round_money(turn: Turn) -> None:
    """Sponsor money first, so that a team can pay its salaries from it."""
    turn.begin("2 Geld")
    config, state = turn.config, turn.state
    for team in state.active_teams():
        turn.pay(team.name, config.sponsor_money, "Sponsorengeld / sponsor money (§17)")
    for driver in sorted(state.drivers.values(), key=lambda d: d.name):
        if driver.team and driver.team in state.teams and state.teams[driver.team].active:
            turn.pay(driver.team, -driver.salary, f"Gehalt / salary {driver.name}")
    if config.extra_driver_fee:
        _extra_driver_fees(turn)
    for team in state.active_teams():
        fee = sum(config.storage_fee[part.kind] * count for part, count in team.stock.items())
        if fee:
            turn.pay(team.name, -fee, "Lagergebühr / storage fee")
        turn.say(f"{team.name}: Kontostand / balance {team.money}")


def _extra_driver_fees(turn: Turn) -> None:
    """Reconstructed (rules version 3, ``extra_driver_fee``): every driver under contract for
    the running year beyond the ``fee_free_drivers`` costs his team the fee each round, on top
    of his salary, from the round after signing (as the salary)."""
    config, state = turn.config, turn.state
    for team in state.active_teams():
        held = sum(1 for driver in state.drivers.values() if driver.team == team.name)
        extra = held - config.fee_free_drivers
        if extra > 0:
            drivers = f"driver{'s' if extra > 1 else ''}"
            turn.pay(team.name, -extra * config.extra_driver_fee,
                     f"Zuschlag für {extra} Fahrer über {config.fee_free_drivers}",
                     f"fee for {extra} {drivers} beyond {config.fee_free_drivers}")
