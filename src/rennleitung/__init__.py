"""rennleitung: race control for Formula Dé and TURBO 2000."""

from __future__ import annotations

from rennleitung import native

native.install()  # the move finder's compiled core where it is built (native.py, issue 25)

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``__version__`` is looked up on first use: importlib.metadata costs start-up time."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rennleitung")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"
