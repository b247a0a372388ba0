# `make demo` and `make test` do all set-up themselves: a .venv at the root with every
# package installed editable, in dependency order. The stamp files make re-runs quick;
# they are rebuilt when a pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PACKAGES := packages/ir-core packages/dialect-graph packages/dialect-loop \
            packages/backend-llvm packages/frontend-onnx packages/frontend-torch \
            packages/tune tools
PYPROJECTS := pyproject.toml $(addsuffix /pyproject.toml,$(PACKAGES))
PIP := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: demo test test-slow lint pytest lit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python $(PYPROJECTS)
	$(PIP) install -U pip setuptools wheel
	$(PIP) install --no-build-isolation $(foreach p,$(PACKAGES),-e $(p))
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(PIP) install --no-build-isolation -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	@PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

pytest: $(VENV)/.installed-test
	$(BIN)/python -m pytest -W error -q -n auto -m "not slow" tests

lit: $(VENV)/.installed-test
	$(BIN)/lit -sv tests/filecheck

test: lint pytest lit

test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -W error -q -n auto -m slow tests

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/roundtrip.py

clean:
	rm -rf $(VENV)
