"""Choosing the database: option, environment variable, default file; unusable ones refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.store.database import ENV_VAR, open_database, resolve_url


def test_option_beats_environment_beats_default(tmp_path: Path) -> None:
    env = {ENV_VAR: "postgresql+psycopg://u@h/db", "XDG_DATA_HOME": str(tmp_path)}
    assert resolve_url("sqlite:///x.db", env) == "sqlite:///x.db"
    assert resolve_url(None, env) == "postgresql+psycopg://u@h/db"
    default = resolve_url(None, {"XDG_DATA_HOME": str(tmp_path)})
    assert default == f"sqlite:///{tmp_path / 'rennleitung' / 'rennleitung.sqlite3'}"
    assert resolve_url(str(tmp_path / "a.sqlite3"), {}) == f"sqlite:///{tmp_path / 'a.sqlite3'}"


def test_default_file_is_created_with_its_folder(tmp_path: Path) -> None:
    url = resolve_url(None, {"XDG_DATA_HOME": str(tmp_path)})
    open_database(url).dispose()
    assert (tmp_path / "rennleitung" / "rennleitung.sqlite3").is_file()


@pytest.mark.parametrize(
    "url",
    [
        "nosuchdialect://x/y",
        "sqlite:////dev/null/inside/a/file.sqlite3",
        "postgresql+psycopg://nobody:secret@127.0.0.1:1/none?connect_timeout=2",
    ],
)
def test_unusable_database_is_one_bilingual_error(url: str) -> None:
    with pytest.raises(RennleitungError) as error:
        open_database(url)
    assert error.value.where == "--db"
    assert "nicht verwendbar" in error.value.de and "cannot use" in error.value.en
    assert "secret" not in str(error.value)
