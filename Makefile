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

# Capture also runs on the newest torch we test: its own venv, torch first and exactly.
# The CUDA wheel (it runs on the CPU) and the nvidia-* packages it needs come from
# this machine's local package index; .ci/torch-next-constraints.txt keeps pip on them.
TORCH_NEXT := 2.14.1
NEXT_VENV := .venv-torch2.14
NEXT_PY := $(NEXT_VENV)/bin/python
# What depends on torch: capture, debug, and rendering TORCH_TRACE logs.
TORCH_TESTS := tests/capture tests/debug tests/logs

.PHONY: example test lint setup browser decompiler-pythons torch-next test-torch-next

$(VENV)/.installed: pyproject.toml
	test -x $(PYTHON) || { echo "need Python 3.11 at $(PYTHON) (set PYTHON=...)"; exit 1; }
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	# torch first and exactly: the local CPU wheel, never a CUDA build from the index.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

setup: $(VENV)/.installed

$(NEXT_VENV)/.installed: pyproject.toml .ci/torch-next-constraints.txt
	test -x $(PYTHON) || { echo "need Python 3.11 at $(PYTHON) (set PYTHON=...)"; exit 1; }
	test -d $(NEXT_VENV) || $(PYTHON) -m venv $(NEXT_VENV)
	$(NEXT_PY) -m pip install --quiet -c .ci/torch-next-constraints.txt torch==$(TORCH_NEXT)
	$(NEXT_PY) -m pip install --quiet -c .ci/torch-next-constraints.txt -e ".[test]"
	touch $@

torch-next: $(NEXT_VENV)/.installed

# The torch-dependent tests again, on torch $(TORCH_NEXT).
test-torch-next: torch-next browser
	PYTHONPATH=$(CURDIR) $(NEXT_PY) -m pytest -q -p no:cacheprovider $(TORCH_TESTS)

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
	@echo "== capture, debug and log tests on torch $(TORCH_NEXT)"
	$(MAKE) test-torch-next
