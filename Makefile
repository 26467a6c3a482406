# Two commands for a newcomer on a fresh Debian machine:
#   make example   set up, capture examples/toy_example.py (inductor) and render build/site/
#   make test      set up and run every check CI runs
# Each target installs what it needs; re-running skips what is already there.

PYTHON ?= /root/.pyenv/versions/3.11.7/bin/python
VENV := .venv
PY := $(VENV)/bin/python
# The decompiler also runs on these Pythons, with the standard library alone.
OTHER_PYTHONS := 3.10 3.12 3.13
PYENV := /root/.pyenv/versions

.PHONY: example test lint setup browser decompiler-pythons

$(VENV)/.installed: pyproject.toml
	test -x $(PYTHON) || { echo "need Python 3.11 at $(PYTHON) (set PYTHON=...)"; exit 1; }
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	# torch first and exactly: the local CPU wheel, never a CUDA build from the index.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

setup: $(VENV)/.installed

example: setup
	rm -rf build/dump build/site
	$(VENV)/bin/depyf-report run -o build/dump -- python examples/toy_example.py inductor
	$(VENV)/bin/depyf-report build/dump -o build/site
	@echo "Open build/site/index.html in a browser."

# Debian's Chromium for the browser tests; Playwright drives it, never downloads one.
browser:
	test -x /usr/bin/chromium || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

# A venv per extra Python with pytest only: the decompiler must need nothing else.
decompiler-pythons:
	for v in $(OTHER_PYTHONS); do \
	  py=$$(ls -d $(PYENV)/$$v.*/bin/python | head -1); \
	  test -d .venv-$$v || $$py -m venv .venv-$$v; \
	  .venv-$$v/bin/python -m pip install --quiet pytest; \
	done

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: setup browser decompiler-pythons lint
	$(PY) -m pytest -q
	for v in $(OTHER_PYTHONS); do \
	  echo "== decompiler tests on Python $$v"; \
	  PYTHONPATH=$(CURDIR) .venv-$$v/bin/python -m pytest -q -p no:cacheprovider tests/decompiler || exit 1; \
	done
