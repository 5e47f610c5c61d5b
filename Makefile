# The two set-up commands of the README: `make demo` and `make test`.
# Each creates .venv when missing and installs what it needs.
# torch is pinned first: on the project's CPU machines that pin is the CPU build.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs
TORCH := torch==2.13.0

.PHONY: demo test test-lower-isa test-installs docs wheel test-wheel lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(TORCH)
	$(BIN)/python -m pip install -q -e ".[all,dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/attnmt demo $(DEMO_ARGS)

# The suite in one process a core (pytest-xdist), each test file whole in one of them, so that a file's
# shared fixtures (a small model trained once) are built once: on 2 cores about 6 minutes, not 10.
PARALLEL := -n auto --dist loadfile
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m pytest $(PARALLEL)

# The tests whose numbers depend on float rounding (training, decoding, quality, the fast paths, serving, documents,
# faults), again with PyTorch's generic kernels and oneDNN and MKL held to AVX2: on an AVX-512
# machine all three differ from the first run, on an AVX2 one PyTorch's kernels do.
NUMERIC_TESTS := tests/test_search.py tests/test_beam.py tests/test_cache.py tests/test_quality.py tests/training tests/fast \
	tests/interop tests/app tests/documents
test-lower-isa: $(STAMP)
	ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2 \
		$(BIN)/python -m pytest $(PARALLEL) $(NUMERIC_TESTS)

# The API reference from the docstrings (site/), warnings as errors and its links checked.
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e ".[docs]"
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(BIN)/mkdocs build --strict

# The package as users install it, in fresh environments of their own: alone, then each extra alone.
test-installs:
	PY=$(PY) tests/install/installs.sh

# A wheel with the C++ step compiled for $(TORCH) (setup.py), into dist/; it needs a C++ compiler.
# build/ goes first: setuptools would pack what an earlier build left there.
wheel: $(STAMP)
	$(BIN)/python -m pip install -q build "setuptools>=77.0.3"
	rm -rf build
	$(BIN)/python -m build --wheel --no-isolation

# That wheel built and installed into a fresh environment without a compiler, translating with its step.
test-wheel:
	PY=$(PY) tests/install/wheel.sh

clean:
	rm -rf $(VENV) build dist site *.egg-info src/*.egg-info
