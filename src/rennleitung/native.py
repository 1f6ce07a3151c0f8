"""Which move finder runs: the compiled core (mypyc) or the pure Python source (issue 25).

The move finder's hot modules (``HOT``) compile unchanged with mypyc, because the engine is
typed strictly; ``scripts/build_native.py`` (run by ``make``) puts the compiled modules in
``formula_de/_compiled/`` with the hash of the sources they were built from. This finder,
installed when ``rennleitung`` is imported, loads them in place of the sources, but only all of
them and only when every source still has the hash it was built from: an edited source is never
shadowed by an old build. Otherwise the pure Python modules run, with one line on stderr.
``RENNLEITUNG_PURE_PYTHON=1`` asks for the pure modules without that line.

It lives here, on the package's own floor, and not in the engine: choosing how to load a module
reads files, and the engine does no I/O.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not from ``typing``: see below; mypy reads it as true all the same
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

# Only ``os`` and ``sys`` at import time: every command imports this module first, and
# ``typing``, ``importlib.util``, ``pathlib`` or ``contextlib`` would cost its start-up 10-40 ms.

PACKAGE = "rennleitung.formula_de"
HOT = ("movesearch", "movegen", "straights")
"""The modules compiled: the search, the generator and the shortest ways it asks for."""

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "formula_de")
BUILT = os.path.join(SOURCES, "_compiled")
HASHES = os.path.join(BUILT, "sources.sha256")
"""One line per hot module: ``hash  name.py``, written by the build after it succeeded."""

PURE_ENV = "RENNLEITUNG_PURE_PYTHON"


def source_hashes() -> dict[str, str]:
    """The current hash of every hot module's source."""
    import hashlib  # only when a hot module is imported: start-up time

    found = {}
    for name in HOT:
        with open(os.path.join(SOURCES, f"{name}.py"), "rb") as source:
            found[f"{name}.py"] = hashlib.sha256(source.read()).hexdigest()
    return found


def built_hashes() -> dict[str, str]:
    """The hashes the compiled modules were built from (empty when there is no build)."""
    try:
        with open(HASHES, encoding="ascii") as file:
            text = file.read()
    except OSError:
        return {}
    return {name: digest for digest, name in (line.split() for line in text.splitlines() if line)}


def compiled_file(name: str) -> str:
    """Where the compiled module ``name`` lies."""
    from importlib.machinery import EXTENSION_SUFFIXES

    return os.path.join(BUILT, f"{name}{EXTENSION_SUFFIXES[0]}")


def why_pure() -> str | None:
    """Why the compiled core cannot be used (German / English), or None when it can."""
    built = built_hashes()
    if not built or not all(os.path.isfile(compiled_file(name)) for name in HOT):
        return ("Zugfinder ohne kompilierten Kern: reines Python, langsamer "
                "(`make` baut ihn) / move finder without its compiled core: pure Python, "
                "slower (`make` builds it)")
    if built != source_hashes():
        return ("kompilierter Zugfinder älter als seine Quelle: reines Python "
                "(`make` baut ihn neu) / compiled move finder older than its source: pure "
                "Python (`make` rebuilds it)")
    return None


class CompiledFinder:
    """Finds the hot modules in the build, or steps aside for the sources (a meta path finder;
    not derived from ``importlib.abc``, whose import costs the start-up some 40 ms)."""

    def __init__(self) -> None:
        self.decided: bool | None = None  # None: not yet looked
        self.pure = False  # forced pure for a while (``pure_modules``)

    def use_compiled(self) -> bool:
        """Decide once per process, saying why when the pure modules run."""
        if self.decided is None:
            reason = None if os.environ.get(PURE_ENV) == "1" else why_pure()
            self.decided = reason is None and os.environ.get(PURE_ENV) != "1"
            if reason is not None:
                print(f"rennleitung: {reason}", file=sys.stderr)
        return self.decided

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in HOT or self.pure or not self.use_compiled():
            return None
        from importlib.machinery import ExtensionFileLoader
        from importlib.util import spec_from_file_location

        file = compiled_file(name)
        loader = ExtensionFileLoader(fullname, file)
        return spec_from_file_location(fullname, file, loader=loader)


FINDER = CompiledFinder()


def install() -> None:
    """Put the finder first on the import path (once)."""
    if FINDER not in sys.meta_path:
        sys.meta_path.insert(0, FINDER)


def compiled() -> bool:
    """Whether the move finder runs compiled (imports it to find out)."""
    import importlib

    module = importlib.import_module(f"{PACKAGE}.movegen")
    return not (module.__file__ or "").endswith(".py")


class pure_modules:  # used like a function: ``with pure_modules() as modules``
    """The hot modules imported afresh from their sources, beside whatever runs (for tests and
    benchmarks that compare the two). The modules already loaded stay where they were."""

    def __enter__(self) -> dict[str, ModuleType]:
        import importlib

        names = [f"{PACKAGE}.{name}" for name in HOT]
        saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
        package = importlib.import_module(PACKAGE)
        attributes = {name: getattr(package, name) for name in HOT if hasattr(package, name)}
        FINDER.pure = True
        try:
            return {name: importlib.import_module(f"{PACKAGE}.{name}") for name in HOT}
        finally:
            FINDER.pure = False
            for name in names:
                sys.modules.pop(name, None)
            sys.modules.update(saved)
            for name in HOT:
                if name in attributes:
                    setattr(package, name, attributes[name])
                elif hasattr(package, name):
                    delattr(package, name)

    def __exit__(self, *exc: Any) -> None:
        return None
