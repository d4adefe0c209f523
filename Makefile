# genesel: `make run` (notebooks, quick mode) and `make test` work from a clean clone with nothing installed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# The local data mirror: $GENESEL_DATA_MIRROR if set, else ../shared/data/raw when it exists, else download.
GENESEL_DATA_MIRROR ?= $(abspath $(wildcard ../shared/data/raw))
export GENESEL_DATA_MIRROR
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# One OpenBLAS kernel on every CPU: AVX-512 kernels round the last bits differently, which moves the GP-ARD fits
# (docs/architecture.md, "Reproducibility across machines"); the committed tables were computed with the AVX2
# kernels. Override to compare.
OPENBLAS_CORETYPE ?= Haswell
export OPENBLAS_CORETYPE

# One notebook, or notebook parameters (papermill -p / -y syntax), e.g.
#   make run NB=02                          make run NB=05a ARGS="-p datasets '[\"singh\"]'"
#   make full NB=01 ARGS="-y 'n_jobs: 2'"
NB   ?=
ARGS ?=
# A dask scheduler to run every grid on (e.g. make full SCHEDULER=tcp://10.0.0.5:8786, or the SLURM recipe's
# connection file: SCHEDULER=$HOME/.config/genesel/cluster/scheduler.json); see README "Running the grids on a cluster"
SCHEDULER ?=
export GENESEL_SCHEDULER := $(or $(SCHEDULER),$(GENESEL_SCHEDULER))

# The executed notebooks the documentation site shows (make docs): runs/quick by default; DOCS_RUNS=runs/full shows
# the full runs (make full) and runs nothing first
DOCS_RUNS ?= runs/quick
NOTEBOOKS  := $(wildcard notebooks/[0-9]*.ipynb)
QUICK_RUNS := $(patsubst notebooks/%,runs/quick/%,$(NOTEBOOKS))

.PHONY: help run full docs test test-fast lint lab data install clean-cache bench

help:              ## this list: every target and what it does
	@grep -E '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):[^#]*## /\1\t/' | expand -t 14

run: data          ## notebooks in quick mode -> runs/quick/ (figures: runs/quick/figures/); NB=02 for one
	$(BIN)/genesel run --mode quick $(ARGS) $(NB)

full: data         ## the papers' full protocols (hours) -> runs/full/, figures/ (the committed figures)
	$(BIN)/genesel run --mode full $(ARGS) $(NB)

docs: install $(if $(filter runs/quick,$(DOCS_RUNS)),$(QUICK_RUNS))  ## the documentation site, offline -> docs/_build/html/index.html (runs the notebooks without a quick run first)
	GENESEL_DOCS_RUNS=$(abspath $(DOCS_RUNS)) $(BIN)/python -m sphinx -b html -j auto -q docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

# a notebook's quick run, redone when the notebook changed (make docs shows every notebook's run)
runs/quick/%.ipynb: notebooks/%.ipynb | data
	$(BIN)/genesel run --mode quick $*

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
	@# dev: every extra (notebooks, stats, anndata, distributed, docs) and the test tools; see pyproject.toml
	$(BIN)/python -m pip install -q -e ".[dev]"
	@# older Makefiles wrote this path file by hand (the build backend now puts lib/ on sys.path itself)
	rm -f "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/genesel-lib.pth"
	touch $(STAMP)

clean-cache:       ## forget cached experiment cells (runs/cache) and parsed data (data/parsed)
	rm -rf runs/cache data/parsed
