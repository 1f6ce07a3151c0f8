"""Step 5b: training camps (April 2000 §1). The published number of places
(``GameConfig.places_for_training``: one since rules version 4, or by the size of the field as
an option) goes to the highest bids, ties by lot; every driver entered for training misses this
round's races, but only those who get a place pay and gain +2.
"""

from __future__ import annotations

from rennleitung.turbo2000.amounts import amount
from rennleitung.turbo2000.errors import Problem
from rennleitung.turbo2000.turn import Turn


def run_training(turn: Turn) -> None:
    """After contracts, so that a driver signed this round may already train."""
    turn.begin("5 Training")
    state, config = turn.state, turn.config
    bids = []
    for team, sheet in sorted(turn.sheets.items()):
        for bid in sheet.training:
            driver = state.drivers.get(bid.driver)
            if driver is None or driver.team != team:
                turn.reject(team, Problem(bid.line, bid.driver,
                                          "Fahrer steht für dieses Jahr nicht unter Vertrag (§1)",
                                          "driver is not under contract this year (§1)"))
            else:
                bids.append((-bid.bid, turn.lot(f"Training {bid.driver}"), team, bid))
    bids.sort(key=lambda item: (item[0], item[1]))
    places = config.places_for_training(len(state.active_teams()))
    for _, _, team, bid in bids:
        driver = state.drivers[bid.driver]
        if places and turn.can_pay(team, bid.bid):
            places -= 1
            turn.pay(team, -bid.bid, f"Training {driver.name} (§1)", f"training {driver.name} (§1)")
            driver.rating += config.training_gain
            turn.say(f"Training: {driver.name} ({team}) für {amount(bid.bid)}, "
                     f"jetzt {driver.notation()}")
            turn.publish("Training", f"{driver.notation()} ({team}), Gebot {amount(bid.bid)}",
                         f"{driver.notation()} ({team}), bid {amount(bid.bid)}")
            turn.tell(team, f"Training: {driver.notation()} für {amount(bid.bid)}",
                      f"training: {driver.notation()} for {amount(bid.bid)}")
        else:
            de, en = ("kein Platz", "no place") if not places else \
                ("Geld reicht nicht", "not enough money")
            turn.reject(team, Problem(bid.line, "Training", f"{driver.name}: {de} (§1)",
                                      f"{driver.name}: {en} (§1)"))
