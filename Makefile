# screenpilot: every target does its own set-up, so each is one command on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.screenpilot-installed
PYTEST_ARGS ?=

export YOLO_OFFLINE := 1
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: setup test test-slow lint demo bench clean

setup: $(STAMP)

# torch and torchvision first: these versions install from this machine's disk.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel
	$(PY) -m pip install -q torch==2.14.1 torchvision==0.29.1
	$(PY) -m pip install -q -e '.[train,dev]'
	@touch $(STAMP)

# make test: the fast path of every part; make test-slow: the rest (training, full suites).
test: setup
	$(VENV)/bin/pytest -q -m "not slow and not gpu and not live_llm" $(PYTEST_ARGS)

test-slow: setup
	$(VENV)/bin/pytest -q -m "slow and not gpu and not live_llm" $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) tools/mypy_tree.py

demo: setup
	$(VENV)/bin/screenpilot demo

bench: setup
	@mkdir -p bench/results
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .mypy_tree build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
