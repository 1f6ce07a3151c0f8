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
        from rennleitung.cli.common import pick

        parser.exit(1, pick(error.de, error.en) + "\n")


if __name__ == "__main__":
    main()
