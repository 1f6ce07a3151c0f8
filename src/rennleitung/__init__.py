"""rennleitung: race control for Formula Dé and TURBO 2000."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rennleitung")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
