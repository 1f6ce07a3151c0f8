"""Issue 28, "Sheets lost": `turbo undo` and a repeated evaluation never lose a sheet, even when
players reuse one file name or send next round's sheet early."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rennleitung.cli.turbo import app

runner = CliRunner()

ROUND_2 = "Rennstall: Ferrari\nPasswort: rosso\nRunde: 2\nKontakt: Ferrari plant Runde 2\n"


def _game_after_round_1(tmp_path: Path) -> Path:
    """A game whose round 1 was evaluated from sheets named ferrari.txt and honda.txt."""
    game = tmp_path / "game"
    result = runner.invoke(app, ["new", str(game), "--teams", "Ferrari:rosso,Honda:ichi",
                                 "--seed", "7"])
    assert result.exit_code == 0, result.output
    for team in ("Ferrari", "Honda"):
        sheet = runner.invoke(app, ["bot", str(game), "--team", team])
        assert sheet.exit_code == 0, sheet.output
        path = tmp_path / f"{team.lower()}.txt"
        path.write_text(sheet.output, encoding="utf-8")
        assert runner.invoke(app, ["submit", str(game), str(path)]).exit_code == 0
    result = runner.invoke(app, ["evaluate", str(game)])
    assert result.exit_code == 0, result.output
    return game


def _inbox(game: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((game / "inbox").iterdir())}


def _archived(game: Path) -> list[bytes]:
    archive = game / "archive" / "001"
    return [p.read_bytes() for p in sorted(archive.iterdir()) if p.name != "manifest.json"]


def test_undo_keeps_the_archived_sheet_when_the_new_one_reuses_its_file_name(
        tmp_path: Path) -> None:
    game = _game_after_round_1(tmp_path)
    round_1 = _archived(game)
    state_2 = (game / "rounds" / "002" / "state.json").read_text()
    early = tmp_path / "ferrari.txt"  # the player reuses last round's file name
    early.write_text(ROUND_2, encoding="utf-8")
    assert runner.invoke(app, ["submit", str(game), str(early)]).exit_code == 0
    result = runner.invoke(app, ["undo", str(game)])
    assert result.exit_code == 0, result.output
    inbox = _inbox(game)
    assert all(sheet in inbox.values() for sheet in round_1)
    assert ROUND_2.encode() in inbox.values()
    again = runner.invoke(app, ["evaluate", str(game)])
    assert again.exit_code == 0, again.output
    assert (game / "rounds" / "002" / "state.json").read_text() == state_2


def test_undo_keeps_both_sheets_when_a_hand_dropped_one_takes_the_archived_name(
        tmp_path: Path) -> None:
    game = _game_after_round_1(tmp_path)
    round_1 = _archived(game)
    first = sorted((game / "archive" / "001").iterdir())[0].name
    (game / "inbox" / first).write_text(ROUND_2, encoding="utf-8")
    result = runner.invoke(app, ["undo", str(game)])
    assert result.exit_code == 0, result.output
    inbox = _inbox(game)
    assert len(inbox) == 3 and ROUND_2.encode() in inbox.values()
    restored = [name for name, data in inbox.items() if data in round_1]
    assert len(restored) == 2
    assert restored == sorted(restored) and max(restored) < first  # still read first, in order


def test_a_next_round_sheet_sent_before_undo_waits_for_its_round(tmp_path: Path) -> None:
    game = _game_after_round_1(tmp_path)
    state_2 = (game / "rounds" / "002" / "state.json").read_text()
    early = tmp_path / "ferrari-2.txt"
    early.write_text(ROUND_2, encoding="utf-8")
    assert runner.invoke(app, ["submit", str(game), str(early)]).exit_code == 0
    assert runner.invoke(app, ["undo", str(game)]).exit_code == 0
    status = runner.invoke(app, ["status", str(game)])
    assert status.exit_code == 0 and "round 2" in status.output, status.output
    result = runner.invoke(app, ["evaluate", str(game)])
    assert result.exit_code == 0, result.output
    assert (game / "rounds" / "002" / "state.json").read_text() == state_2
    assert list(_inbox(game).values()) == [ROUND_2.encode()]
    assert not any(ROUND_2.encode() == data for data in _archived(game))
    log = (game / "rounds" / "001" / "log.txt").read_text(encoding="utf-8")
    assert "abgelehnt" not in log
    assert runner.invoke(app, ["evaluate", str(game), "--force"]).exit_code == 0
    assert ROUND_2.encode() in [p.read_bytes() for p in (game / "archive" / "002").iterdir()]


def test_check_preview_names_a_build_order_that_buys_nothing(tmp_path: Path) -> None:
    game = tmp_path / "game"
    assert runner.invoke(app, ["new", str(game), "--teams", "Ferrari:rosso,Honda:ichi"]
                         ).exit_code == 0
    sheet = tmp_path / "bau.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nErrichtung: M\n"
                     "Bau M: 1000\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(sheet), "--game", str(game)])
    assert result.exit_code == 1
    assert f"{sheet}:5: [Bau M]" in result.output
    assert "nothing bought (§11)" in result.output and "nichts gekauft (§11)" in result.output


def test_archive_copies_and_reports_are_on_disk_before_the_commit(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """Every file and folder a committed round points to was fsynced before the rename that
    commits it (the real fsync runs; the spy only notes which paths it was called for)."""
    import os

    synced: set[str] = set()
    committed: list[set[str]] = []
    real_fsync, real_rename = os.fsync, os.rename

    def fsync(descriptor: int) -> None:
        synced.add(os.readlink(f"/proc/self/fd/{descriptor}"))
        real_fsync(descriptor)

    def rename(source: str | Path, target: str | Path) -> None:
        committed.append(set(synced))
        real_rename(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "rename", rename)
    game = _game_after_round_1(tmp_path).resolve()
    before_commit = committed[-1]
    outputs = [p for p in (game / "rounds" / "001").rglob("*") if p.name != "state.json"]
    archive = list((game / "archive" / "001").iterdir())
    assert outputs and archive
    for path in [*outputs, *archive, game / "archive" / "001", game / "archive",
                 game / "rounds" / "001" / "reports"]:
        assert str(path) in before_commit, path


def test_check_with_a_game_lists_every_problem_in_one_pass_in_line_order(
        tmp_path: Path) -> None:
    game = tmp_path / "game"
    assert runner.invoke(app, ["new", str(game), "--teams", "Ferrari:rosso,Honda:ichi"]
                         ).exit_code == 0
    sheet = tmp_path / "mixed.txt"
    sheet.write_text("Rennstall: Ferrari\nPasswort: rosso\nRunde: 1\nBau X: 2\n"
                     "Errichtung: M\nBau M: 1000\nBau Y: 3\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(sheet), "--game", str(game)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith(str(sheet))]
    numbers = [int(line.split(":")[1]) for line in lines]
    assert numbers == sorted(numbers) and {4, 6, 7} <= set(numbers), result.output
    assert "needs W, M or R" in result.output and "braucht W, M oder R" in result.output
    assert "nothing bought (§11) (preview)" in result.output
    assert "nichts gekauft (§11) (Vorschau)" in result.output
