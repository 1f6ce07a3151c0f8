"""Race and qualifying CSV with German column names, as a German spreadsheet (or the tables'
own German labels) writes them: ``Fahrer;Start;Platz`` was refused while the export wrote it."""

from __future__ import annotations

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.league.race_result import FinishStatus
from rennleitung.league.race_result_codec import qualifying_laps_from_csv, race_result_from_csv


def test_german_race_columns_and_status_words() -> None:
    text = ("\ufeffFahrer;Start;Platz;Runden;Status;Gefahren von;Führungsrunden;Karma;Team\n"
            "Jörg;2;1;;im Ziel;;2;twenty;Blau\nAnna;1;2;1;ausgefallen;;;;\n"
            "Ben;;;;nicht gestartet;;;;\n")
    result = race_result_from_csv(text, 4)
    jorg, anna = result.drivers
    assert (jorg.driver, jorg.grid, jorg.position, jorg.laps_completed, jorg.status,
            jorg.laps_most_led, jorg.team) == ("Jörg", 2, 1, 3, FinishStatus.FINISHED, 2,
                                                "Blau")
    assert (anna.status, anna.laps_completed) == (FinishStatus.RETIRED, 1)
    assert result.did_not_start == ("Ben",)


def test_german_qualifying_columns() -> None:
    laps = qualifying_laps_from_csv("Fahrer;Würfe;Strafpunkte;Fehler;Rundenzeit;Lauf\n"
                                    "Anna;41;2;0;3:05,5;1\n")
    assert (laps[0].driver, laps[0].rolls, laps[0].penalty_points, laps[0].lap_time_ms) == (
        "Anna", 41, 2, 185_500)


def test_a_missing_column_is_still_named() -> None:
    with pytest.raises(RennleitungError, match="position") as refused:
        race_result_from_csv("Fahrer;Start\nAnna;1\n", 1)
    assert refused.value.where == "line 1"
