"""The server's settings from the environment: defaults, and a broken number named, not a
traceback (and not 0 threads, which would leave every request waiting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.web.settings import Settings


def settings(tmp_path: Path, **env: str) -> Settings:
    return Settings.from_env({"RENNLEITUNG_SECRET": "s", **env}, var=tmp_path)


def test_defaults_and_chosen_numbers(tmp_path: Path) -> None:
    default = settings(tmp_path)
    assert (default.threads, default.smtp_port) == (2, 25)
    chosen = settings(tmp_path, RENNLEITUNG_WEB_THREADS="6", RENNLEITUNG_SMTP_PORT="2525")
    assert (chosen.threads, chosen.smtp_port) == (6, 2525)
    assert settings(tmp_path, RENNLEITUNG_WEB_THREADS=" ").threads == 2  # empty: the default


@pytest.mark.parametrize("name", ["RENNLEITUNG_WEB_THREADS", "RENNLEITUNG_SMTP_PORT"])
@pytest.mark.parametrize("value", ["abc", "0", "-1", "1e3", "99999999", "٣"])
def test_a_broken_number_is_refused_naming_the_variable(tmp_path: Path, name: str,
                                                        value: str) -> None:
    with pytest.raises(RennleitungError) as refused:
        settings(tmp_path, **{name: value})
    assert refused.value.where == name and name in refused.value.en


def test_trusted_proxies_and_connections(tmp_path: Path) -> None:
    default = settings(tmp_path)
    assert (default.trusted_proxies, default.max_connections) == ((), 500)
    chosen = settings(tmp_path, RENNLEITUNG_TRUSTED_PROXIES=" 127.0.0.1, 10.0.0.0/8,::1 ",
                      RENNLEITUNG_MAX_CONNECTIONS="2000")
    assert chosen.trusted_proxies == ("127.0.0.1", "10.0.0.0/8", "::1")
    assert chosen.max_connections == 2000
    with pytest.raises(RennleitungError) as refused:
        settings(tmp_path, RENNLEITUNG_TRUSTED_PROXIES="127.0.0.1, proxy.example")
    assert refused.value.where == "RENNLEITUNG_TRUSTED_PROXIES"
    assert "'proxy.example'" in refused.value.en
    with pytest.raises(RennleitungError):
        settings(tmp_path, RENNLEITUNG_MAX_CONNECTIONS="3")
