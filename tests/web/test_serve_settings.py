"""`rennleitung serve --port`: links name the address the server listens on unless
RENNLEITUNG_BASE_URL says otherwise (issue 26: invitations named port 8000)."""

from __future__ import annotations

from pathlib import Path

from rennleitung.cli.serve import serve_settings


def test_links_follow_the_port_unless_the_base_address_is_configured(tmp_path: Path) -> None:
    env = {"RENNLEITUNG_SECRET": "s", "RENNLEITUNG_DB": str(tmp_path / "db.sqlite3")}
    assert serve_settings("127.0.0.1", 9123, None, False, env).base_url == \
        "http://127.0.0.1:9123"
    assert serve_settings("::1", 9123, None, False, env).base_url == "http://[::1]:9123"
    configured = {**env, "RENNLEITUNG_BASE_URL": "https://liga.example.org/"}
    settings = serve_settings("0.0.0.0", 9123, None, True, configured)
    assert settings.base_url == "https://liga.example.org" and settings.demo
