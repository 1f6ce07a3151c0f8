"""What one entry at the table costs (issue 29): a race whose dice are entered rebuilds from its
last round boundary after every number entered (``formula_de/race/table.py``), so an entry
costs a replay of the round so far. The same field is first run with the server's dice and
the simple bot; then the same race is entered at the table, roll by roll, and the time per
entry (rolls and the drivers' answers) is printed with its worst case, next to the time per
decision of the server's race.

    .venv/bin/python benchmarks/table.py [--track monaco] [--cars 10] [--laps 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import Decision, RollEntry
from rennleitung.formula_de.race_questions import RollQuestion
from rennleitung.formula_de.race_setup import Entry, RaceConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--track", default="monaco")
    parser.add_argument("--cars", type=int, default=10)
    parser.add_argument("--laps", type=int, default=3)
    args = parser.parse_args()
    config = RaceConfig(track=args.track, ruleset="dresden-2006", laps=args.laps,
                        entries=tuple(Entry(f"car{n}") for n in range(1, args.cars + 1)))
    server = Race(config, Dice.from_seed("bench"), commitment=commit("bench"))
    bot = make_bot("simple")
    answers: list[tuple[str, Decision]] = []
    started = time.perf_counter()
    while (ask := server.pending) is not None:
        decision = bot.decide(server, ask)
        answers.append((ask.car, decision))
        server.apply(decision, car=ask.car)
    served = time.perf_counter() - started
    table = Race(dataclasses.replace(config, table=True), Dice.from_seed("t"),
                 commitment=commit("t"))
    table.keep_boundaries = True
    rolls = iter(server.dice.history)
    moves = iter(answers)
    times: list[float] = []
    while (ask := table.pending) is not None:
        entry = (RollEntry(next(rolls).result) if isinstance(ask, RollQuestion)
                 else next(moves)[1])
        began = time.perf_counter()
        table.apply(entry, car=ask.car)
        times.append(time.perf_counter() - began)
    same = [e.data for e in table.events[1:]] == [e.data for e in server.events[1:]]
    print(f"{args.track}, {args.cars} cars, {args.laps} laps: {len(answers)} decisions, "
          f"{len(server.dice.history)} rolls, {server.round} rounds; same events: {same}")
    print(f"server's dice: {1000 * served / len(answers):.2f} ms a decision")
    print(f"at the table:  {1000 * statistics.mean(times):.2f} ms an entry (median "
          f"{1000 * statistics.median(times):.2f}, worst {1000 * max(times):.1f}), "
          f"{sum(times):.1f} s for the race")


if __name__ == "__main__":
    main()
