# Two commands: `make run` (the web server, the main job) and `make test` (every check); `make demo`
# is the terminal bot race. Both set up .venv first
# and only reinstall when pyproject.toml changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# make test runs the tests in this many processes (pytest-xdist; the mail tests share one).
# Three on two cores, measured: a full run took 696 s at three against some 800 s at two (a
# third process fills the gaps while the others wait on chromium, the databases or a timeout).
TEST_JOBS ?= 3

.PHONY: run demo test lint typecheck pytest services bench clean native

$(STAMP): pyproject.toml
	@echo "Einmalig: Python-Umgebung in $(VENV) anlegen und Pakete installieren (1-2 Minuten) /"
	@echo "once: creating the Python environment in $(VENV) and installing packages (1-2 minutes)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)
	@echo "Umgebung fertig / environment ready"

# the move finder's compiled core (mypyc; docs/formula_de/movement.md): quick when up to date,
# never fails: without a compiler the pure Python modules run, with a one-line warning
native: $(STAMP)
	@$(BIN)/python scripts/build_native.py

run: $(STAMP) native
	$(BIN)/rennleitung serve --host 127.0.0.1 --port 8000

demo: $(STAMP) native  # make demo SEED=abc repeats a race
	$(BIN)/rennleitung main $(if $(SEED),--seed $(SEED))

services:
	@sh scripts/services.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) services native
	. ./.services.env 2>/dev/null; $(BIN)/pytest -n $(TEST_JOBS) --dist loadgroup

# the checks run beside the compiled build (its mypy cache is its own, build/native), then the
# services and the tests: on two cores that saves the half minute mypy takes. The services come
# after the build, not beside it: both may call apt-get, and only one may hold dpkg's lock
test: $(STAMP)
	@$(MAKE) --no-print-directory -j3 lint typecheck native
	@$(MAKE) --no-print-directory pytest

bench: $(STAMP) native
	for f in benchmarks/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache test-artifacts build/native \
		src/rennleitung/formula_de/_compiled
