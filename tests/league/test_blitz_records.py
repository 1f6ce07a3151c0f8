"""A league's FD Blitz records (issue 27): the table's house order where it decides, a match not
yet decided refused naming the field, and an export from before issue 27 loading unchanged."""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.league.blitz_match import BlitzMatch, RunStart
from rennleitung.league.blitz_records import (
    BlitzRecord,
    BlitzSource,
    blitz_table,
    record_from_json,
    record_from_match,
    record_to_json,
)
from rennleitung.league.formats import LeagueKind, format_for
from rennleitung.league.league_codec import league_to_json, replay_league
from rennleitung.league.roster import Roster
from rennleitung.league.season import League

CLI = BlitzSource.COMMAND_LINE


def rec(a: str, b: str, *heats: str) -> BlitzRecord:
    winner = max((a, b), key=heats.count)
    return BlitzRecord("2026-12-01", "oval", (a, b), heats, winner, CLI)


def test_match_wins_then_heat_difference_then_heats_won_decide_the_order() -> None:
    records = [
        rec("Ada", "Bob", "Ada", "Ada"),          # Ada 2:0
        rec("Bob", "Cem", "Bob", "Cem", "Bob"),   # Bob 2:1
        rec("Cem", "Ada", "Cem", "Ada", "Cem"),   # Cem 2:1
        rec("Dan", "Eva", "Dan", "Eva", "Dan"),   # Dan 2:1, Eva 1:2
        rec("Eva", "Fay", "Fay", "Eva", "Eva"),   # Eva 2:1, Fay 1:2
    ]
    table = blitz_table(records)
    lines = {s.driver: s for s in table}
    # Ada, Bob, Cem, Dan and Eva one match win each; heat difference: Ada +1 (3:2),
    # Dan +1 (2:1), Cem 0 (3:3), Eva 0 (3:3), Bob -1 (2:3); Fay no win
    assert (lines["Ada"].heats_won, lines["Ada"].heats_lost) == (3, 2)
    assert [s.driver for s in table] == ["Ada", "Dan", "Cem", "Eva", "Bob", "Fay"]
    # Ada and Dan: same wins and difference, Ada more heats won -> Ada alone on 1;
    # Cem and Eva equal in all three -> they share 3rd, listed by name
    assert [s.place for s in table] == [1, 2, 3, 3, 5, 6]
    assert lines["Fay"].played == 1 and lines["Fay"].won == 0


def test_a_match_not_decided_is_refused_naming_the_runs() -> None:
    start = RunStart(1, "Ada", "Bob", "Ada")
    match = BlitzMatch(("Ada", "Bob")).with_run(start, {"Ada": 3, "Bob": 1})
    with pytest.raises(RennleitungError) as refused:
        record_from_match(match, date="2026-12-01", board="oval", source=CLI)
    assert "runs" in refused.value.where and "1:0" in refused.value.en
    match = match.with_run(RunStart(2, "Bob", "Ada", "Bob"), {"Ada": 4, "Bob": 1})
    record = record_from_match(match, date="2026-12-01", board="oval", source=CLI)
    assert record.winner == "Ada" and record.heat_winners == ("Ada", "Ada")


def test_a_record_whose_winner_did_not_win_most_heats_is_refused() -> None:
    with pytest.raises(RennleitungError, match="winner"):
        BlitzRecord("2026-12-01", "oval", ("Ada", "Bob"), ("Ada", "Ada"), "Bob", CLI)
    with pytest.raises(RennleitungError, match="date"):
        BlitzRecord("1.12.2026", "oval", ("Ada", "Bob"), ("Ada", "Ada"), "Ada", CLI)


def test_records_round_trip_and_an_old_export_loads_unchanged() -> None:
    league = League("S", Roster(format_for(LeagueKind.SEASON)))
    record = rec("Ada", "Bob", "Bob", "Ada", "Bob")
    assert record_from_json(record_to_json(record)) == record
    data = league_to_json(league.with_blitz(record), {})
    assert replay_league(data)[0].blitz == (record,)
    old = {k: v for k, v in data.items() if k != "blitz"}  # an export from before issue 27
    assert replay_league(old)[0].blitz == ()


def test_the_same_match_is_entered_once() -> None:
    league = League("S", Roster(format_for(LeagueKind.SEASON)))
    record = BlitzRecord("2026-12-01", "oval", ("Ada", "Bob"), ("Ada", "Ada"), "Ada",
                         BlitzSource.ONLINE, "server:1")
    with pytest.raises(RennleitungError, match="already"):
        league.with_blitz(record).with_blitz(record)
