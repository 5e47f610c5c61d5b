# The two set-up commands of the README: `make demo` and `make test`.
# Each creates .venv when missing and installs what it needs.
# torch is pinned first: on the project's CPU machines that pin is the CPU build.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TORCH := torch==2.13.0

.PHONY: demo test lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(TORCH)
	$(BIN)/python -m pip install -q -e ".[dev,export]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/attnmt demo $(DEMO_ARGS)

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
