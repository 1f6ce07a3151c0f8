"""`rennleitung serve`: the web server (what `make run` starts)."""

from __future__ import annotations

from typing import Annotated

import typer

from rennleitung.cli.common import DbOption, run_guarded

app = typer.Typer(help="Der Webserver / the web server.")


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
    import os
    from dataclasses import replace

    from rennleitung.store.database import resolve_url
    from rennleitung.web.app import serve as run_server
    from rennleitung.web.settings import Settings

    def start() -> None:
        settings = Settings.from_env()
        if db:
            settings = replace(settings, db_url=resolve_url(db, os.environ))
        run_server(replace(settings, demo=demo), host=host, port=port)

    run_guarded(start)
