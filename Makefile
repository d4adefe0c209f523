# genesel: `make run` (notebooks, quick mode) and `make test` work from a clean clone with nothing installed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# The local data mirror: $GENESEL_DATA_MIRROR if set, else ../shared/data/raw when it exists, else download.
GENESEL_DATA_MIRROR ?= $(abspath $(wildcard ../shared/data/raw))
export GENESEL_DATA_MIRROR
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run full test lab data install clean-cache bench

run: data          ## execute every notebook in quick mode into runs/quick/, figures into figures/
	$(BIN)/python -m genesel.notebooks --mode quick

full: data         ## the papers' full protocols (hours): runs/full/
	$(BIN)/python -m genesel.notebooks --mode full

test: install      ## the test suite (includes every notebook in quick mode)
	$(BIN)/python -m pytest

lab: install       ## JupyterLab on the notebooks, in the project's venv
	$(BIN)/jupyter lab notebooks/

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
	touch $(STAMP)

clean-cache:       ## forget cached experiment cells (runs/cache) and parsed data (data/parsed)
	rm -rf runs/cache data/parsed
