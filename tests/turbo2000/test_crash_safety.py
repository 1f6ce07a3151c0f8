"""Nothing lost, never stuck: a real `turbo evaluate` (and `turbo undo`) killed with SIGKILL at
each moment of its commit leaves a game that every command can read, that says what happened,
and that resumes or undoes to exactly the result of an uninterrupted evaluation."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.turbo import app
from rennleitung.store.turbo_games import CRASH_POINT

runner = CliRunner()
TEAMS = "Ferrari:rosso,Honda:ichi,Lotus:gruen"


def _invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A game with every team's sheet in the inbox, and the same game evaluated without a crash."""
    base = tmp_path_factory.mktemp("crash")
    game = base / "ready"
    assert _invoke("new", str(game), "--teams", TEAMS, "--seed", "7")[0] == 0
    for team in ("Ferrari", "Honda", "Lotus"):
        code, text = _invoke("bot", str(game), "--team", team)
        assert code == 0, text
        path = base / f"{team}.txt"
        path.write_text(text, encoding="utf-8")
        assert _invoke("submit", str(game), str(path))[0] == 0
    reference = base / "reference"
    shutil.copytree(game, reference)
    code, text = _invoke("evaluate", str(reference))
    assert code == 0, text
    return game, reference


def _files(game: Path) -> dict[str, bytes]:
    return {str(p.relative_to(game)): p.read_bytes() for p in sorted(game.rglob("*"))
            if p.is_file()}


def _killed(game: Path, point: str, *args: str) -> None:
    env = {**os.environ, CRASH_POINT: point}
    done = subprocess.run(
        [sys.executable, "-c", "from rennleitung.cli.turbo import app; app()", *args, str(game)],
        env=env, capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, (point, done.stderr[-2000:])


def _consistent_and_finished(game: Path, reference: Path) -> None:
    """Every command answers; after resume or undo + evaluate the game equals the reference."""
    for command in ("status", "report"):
        code, text = _invoke(command, str(game))
        assert "Traceback" not in text and code in (0, 1), text
    code, text = _invoke("evaluate", str(game))
    if "--resume" in text:  # interrupted before the commit: it says so and stays put
        assert code == 1
        assert _invoke("replay", str(game))[0] == 1
        code, text = _invoke("evaluate", str(game), "--resume")
        assert code == 0, text
    else:  # committed: the next round waits for its sheets
        assert code == 1 and "Ferrari" in text and "--force" in text, text
    assert _files(game) == _files(reference)
    code, text = _invoke("replay", str(game))
    assert code == 0 and "1 Runde identisch" in text, text


@pytest.mark.parametrize("point", ["outputs", "outputs-written", "archived", "staged",
                                   "committed", "inbox"])
def test_evaluate_killed_at_each_moment(point: str, prepared: tuple[Path, Path],
                                        tmp_path: Path) -> None:
    ready, reference = prepared
    game = tmp_path / "game"
    shutil.copytree(ready, game)
    _killed(game, point, "evaluate")
    _consistent_and_finished(game, reference)


def test_an_interrupted_evaluation_can_be_undone_instead(prepared: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    ready, _reference = prepared
    game = tmp_path / "game"
    shutil.copytree(ready, game)
    _killed(game, "archived", "evaluate")
    code, text = _invoke("undo", str(game))
    assert code == 0 and "interrupted evaluation of round 1 removed" in text, text
    assert _files(game) == _files(ready)


@pytest.mark.parametrize("point", ["undo-copied", "undo-committed"])
def test_undo_killed_at_each_moment(point: str, prepared: tuple[Path, Path],
                                    tmp_path: Path) -> None:
    ready, reference = prepared
    game = tmp_path / "game"
    shutil.copytree(reference, game)
    _killed(game, point, "undo")
    code, text = _invoke("undo", str(game))
    assert code == 0, text
    assert _files(game) == _files(ready)
    assert _invoke("evaluate", str(game))[0] == 0
    assert _files(game) == _files(reference)
