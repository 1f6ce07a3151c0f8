"""Balance of the reconstructed TURBO 2000 rules: win shares of fixed bot strategies.

Every game seats every strategy against all the others (``PER_STRATEGY`` teams each, seats
shuffled by the seed) and plays three racing years; the winner is the active team with the most
WM points (April 2000 §20; shared wins count for each). Prints per strategy the games won, the
win share with its 95 % interval (Wilson), and the mean WM points; then how often each row of
the risk table occurred per 1,000 race sections and in how many Formel N races the cap bound.
Asserts nothing. Targets with the default settings (issue 15): no strategy above 40 %, every row
at least once per 1,000 sections, the caps binding in at least a tenth of the Formel N races.

Usage: ``python benchmarks/turbo_balance.py [GAMES] [--first=SEED] [--set=KEY=JSON ...]
[--per-strategy=N] [--teams=N] [--strategy=NAME:FIELD=JSON[;FIELD=JSON]] [--variants]
[--search [--fields=6,12,21]] [--known [--fields=…]] [--matters]``. GAMES defaults to 200
(about 10 s on an idle core);
``--first`` starts the seeds elsewhere than 0 (another sample of games); ``--set`` changes one
setting of the default configuration (``--set=risk_offset=8``, ``--set='turbo_price={"W":
800000, "M": 300000, "R": 30000}'``), so a game master can measure a setting before choosing it;
``--per-strategy`` seats every strategy N times (a bigger field, fuller grids); ``--variants``
also runs the settings a game master might choose instead (the previous defaults, maker points
as the brief had them, the first reconstruction's risk and development rules); ``--teams``
seats N teams, the strategies in turn (4 to 24: fields that do or do not fill the grid);
``--strategy`` changes a bot's parameters (``--strategy='rennfahrer:qualifying_share=0'``);
``--search`` runs the strategy search of ``turbo_search.py`` in fields of 6, 12 and 21 teams
instead (about 20 minutes on one loaded core, fewer with ``--fields``; it prints its
budget); ``--known`` plays the strategies earlier searches crowned (``turbo_search.KNOWN``) in the
searched strategy's seats, GAMES games per field on the finals' seeds (a check of the search's
verdict); ``--matters`` plays GAMES games per field of 4 to 24 teams (``--teams``: that field
only) with the bot *profi* and the same bot with less or more in qualifying or another push,
to show that both choices matter.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace

from rennleitung.turbo2000.bots import STRATEGIES, Strategy
from rennleitung.turbo2000.config import (
    BEFORE_VERSION_3,
    LEGACY,
    GameConfig,
    config_from_dict,
    config_to_dict,
)
from rennleitung.turbo2000.game import new_game
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.pipeline import evaluate_round
from rennleitung.turbo2000.simulation import bot_round
from rennleitung.turbo2000.standings import winners

ARGS = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
GAMES = int(ARGS[0]) if ARGS else 200
FIRST = next((int(arg.split("=", 1)[1]) for arg in sys.argv[1:] if arg.startswith("--first=")),
             0)
YEARS = 3
PER_STRATEGY = next((int(arg.split("=", 1)[1]) for arg in sys.argv[1:]
                     if arg.startswith("--per-strategy=")), 1)
FIELDS = next((tuple(int(n) for n in arg.split("=", 1)[1].split(",")) for arg in sys.argv[1:]
               if arg.startswith("--fields=")), ())
"""``--fields=12`` or ``--fields=6,21``: the search in these of its field sizes only."""
TEAMS = next((int(arg.split("=", 1)[1]) for arg in sys.argv[1:] if arg.startswith("--teams=")),
             0)


def _changed_strategies() -> dict[str, Strategy]:
    """``--strategy=NAME:FIELD=JSON[;FIELD=JSON]`` changes a seated strategy's parameters
    (``--strategy='rennfahrer:qualifying_share=0'``, ``--strategy='rennfahrer:push=[1,3]'``)."""
    table = dict(STRATEGIES)
    for arg in sys.argv[1:]:
        if arg.startswith("--strategy="):
            name, _, changes = arg.split("=", 1)[1].partition(":")
            values = {}
            for change in changes.split(";"):
                key, _, value = change.partition("=")
                parsed = json.loads(value)
                values[key] = tuple(parsed) if isinstance(parsed, list) else parsed
            table[name] = replace(table[name], **values)
    return table


PLAYED = _changed_strategies()


def seating(seed: int, teams: int = 0, first: str = "") -> dict[str, str]:
    """Team name -> strategy: every strategy ``PER_STRATEGY`` times, or ``teams`` seats filled
    by the strategies in turn (in an order shuffled each game); with ``first``, the searched
    strategy, in every ``turbo_search.CANDIDATE_EVERY``-th seat and the bots in turn in the
    others; seats shuffled by the seed."""
    from turbo_search import CANDIDATE_EVERY

    rng = random.Random(f"seats:{seed}")
    if teams:
        order = list(STRATEGIES)
        rng.shuffle(order)
        if first:
            bots = iter(order * teams)
            names = [first if index % CANDIDATE_EVERY == 0 else next(bots)
                     for index in range(teams)]
        else:
            names = [order[index % len(order)] for index in range(teams)]
    else:
        names = [name for name in STRATEGIES for _ in range(PER_STRATEGY)]
    rng.shuffle(names)
    return {f"Bot{index + 1:02d}": name for index, name in enumerate(names)}


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95 % interval of a share (Wilson score interval)."""
    if trials == 0:
        return 0.0, 0.0
    share = successes / trials
    centre = share + z * z / (2 * trials)
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def configured(settings: list[str]) -> GameConfig:
    """The default configuration with ``KEY=JSON`` settings changed (checked like config.json)."""
    data = config_to_dict(GameConfig())
    for setting in settings:
        key, _, value = setting.partition("=")
        data[key] = json.loads(value)
    return config_from_dict(data)


VERSION_1 = config_from_dict(
    {k: v for k, v in config_to_dict(GameConfig()).items()
     if k not in LEGACY and k not in BEFORE_VERSION_3})
"""The figures of rules version 1 (before issue 28)."""
VERSION_2 = config_from_dict({**config_to_dict(GameConfig()), **BEFORE_VERSION_3,
                              "rules_version": 2})
"""The figures of rules version 2 (issue 28, before the harder qualifying of a full grid)."""

VARIANTS: dict[str, GameConfig] = {
    "rules version 2 (the same qualifying roll in every field)": VERSION_2,
    "rules version 1 (the figures before issue 28)": VERSION_1,
    "version 1's second step (risk_offset 8, start_money 5,000,000)": replace(
        VERSION_1, risk_offset=8, start_money=5_000_000),
    "maker points halved": replace(GameConfig(), maker_wm_points=(5, 3, 2, 2, 1, 0)),
    "first reconstruction (sixes, min digit, scale 10, maker points as the team's)": replace(
        VERSION_1, risk_model="sixes", development_rule="min_digit", new_factory_min_rating=10,
        new_factory_min_per_year=0, maker_wm_points=(9, 6, 4, 3, 2, 1),
        maker_points_once_per_race=False, start_money=5_000_000),
}
"""Settings a game master might choose; ``--variants`` runs each the same way."""


def play_game(seed: int, strategies: dict[str, str], table: dict[str, Strategy],
              config: GameConfig, tally: Counter[str]) -> GameState:
    """One game of ``YEARS`` racing years; the round tallies are added to ``tally``."""
    state = new_game([(name, name.lower()) for name in sorted(strategies)], config)
    for _ in range(YEARS * config.rounds_per_year):
        if state.finished:
            break
        outcome = evaluate_round(state, bot_round(state, strategies, str(seed), config, table),
                                 str(seed), config, reports=False)
        tally.update(outcome.tally)
        state = outcome.state
    return state


def study(title: str, config: GameConfig) -> None:
    wins: defaultdict[str, float] = defaultdict(float)
    points: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    tally: Counter[str] = Counter()
    drivers: list[int] = []
    turbo: list[int] = []
    start = time.perf_counter()
    for seed in range(FIRST, FIRST + GAMES):
        strategies = seating(seed, TEAMS)
        state = play_game(seed, strategies, PLAYED, config, tally)
        drivers += [d.rating // 10 for d in state.drivers.values() if d.team is not None]
        turbo += list(state.new_factory_rating.values())
        names, _ = winners(state)
        for name in names:
            wins[strategies[name]] += 1 / len(names)
        for team, value in state.wm_points.items():
            points[strategies[team]] += value
        seats.update(strategies.values())
    elapsed = time.perf_counter() - start
    seated = f"{TEAMS} teams (the strategies in turn)" if TEAMS else \
        f"{len(STRATEGIES) * PER_STRATEGY} teams (every strategy {PER_STRATEGY}x)"
    print(f"{title}: {GAMES} games (seeds {FIRST}–{FIRST + GAMES - 1}) of {seated}, {YEARS} "
          f"years each ({elapsed:.0f} s)")
    print(f"  {'strategy':<16} {'wins':>6} {'share':>7}  {'95 % interval':<15} "
          f"{'mean WM points':>14}")
    for name in sorted(STRATEGIES, key=lambda n: -wins[n]):
        low, high = wilson(wins[name], GAMES)
        mean = points[name] / max(1, seats[name])
        print(f"  {name:<16} {wins[name]:>6.1f} {wins[name] / GAMES:>7.1%}  "
              f"{low:>5.1%} – {high:>5.1%}   {mean:>14.1f}")
    sections = tally["section"]
    print(f"  risk table, per 1,000 of {sections} sections:")
    rows = [name for index, name in enumerate(config.risk_table)
            if name not in config.risk_table[:index]]
    print("   " + "  ".join(f"{name} {1000 * tally[f'row:{name}'] / max(1, sections):.1f}"
                            for name in rows))
    print(f"  at the end: drivers under contract F{min(drivers)}–F{max(drivers)} (median "
          f"F{statistics.median_low(drivers)}); Turbo parts rated {min(turbo)}–{max(turbo)}")
    races, bound = tally["formel_n_races"], tally["formel_n_bound"]
    print(f"  Formel N: the cap bound in {bound} of {races} races "
          f"({bound / max(1, races):.0%})")
    print()


def candidate_play(config: GameConfig) -> Callable[[int, int, Strategy], tuple[float, float]]:
    """One game with ``candidate`` in the searched strategy's seats: its share of the win
    (a shared win counts in part) and its best WM points over the winner's
    (``turbo_search.Play``)."""
    import turbo_search

    def play(seed: int, teams: int, candidate: Strategy) -> tuple[float, float]:
        table = {**PLAYED, turbo_search.CANDIDATE: candidate}
        strategies = seating(seed, teams, turbo_search.CANDIDATE)
        state = play_game(seed, strategies, table, config, Counter())
        names, _ = winners(state)
        won = sum(1 for name in names if strategies[name] == turbo_search.CANDIDATE)
        best = max(state.wm_points.get(name, 0) for name in names) if names else 0
        mine = max(state.wm_points.get(team, 0) for team, strategy in strategies.items()
                   if strategy == turbo_search.CANDIDATE)
        return won / max(1, len(names)), mine / best if best else 0.0

    return play


def searched(config: GameConfig) -> None:
    """``--search``: the strategy search of ``turbo_search.py`` in fields of 6, 12 and 21."""
    import turbo_search

    play = candidate_play(config)

    total = sum(budget.games_per_field() for budget in turbo_search.BUDGETS.values())
    print(f"strategy search against the bot field ({', '.join(sorted(STRATEGIES))}), "
          f"{YEARS} years a game; searched: {', '.join(sorted(turbo_search.SPACE))}")
    print("  budget per field: " + "; ".join(
        f"{teams} teams {b.first} first (mutated bots, random) + {b.generations} x {b.children} "
        f"mutants of the best "
        f"{b.keep}, {b.games} games each, best {b.final} on {b.final_games} = "
        f"{b.games_per_field()} games" for teams, b in turbo_search.BUDGETS.items())
        + f"; {total} games in all, one process")
    for teams, budget in turbo_search.BUDGETS.items():
        if not FIELDS or teams in FIELDS:
            turbo_search.search(play, teams, budget, FIRST, wilson, config.max_drivers)


def known(config: GameConfig) -> None:
    """``--known``: the strategies earlier searches crowned (``turbo_search.KNOWN``), each in
    the searched strategy's seats, GAMES games per field on the finals' seeds (FIRST + 10000
    on), judged by the search's target."""
    import turbo_search

    play = candidate_play(config)
    seeds = range(FIRST + 10_000, FIRST + 10_000 + GAMES)
    print(f"known strategies in the searched strategy's seats, {GAMES} games per field "
          f"(seeds {seeds.start}–{seeds.stop - 1}), {YEARS} years a game")
    for teams in FIELDS or tuple(turbo_search.BUDGETS):
        start = time.perf_counter()
        rows = []
        for strategy in turbo_search.KNOWN:
            candidate = turbo_search.within_limit(strategy, config.max_drivers)
            rows.append((turbo_search.score(play, teams, candidate, seeds)[0], strategy.name))
        print(f"  {teams} teams ({time.perf_counter() - start:.0f} s):")
        for wins, name in sorted(rows, key=lambda row: -row[0]):
            low, high = wilson(wins, GAMES)
            print(f"    {name:<22} {wins / GAMES:>6.1%} ({low:.1%} – {high:.1%})")
        met = turbo_search.target_met([wins for wins, _ in rows], GAMES, wilson)
        print(f"    target (none above 40 %, upper end under 45 %): {'met' if met else 'NOT met'}")


MATTER_FIELDS = (4, 8, 12, 16, 20, 24)
MATTER_PROBE = "profi"
MATTER_VARIANTS: dict[str, dict[str, object]] = {
    "as it plays (even Q, risk 1)": {},
    "Q 10 %": {"qualifying_share": 0.1},
    "Q 50 %": {"qualifying_share": 0.5},
    "no push (risk 0)": {"push": (1, 1)},
    "risk 2": {"push": (2, 2)},
    "risk 3": {"push": (2, 3)},
}
"""``--matters``: the probe bot and the same bot with one choice changed (its share of LP in
qualifying, its push where it counts)."""


def mattered(config: GameConfig) -> None:
    """``--matters``: do qualifying and the d/e push matter in every field from 4 to 24 teams?
    The probe (``MATTER_PROBE``) and each variant sit in the seats of a searched strategy
    (seat 1, 11, 21) against the bots, on the same seeds; printed are the variant's win share
    and its mean WM points per seat. A choice matters in a field when changing it changes what
    the team scores: too little or too much in Q loses points, and the push levels differ."""
    import turbo_search

    probe = PLAYED[MATTER_PROBE]
    seeds = range(FIRST, FIRST + GAMES)
    print(f"does it matter: {MATTER_PROBE} and variants in the seats of a searched strategy, "
          f"{GAMES} games per field and variant (seeds {seeds.start}–{seeds.stop - 1}), "
          f"{YEARS} years a game")
    for teams in (TEAMS,) if TEAMS else MATTER_FIELDS:
        start = time.perf_counter()
        rows = []
        for label, changes in MATTER_VARIANTS.items():
            candidate = replace(probe, name=turbo_search.CANDIDATE, **changes)  # type: ignore
            table = {**PLAYED, turbo_search.CANDIDATE: candidate}
            wins = points = seats = 0.0
            for seed in seeds:
                strategies = seating(seed, teams, turbo_search.CANDIDATE)
                state = play_game(seed, strategies, table, config, Counter())
                names, _ = winners(state)
                wins += sum(1 for n in names if strategies[n] == turbo_search.CANDIDATE) / \
                    max(1, len(names))
                mine = [t for t, s in strategies.items() if s == turbo_search.CANDIDATE]
                points += sum(state.wm_points.get(t, 0) for t in mine)
                seats += len(mine)
            rows.append((label, wins / GAMES, points / seats))
        print(f"  {teams} teams ({time.perf_counter() - start:.0f} s):")
        for label, share, mean in rows:
            print(f"    {label:<30} wins {share:>6.1%}   WM points per seat {mean:>6.1f}")
        base = rows[0][2]
        q = [mean for label, _, mean in rows if label.startswith("Q")]
        pushes = [mean for label, _, mean in rows if "risk" in label]
        print(f"    qualifying matters: {'yes' if all(m < base for m in q) else 'NO'} "
              f"(even split {base:.1f}, the others {', '.join(f'{m:.1f}' for m in q)}); "
              f"push levels span {min(pushes):.1f}–{max(pushes):.1f} WM points per seat")


def main() -> None:
    changed = [arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--set=")]
    if "--search" in sys.argv[1:]:
        searched(configured(changed))
        return
    if "--matters" in sys.argv[1:]:
        mattered(configured(changed))
        return
    if "--known" in sys.argv[1:]:
        known(configured(changed))
        return
    strategies = [arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--strategy=")]
    title = "default settings" + (f" with {', '.join(changed)}" if changed else "") + \
        (f", strategies changed: {', '.join(strategies)}" if strategies else "")
    study(title, configured(changed))
    if "--variants" in sys.argv[1:]:
        for title, config in VARIANTS.items():
            study(title, config)


if __name__ == "__main__":
    main()
