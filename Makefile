# Everything sets itself up from a fresh clone: `make demo`, `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench serve clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	# an editable install leaves our own modules uncompiled: compile them once, as a wheel install would
	$(BIN)/python -m compileall -q server planner toolkits drafts bot > /dev/null
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/planner-mcp demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -q

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

serve: $(STAMP)
	$(BIN)/planner-mcp serve

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
