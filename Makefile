# genesel: `make run` (notebooks, quick mode) and `make test` work from a clean clone with nothing installed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# The local data mirror: $GENESEL_DATA_MIRROR if set, else ../shared/data/raw when it exists, else download.
GENESEL_DATA_MIRROR ?= $(abspath $(wildcard ../shared/data/raw))
export GENESEL_DATA_MIRROR
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# One notebook, or notebook parameters (papermill -p / -y syntax), e.g.
#   make run NB=02                          make run NB=05a ARGS="-p datasets '[\"singh\"]'"
#   make full NB=01 ARGS="-y 'n_jobs: 2'"
NB   ?=
ARGS ?=
# A dask scheduler to run every grid on (e.g. make full SCHEDULER=tcp://10.0.0.5:8786); see README "On a cluster"
SCHEDULER ?=
export GENESEL_SCHEDULER := $(or $(SCHEDULER),$(GENESEL_SCHEDULER))

.PHONY: help run full report test test-fast lint lab data install clean-cache bench

help:              ## this list: every target and what it does
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:[^#]*## /\t/' | expand -t 20

run: data          ## notebooks in quick mode -> runs/quick/ (figures: runs/quick/figures/); NB=02 for one
	$(BIN)/genesel run --mode quick $(ARGS) $(NB)

full: data         ## the papers' full protocols (hours) -> runs/full/, figures/ (the committed figures)
	$(BIN)/genesel run --mode full $(ARGS) $(NB)

report: install    ## static HTML of the executed notebooks (offline maths, embedded figures): runs/<MODE>/report/
	$(BIN)/python -m genesel.experiments.report --mode $(or $(MODE),quick)

test: install      ## the test suite (includes every notebook in quick mode), on every core (pytest-xdist)
	$(BIN)/python -m pytest -n auto --dist worksteal

test-fast: install ## the quick loop (under 3 min on 2 cores): no notebooks, no real-data grids, nothing marked slow
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not notebook and not slow"

lint: install      ## ruff (pyflakes, pycodestyle, bugbear; configured in pyproject.toml) over the code and tests
	$(BIN)/ruff check lib data_fetch tests benchmarks

lab: install       ## JupyterLab on the notebooks, in the project's venv (as root too, as in containers)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

data: install      ## fetch and checksum every registered data set into data/
	$(BIN)/python -m data_fetch --all

bench: install     ## speed comparisons against the tools users would otherwise pick
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	@# lib/ on sys.path (a .pth file): setuptools' editable finder runs after the path finder, so a folder named
	@# genesel in the current directory (a clone) would otherwise shadow the package as an empty namespace package
	$(BIN)/python -c 'import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "genesel-lib.pth").write_text("$(abspath lib)\n")'
	touch $(STAMP)

clean-cache:       ## forget cached experiment cells (runs/cache) and parsed data (data/parsed)
	rm -rf runs/cache data/parsed
