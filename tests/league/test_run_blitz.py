"""FD Blitz runs driven on the board against the chess clock, in simulated time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import Bot, make_bot
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.record import events_digest, parse_record, record_of, record_to_json
from rennleitung.formula_de.replay import replay, verify
from rennleitung.league.blitz_match import RunStart
from rennleitung.league.blitz_run import blitz_config, run_blitz
from rennleitung.league.chess_clock import ChessClock

PLAYERS = ("Anna", "Ben")
runner = CliRunner()


def bots() -> dict[str, Bot]:
    return {p: make_bot("simple") for p in PLAYERS}


def clock(limit: float, start: str = "Anna", now: float = 1000.0) -> ChessClock:
    return ChessClock(PLAYERS, limit).start(start, now)


def test_config_uses_the_blitz_setup_and_the_run_start() -> None:
    config = blitz_config(RunStart(2, "Ben", "Anna", "Ben"), PLAYERS, "short")
    assert config.ruleset == "fd-blitz" and config.qualifying == ("Ben", "Anna")
    assert all(e.karma == 0 for e in config.entries)
    third = blitz_config(RunStart(3, None, None, "Ben", (("Ben", (12,)),)), PLAYERS, "short")
    assert third.qualifying == ("Ben", "Anna")


def test_both_clocks_run_out_and_the_farther_car_wins() -> None:
    start = RunStart(1, "Anna", "Ben", "Anna")
    result = run_blitz(start, PLAYERS, "short", "s1", bots(), clock(60), 1000.0,
                       move_seconds=10)
    assert result.finished_first is None
    assert set(result.out_of_time) == set(PLAYERS)
    assert result.clock.on_move(result.now) is None
    # each player used exactly his minute; handing over costs nothing
    assert result.now == pytest.approx(1000.0 + 60 + 60)
    moves = [e for e in result.race.events if e.kind is EventKind.ROLL]
    per_player = {p: sum(1 for e in moves if e.car == p) for p in PLAYERS}
    assert per_player == {"Anna": 5, "Ben": 5}  # 10 s each, the 6th turn would flag
    a, b = result.distances["Anna"], result.distances["Ben"]
    assert a != b and min(a, b) >= 0


def test_a_player_out_of_time_stands_while_the_other_drives_on() -> None:
    start = RunStart(1, "Anna", "Ben", "Anna")
    short_for_anna = ChessClock(PLAYERS, 100, used_s=(85.0, 0.0), running=0, since_s=0.0)
    result = run_blitz(start, PLAYERS, "short", "s2", bots(), short_for_anna, 0.0,
                       move_seconds=10)
    rolls = [e.car for e in result.race.events if e.kind is EventKind.ROLL]
    assert rolls.count("Anna") == 1  # 15 s left: one turn, then the flag falls
    assert rolls.count("Ben") == 9  # 100 s: nine turns of 10 s, the tenth would flag
    assert result.out_of_time == PLAYERS
    assert result.distances["Ben"] > result.distances["Anna"]


def test_plenty_of_time_the_first_over_the_line_wins() -> None:
    start = RunStart(1, "Anna", "Ben", "Anna")
    result = run_blitz(start, PLAYERS, "short", "s3", bots(), clock(10_000), 1000.0,
                       move_seconds=5, laps=1)
    assert result.finished_first in PLAYERS
    assert result.out_of_time == ()
    assert result.race.cars[result.finished_first].status.value == "finished"


def test_third_run_side_by_side_and_the_die_winner_moves_first() -> None:
    start = RunStart(3, None, None, "Ben", (("Ben", (15,)), ("Anna", (3,))))
    result = run_blitz(start, PLAYERS, "short", "s4", bots(), clock(30, "Ben", 0.0), 0.0,
                       move_seconds=10)
    race = result.race
    grid = [e for e in race.events if e.kind is EventKind.GRID]
    assert [e.car for e in grid] == ["Ben", "Anna"]
    first_roll = next(e for e in race.events if e.kind is EventKind.START_ROLL)
    assert first_roll.car == "Ben"


def test_in_the_third_run_the_die_not_a_karma_bid_decides_the_first_round() -> None:
    """Dresden "FD Blitz" ("es wird gewürfelt, wer beginnt"), decision "FD Blitz, the third
    heat" (issue 22): the two cars stand level in gear 0, and the die has put Ben first. Even
    when the drivers have karma, nobody bids head to head in that first round (they used to be
    asked, and the bid could overturn the die); Ben makes the first start roll."""
    from dataclasses import replace

    from rennleitung.formula_de.race import Race
    from rennleitung.formula_de.race_decisions import AskKind

    config = blitz_config(RunStart(3, None, None, "Ben", (("Ben", (15,)),)), PLAYERS, "short")
    config = replace(config, entries=tuple(replace(e, karma=30) for e in config.entries))
    race = Race.create(config, "s4")
    while race.pending is not None and race.pending.kind in (AskKind.SETUP, AskKind.BOX):
        race.apply(race.legal_decisions()[0])
    ask = race.pending
    assert ask is not None and ask.kind is not AskKind.BID
    assert (race.round, ask.car) == (1, "Ben")


def test_side_by_side_cars_start_level() -> None:
    from rennleitung.formula_de.race import Race

    config = blitz_config(RunStart(3, None, None, "Anna"), PLAYERS, "short")
    assert config.side_by_side
    race = Race.create(config, 1)
    track = race.track
    anna, ben = race.cars["Anna"].space, race.cars["Ben"].space
    assert anna == track.grid[0]
    assert track.same_height(anna, ben) and track.spaces[anna].lane != track.spaces[ben].lane


def test_a_run_out_of_time_is_a_record_that_replays_bit_identically() -> None:
    start = RunStart(1, "Anna", "Ben", "Anna")
    result = run_blitz(start, PLAYERS, "short", "s5", bots(), clock(60), 1000.0,
                       move_seconds=10)
    race = result.race
    assert race.finished and race.halted == set(PLAYERS)
    halts = [e.car for e in race.events if e.kind is EventKind.HALTED]
    assert sorted(halts) == sorted(PLAYERS)
    data = record_of(race, "s5")
    assert [d["kind"] for d in data["decisions"]].count("halt") == 2
    record = parse_record(record_to_json(data), builtin_track)
    again = replay(record)
    assert events_digest(again.events) == events_digest(race.events)
    assert verify(record).honest


def test_a_side_by_side_run_that_finishes_replays() -> None:
    start = RunStart(3, None, None, "Ben", (("Ben", (15,)), ("Anna", (3,))))
    result = run_blitz(start, PLAYERS, "short", "s6", bots(), clock(10_000, "Ben", 0.0), 0.0,
                       move_seconds=5, laps=1)
    assert result.finished_first in PLAYERS and result.race.finished
    record = parse_record(record_to_json(record_of(result.race, "s6")), builtin_track)
    assert record.config.side_by_side
    verdict = verify(record)
    assert verdict.honest, verdict.problems
    assert verdict.events == len(result.race.events)


def test_move_seconds_must_be_positive() -> None:
    with pytest.raises(RennleitungError) as error:
        run_blitz(RunStart(1, "Anna", "Ben", "Anna"), PLAYERS, "short", "x", bots(),
                  clock(60), 1000.0, move_seconds=0)
    assert "--move-seconds" in str(error.value)


def blitz(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["blitz", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_whole_match_on_the_board_from_the_command_line(tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    assert blitz("new", str(file), "Anna", "Ben", "--minutes", "2", "--seed", "5")[0] == 0
    outcomes = []
    for n in range(1, 6):
        data = json.loads(file.read_text(encoding="utf-8"))
        if any(sum(1 for r in data["runs"] if r["winner"] == p) == 2 for p in PLAYERS):
            break
        code, out, err = blitz("run", str(file), "--track", "short", "--now", str(n * 1000))
        assert code == 0, err
        assert "Zehntelreihen" in out and "tenths of a row" in out
        outcomes.append(out)
    data = json.loads(file.read_text(encoding="utf-8"))
    winners = [r["winner"] for r in data["runs"] if r["winner"]]
    assert max(winners.count(p) for p in PLAYERS) == 2
    assert "wins the match" in outcomes[-1] and "gewinnt das Match" in outcomes[-1]
    assert data["runs"][0]["start"]["pole"] == "Anna"
    code, _, err = blitz("run", str(file), "--track", "short", "--now", "9000")
    assert code == 1 and "decided" in err and "entschieden" in err


def test_run_continues_a_started_run_with_its_clock(tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    blitz("new", str(file), "Anna", "Ben", "--minutes", "1", "--seed", "5")
    assert blitz("start", str(file), "--now", "100")[0] == 0
    code, out, err = blitz("run", str(file), "--track", "short", "--now", "100",
                           "--move-seconds", "15")
    assert code == 0, err
    data = json.loads(file.read_text(encoding="utf-8"))
    assert len(data["runs"]) == 1 and data.get("current") is None
    assert "out of time" in out


def test_run_writes_a_race_record_that_verifies(tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    record = tmp_path / "run1.json"
    blitz("new", str(file), "Anna", "Ben", "--minutes", "1", "--seed", "5")
    code, out, err = blitz("run", str(file), "--track", "short", "--now", "100",
                           "--record", str(record))
    assert code == 0, err
    assert "record:" in out and "Protokoll:" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["config"]["ruleset"] == "fd-blitz" and data["finished"] is True
    assert any(d["kind"] == "halt" for d in data["decisions"])
    result = runner.invoke(app, ["race", "verify", str(record)])
    assert result.exit_code == 0, result.stdout + result.stderr


def test_bad_options_are_refused(tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    blitz("new", str(file), "Anna", "Ben", "--seed", "5")
    before = file.read_text(encoding="utf-8")
    code, _, err = blitz("run", str(file), "--bots", "simple,strong,simple")
    assert code == 1 and "--bots" in err
    code, _, err = blitz("run", str(file), "--track", "nowhere")
    assert code == 1 and "track" in err
    code, _, err = blitz("run", str(file), "--bots", "genius")
    assert code == 1 and "bots" in err
    assert file.read_text(encoding="utf-8") == before
