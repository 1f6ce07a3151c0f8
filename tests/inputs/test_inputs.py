"""The safe input layer: what a file may be, how its bytes become text, where it may lie."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.inputs import inside, read_bytes, read_json, read_text, shown, write_text
from rennleitung.textinput import clip, decode_text, decode_text_noted, load_json, load_toml


def test_utf8_with_and_without_bom_and_utf16_are_read() -> None:
    assert decode_text("Zürich".encode(), "f") == "Zürich"
    assert decode_text(b"\xef\xbb\xbf" + "Zürich".encode(), "f") == "Zürich"
    assert decode_text("Zürich".encode("utf-16"), "f") == "Zürich"
    assert decode_text("Zürich".encode("utf-16-be").join([b"\xfe\xff", b""]), "f") == "Zürich"


def test_latin1_is_refused_naming_file_and_line_unless_legacy() -> None:
    with pytest.raises(RennleitungError) as caught:
        decode_text(b"a\nZ\xfcrich", "teams.csv")
    assert caught.value.where == "teams.csv"
    assert "Zeile 2" in caught.value.de and "line 2" in caught.value.en
    text, note = decode_text_noted(b"Z\xfcrich \x80", "teams.csv", legacy=True)
    assert text == "Zürich €"
    assert note is not None and "Windows-1252" in note.en


def test_size_limit_is_checked() -> None:
    with pytest.raises(RennleitungError, match="too large"):
        decode_text(b"x" * 11, "f", limit=10)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[NaN]", "invalid number"),
        ("[1e999]", "invalid number"),
        ("[" + "1" * 5000 + "]", "invalid number"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
        ("[" * 40 + "]" * 40, "nested too deeply"),
        ('{"a": ', "line 1"),
    ],
)
def test_json_refusals_are_bilingual(text: str, fragment: str) -> None:
    with pytest.raises(RennleitungError) as caught:
        load_json(text, "pos.json")
    assert fragment in str(caught.value)
    assert "pos.json" in caught.value.where


def test_toml_nan_is_refused_with_its_key() -> None:
    with pytest.raises(RennleitungError) as caught:
        load_toml("[[segment]]\nradius = nan\n", "t.toml")
    assert "segment[0].radius" in caught.value.where


def test_non_regular_files_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[str] = []
    worker = threading.Thread(target=lambda: _try(fifo, outcome), daemon=True)
    worker.start()
    worker.join(5)
    assert outcome and "not a regular file" in outcome[0]
    with pytest.raises(RennleitungError, match="is a folder"):
        read_bytes(tmp_path)
    with pytest.raises(RennleitungError, match="not a regular file"):
        read_bytes("/dev/zero")
    with pytest.raises(RennleitungError, match="file not found"):
        read_text(tmp_path / "missing.json")


def _try(path: Path, outcome: list[str]) -> None:
    try:
        read_bytes(path)
    except RennleitungError as error:
        outcome.append(str(error))


def test_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    with pytest.raises(RennleitungError, match="too large"):
        read_bytes(big, limit=1000)
    big.write_text('{"a": [1, 2]}', encoding="utf-16")
    assert read_json(big) == {"a": [1, 2]}


def test_inside_refuses_every_way_out(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.toml").write_text("x", encoding="utf-8")
    assert inside(tmp_path, "sub/t.toml") == (tmp_path / "sub" / "t.toml").resolve()
    (tmp_path / "out.toml").symlink_to("/etc/passwd")
    for reference in ("/etc/passwd", "../x.toml", "sub/../../x", "out.toml", "", "~/x"):
        with pytest.raises(RennleitungError):
            inside(tmp_path, reference)


def test_write_text_names_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(RennleitungError, match="does not exist"):
        write_text(tmp_path / "nope" / "board.svg", "x")
    write_text(tmp_path / "board.svg", "x")
    assert (tmp_path / "board.svg").read_text(encoding="utf-8") == "x"


def test_shown_escapes_markup_and_cuts() -> None:
    assert shown("[/x]") == "\\[/x]"
    long = clip("a" * 100_000)
    assert len(long) < 200 and "100000" in long
