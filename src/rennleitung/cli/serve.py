"""`rennleitung serve`: the web server (what `make run` starts)."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated

import typer

from rennleitung.cli.common import DbOption, run_guarded
from rennleitung.web.settings import Settings

app = typer.Typer(help="Der Webserver / the web server.")

BASE_URL_ENV = "RENNLEITUNG_BASE_URL"


@app.callback(invoke_without_command=True)
def serve(
    host: Annotated[str, typer.Option(help="Adresse / address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: DbOption = None,
    demo: Annotated[
        bool, typer.Option(help="Demo-Rennen in einer neuen Datenbank / demo race in a new one.")
    ] = True,
) -> None:
    """Startet den Webserver (SQLite unter var/) / start the web server (SQLite under var/)."""
    from rennleitung.web.app import serve as run_server

    def start() -> None:
        run_server(serve_settings(host, port, db, demo), host=host, port=port)

    run_guarded(start)


def serve_settings(
    host: str, port: int, db: str | None, demo: bool, environ: Mapping[str, str] | None = None
) -> Settings:
    """The server's settings from the environment; without ``RENNLEITUNG_BASE_URL`` the
    address in links (invitations, sign-in mails) is the one the server listens on, not
    port 8000 whatever ``--port`` says (issue 26)."""
    from rennleitung.store.database import resolve_url

    env = os.environ if environ is None else environ
    settings = Settings.from_env(env)
    if db:
        settings = replace(settings, db_url=resolve_url(db, env))
    if not env.get(BASE_URL_ENV):
        shown = socket.getfqdn() if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        settings = replace(settings, base_url=f"http://{shown}:{port}")
    return replace(settings, demo=demo)
