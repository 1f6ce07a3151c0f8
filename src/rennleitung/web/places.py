"""The place an error names (``RennleitungError.where``: "line 3, grid", "race 5, Mo, team")
in German, for German pages: the engines write it in English words, the page then read half
English (issue 26). Names in it (a driver called "Mo") stay as they are."""

from __future__ import annotations

import re

NUMBERED = {"line": "Zeile", "race": "Rennen", "qualifying": "Qualifizierung",
            "round": "Runde", "run": "Lauf"}
"""A word followed by a number ("line 3")."""

FIELDS = {
    "driver": "Fahrer", "drivers": "Fahrer", "team": "Team", "grid": "Startplatz",
    "position": "Platz", "laps": "Runden", "laps_completed": "Runden", "status": "Status",
    "driven_by": "gefahren von", "laps_most_led": "Führungsrunden", "karma": "Karma",
    "from_race": "ab Rennen", "race": "Rennen", "races": "Rennen", "league": "Liga",
    "city": "Stadt", "profile": "Fahrerprofil", "account": "Konto", "organiser": "Konto",
    "track": "Strecke", "seed": "Seed", "weather": "Wetter", "starters": "Starter",
    "rolls": "Würfe", "lap_time": "Rundenzeit", "penalty_points": "Strafpunkte",
    "errors": "Fehler", "action": "Aktion", "name": "Name", "people": "Menschen",
    "seconds": "Sekunden", "database": "Datenbank", "did_not_start": "nicht gestartet",
    "rounds": "Rundenfolge", "invitation": "Einladung", "kind": "Art", "new": "neuer Name",
    "old": "alter Name", "csv": "CSV", "race_csv": "Rennen als CSV", "replace": "ersetzen",
    "export": "Export", "file": "Datei", "text": "Text", "note": "Vermerk",
}
"""A field's name as the forms and files call it."""

_NUMBERED = re.compile(r"^(line|race|qualifying|round|run) (\d+)$")


def place_de(where: str) -> str:
    """``where`` with its English words in German, part by part."""
    parts = []
    for part in where.split(", "):
        numbered = _NUMBERED.match(part)
        if numbered:
            parts.append(f"{NUMBERED[numbered.group(1)]} {numbered.group(2)}")
        else:
            parts.append(FIELDS.get(part, part))
    return ", ".join(parts)
