"""What a player reads: the race told section by section, the WM standing, HTML pages with
tables and charts (issue 15)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.turbo import app
from rennleitung.render.turbo_html import document_page
from rennleitung.turbo2000.model import Announcement

from .helpers import CONFIG, game, hire, run, sheet, stock

ENTRY = "Rennen F1: Lauda Turbo-W10 Turbo-M10 Turbo-R10 d=1 e=1 Q=30 A=25/25/25"


def _raced(first_line: str) -> str:
    """Ferrari's report after one Formel I race in which every section rolls ``first_line``
    (risk 0, so the risk table's first line decides each section)."""
    config = replace(CONFIG, risk_table=(first_line, *CONFIG.risk_table[1:]))
    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1")]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    return run(state, sheet(state, "Ferrari", ENTRY), config=config).team_reports["Ferrari"]


NO_DICE = "Risiko 0, keine Würfel / risk 0, no dice = 0 Würfe"


def test_the_report_shows_the_dice_rule_with_its_numbers() -> None:
    # rules.md §5: Würfe = risk + the dice − risk_offset, at least 0; the report shows the sum
    import re

    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1")]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    pushed = ENTRY.replace("d=1 e=1", "d=2 e=2")
    report = run(state, sheet(state, "Ferrari", pushed)).team_reports["Ferrari"]
    offset = CONFIG.risk_offset
    shown = re.findall(rf"dice (\d) (\d): Risiko / risk 2 \+ \1 \+ \2 − {offset}(, mindestens 0 "
                       r"/ at least 0)? = (\d+) Würfe", report)
    assert shown
    for first, second, floor, wuerfe in shown:
        assert int(wuerfe) == max(0, 2 + int(first) + int(second) - offset)
        assert bool(floor) == (2 + int(first) + int(second) < offset)


def test_the_report_tells_each_section_of_the_race() -> None:
    report = _raced("Box")
    for number in (1, 2, 3):
        assert f"A{number}: Würfel / dice keine / none: {NO_DICE} -> Boxenstopp / pit stop, " \
            "0 von 25 SP" in report
    assert "Qualifikation / qualifying: 1. von 1" in report
    assert "d=1 e=1, Q 30, Abschnitte / sections 25/25/25" in report
    worn = _raced("M")
    assert worn.count("Verschleiß / wear M, 25 von 25 SP") == 3
    assert "zurück ins Lager / back in stock: Turbo-W10 Turbo-M7 Turbo-R10" in worn
    spun = _raced("Dreher")
    assert "Dreher / spin, 0 von 25 SP" in spun
    broken = _raced("Reifenschaden")
    assert f"A1: Würfel / dice keine / none: {NO_DICE} -> Reifenschaden" in broken
    assert "A2:" not in broken  # retired after the first section
    assert "back in stock: Turbo-W10 Turbo-M10\n" in broken


def test_the_report_gives_the_wm_standing() -> None:
    report = _raced("-")
    assert "== WM-Stand / WM standing" in report
    assert "Platz 1 von 2 mit 9 WM-Punkten" in report


def _evaluated(tmp_path: Path) -> Path:
    directory = tmp_path / "game"
    runner = CliRunner()
    assert runner.invoke(app, ["new", str(directory), "--teams", "Ferrari:rosso,Honda:ichi",
                               "--seed", "5"]).exit_code == 0
    for _ in range(2):
        for team in ("Ferrari", "Honda"):
            text = runner.invoke(app, ["bot", str(directory), "--team", team]).output
            path = tmp_path / f"{team}.txt"
            path.write_text(text + "Kontakt: <script>alert(1)</script> & Co\n", encoding="utf-8")
            assert runner.invoke(app, ["submit", str(directory), str(path)]).exit_code == 0
        result = runner.invoke(app, ["evaluate", str(directory)])
        assert result.exit_code == 0, result.output
    return directory


def test_html_reports_are_pages_with_tables_and_charts(tmp_path: Path) -> None:
    directory = _evaluated(tmp_path)
    page = (directory / "rounds" / "002" / "reports" / "Ferrari.html").read_text()
    assert "<pre>" not in page
    assert page.count("<table>") >= 4  # account, stock, drivers, factories or WM
    assert page.count("<svg") == 3  # account, drivers' ratings, WM points
    assert 'data-driver="Ferrari"' in page  # the team's own line in its charts
    results = (directory / "rounds" / "002" / "rennanzeiger.html").read_text()
    assert "<pre>" not in results and "<svg" in results and "<table>" in results
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in results
    assert "<script>" not in results
    start = (directory / "rounds" / "000" / "rennanzeiger.html").read_text()
    assert "<h2>Vertraglose Fahrer / free drivers</h2>" in start


def test_every_game_text_on_a_page_is_escaped() -> None:
    from rennleitung.turbo2000.document import Document, Section, Table

    hostile = '<img src=x onerror="1">'
    page = document_page(Document(hostile, (
        Section(hostile, (hostile,), Table((hostile,), ((hostile,),))),)))
    assert "<img" not in page
    assert page.count("&lt;img") == 6  # title, heading, section, line, header, cell


def test_ratings_chart_does_not_drop_to_zero_before_a_driver_signed() -> None:
    from rennleitung.render.turbo_html import ratings_chart
    from rennleitung.turbo2000.model import HistoryPoint

    history = [HistoryPoint(1, {}, {}, {"Ferrari": {"Lauda": 100}}),
               HistoryPoint(2, {}, {}, {"Ferrari": {"Lauda": 109, "Prost": 104}})]
    svg = ratings_chart(history, "Ferrari")
    prost = next(line for line in svg.splitlines() if 'data-driver="Prost"' in line)
    heights = {part.split(",")[1] for part in prost.split('points="')[1].split('"')[0].split()}
    assert len(heights) == 1  # flat at his first known rating, not from zero


def test_the_report_warns_that_contracts_end_with_the_year() -> None:
    # contracts hold for the running year; the driver leaves after round 6 unless bid Folgejahr
    state = game("Ferrari", "Honda")
    state.round = 5
    hire(state, "Lauda", "Ferrari")
    warned = run(state, sheet(state, "Ferrari")).team_reports["Ferrari"]
    assert "ACHTUNG / WARNING: Verträge enden nach Runde 6 (Jahresende): Lauda" in warned
    assert "contracts end after round 6 (end of the year): Lauda without a contract" in warned
    state.round = 6
    gone = run(state, sheet(state, "Ferrari")).team_reports["Ferrari"]
    assert "Lauda's contract ended with year 1" in gone
    assert "Vertrag von Lauda endete mit dem Jahr 1" in gone
    state.round = 2
    early = run(state, sheet(state, "Ferrari")).team_reports["Ferrari"]
    assert "Verträge enden nach Runde 6" in early and "ACHTUNG" not in early
    state.drivers["Lauda"].next_team = "Ferrari"
    kept = run(state, sheet(state, "Ferrari")).team_reports["Ferrari"]
    assert "Verträge enden" not in kept


def test_charts_are_not_empty_after_round_1_and_qualifying_is_published(tmp_path: Path) -> None:
    import re

    directory = _evaluated(tmp_path)
    page = (directory / "rounds" / "001" / "reports" / "Ferrari.html").read_text()
    charts = [part.split("</svg>")[0] for part in page.split("<svg")[1:]]
    assert len(charts) == 3
    for chart in charts:  # one round: every line still shows its point
        assert '<circle class="point"' in chart
    wm = next(chart for chart in charts if 'aria-label="WM-Punkte' in chart)
    line = re.search(r'data-driver="Ferrari"[^>]*points="([^"]*)"', wm)
    assert line and len(line.group(1).split()) == 2  # from round 0 (0 points) to round 1
    results = (directory / "rounds" / "001" / "rennanzeiger.txt").read_text()
    published = re.findall(r"\d+\. \S+ \((Ferrari|Honda)\) Q (\d+)", results)
    assert {team for team, _ in published} == {"Ferrari", "Honda"}
    sheets = [p.read_text() for p in (directory / "archive" / "001").glob("*-*.txt")]
    written = {int(q) for text in sheets for q in re.findall(r" Q=(\d+)", text)}
    assert {int(q) for _, q in published} <= written


def test_each_team_gets_a_machine_readable_json_report(tmp_path: Path) -> None:
    import json

    directory = _evaluated(tmp_path)
    path = directory / "rounds" / "002" / "reports" / "Ferrari.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "rennleitung-turbo2000-team-report" and data["version"] == 1
    assert data["team"] == "Ferrari" and data["round"] == 2 and data["next_round"] == 3
    state = json.loads((directory / "rounds" / "003" / "state.json").read_text())
    ferrari = next(team for team in state["teams"] if team["name"] == "Ferrari")
    assert data["money"]["balance"] == ferrari["money"]
    assert sum(item["count"] for item in data["stock"]) == sum(s[3] for s in ferrari["stock"])
    assert data["money"]["start"] + sum(e["amount"] for e in data["money"]["entries"]) \
        == data["money"]["balance"]
    text = (directory / "rounds" / "002" / "reports" / "Ferrari.txt").read_text()
    for driver in data["drivers"]:
        assert driver["name"] in text
    assert data["races"] and all(line in text for line in data["races"])
    assert data["wm"]["teams"] == 2 and data["wm"]["place"] in (1, 2)
    shown = CliRunner().invoke(app, ["report", str(directory), "--team", "Ferrari", "--json"])
    assert shown.exit_code == 0 and json.loads(shown.output) == data
    replayed = CliRunner().invoke(app, ["replay", str(directory)])
    assert replayed.exit_code == 0, replayed.output


def test_an_english_report_and_results_sheet_hold_no_german() -> None:
    """Issue 24: an English team's report (notes, the year-end hint) and the English results
    sheet are English only; the bilingual ones stay as they were."""
    from rennleitung.turbo2000.document import as_text

    state = game("Ferrari", "Honda")
    state.round = 6
    hire(state, "Lauda", "Ferrari")
    gone = run(state, sheet(state, "Ferrari"))
    english = gone.team_reports_en["Ferrari"]
    assert "  Lauda's contract ended with year 1" in english
    assert "Vertrag von" not in english and "Vertrag von Lauda" in gone.team_reports["Ferrari"]
    assert "  no orders received" in gone.team_reports_en["Honda"]
    state.round = 5
    warned = run(state, sheet(state, "Ferrari")).team_reports_en["Ferrari"]
    assert "WARNING: contracts end after round 6" in warned and "ACHTUNG" not in warned
    assert "'Vertrag: NAME AMOUNT Folgejahr' (the sheet's keywords stay German" in warned
    config = replace(CONFIG, risk_table=("Motorschaden", *CONFIG.risk_table[1:]))
    state = game("Ferrari", "Honda")
    state.announcements = [Announcement("F1")]
    hire(state, "Lauda", "Ferrari")
    stock(state, "Ferrari", "Turbo-W10", "Turbo-M10", "Turbo-R10")
    raced = run(state, sheet(state, "Ferrari", ENTRY), config=config)
    assert "Motorschaden" in raced.team_reports["Ferrari"]
    assert "engine destroyed, retired" in raced.team_reports_en["Ferrari"]
    assert raced.results_document_en is not None
    results = as_text(raced.results_document_en)
    assert "race: Formel I (F1): 1 entries" in results and "qualifying (1 of 1" in results
    for word in ("Motorschaden", "Meldungen", "Rennen /", "Qualifikation", "Fahrer /",
                 "Abschnitte", "Startplätze", "Trainingsplätze", "Vertraglose", "Platz"):
        assert word not in results, (word, results)
    assert "Rennen / race: Formel I (F1): 1 Meldungen" in raced.results_sheet


def test_turbo_report_shows_the_english_start_sheet_and_results(tmp_path: Path) -> None:
    """``turbo report --english`` (issue 24): the English-only files ``turbo new`` and
    ``turbo evaluate`` write; without the option the bilingual ones as before."""
    runner = CliRunner()
    folder = tmp_path / "g"
    assert runner.invoke(app, ["new", str(folder), "--teams", "Ferrari,Honda"]).exit_code == 0
    start = runner.invoke(app, ["report", str(folder), "--round", "0", "--english"])
    assert start.exit_code == 0 and "start sheet for round 1" in start.output, start.output
    assert "Rennställe" not in start.output
    both = runner.invoke(app, ["report", str(folder), "--round", "0"])
    assert "Rennanzeiger zu Runde 1 / start sheet" in both.output
    assert runner.invoke(app, ["evaluate", str(folder), "--force"]).exit_code == 0
    page = runner.invoke(app, ["report", str(folder), "--team", "Honda", "--html", "--english"])
    assert page.exit_code == 0 and 'lang="en"' in page.output and "Konto" not in page.output
    results = runner.invoke(app, ["report", str(folder), "--english"])
    assert "TURBO 2000 - results round 1" in results.output
