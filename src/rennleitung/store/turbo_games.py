"""TURBO 2000 game storage: a game directory on disk, read, a round committed atomically or
undone, a mailed sheet put into the inbox, a round's reports read and marked as sent. The one
door to a game's files for the CLI (``turbo``) and the mail gateway (``mail/turbo_game.py``).

The layout (documented in ``docs/turbo2000/game-master.md``)::

    config.json, game.json, inbox/
    archive/NNN/                sheets of round NNN as received, manifest.json (their order)
    rounds/NNN/state.json       state before round NNN is evaluated
    rounds/NNN/config.json, log.txt, rennanzeiger.*, reports/   what evaluating NNN produced
    rounds/NNN/sent             marks that the round's reports went out (file or folder)

**Commit.** Evaluating round N first writes its outputs (``rounds/N/…``, a copy of the inbox in
``archive/N/``) and the new state into ``rounds/.N+1.new/``; one ``rename`` of that folder to
``rounds/N+1/`` commits the round. Only then are the sheets taken out of the inbox. So a process
killed at any moment leaves either the old round (plus leftovers, detected by ``leftovers``) or
the new one (plus inbox sheets already archived, removed by ``tidy_inbox``); never half a state.

**Undo** copies the archived sheets back into the inbox, checks that every one of them is
there byte for byte, then renames ``rounds/N+1/`` aside (the undo's one commit) and removes round
N's outputs. Sheet numbers (``NNNN-name``) count on over the whole game, so a sheet submitted
after the evaluation never takes an archived sheet's name; should a sheet dropped by hand still
take one, the round's sheets come back under ``0000-undo-NNN-IIII-name`` (read before every
later sheet, in their old order) and nothing is skipped.

**Durability.** Every output, archive copy and the manifest are fsynced, and so are their
folders, before the commit rename: a power cut cannot leave a committed round with empty files.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.inputs import read_bytes, read_text
from rennleitung.textinput import load_json
from rennleitung.turbo2000.config import GameConfig, config_from_dict
from rennleitung.turbo2000.model import GameState
from rennleitung.turbo2000.state_json import load_state

OUTPUTS = ("config.json", "log.txt", "rennanzeiger.txt", "rennanzeiger.html",
           "rennanzeiger.en.txt", "rennanzeiger.en.html", "reports")
"""What evaluating a round writes into its own folder (never part of a committed round's input)."""

CRASH_POINT = "RENNLEITUNG_TURBO_CRASH_AT"
"""Test hook: name of a step at which ``evaluate`` kills its own process with SIGKILL, so the
crash test can stop a real evaluation at each moment that matters."""


def checkpoint(name: str) -> None:
    """A moment of the commit at which the crash test may kill the process (see above)."""
    if os.environ.get(CRASH_POINT) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def _error(de: str, en: str, where: Path | str) -> RennleitungError:
    return RennleitungError(de, en, where=str(where))


def write_new(path: Path, text: str, durable: bool = False) -> None:
    """Write a file that must not exist yet (inputs and outputs are never overwritten);
    ``durable``: on the disk (fsynced) before returning."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as handle:
        handle.write(text)
        if durable:
            handle.flush()
            os.fsync(handle.fileno())


def _copy_durably(source: Path, target: Path) -> None:
    """Copy a file byte for byte and fsync the copy."""
    shutil.copyfile(source, target)
    with target.open("rb") as handle:
        os.fsync(handle.fileno())


def _sheet_number(name: str) -> int:
    """The arrival number a sheet's name starts with (``0012-ferrari.txt``: 12), else 0."""
    digits, dash, _ = name.partition("-")
    return int(digits) if dash and digits.isdigit() else 0


def _fsync_dir(path: Path) -> None:
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


@dataclass(frozen=True)
class Leftovers:
    """What an interrupted evaluation (or undo) of ``round`` left behind."""

    round: int
    paths: tuple[Path, ...]


class GameDir:
    """One game directory; every method raises a bilingual error for a missing or broken file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    # --- reading --------------------------------------------------------------------------
    def require(self) -> None:
        """The folder must exist and look like a game."""
        if not self.path.is_dir():
            raise _error("Spielverzeichnis gibt es nicht", "game directory does not exist",
                         self.path)
        if not (self.path / "game.json").is_file():
            raise _error("kein Spielverzeichnis (game.json fehlt)",
                         "not a game directory (game.json missing)", self.path)

    def _json(self, path: Path) -> Any:
        if not path.is_file():
            raise _error(f"{path.name} fehlt", f"{path.name} is missing", path)
        return load_json(read_text(path), str(path))

    def config(self, round_number: int = 0) -> GameConfig:
        """The settings: of the game, or those a round was evaluated with (if stored)."""
        self.require()
        used = self.round_dir(round_number) / "config.json" if round_number else None
        path = used if used is not None and used.is_file() else self.path / "config.json"
        data = self._json(path)
        if not isinstance(data, dict):
            raise _error("Einstellungen müssen ein JSON-Objekt sein",
                         "settings must be a JSON object", path)
        try:
            return config_from_dict(data)
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            raise _error(f"ungültige Einstellungen ({error})", f"invalid settings ({error})",
                         path) from None

    def seed(self) -> str:
        """The game's dice seed."""
        self.require()
        data = self._json(self.path / "game.json")
        if not isinstance(data, dict) or "seed" not in data:
            raise _error("game.json ohne 'seed'", "game.json without 'seed'",
                         self.path / "game.json")
        return str(data["seed"])

    def round_dir(self, round_number: int) -> Path:
        """``rounds/NNN``."""
        return self.path / "rounds" / f"{round_number:03d}"

    def staging_dir(self, round_number: int) -> Path:
        """Where the state of ``round_number`` is written before the commit."""
        return self.path / "rounds" / f".{round_number:03d}.new"

    def archive_dir(self, round_number: int) -> Path:
        """``archive/NNN``."""
        return self.path / "archive" / f"{round_number:03d}"

    def current_round(self) -> int:
        """The newest committed round (it has a state file)."""
        self.require()
        rounds_dir = self.path / "rounds"
        numbers = sorted(int(p.name) for p in rounds_dir.iterdir()
                         if p.name.isdigit() and (p / "state.json").is_file()) \
            if rounds_dir.is_dir() else []
        if not numbers:
            raise _error("kein Spielstand (rounds/*/state.json fehlt)",
                         "no game state (rounds/*/state.json missing)", rounds_dir)
        return numbers[-1]

    def state(self, round_number: int) -> GameState:
        """The state before ``round_number`` is evaluated."""
        path = self.round_dir(round_number) / "state.json"
        if not path.is_file():
            raise _error("Spielstand fehlt", "game state missing", path)
        try:
            return load_state(read_text(path), str(path))
        except RennleitungError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
            raise _error(f"Spielstand beschädigt ({type(error).__name__})",
                         f"game state damaged ({type(error).__name__})", path) from None

    def inbox(self) -> list[Path]:
        """The sheets waiting in the inbox, by name."""
        inbox = self.path / "inbox"
        return sorted(p for p in inbox.iterdir() if p.is_file() and not p.name.startswith(".")) \
            if inbox.is_dir() else []

    def archived_names(self, round_number: int) -> list[str]:
        """Names of a round's sheets in the order they were evaluated."""
        path = self.archive_dir(round_number) / "manifest.json"
        data = self._json(path)
        if not isinstance(data, dict) or not isinstance(data.get("sheets"), list):
            raise _error("manifest.json ohne 'sheets'", "manifest.json without 'sheets'", path)
        return [str(name) for name in data["sheets"]]

    def archived_bytes(self, round_number: int) -> list[bytes]:
        """A round's sheets as received, in order."""
        archive = self.archive_dir(round_number)
        return [read_bytes(archive / name) for name in self.archived_names(round_number)]

    def next_sheet_number(self) -> int:
        """The number the next sheet gets: one more than any sheet in the inbox or in an
        archive, so a name once used is never given again in this game (undo puts archived
        sheets back under their names)."""
        folders = [self.path / "inbox"]
        archives = self.path / "archive"
        if archives.is_dir():
            folders += [p for p in archives.iterdir() if p.is_dir()]
        numbers = [_sheet_number(p.name.lstrip(".")) for folder in folders if folder.is_dir()
                   for p in folder.iterdir()]
        return max(numbers, default=0) + 1

    # --- writing ----------------------------------------------------------------------------
    def create(self, config_json: str, game_json: str, start: dict[str, str],
               first_state: str) -> None:
        """Write a new game: settings, seed file, round 0's start sheet (``start``: file name
        -> text) and the state before round 1; an empty inbox. No file is overwritten."""
        write_new(self.path / "config.json", config_json)
        write_new(self.path / "game.json", game_json)
        for name, text in start.items():
            write_new(self.round_dir(0) / name, text)
        write_new(self.round_dir(1) / "state.json", first_state)
        (self.path / "inbox").mkdir(exist_ok=True)

    def submit_file(self, data: bytes, name: str) -> Path:
        """Put a sheet's bytes into the inbox as received, as ``NNNN-name`` under the next free
        number; it appears whole or not at all (written aside, then renamed)."""
        inbox = self.path / "inbox"
        inbox.mkdir(parents=True, exist_ok=True)
        number = self.next_sheet_number()
        target = inbox / f"{number:04d}-{name}"
        while target.exists():
            number += 1
            target = inbox / f"{number:04d}-{name}"
        partial = inbox / f".{target.name}.part"
        partial.write_bytes(data)
        partial.rename(target)
        return target

    def mark_sent(self, round_number: int) -> None:
        """Note by hand that a round's reports went out (``rounds/NNN/sent``)."""
        marker = self.round_dir(round_number) / "sent"
        if not marker.exists():
            marker.mkdir()

    def submit(self, text: str, label: str, written: datetime | None = None) -> Path:
        """Put a sheet into the inbox under the next number, never overwriting a file; written
        aside first and renamed, so an evaluation never reads half a sheet. A sheet of this
        ``label`` put there before is not put there again (processing was repeated).
        ``written`` (a mail's Date) becomes the file's time, which ``written`` reads back: the
        later-written of two sheets counts, whatever order they arrive in (issue 24)."""
        inbox = self.path / "inbox"
        inbox.mkdir(parents=True, exist_ok=True)
        existing = [p for p in inbox.iterdir() if p.name.endswith(f"-{label}")]
        if existing:
            return existing[0]
        aside = inbox / f".{label}.part"
        aside.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        if written is not None:
            os.utime(aside, (written.timestamp(), written.timestamp()))
        number = self.next_sheet_number()
        while True:
            target = inbox / f"{number:04d}-{label}"
            try:
                os.link(aside, target)  # fails if the name is taken; never replaces a file
            except FileExistsError:
                number += 1
                continue
            aside.unlink()
            return target

    @staticmethod
    def written(path: Path) -> datetime:
        """When a sheet in the inbox was written (a mailed one: its Date), else when it came."""
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)

    def state_stamp(self, round_number: int) -> tuple[int, ...]:
        """When the settings and the state of ``round_number`` last changed (a reader's cache
        key)."""
        files = (self.path / "config.json", self.round_dir(round_number) / "state.json")
        return tuple(f.stat().st_mtime_ns for f in files)

    def results_sheet(self, round_number: int, suffix: str = "txt",
                      language: str = "") -> bytes | None:
        """The results sheet (Rennanzeiger) of an evaluated round, ``txt`` or ``html`` (round
        0: the start sheet); with ``language="en"`` the English one (``rennanzeiger.en.txt``)
        where the round has it (rounds evaluated before issue 24 do not)."""
        here = self.round_dir(round_number)
        english = here / f"rennanzeiger.en.{suffix}"
        if language == "en" and english.is_file():
            return english.read_bytes()
        path = here / f"rennanzeiger.{suffix}"
        return path.read_bytes() if path.is_file() else None

    def team_report(self, round_number: int, team: str, language: str = "",
                    suffix: str = "txt") -> str | None:
        """One team's report of an evaluated round (``txt`` or ``html``), if it was written;
        with ``language="en"`` the English one (``TEAM.en.txt``, ``TEAM.en.html``) where the
        round has it (older rounds do not)."""
        reports = self.round_dir(round_number) / "reports"
        english = reports / f"{team}.en.{suffix}"
        if language == "en" and english.is_file():
            return english.read_text(encoding="utf-8")
        path = reports / f"{team}.{suffix}"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def sent_by_hand(self, round_number: int) -> bool:
        """Whether the game master noted by hand that a round's reports went out (a ``sent``
        file rather than a folder)."""
        marker = self.round_dir(round_number) / "sent"
        return marker.exists() and not marker.is_dir()

    def note_sent(self, round_number: int, team: str, note: str | None) -> None:
        """Mark that a round's reports go out (``rounds/NNN/sent/``), so that ``turbo undo``
        refuses from now on, and with ``note`` that this team's went out (written once)."""
        marker = self.round_dir(round_number) / "sent"
        marker.mkdir(exist_ok=True)
        path = marker / team
        if note is not None and not path.exists():
            path.write_text(note, encoding="utf-8")

    @staticmethod
    def sheet_text(path: Path) -> str:
        """A sheet in the inbox as text: UTF-8 (with or without a mark), else Windows-1252."""
        data = path.read_bytes()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("cp1252", errors="replace")

    def reports_sent(self, round_number: int) -> bool:
        """Whether the reports of an evaluated round went out (``rounds/NNN/sent``)."""
        return (self.round_dir(round_number) / "sent").exists()

    # --- crashes --------------------------------------------------------------------------
    def leftovers(self) -> Leftovers | None:
        """What an interrupted evaluation of the current round left behind, if anything."""
        current = self.current_round()
        here = self.round_dir(current)
        found = [here / name for name in OUTPUTS if (here / name).exists()]
        for path in (self.archive_dir(current), self.staging_dir(current + 1)):
            if path.exists():
                found.append(path)
        rounds = self.path / "rounds"
        found += sorted(p for p in rounds.iterdir() if p.name.startswith(".undone-"))
        return Leftovers(current, tuple(found)) if found else None

    def clear_leftovers(self, leftovers: Leftovers) -> None:
        """Remove an interrupted evaluation's files; the inbox keeps every sheet."""
        for path in leftovers.paths:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()

    def tidy_inbox(self) -> None:
        """Drop inbox sheets that a committed round already archived (killed before cleanup)."""
        current = self.current_round()
        if current <= 1 or not (self.archive_dir(current - 1) / "manifest.json").is_file():
            return
        archive = self.archive_dir(current - 1)
        for path in self.inbox():
            twin = archive / path.name
            if twin.is_file() and twin.read_bytes() == path.read_bytes():
                path.unlink()

    # --- commit ---------------------------------------------------------------------------
    def commit_round(self, round_number: int, files: list[Path], outputs: dict[str, str],
                     next_state: str) -> None:
        """Store an evaluated round; the rename of the staging folder is the commit."""
        here = self.round_dir(round_number)
        archive = self.archive_dir(round_number)
        staging = self.staging_dir(round_number + 1)
        for name, text in outputs.items():
            write_new(here / name, text, durable=True)
            if name == "log.txt":
                checkpoint("outputs")
        for folder in {(here / name).parent for name in outputs}:
            _fsync_dir(folder)
        _fsync_dir(here.parent)
        checkpoint("outputs-written")
        archive.mkdir(parents=True)
        for path in files:
            _copy_durably(path, archive / path.name)
        write_new(archive / "manifest.json", json.dumps(
            {"round": round_number, "sheets": [p.name for p in files]}, indent=1) + "\n",
            durable=True)
        _fsync_dir(archive)
        _fsync_dir(archive.parent)
        checkpoint("archived")
        write_new(staging / "state.json", next_state)
        with (staging / "state.json").open("rb") as handle:
            os.fsync(handle.fileno())
        checkpoint("staged")
        os.rename(staging, self.round_dir(round_number + 1))
        _fsync_dir(self.path / "rounds")
        checkpoint("committed")
        for index, path in enumerate(files):
            path.unlink()
            if index == 0:
                checkpoint("inbox")

    def _undo_targets(self, round_number: int, names: list[str]) -> list[tuple[Path, Path]]:
        """Where undo puts each archived sheet: its own name, or, if a different sheet in the
        inbox has taken any of the names, all of them under names read before every later
        sheet, in their old order."""
        archive, inbox = self.archive_dir(round_number), self.path / "inbox"
        taken = any((inbox / name).is_file()
                    and (inbox / name).read_bytes() != (archive / name).read_bytes()
                    for name in names)
        return [(archive / name, inbox / (f"0000-undo-{round_number:03d}-{index:04d}-{name}"
                                          if taken else name))
                for index, name in enumerate(names, start=1)]

    def undo_round(self, round_number: int) -> None:
        """Take back the evaluation of ``round_number`` (the last committed one)."""
        archive = self.archive_dir(round_number)
        inbox = self.path / "inbox"
        inbox.mkdir(exist_ok=True)
        names = self.archived_names(round_number) if archive.is_dir() else []
        for source, target in self._undo_targets(round_number, names):
            if not target.exists():
                _copy_durably(source, target)
        _fsync_dir(inbox)
        for source, target in self._undo_targets(round_number, names):
            if not target.is_file() or target.read_bytes() != source.read_bytes():
                raise _error(f"Bogen {source.name} nicht zurück im Eingang, Runde bleibt "
                             "ausgewertet", f"sheet {source.name} is not back in the inbox; "
                             "the round stays evaluated", target)
        checkpoint("undo-copied")
        aside = self.path / "rounds" / f".undone-{round_number + 1:03d}"
        if aside.exists():
            shutil.rmtree(aside)
        os.rename(self.round_dir(round_number + 1), aside)
        _fsync_dir(self.path / "rounds")
        checkpoint("undo-committed")
        leftovers = self.leftovers()
        if leftovers:
            self.clear_leftovers(leftovers)
