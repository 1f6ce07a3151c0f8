"""``--starters`` as one line: names with commas, names with quotes, and quoted names side by
side (issue 26: a comma name next to a quote name failed)."""

from __future__ import annotations

from rennleitung.league.starters import parse_starters

NAMES = ["Müller, Max", 'Peter "Pit" Lustig', "Anna", "Ben"]


def test_a_comma_name_next_to_a_quote_name() -> None:
    assert parse_starters('Müller, Max,Peter "Pit" Lustig', NAMES) == [
        "Müller, Max", 'Peter "Pit" Lustig']
    assert parse_starters('Peter "Pit" Lustig, Müller, Max', NAMES) == [
        'Peter "Pit" Lustig', "Müller, Max"]


def test_quoted_names_with_spaces_and_doubled_quotes() -> None:
    assert parse_starters('Anna, "Müller, Max",Ben', NAMES) == ["Anna", "Müller, Max", "Ben"]
    assert parse_starters('"Peter ""Pit"" Lustig", Anna', NAMES) == [
        'Peter "Pit" Lustig', "Anna"]


def test_an_unclosed_quote_is_kept_for_the_caller_to_refuse() -> None:
    assert parse_starters('"Müller, Max', NAMES) == ['"Müller', "Max"]
    assert parse_starters("", NAMES) == []
