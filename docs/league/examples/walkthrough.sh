#!/bin/sh
# A two-race season typed in from the example files; run from the repository root.
# tests/league/test_league_examples.py runs the same steps and checks the tables.
set -e
DB=${DB:-/tmp/rennleitung-example.sqlite3}
L="Dresden 2006"
R=".venv/bin/rennleitung league"
$R create "$L" --kind season --db "$DB"
$R add-team "$L" "Scuderia Elbe" --db "$DB"
$R add-team "$L" "Team Pirna" --db "$DB"
$R add-driver "$L" Anna --team "Scuderia Elbe" --profile theoretiker --city Dresden --db "$DB"
$R add-driver "$L" Ben --team "Scuderia Elbe" --profile praktiker --city Dresden --db "$DB"
$R add-driver "$L" Clara --team "Team Pirna" --profile regengott --city Pirna --db "$DB"
$R add-driver "$L" Dirk --team "Team Pirna" --city Pirna --db "$DB"
$R enter-qualifying "$L" 1 docs/league/examples/quali1.csv --seed 2006 --weather wechselhaft \
    --db "$DB"
$R enter-race "$L" docs/league/examples/race1.csv --race 1 --track Monaco --db "$DB"
$R enter-race "$L" docs/league/examples/race2.json --db "$DB"
$R standings "$L" --db "$DB"
$R standings "$L" --table constructors --db "$DB"
$R standings "$L" --table karma --db "$DB"
$R html "$L" --out /tmp/rennleitung-example.html --db "$DB"
