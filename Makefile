# Quick start: `make demo` and `make test` work on a fresh machine with only Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-compare clean browser redis docs mutate dist

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[all,dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m coinrow.demo
	@echo "Loading the census kernels (compiled once on this machine, about half a minute the first time)."
	$(BIN)/python -c "import coinrow.census; coinrow.census.warm_up()"

# Browser tests drive Debian's Chromium; a test tool must never download its own browser.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || \
		echo "chromium not installed: browser tests will be skipped"

# The online games' Redis tests start Debian's redis-server on loopback.
redis:
	@command -v redis-server >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
		apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; } || \
		echo "redis-server not installed: the Redis tests will fail under CI"

# The tests start several hundred coinrow processes: its modules are compiled once here, since
# with PYTHONDONTWRITEBYTECODE set (as on some machines) each process would compile them again.
test: $(STAMP) browser redis
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python -m compileall -q src
	$(BIN)/python -m pytest -m "not alone"
	$(BIN)/python -m pytest -m alone -n0 tests

# Speed: the engine table and ratios (coinrow bench), then the pytest-benchmark versions.
bench: $(STAMP)
	$(BIN)/coinrow bench
	$(BIN)/python -m pytest benchmarks -n0 --benchmark-only -q

# Before and after in one run: REF's figures beside the working tree's (make bench-compare REF=b45818c).
REF ?= main
bench-compare: $(STAMP)
	$(BIN)/python scripts/bench_compare.py $(REF)

# The documentation site, strict (a broken link, reference or page fails), into site/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

# The release files: a wheel and an sdist in dist/ (python -m build, an isolated build from the
# sdist), then twine's check of their metadata and of the README as the package page.
# tests/test_release.py runs this recipe with DIST_NEEDS= (its own venv is already set up).
DIST_NEEDS ?= $(STAMP)
dist: $(DIST_NEEDS)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/python -m twine check --strict dist/*

# Mutation testing of the exact core (slow; one mutmut child process): figures in docs/testing.md.
mutate: $(STAMP)
	$(BIN)/python -m pip install -q -e ".[all,dev,mutate]"
	$(BIN)/python scripts/mutate.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site .cache build/mutate dist
