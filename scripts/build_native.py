"""Build the move finder's compiled core with mypyc (issue 25; run by ``make``).

Compiles the hot modules (``rennleitung.native.HOT``) from their unchanged, strictly typed
source into ``src/rennleitung/formula_de/_compiled/`` and writes the sources' hashes there last,
so ``rennleitung.native`` uses a build only when it is complete and matches the source. Quick
when nothing changed. When gcc or the Python headers are missing it installs them with apt-get
(as root on Debian); when the build cannot be made it says so and leaves the pure Python path,
which then runs with a one-line warning. It never fails ``make``: the pure modules are correct,
only slower.

    .venv/bin/python scripts/build_native.py [--force]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rennleitung import native  # noqa: E402

WORK = ROOT / "build" / "native"


def say(text: str) -> None:
    print(f"build_native: {text}", file=sys.stderr)


def headers() -> Path:
    return Path(sysconfig.get_paths()["include"]) / "Python.h"


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")


def install_prerequisites() -> bool:
    """gcc and the Python headers, with apt-get when they are missing and we may."""
    if compiler() and headers().is_file():
        return True
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        say("gcc oder Python-Header fehlen (apt-get install gcc python3-dev als root) / "
            "gcc or the Python headers are missing (apt-get install gcc python3-dev as root)")
        return False
    say("installing gcc and python3-dev with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"],
                    ["apt-get", "install", "-y", "-qq", "gcc", "python3-dev"]):
        if subprocess.run(command, env=env, stdout=subprocess.DEVNULL).returncode:
            return False
    return bool(compiler()) and headers().is_file()


SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target = sys.argv[1].split(","), sys.argv[2]
sys.argv[1:3] = []
setup(name="rennleitung-native", py_modules=[], ext_modules=mypycify(
    paths, opt_level="3", debug_level="0", target_dir=target,
    group_name="rennleitung.formula_de._compiled.core"))
"""


def build() -> bool:
    """Compile into the work directory, then move the modules in and write the hashes."""
    try:
        import mypyc  # noqa: F401  (in the dev extras; make installs them)
    except ImportError:
        say("mypyc fehlt (pip install mypy) / mypyc is missing (pip install mypy)")
        return False
    hashes = native.source_hashes()  # before compiling: an edit meanwhile makes it stale
    shutil.rmtree(WORK, ignore_errors=True)
    lib = WORK / "lib"
    sources = [os.path.join(native.SOURCES, f"{name}.py") for name in native.HOT]
    env = {**os.environ, "MYPY_CACHE_DIR": str(WORK / "mypy_cache")}
    sources.append(f"--config-file={ROOT / 'pyproject.toml'}")
    WORK.mkdir(parents=True)
    result = subprocess.run(  # in the work directory: setuptools must not read pyproject.toml
        [sys.executable, "-c", SETUP, ",".join(sources), str(WORK / "c"), "build_ext",
         "--build-lib", str(lib), "--build-temp", str(WORK / "tmp"), "-j", "2"],
        cwd=WORK, env=env, capture_output=True, text=True,
    )
    if result.returncode:
        say("mypyc failed:\n" + (result.stdout + result.stderr)[-3000:])
        return False
    built = lib / "rennleitung" / "formula_de"
    names = [Path(native.compiled_file(name)).name for name in native.HOT]
    names.append(Path(native.compiled_file("core__mypyc")).name)
    built_dir = Path(native.BUILT)
    built_dir.mkdir(exist_ok=True)
    for name in names:
        source = built / name if name != names[-1] else built / "_compiled" / name
        shutil.copy2(source, built_dir / name)
    Path(native.HASHES).write_text(
        "".join(f"{digest}  {name}\n" for name, digest in hashes.items()), encoding="ascii"
    )
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--force", action="store_true", help="build even when up to date")
    args = parser.parse_args()
    if not args.force and native.why_pure() is None:
        return 0
    if os.environ.get(native.PURE_ENV) == "1":
        return 0
    Path(native.HASHES).unlink(missing_ok=True)  # never a half-replaced build in use
    started = time.monotonic()
    say("kompilierter Zugfinder wird gebaut (mypyc, etwa eine halbe Minute) / "
        "building the compiled move finder (mypyc, about half a minute)")
    if install_prerequisites() and build():
        say(f"fertig / done in {time.monotonic() - started:.0f} s")
    else:
        say("weiter mit reinem Python / carrying on in pure Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
