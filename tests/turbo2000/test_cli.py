"""`rennleitung turbo …` on a real game directory: new, check, submit, evaluate, report, replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.turbo import app

runner = CliRunner()


def _new(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    result = runner.invoke(app, ["new", str(game), "--teams", "Ferrari:rosso,Honda:ichi,Lotus",
                                 "--seed", "42"])
    assert result.exit_code == 0, result.output
    return game


def _play_round(game: Path, tmp_path: Path) -> None:
    for team, strategy in (("Ferrari", "ausgewogen"), ("Honda", "vorsichtig")):
        result = runner.invoke(app, ["bot", str(game), "--team", team, "--strategy", strategy])
        assert result.exit_code == 0, result.output
        path = tmp_path / f"{team}.txt"
        path.write_text(result.output, encoding="utf-8")
        assert runner.invoke(app, ["submit", str(game), str(path)]).exit_code == 0
    result = runner.invoke(app, ["evaluate", str(game), "--force"])
    assert result.exit_code == 0, result.output


def test_new_game_directory_layout(tmp_path: Path) -> None:
    game = _new(tmp_path)
    assert (game / "rounds" / "001" / "state.json").exists()
    assert json.loads((game / "game.json").read_text())["seed"] == "42"
    assert "Passwort" in runner.invoke(app, ["new", str(tmp_path / "g2"), "--teams", "A,B"]).output
    again = runner.invoke(app, ["new", str(game), "--teams", "A,B"])
    assert again.exit_code == 1 and "already exists" in again.output


def test_bad_team_name_is_refused_in_both_languages(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", str(tmp_path / "g"), "--teams", "Turbo,Honda"])
    assert result.exit_code == 1
    assert "vorbehalten" in result.output and "reserved" in result.output


def test_check_reports_lines_and_exit_code(tmp_path: Path) -> None:
    game = _new(tmp_path)
    good = tmp_path / "good.txt"
    good.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nVertrag: Lauda 10.000\n")
    assert runner.invoke(app, ["check", str(good), "--game", str(game)]).exit_code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("Rennstall: Ferrari\nPasswort: falsch\nRunde: 1\nBau X: 2\n")
    result = runner.invoke(app, ["check", str(bad), "--game", str(game)])
    assert result.exit_code == 1
    assert f"{bad}:4:" in result.output and "needs W, M or R" in result.output
    assert "falsches Passwort" in result.output and "wrong password" in result.output


def test_check_with_a_game_previews_what_the_evaluation_would_refuse(tmp_path: Path) -> None:
    game = _new(tmp_path)
    sheet = tmp_path / "entry.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nVertrag: Lauda 10.000\n"
                     "an Turbo: Kaufe Turbo-W18 zu 700.000\nan Turbo: Kaufe Turbo-M16 zu 250.000\n"
                     "an Turbo: Kaufe Turbo-R18 zu 25.000\n"
                     "Rennen F1: Lauda Turbo-W18 Turbo-M16 Turbo-R18 d=1 e=1 Q=300 A=30/30/30\n")
    result = runner.invoke(app, ["check", str(sheet), "--game", str(game)])
    assert result.exit_code == 1
    assert "preview" in result.output
    assert f"{sheet}:8: [Q/A] 390 LP split, only 336 available (§2)" in result.output


def test_latin1_sheet_from_an_old_mail_program_is_read(tmp_path: Path) -> None:
    game = _new(tmp_path)
    sheet = tmp_path / "latin1.txt"
    sheet.write_bytes("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nKontakt: Grüße\n"
                      .encode("latin-1"))
    assert runner.invoke(app, ["submit", str(game), str(sheet)]).exit_code == 0
    result = runner.invoke(app, ["evaluate", str(game), "--force"])
    assert result.exit_code == 0 and "Ferrari: Grüße" in result.output
    assert (game / "archive" / "001" / "0001-latin1.txt").read_bytes() == sheet.read_bytes()


def test_evaluate_archives_sheets_and_replay_matches(tmp_path: Path) -> None:
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    _play_round(game, tmp_path)
    assert list((game / "inbox").iterdir()) == []
    archived = sorted(p.name for p in (game / "archive" / "001").iterdir())
    assert archived == ["0001-Ferrari.txt", "0002-Honda.txt", "manifest.json"]
    assert (game / "rounds" / "003" / "state.json").exists()
    report = runner.invoke(app, ["report", str(game), "--team", "Ferrari"])
    assert report.exit_code == 0 and "Bericht Runde 2 für Ferrari" in report.output
    results = runner.invoke(app, ["report", str(game), "--round", "1"])
    assert "Rennanzeiger Runde 1" in results.output
    replay = runner.invoke(app, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output
    assert "2 Runden identisch" in replay.output


def test_replay_uses_the_settings_each_round_was_evaluated_with(tmp_path: Path) -> None:
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    config = json.loads((game / "config.json").read_text())
    config["sponsor_money"] = 1
    (game / "config.json").write_text(json.dumps(config))
    _play_round(game, tmp_path)
    used = json.loads((game / "rounds" / "002" / "config.json").read_text())
    assert used["sponsor_money"] == 1
    replay = runner.invoke(app, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output


def test_replay_detects_a_changed_state(tmp_path: Path) -> None:
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    path = game / "rounds" / "002" / "state.json"
    data = json.loads(path.read_text())
    data["teams"][0]["money"] += 1
    path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    result = runner.invoke(app, ["replay", str(game)])
    assert result.exit_code == 1 and "state.json" in result.output


def test_report_for_an_unknown_team(tmp_path: Path) -> None:
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    result = runner.invoke(app, ["report", str(game), "--team", "Tyrrell"])
    assert result.exit_code == 1 and "no report" in result.output


def test_status_lists_sheets_and_missing_teams(tmp_path: Path) -> None:
    game = _new(tmp_path)
    sheet = tmp_path / "f.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nBau X: 1\n")
    runner.invoke(app, ["submit", str(game), str(sheet)])
    result = runner.invoke(app, ["status", str(game)])
    assert result.exit_code == 0
    assert "0001-f.txt" in result.output and "Ferrari" in result.output
    assert "missing (no valid sheet): Honda, Lotus" in result.output


def test_html_reports_escape_what_players_wrote(tmp_path: Path) -> None:
    game = _new(tmp_path)
    sheet = tmp_path / "f.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nKontakt: <b>hallo</b>\n")
    runner.invoke(app, ["submit", str(game), str(sheet)])
    assert runner.invoke(app, ["evaluate", str(game), "--force"]).exit_code == 0
    page = (game / "rounds" / "001" / "rennanzeiger.html").read_text()
    assert "&lt;b&gt;hallo&lt;/b&gt;" in page and "<b>hallo" not in page


def test_demo_prints_the_wm_table() -> None:
    result = runner.invoke(app, ["demo", "--teams", "4", "--years", "1", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "Ewige WM-Liste" in result.output and "Sieger / winner: Bot" in result.output


def test_demo_groups_money_the_reader_s_way() -> None:
    """The English table showed the account as 6.120.500."""
    args = ["demo", "--teams", "4", "--years", "1", "--seed", "3"]
    english = runner.invoke(app, args, env={"RENNLEITUNG_LANG": "en", "COLUMNS": "120"}).output
    german = runner.invoke(app, args, env={"RENNLEITUNG_LANG": "de", "COLUMNS": "120"}).output
    assert re.search(r"\d,\d{3},\d{3}", english) and not re.search(r"\d\.\d{3}", english)
    assert re.search(r"\d\.\d{3}\.\d{3}", german) and not re.search(r"\d,\d{3}", german)


def test_the_missing_sheets_error_names_the_round_in_one_language(tmp_path: Path) -> None:
    """Was "Error: Runde 1: without a valid sheet: …" in English."""
    game = _new(tmp_path)
    english = runner.invoke(app, ["evaluate", str(game)], env={"RENNLEITUNG_LANG": "en"})
    german = runner.invoke(app, ["evaluate", str(game)], env={"RENNLEITUNG_LANG": "de"})
    assert english.exit_code == german.exit_code == 1
    assert "round 1: without a valid sheet" in english.output and "Runde" not in english.output
    assert "Runde 1: ohne gültigen Bogen" in german.output


def test_evaluate_lists_missing_teams_and_needs_force(tmp_path: Path) -> None:
    game = _new(tmp_path)
    result = runner.invoke(app, ["evaluate", str(game)])
    assert result.exit_code == 1
    assert "Ferrari, Honda, Lotus" in result.output and "--force" in result.output
    assert not (game / "rounds" / "002").exists()
    wrong = tmp_path / "w.txt"
    wrong.write_text("Rennstall: Honda\nPasswort: falsch\nRunde: 1\n")
    runner.invoke(app, ["submit", str(game), str(wrong)])
    result = runner.invoke(app, ["evaluate", str(game)])
    assert result.exit_code == 1 and "Ferrari, Honda, Lotus" in result.output
    assert runner.invoke(app, ["evaluate", str(game), "--force"]).exit_code == 0


def test_undo_takes_back_the_last_round_until_reports_went_out(tmp_path: Path) -> None:
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    before = (game / "rounds" / "002" / "state.json").read_text()
    result = runner.invoke(app, ["undo", str(game)])
    assert result.exit_code == 0, result.output
    assert not (game / "rounds" / "002").exists() and not (game / "archive" / "001").exists()
    assert sorted(p.name for p in (game / "inbox").iterdir()) == ["0001-Ferrari.txt",
                                                                  "0002-Honda.txt"]
    assert not (game / "rounds" / "001" / "log.txt").exists()
    assert runner.invoke(app, ["evaluate", str(game), "--force"]).exit_code == 0
    assert (game / "rounds" / "002" / "state.json").read_text() == before
    assert runner.invoke(app, ["sent", str(game)]).exit_code == 0
    result = runner.invoke(app, ["undo", str(game)])
    assert result.exit_code == 1 and "have gone out" in result.output
    assert (game / "rounds" / "002" / "state.json").exists()
    fresh = _new(tmp_path / "fresh")
    result = runner.invoke(app, ["undo", str(fresh)])
    assert result.exit_code == 1 and "no round evaluated yet" in result.output


def test_new_writes_the_start_sheet_of_round_one(tmp_path: Path) -> None:
    game = _new(tmp_path)
    start = (game / "rounds" / "000" / "rennanzeiger.txt").read_text()
    assert "Rennanzeiger zu Runde 1" in start
    assert "Lauda-F10.0" in start and "Formel I" in start and "Trainingsplätze: 1" in start
    assert "Turbo verkauft: Turbo-M16 zu 250.000" in start
    shown = runner.invoke(app, ["report", str(game)])
    assert shown.exit_code == 0 and shown.output == start


def test_every_command_answers_a_missing_or_broken_game_clearly(tmp_path: Path) -> None:
    nowhere = str(tmp_path / "nowhere")
    sheet = tmp_path / "s.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\n")
    for args in (["status", nowhere], ["evaluate", nowhere], ["replay", nowhere],
                 ["report", nowhere], ["undo", nowhere], ["sent", nowhere],
                 ["bot", nowhere, "--team", "X"], ["submit", nowhere, str(sheet)],
                 ["check", str(sheet), "--game", nowhere], ["check", str(tmp_path / "no.txt")],
                 ["new", str(tmp_path / "g"), "--teams", "A", "--config", nowhere]):
        result = runner.invoke(app, args)
        assert result.exit_code == 1, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        assert "does not exist" in result.output or "missing" in result.output \
            or "not found" in result.output, (args, result.output)
    game = _new(tmp_path)
    _play_round(game, tmp_path)
    (game / "archive" / "001" / "manifest.json").unlink()
    result = runner.invoke(app, ["replay", str(game)])
    assert result.exit_code == 1 and "manifest.json" in result.output
    state = game / "rounds" / "002" / "state.json"
    state.write_text(state.read_text()[:100])  # half written, as an old version left it
    for command in ("status", "evaluate", "bot"):
        args = [command, str(game)] + (["--team", "Ferrari"] if command == "bot" else [])
        result = runner.invoke(app, args)
        assert result.exit_code == 1 and "state.json" in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
