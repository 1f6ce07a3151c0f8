"""Rules version 2 (issue 28, rules.md §11): the qualifying pace, engines two below the other
parts, and old games that still replay under the figures they were played with."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.turbo import app
from rennleitung.turbo2000.config import (
    BEFORE_VERSION_3,
    BEFORE_VERSION_4,
    BEFORE_VERSION_5,
    LEGACY,
    RULES_VERSION,
    GameConfig,
    config_from_dict,
    config_to_dict,
    new_game_config,
)
from rennleitung.turbo2000.errors import TurboError
from rennleitung.turbo2000.model import Announcement
from rennleitung.turbo2000.performance import available_lp, section_points

from .helpers import CONFIG, game, hire, run, sheet, stock

OLD_GAME = Path(__file__).parent / "data" / "game-rules-v1"
"""A game of three bot teams over two rounds, made with the code before rules version 2."""
V2_GAME = Path(__file__).parent / "data" / "game-rules-v2"
"""Three bot teams (ausgewogen, rennfahrer, profi) over three rounds, made with the code of
rules version 2 (main at 6dfb6b6): the record a later rules version must keep replaying."""
V3_GAME = Path(__file__).parent / "data" / "game-rules-v3"
"""Three bot teams (profi, stratege, ausgewogen) over three rounds, a pool of 12 drivers, made
with the code of rules version 3 (main at f3324d9); in round 2 Ferrari and Honda each sent a
driver to the camp by a line added to the bot's sheet. Version 4 would have allowed neither
Ferrari's fourth driver nor the second training place in a field of three."""
V4_GAME = Path(__file__).parent / "data" / "game-rules-v4"
"""Seven bot teams (two *stratege*, *vorsichtig*, *profi*, *kaempfer*, *rennfahrer*,
*ausgewogen*) over two rounds, made with the code of rules version 4 (main at ed26b58) through
``turbo new``, ``turbo bot``, ``submit`` and ``evaluate``: a full Formel I grid in round 2."""

VERSION_1 = config_from_dict({k: v for k, v in config_to_dict(CONFIG).items()
                              if k not in LEGACY and k not in BEFORE_VERSION_3
                              and k not in BEFORE_VERSION_4})


def _six_teams() -> tuple:
    """Six teams, two cars in Formel I: twelve grid places, room for all."""
    teams = ("Ferrari", "Honda", "Lotus", "Brabham", "Tyrrell", "Williams")
    state = game(*teams)
    state.announcements = [Announcement("F1")]
    for driver, team in (("Lauda", "Ferrari"), ("Piquet", "Honda")):
        hire(state, driver, team)
        stock(state, team, "Turbo-W10", "Turbo-M10", "Turbo-R10")
    return state


def test_qualifying_lp_count_when_the_grid_has_room_for_every_car() -> None:
    # 110 LP each (W10 M10 R10 F10, d = e = 1); a field of 6 teams never fills the grid of 12.
    # Lauda puts nothing into qualifying, Piquet a quarter: with the pace of version 2 no
    # section scores more than its Q, so Lauda scores nothing; in version 1 he won.
    state = _six_teams()
    sheets = (sheet(state, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                                      "Q=0 A=36/37/37"),
              sheet(state, "Honda", "Rennen F1: Piquet Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                                    "Q=28 A=27/27/27"))
    now = run(state, *sheets).state.wm_points
    assert (now["Honda"], now["Ferrari"]) == (9, 6)
    before = run(state, *sheets, config=VERSION_1).state.wm_points
    assert (before["Ferrari"], before["Honda"]) == (9, 6)


def test_a_section_scores_at_most_its_share_of_q() -> None:
    assert section_points(40, 30, CONFIG) == 30 and section_points(20, 30, CONFIG) == 20
    half = replace(CONFIG, qualifying_pace_percent=50)
    assert section_points(40, 30, half) == 15
    assert section_points(40, 0, VERSION_1) == 40


def test_engines_start_two_below_so_pushing_d_buys_lp() -> None:
    state = game("Ferrari", "Honda")
    rating = state.new_factory_rating
    assert (rating["W"], rating["M"], rating["R"]) == (18, 16, 18)
    assert game("Ferrari", config=VERSION_1).new_factory_rating["M"] == 18
    # a fresh Turbo car and a new driver: d = 2 adds LP now (M+d 18 is not the highest)
    assert available_lp(18, 16, 18, 10, 2, 1, CONFIG) == 356 > \
        available_lp(18, 16, 18, 10, 1, 1, CONFIG) == 336
    # on version 1's scale M+d was always the highest of the four and dropped
    assert available_lp(18, 18, 18, 10, 2, 1, CONFIG) == available_lp(18, 18, 18, 10, 1, 1,
                                                                       CONFIG)


def test_the_d_push_decides_whether_an_entry_may_spend_its_lp() -> None:
    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1")]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W18", "Turbo-M16", "Turbo-R18")
    entry = "Rennen F1: Lauda Turbo-W18 Turbo-M16 Turbo-R18 d={d} e=1 Q=89 A=89/89/89"
    refused = run(state, sheet(state, "Ferrari", entry.format(d=1)))
    assert [p.field for p in refused.rejections["Ferrari"]] == ["Q/A"]
    assert "Ferrari" not in run(state, sheet(state, "Ferrari", entry.format(d=2))).rejections


def test_a_stored_configuration_without_a_version_plays_by_version_one() -> None:
    old = {k: v for k, v in config_to_dict(CONFIG).items()
           if k not in LEGACY and k not in BEFORE_VERSION_3 and k not in BEFORE_VERSION_4
           and k not in BEFORE_VERSION_5}
    assert config_from_dict(old) == replace(
        CONFIG, rules_version=1, qualifying_pace_percent=0, qualifying_risk=False,
        new_factory_kind_offset={"W": 0, "M": 0, "R": 0}, risk_offset=9, start_money=3_500_000,
        factory_cost={"W": 4_000_000, "M": 2_500_000, "R": 1_000_000},
        qualifying_full_grid_push=0, max_drivers=0,
        teams_per_training_place=0, training_places=2, full_grid_every_car_rolls=False)
    assert config_from_dict(config_to_dict(CONFIG)) == CONFIG
    assert CONFIG.rules_version == RULES_VERSION == 5
    # a settings file for a new game changes today's defaults, it is no old record
    assert new_game_config({"start_drivers": 24}) == replace(CONFIG, start_drivers=24)
    with pytest.raises(TurboError, match="rules_version 6"):
        config_from_dict({**config_to_dict(CONFIG), "rules_version": 6})


def test_a_stored_version_two_configuration_keeps_its_qualifying() -> None:
    # a version-2 config.json holds every setting of version 2 and none of version 3: the
    # harder qualifying of a full grid (rules.md §5) and the fee option take version 2's values
    stored = json.loads((V2_GAME / "config.json").read_text())
    assert "qualifying_full_grid_push" not in stored and "extra_driver_fee" not in stored
    old = config_from_dict(stored)
    assert (old.rules_version, old.qualifying_full_grid_push, old.extra_driver_fee) == (2, 0, 0)
    # a version-3 record keeps its own, whatever the defaults of later versions (version 5
    # plays 2 steps, and every car rolls; rules.md §5)
    assert config_from_dict(config_to_dict(CONFIG)).qualifying_full_grid_push == 2
    v3 = json.loads((V3_GAME / "config.json").read_text())
    assert (config_from_dict(v3).qualifying_full_grid_push,
            config_from_dict(v3).full_grid_every_car_rolls) == (1, False)


def test_a_game_played_before_version_two_still_replays(tmp_path: Path) -> None:
    copy = tmp_path / "game"
    shutil.copytree(OLD_GAME, copy)
    assert "rules_version" not in json.loads((copy / "config.json").read_text())
    result = CliRunner().invoke(app, ["replay", str(copy)])
    assert result.exit_code == 0, result.output
    assert "2 rounds identical" in result.output or "2 Runden identisch" in result.output
    # and it goes on under its own figures: Turbo engines stay at 18
    assert "Turbo-M18" in (copy / "rounds" / "002" / "rennanzeiger.txt").read_text()


def test_turbo_new_records_the_current_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new", str(tmp_path / "g"), "--teams", "A,B"])
    assert result.exit_code == 0, result.output
    stored = json.loads((tmp_path / "g" / "config.json").read_text())
    assert stored["rules_version"] == RULES_VERSION
    assert stored["qualifying_pace_percent"] == 100


def test_risk_one_with_a_double_five_is_a_pit_stop_now() -> None:
    from rennleitung.turbo2000.performance import consequence, wuerfe_from_dice

    # risk 1 + 5 + 5 − 8 = 3 Würfe: Box, the section scores nothing; version 1 (− 9): W, scores
    assert consequence(wuerfe_from_dice(1, [5, 5], CONFIG), CONFIG) == "Box"
    assert consequence(wuerfe_from_dice(1, [5, 5], VERSION_1), VERSION_1) == "W"


def test_the_start_money_pays_a_tyre_factory_and_three_cars_of_turbo_parts() -> None:
    # 1,000,000 for the factory and 3 × (700,000 + 250,000 + 25,000) = 2,925,000 for the parts
    state = game("Ferrari", "Honda")
    rating = state.new_factory_rating
    buys = [f"an Turbo: Kaufe 3 Turbo-{kind}{rating[kind]} zu {price}"
            for kind, price in (("W", "700.000"), ("M", "250.000"), ("R", "25.000"))]
    lines = ("Errichtung: R", *buys)
    assert "Ferrari" not in run(state, sheet(state, "Ferrari", *lines)).rejections
    old = game("Ferrari", "Honda", config=VERSION_1)
    bought = run(old, sheet(old, "Ferrari", *(line.replace("M16", "M18") for line in lines)),
                 config=VERSION_1)
    assert bought.rejections["Ferrari"]  # 3,500,000 buy one or the other


def test_a_pushed_car_can_lose_its_grid_place_in_qualifying() -> None:
    # one grid place, two cars: Piquet pushes (risk 2) and has the higher Q; a seed whose
    # qualifying dice give him a mishap that scores nothing sets his Q to 0 and Lauda starts
    # (Lauda, not pushed, rolls nothing as in version 4; his own roll of version 5 is tested
    # below)
    config = replace(_full_grid_of_one(), full_grid_every_car_rolls=False)
    state = _six_teams()
    sheets = (sheet(state, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                                      "Q=28 A=27/27/27"),
              sheet(state, "Honda", "Rennen F1: Piquet Turbo-W10 Turbo-M10 Turbo-R10 d=2 e=2 "
                                    "Q=30 A=30/30/30"))
    starts = set()
    for attempt in range(60):
        report = run(state, *sheets, seed=f"q{attempt}", config=config).team_reports["Honda"]
        pole = "qualifying: 1. von 2" in report
        assert pole != ("Q zählt / counts 0" in report), report
        starts.add(pole)
        before = run(state, *sheets, seed=f"q{attempt}",
                     config=replace(config, qualifying_risk=False)).team_reports["Honda"]
        assert "qualifying: 1. von 2" in before  # version 1: the push was free in Q
    assert starts == {True, False}


def test_the_report_says_when_the_pace_capped_a_section() -> None:
    state = _six_teams()
    outcome = run(state, sheet(state, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 "
                                                 "Turbo-R10 d=1 e=1 Q=30 A=40/20/20"))
    report = outcome.team_reports["Ferrari"]
    assert "A 40 über dem Q-Tempo 30: zählt 30" in report and "30 von 30 SP" in report
    assert "20 von 20 SP (" not in report  # sections within the pace are not flagged


def test_a_rules_v2_game_replays_identically(tmp_path: Path) -> None:
    # a recalibration changes the defaults of new games only; a stored game holds every
    # setting, so its rounds must come out byte for byte as they were evaluated
    copy = tmp_path / "game"
    shutil.copytree(V2_GAME, copy)
    stored = json.loads((copy / "config.json").read_text())
    assert stored["rules_version"] == 2
    result = CliRunner().invoke(app, ["replay", str(copy)])
    assert result.exit_code == 0, result.output
    assert "3 rounds identical" in result.output or "3 Runden identisch" in result.output


def test_a_rules_v3_game_replays_identically(tmp_path: Path) -> None:
    # version 4's driver limit and training places by the field must not touch a game stored
    # under version 3: four drivers and two camps in three teams come out as they were
    copy = tmp_path / "game"
    shutil.copytree(V3_GAME, copy)
    stored = json.loads((copy / "config.json").read_text())
    assert stored["rules_version"] == 3 and "max_drivers" not in stored
    config = config_from_dict(stored)
    assert (config.max_drivers, config.teams_per_training_place, config.training_places) == \
        (0, 0, 2)
    log = (copy / "rounds" / "002" / "log.txt").read_text()
    assert "Training: Piquet (Ferrari)" in log and "Training: Alboreto (Honda)" in log
    state = json.loads((copy / "rounds" / "003" / "state.json").read_text())
    ferrari = [d for d in state["drivers"] if d["team"] == "Ferrari"]
    assert len(ferrari) == 4
    result = CliRunner().invoke(app, ["replay", str(copy)])
    assert result.exit_code == 0, result.output
    assert "3 rounds identical" in result.output or "3 Runden identisch" in result.output


def test_a_rules_v4_game_with_a_full_grid_replays_identically(tmp_path: Path) -> None:
    # version 5's roll for the car not pushed must not touch a game stored under version 4:
    # in round 2, 14 cars were entered for Formel I's 12 places and the careful teams' cars
    # (Q 84) qualified without a roll; they still do, and the rounds come out byte for byte
    copy = tmp_path / "game"
    shutil.copytree(V4_GAME, copy)
    stored = json.loads((copy / "config.json").read_text())
    assert stored["rules_version"] == 4 and "full_grid_every_car_rolls" not in stored
    config = config_from_dict(stored)
    assert (config.full_grid_every_car_rolls, config.qualifying_full_grid_push) == (False, 1)
    log = (copy / "rounds" / "002" / "log.txt").read_text()
    grid = next(line for line in log.splitlines() if "F1 Qualifikation:" in line)
    assert grid.count(", ") + 1 == 14 and "Surer Q84" in grid and "F1 Q Surer" not in log
    result = CliRunner().invoke(app, ["replay", str(copy)])
    assert result.exit_code == 0, result.output
    assert "2 rounds identical" in result.output or "2 Runden identisch" in result.output
    # the same rounds under version 5's qualifying come out otherwise: the record is a check
    for number in ("001", "002"):
        settings = copy / "rounds" / number / "config.json"
        changed = {**json.loads(settings.read_text()), "rules_version": 5}
        settings.write_text(json.dumps(changed))
    result = CliRunner().invoke(app, ["replay", str(copy)])
    # (round 1 had room on every grid, so it stays as it was)
    assert result.exit_code != 0, result.output
    assert "round 1: gleich / identical" in result.output
    assert "round 2: ABWEICHUNG / MISMATCH" in result.output


def _full_grid_of_one() -> GameConfig:
    """Formel I with one grid place: two entries make it full."""
    return replace(CONFIG, races=tuple(replace(t, grid=1) if t.code == "F1" else t
                                       for t in CONFIG.races))


def test_in_a_full_grid_a_pushed_car_qualifies_steps_harder() -> None:
    # rules version 3 (rules.md §5): two cars for one grid place, Piquet pushes (risk 1); his
    # qualifying dice count as risk 1 + qualifying_full_grid_push there (2 in version 5, 1 in
    # versions 3 and 4), and as risk 1 where the grid has room (the same seed rolls the same
    # dice); version 2 rolled as entered in every field
    import re

    full = _full_grid_of_one()
    state = _six_teams()
    sheets = (sheet(state, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                                      "Q=28 A=27/27/27"),
              sheet(state, "Honda", "Rennen F1: Piquet Turbo-W10 Turbo-M10 Turbo-R10 d=2 e=1 "
                                    "Q=29 A=27/27/27"))
    roll = re.compile(r"Q: Würfel / dice (\d) (\d): Risiko / risk (\d) \+ \d \+ \d − 8"
                      r"(, mindestens 0 / at least 0)? = (\d+) Würfe( \(volles Feld / full "
                      r"grid: 1 \+ (\d)\))?")
    harder = 0
    for attempt in range(30):
        seed = f"g{attempt}"
        crowded = roll.search(run(state, *sheets, seed=seed, config=full)
                              .team_reports["Honda"])
        version4 = roll.search(run(state, *sheets, seed=seed,
                                   config=replace(full, qualifying_full_grid_push=1,
                                                  full_grid_every_car_rolls=False))
                               .team_reports["Honda"])
        roomy = roll.search(run(state, *sheets, seed=seed).team_reports["Honda"])
        before = roll.search(run(state, *sheets, seed=seed,
                                 config=replace(full, qualifying_full_grid_push=0))
                             .team_reports["Honda"])
        assert crowded and version4 and roomy and before
        # in version 5 Lauda rolls first, so Piquet's dice are the next ones of the round
        crowded_dice = int(crowded[1]) + int(crowded[2])
        assert (crowded[3], int(crowded[5]), crowded[7]) == ("3", max(0, crowded_dice - 5), "2")
        dice = int(version4[1]) + int(version4[2])
        assert (version4[1], version4[2]) == (roomy[1], roomy[2]) == (before[1], before[2])
        assert (version4[3], int(version4[5]), version4[7]) == ("2", max(0, dice - 6), "1")
        assert (roomy[3], int(roomy[5]), bool(roomy[6])) == ("1", max(0, dice - 7), False)
        assert (before[3], before[5], before[6]) == ("1", roomy[5], None)
        harder += int(version4[5]) > int(roomy[5])
    assert harder > 0
    report = run(state, *sheets, seed="g0", config=full).team_reports_en["Honda"]
    assert "(full grid: 1 + 2)" in report


def _grid_place(report: str) -> int:
    """The grid place the English report gives the team's only car."""
    import re

    found = re.search(r"qualifying: (\d+) of \d+", report)
    assert found, report
    return int(found[1])


def test_in_a_full_grid_a_car_that_is_not_pushed_rolls_too() -> None:
    # rules version 5 (rules.md §5): Lauda does not push and has the higher Q (30 against 29),
    # so without a roll the one grid place is always his. In a full grid he rolls as if pushed
    # qualifying_full_grid_push steps (risk 0 + 2): a pit stop or a spin sets his Q to 0 and
    # Piquet takes the place. Where the grid has room, and in version 4, he rolls nothing.
    import re

    full = _full_grid_of_one()
    version4 = replace(full, full_grid_every_car_rolls=False, qualifying_full_grid_push=1)
    state = _six_teams()
    sheets = (sheet(state, "Ferrari", "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 "
                                      "Q=30 A=26/26/26"),
              sheet(state, "Honda", "Rennen F1: Piquet Turbo-W10 Turbo-M10 Turbo-R10 d=2 e=1 "
                                    "Q=29 A=27/27/27"))
    roll = re.compile(r"Q: dice (\d) (\d): risk 2 \+ \d \+ \d − 8(, at least 0)? = (\d+) "
                      r"throws \(full grid: 0 \+ 2\) -> (.+?), Q counts (\d+)")
    lost = kept = 0
    for attempt in range(40):
        seed = f"u{attempt}"
        crowded = run(state, *sheets, seed=seed, config=full)
        lauda = crowded.team_reports_en["Ferrari"]
        rolled = roll.search(lauda)
        assert rolled, lauda
        assert int(rolled[4]) == max(0, int(rolled[1]) + int(rolled[2]) - 6)
        if rolled[6] == "0":
            lost += 1
            assert (_grid_place(lauda), _grid_place(crowded.team_reports_en["Honda"])) \
                == (2, 1)
        else:
            kept += 1
            assert rolled[6] == "30" and _grid_place(lauda) == 1
        for calm in (run(state, *sheets, seed=seed).team_reports_en["Ferrari"],
                     run(state, *sheets, seed=seed, config=version4).team_reports_en["Ferrari"]):
            assert "Q: dice" not in calm and _grid_place(calm) == 1
    assert lost > 0 and kept > 0
