"""The house plan, checked from the imports of every module under ``src/rennleitung``.

``docs/architecture.md`` shows the floors and these rules. Every import counts: at the top of a
module, inside a function, and under ``TYPE_CHECKING`` (a type named there still ties the
modules together for whoever reads or moves them). The imports are read with ``ast``; nothing is
imported to find them. The names a face imports from the store are imported to see whether they
are tables or sessions.
"""

from __future__ import annotations

import ast
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "rennleitung"

BASE = frozenset({"errors", "textinput", "names"})
"""Shared by every floor: bilingual errors, the pure reading of text and of people's names."""
ENGINES = frozenset({"formula_de", "turbo2000", "league"})
FACES = frozenset({"web", "mail", "cli"})

ALLOWED: dict[str, frozenset[str]] = {
    "formula_de": BASE,
    "turbo2000": BASE,
    "league": BASE | {"formula_de"},
    "render": BASE | ENGINES,
    "store": BASE | ENGINES | {"inputs"},
    "play": BASE | ENGINES | {"store", "inputs"},
    "web": BASE | ENGINES | {"play", "render", "store"},
    "mail": BASE | ENGINES | {"play", "render", "store"},
    "cli": BASE | ENGINES | {"play", "render", "store", "inputs", "web", "mail", "", "native"},
    "inputs": BASE,
    "errors": frozenset(),
    "textinput": frozenset({"errors"}),
    "names": frozenset({"errors"}),
    "native": frozenset(),
    "": frozenset({"native"}),
}
"""Which floors (the first name below ``rennleitung``; "" is the package itself) a module of
each floor may import. Imports point down; the CLI is the top floor."""

STORE_INSIDES = frozenset({"store.models", "store.mail_tables", "store.race_tables",
                           "store.qualifying_tables"})
"""Table definitions: no face imports them (a face asks a store service)."""

RACE_IN_FACES_ALLOWED: frozenset[tuple[str, str]] = frozenset({
    # Issue 20 item 4 ("views for the faces") moves these faces onto the play service's views;
    # the lead removes each line when that lands. The list only shrinks: a new entry is a bug.
})
"""Faces that still import ``formula_de.race`` (or its ``Race``), known and shrinking."""


@dataclass(frozen=True)
class Import:
    """One imported module (or module attribute), where, and which names it brought."""

    source: str  # the importing module, without "rennleitung."
    target: str  # the imported module, without "rennleitung."; "" for the package
    names: tuple[str, ...]
    line: int


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC / PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _own(name: str) -> str | None:
    """``name`` without the package prefix, or None if it is not ours."""
    if name == PACKAGE:
        return ""
    if name.startswith(PACKAGE + "."):
        return name[len(PACKAGE) + 1:]
    return None


def _imports(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _own(alias.name)
                if target is not None:
                    found.append(Import(module, target, (), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1] if node.level > 1 else package
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                own = _own(node.module or "")
                if own is None:
                    continue
                target = own
            names = tuple(a.name for a in node.names)
            submodules = [n for n in names if f"{target}.{n}".strip(".") in MODULES]
            for name in submodules:
                found.append(Import(module, f"{target}.{name}".strip("."), (), node.lineno))
            rest = tuple(n for n in names if n not in submodules)
            if rest or not submodules:
                found.append(Import(module, target, rest, node.lineno))
    return found


IMPORTS = [i for module, path in MODULES.items() for i in _imports(module, path)]


def _floor(module: str) -> str:
    return module.split(".")[0]


def _third_party(module: str, path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.append(node.module)
    top = {n.split(".")[0] for n in names}
    return sorted(n for n in top if n != PACKAGE and n not in sys.stdlib_module_names
                  and n != "__future__")


def test_the_rules_know_every_floor() -> None:
    assert {_floor(m) for m in MODULES} <= set(ALLOWED)


def test_imports_point_down() -> None:
    wrong = [f"{i.source}:{i.line} imports {i.target or PACKAGE}" for i in IMPORTS
             if _floor(i.target) != _floor(i.source)
             and _floor(i.target) not in ALLOWED[_floor(i.source)]]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("floor", sorted(ENGINES | BASE | {"native"}))
def test_engines_use_only_the_standard_library(floor: str) -> None:
    foreign = {m: _third_party(m, p) for m, p in MODULES.items() if _floor(m) == floor}
    assert not {m: f for m, f in foreign.items() if f}


def test_render_and_the_store_use_nothing_of_the_floors_above() -> None:
    """``render`` and ``store`` need no web framework either (the store's SQLAlchemy and
    Alembic are its own business)."""
    allowed = {"render": set(), "store": {"sqlalchemy", "alembic"}, "play": {"sqlalchemy"}}
    foreign = {m: set(_third_party(m, p)) - allowed[_floor(m)]
               for m, p in MODULES.items() if _floor(m) in allowed}
    assert not {m: f for m, f in foreign.items() if f}


def test_web_and_mail_import_neither_each_other_nor_the_cli() -> None:
    wrong = [f"{i.source}:{i.line} imports {i.target}" for i in IMPORTS
             if _floor(i.source) in {"web", "mail"}
             and _floor(i.target) in FACES - {_floor(i.source)}]
    assert not wrong, "\n".join(wrong)


def test_no_face_imports_a_table_a_session_or_sql() -> None:
    """A face asks a store service; it may hold an ``Engine`` (the handle a service is opened
    on) and open the database (``store.database``), nothing else of SQLAlchemy."""
    from rennleitung.store.models import Base

    wrong = []
    for i in IMPORTS:
        if _floor(i.source) not in FACES:
            continue
        if i.target in STORE_INSIDES:
            wrong.append(f"{i.source}:{i.line} imports {i.target}")
            continue
        if _floor(i.target) == "store":
            module = importlib.import_module(f"{PACKAGE}.{i.target}")
            for name in i.names:
                value = getattr(module, name, None)
                if isinstance(value, type) and issubclass(value, Base):
                    wrong.append(f"{i.source}:{i.line} imports the table {name}")
    for module, path in MODULES.items():
        if _floor(module) not in FACES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(
                    a.name.split(".")[0] == "sqlalchemy" for a in node.names):
                wrong.append(f"{module}:{node.lineno} imports sqlalchemy")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
                names = {a.name for a in node.names}
                if node.module != "sqlalchemy" or names - {"Engine"}:
                    wrong.append(f"{module}:{node.lineno} imports {node.module} {sorted(names)}")
    assert not wrong, "\n".join(wrong)


def _race_imports() -> set[tuple[str, str]]:
    found = set()
    for i in IMPORTS:
        if _floor(i.source) not in {"web", "mail"}:
            continue
        if i.target == "formula_de.race" or "Race" in i.names:
            found.add((i.source, "formula_de.race"))
    return found


def test_web_and_mail_never_import_the_race() -> None:
    """Faces see views (issue 20 item 4); the known offenders are listed above, and each one
    that no longer imports the race must leave the list."""
    found = _race_imports()
    assert found <= RACE_IN_FACES_ALLOWED, sorted(found - RACE_IN_FACES_ALLOWED)
    assert found >= RACE_IN_FACES_ALLOWED, (
        "no longer an offender, remove it from RACE_IN_FACES_ALLOWED: "
        f"{sorted(RACE_IN_FACES_ALLOWED - found)}")


def _circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in IMPORTS:
        if i.target in MODULES and i.target != i.source:
            graph[i.source].add(i.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_there_is_no_import_circle() -> None:
    """A package's ``__init__`` that re-exports its modules counts as a module like any other."""
    assert _circles() == []


def test_the_checks_see_function_and_type_checking_imports(tmp_path: Path) -> None:
    """The reader finds imports inside functions and under ``TYPE_CHECKING`` (a check that read
    only the top of each module would have missed two of the three old circles)."""
    tree_text = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from rennleitung.formula_de.race import Race\n"
        "def f():\n    from rennleitung.cli import blitz\n"
    )
    probe = tmp_path / "probe.py"
    probe.write_text(tree_text, encoding="utf-8")
    found = {i.target for i in _imports("web.probe", probe)}
    assert {"formula_de.race", "cli.blitz"} <= found
