"""``python -m rennleitung.web``: the server without the rest of the command line (quicker to
start; ``rennleitung serve`` takes the same options)."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace

from rennleitung.errors import RennleitungError
from rennleitung.store.database import resolve_url
from rennleitung.web.app import serve
from rennleitung.web.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m rennleitung.web")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--no-demo", action="store_true")
    options = parser.parse_args()
    try:
        settings = Settings.from_env()
        if options.db:
            settings = replace(settings, db_url=resolve_url(options.db, os.environ))
        serve(replace(settings, demo=not options.no_demo), host=options.host, port=options.port)
    except RennleitungError as error:  # a setting or database refused: one line, no traceback
        parser.exit(1, _in_language(error) + "\n")


def _in_language(error: RennleitungError) -> str:
    """The error in ``RENNLEITUNG_LANG`` (de or en), else in both, as the command line says it."""
    chosen = os.environ.get("RENNLEITUNG_LANG", "").strip().lower()
    return {"de": error.de, "en": error.en}.get(chosen, f"{error.de} / {error.en}")


if __name__ == "__main__":
    main()
