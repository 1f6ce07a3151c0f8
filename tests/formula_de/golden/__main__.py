"""Re-record the golden races after a deliberate change of the rules or of the event data.

    python -m tests.formula_de.golden --rerecord              # replay the stored decisions
    python -m tests.formula_de.golden --rerecord --from-bots  # let the bots decide anew
    python -m tests.formula_de.golden --rerecord NAME ...     # only these races

``--rerecord`` keeps the decisions and rewrites the event logs and figures: the diff then shows
what the change did to the same race. When a stored decision is no longer legal, or the bots
now decide differently (``test_golden_bots_still_make_the_decisions`` fails), use
``--from-bots``: the bots play the race again from the configuration and the seed. Read the
diff before committing it, and say in the commit why the events changed.
"""

from __future__ import annotations

import argparse
import sys

from rennleitung.errors import RennleitungError
from tests.formula_de.golden import bot_race, first_difference, load, log_of, names, replay, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.formula_de.golden")
    parser.add_argument("--rerecord", action="store_true", help="rewrite logs and figures")
    parser.add_argument("--from-bots", action="store_true", help="the bots decide anew")
    parser.add_argument("races", nargs="*", help=f"golden races (default: all of {names()})")
    args = parser.parse_args(argv)
    if not args.rerecord:
        parser.error("say --rerecord (the tests compare; this only writes)")
    for name in args.races or names():
        golden = load(name)
        try:
            race = bot_race(golden) if args.from_bots else replay(golden)
        except RennleitungError as error:
            print(f"{name}: {error}; try --from-bots", file=sys.stderr)
            return 1
        before = golden.logged() if golden.log_path.exists() else []
        write(golden, race)
        change = first_difference(before, log_of(race))
        print(f"{name}: {len(race.events)} events, {len(race.decisions)} decisions; "
              + ("log unchanged" if change is None else change))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
