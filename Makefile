# minigrad: `make lab` opens the course, `make test` runs every test, `make test-fast` a fast tier.
# GNU make. See README.md.

PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.minigrad-installed
LAB_ARGS ?=
PYTEST_ARGS ?=
STUDENT_DIR := notebooks/student
WORKSPACE ?= workspace
SANITIZE := notebooks/nbval_sanitize.cfg

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

.PHONY: help setup lab lab-solutions update-workspace test test-fast record notebooks exercises doctor site bench bench-count clean

help:
	@echo "make lab    - set up, then open your workspace ($(WORKSPACE)/: your copy of the blank notebooks) in JupyterLab"
	@echo "make update-workspace - bring new and changed notebooks into $(WORKSPACE)/, never overwriting your work"
	@echo "make lab-solutions - make lab, with read-only copies of the complete notebooks in $(WORKSPACE)/solutions/"
	@echo "make test   - set up, then run the tests in tests/ and every notebook (nbval)"
	@echo "make test-fast - set up, then run the fast tier (under a minute): the core, a sample of the ops, the course's checks"
	@echo "make record - set up, add the [torch] extra, re-record PyTorch's answers in tests/recordings/"
	@echo "make notebooks - re-execute every complete notebook and store its outputs (nbclient)"
	@echo "make exercises - write the blank student versions to $(STUDENT_DIR)/"
	@echo "make doctor - check the environment (versions, dot, Jupyter kernel)"
	@echo "make site   - set up, add the [site] extra, build the course's website into build/site/html (offline)"
	@echo "make docs   - rewrite the generated docs/differences.md, docs/api.md, docs/graph.svg"
	@echo "make bench  - set up, add the [bench] extra (PyTorch, micrograd), time minigrad -> bench/RESULTS.md"
	@echo "make bench-count - instructions per step of the bench workloads (valgrind), repeatable to 0.01%"
	@echo "make setup  - create $(VENV), install minigrad with [lab,dev], make sure Graphviz dot exists"
	@echo "make clean  - remove $(VENV) and caches"

# --- setup ---------------------------------------------------------------

setup: $(STAMP)
	@scripts/ensure-dot.sh

$(VENV)/bin/python:
	@if ! command -v "$(PYTHON)" >/dev/null 2>&1; then \
	    echo "error: $(PYTHON) not found; minigrad needs Python >= 3.10 (run e.g. make PYTHON=python3.11 ...)" >&2; exit 1; fi
	@if ! "$(PYTHON)" -c "import sys; sys.exit(sys.version_info < (3, 10))"; then \
	    echo "error: $(PYTHON) is Python $$("$(PYTHON)" -c "import platform; print(platform.python_version())"); minigrad needs >= 3.10 (run e.g. make PYTHON=python3.11 ...)" >&2; exit 1; fi
	@echo "+ $(PYTHON) -m venv $(VENV)"
	@"$(PYTHON)" -m venv $(VENV) || { rm -rf $(VENV); \
	    echo "error: could not create $(VENV) (on Debian/Ubuntu: apt-get install python3-venv)" >&2; exit 1; }

# Reinstall only when pyproject.toml is newer than the stamp. A first install downloads about
# 110 packages (120 MB; 550 MB installed): 40 s on a fast connection, a few minutes on a slow
# one. pip's output is shortened to a progress line (scripts/pip-progress.sh: a count every 10
# packages, retries, and pip's errors in full); all of it goes to $(PIP_LOG).
$(STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "+ $(VENV)/bin/pip install -e \".[lab,dev]\""
	@echo "  NumPy, SciPy, Matplotlib, JupyterLab, pytest, nbval and their dependencies (about 110 packages, 120 MB):"
	@echo "  The first time: 40 s on a fast connection, a few minutes on a slow one. pip's whole output goes to $(PIP_LOG)."
	@$(VENV)/bin/python -m pip install --quiet --upgrade pip || { echo "$(PIP_FAILED)" >&2; exit 1; }
	@$(VENV)/bin/python -m pip install --progress-bar off -e ".[lab,dev]" 2>&1 | tee $(PIP_LOG) | scripts/pip-progress.sh || { echo "$(PIP_FAILED)" >&2; exit 1; }
	@touch $@

PIP_LOG := $(VENV)/pip-install.log

PIP_FAILED := error: pip install failed; its own error is above. If it could not reach PyPI, check the \
network (or set HTTPS_PROXY), then run make again; \`make clean\` starts the environment over.

# --- lab -----------------------------------------------------------------

# JupyterLab on the learner's workspace, $(WORKSPACE)/ (git-ignored): a copy of the blank
# notebooks ($(STUDENT_DIR)/) and of notebooks/data/, made on the first run and never
# overwritten afterwards (tools/course.py workspace); the tracked notebooks stay untouched.
lab: setup
	@$(VENV)/bin/python tools/course.py workspace --dir "$(WORKSPACE)"
	@$(MAKE) --no-print-directory _jupyter-lab

# New notebooks are added; a changed one replaces the learner's copy only if they had not
# changed it, otherwise it is written beside it as NN_name.new.ipynb.
update-workspace: setup
	@$(VENV)/bin/python tools/course.py workspace --update --dir "$(WORKSPACE)"

# The complete notebooks on purpose: read-only copies in $(WORKSPACE)/solutions/, named
# "NN_name (solution).ipynb" so that their tabs differ from the learner's NN_name.ipynb.
lab-solutions: setup
	@$(VENV)/bin/python tools/course.py workspace --dir "$(WORKSPACE)"
	@$(VENV)/bin/python tools/course.py solutions --dir "$(WORKSPACE)"
	@$(MAKE) --no-print-directory _jupyter-lab

_jupyter-lab:
	@args=(--notebook-dir="$(WORKSPACE)"); \
	if [ -z "$${DISPLAY:-}" ]; then args+=(--no-browser); fi; \
	if [ "$$(id -u)" = "0" ]; then args+=(--allow-root); fi; \
	echo "Starting JupyterLab on $(WORKSPACE)/. Open the http://127.0.0.1:<port>/lab?token=... URL it prints below; Ctrl-C stops it."; \
	echo "+ $(VENV)/bin/jupyter lab $${args[*]} $(LAB_ARGS)"; \
	exec $(VENV)/bin/jupyter lab "$${args[@]}" $(LAB_ARGS)

# --- test ----------------------------------------------------------------

# tests/ always (grouped by subject: core, ops, api, nn, optim, course, project); every complete
# notebook under notebooks/ too (not the blank versions in $(STUDENT_DIR)/, whose check cells
# fail on purpose), run top to bottom by nbval in this environment, outputs compared after
# $(SANITIZE) (SVG and stderr are not compared, see notebooks/conftest.py); in one pytest
# invocation on 2 workers (pytest-xdist; loadscope keeps each notebook's cells on one worker,
# and each test module on one worker too).
test: setup
	@nbs=(); \
	while IFS= read -r -d "" f; do nbs+=("$$f"); done < <(find notebooks -name "*.ipynb" -not -path "$(STUDENT_DIR)/*" -not -path "*/.ipynb_checkpoints/*" -print0 2>/dev/null | sort -z); \
	args=(-n 2 --dist loadscope tests); \
	if [ $${#nbs[@]} -gt 0 ]; then args+=(--nbval --nbval-current-env --nbval-sanitize-with $(SANITIZE) "$${nbs[@]}"); fi; \
	echo "+ $(VENV)/bin/python -m pytest $${args[*]} $(PYTEST_ARGS)"; \
	$(VENV)/bin/python -m pytest "$${args[@]}" $(PYTEST_ARGS)

# The fast tier, the tests marked `fast` (tests/conftest.py): every test of tests/core/ (the
# autograd idea); one in 8 parametrizations of each test of tests/ops/ (the op tables among them)
# (the first of the slow second-order ones): each op family sampled; and the course's checks
# against the typical wrong answers (tests/wrong_answers/; in a kernel, each notebook's first
# exercise), not the notebooks' nbval run. Under a minute on 2 cores;
# tests/project/test_fast_tier.py checks what it holds. FAST_PATHS: where those tests are, so
# that the rest is not even collected.
FAST_PATHS = tests/core tests/ops tests/course/test_course.py
test-fast: setup
	@echo "+ $(VENV)/bin/python -m pytest -n 2 -m fast $(FAST_PATHS) $(PYTEST_ARGS)"
	@$(VENV)/bin/python -m pytest -n 2 -m fast $(FAST_PATHS) $(PYTEST_ARGS)

# PyTorch's answers to the comparison tests (the tests taking the `oracle` fixture, see
# tests/oracle.py), recorded from scratch: installs the [torch] extra (torch==2.13.0) into
# $(VENV), removes tests/recordings/ and runs those tests under PyTorch with pytest-regressions'
# --regen-all, which writes every recording. Run it after adding or changing a comparison test
# (or the PyTorch pin); review `git diff tests/recordings` and commit it. Running it twice gives
# byte-identical files.
record: setup
	@echo "+ $(VENV)/bin/pip install -e \".[torch]\""
	@$(VENV)/bin/python -m pip install --quiet -e ".[torch]"
	rm -rf tests/recordings
	$(VENV)/bin/python -m pytest -n 2 --dist loadscope -m oracle --regen-all tests

# --- course --------------------------------------------------------------

# Re-execute every complete notebook (nbclient, this environment's kernel) and store the
# outputs without timing metadata, stamped with the minigrad version. Then refresh the
# blank versions (they carry the same version stamp).
notebooks: setup
	$(VENV)/bin/python tools/course.py notebooks
	$(VENV)/bin/python tools/course.py exercises --out $(STUDENT_DIR)

# Blank versions: solutions -> "# YOUR CODE HERE / raise NotImplementedError()", outputs
# cleared, check cells locked (as nbgrader's ClearSolutions, ClearOutput, LockCells).
exercises: setup
	$(VENV)/bin/python tools/course.py exercises --out $(STUDENT_DIR)

# The generated documents (tools/docs.py): the known differences from PyTorch, collected from
# the tests' DIFF marks and the fuzzer's table; the API inventory, by importing minigrad; the
# README's picture, drawn by minigrad.viz. tests/project/test_docs.py fails when the first two are stale.
.PHONY: docs
docs: setup
	$(VENV)/bin/python tools/docs.py

doctor: setup
	@$(VENV)/bin/python -m minigrad.doctor

# --- site ----------------------------------------------------------------

# The course as a static website (tools/site.py): the complete notebooks with their stored
# outputs (nothing runs), Sphinx with warnings as errors, every internal link checked, MathJax
# and the theme's files inside the site. Installs the [site] extra into $(VENV) when
# pyproject.toml is newer than its stamp. tests/site/ opens every page in Chromium when the
# site is built (make test skips them otherwise, saying so).
SITE_STAMP := $(VENV)/.minigrad-site-installed
$(SITE_STAMP): pyproject.toml $(STAMP)
	@echo "+ $(VENV)/bin/pip install -e \".[site]\"  (Sphinx, myst-nb, the book theme, MathJax, Playwright)"
	@$(VENV)/bin/python -m pip install --quiet -e ".[site]" || { echo "$(PIP_FAILED)" >&2; exit 1; }
	@touch $@

site: setup $(SITE_STAMP)
	$(VENV)/bin/python tools/site.py

# --- bench ---------------------------------------------------------------

# minigrad against PyTorch, micrograd and hand-written NumPy (bench/run.py); writes bench/RESULTS.md.
# Installs the [bench] extra (torch==2.13.0, micrograd, pyinstrument) into $(VENV) when one is missing.
# Not part of `make test`.
bench: setup
	@if ! $(VENV)/bin/python -c "import torch, micrograd, pyinstrument" >/dev/null 2>&1; then \
	    echo "+ $(VENV)/bin/pip install -e \".[bench]\""; \
	    $(VENV)/bin/python -m pip install --quiet -e ".[bench]"; fi
	$(VENV)/bin/python bench/run.py

# Instructions per step of the benchmark's workloads (bench/count.py, valgrind's callgrind): the
# same count on every run of the same code, where make bench's timings move by several per cent on
# a shared machine (a change anywhere moves a whole step's count by up to ~2%: see bench/count.py). Installs Debian's valgrind (as root) when it
# is missing. Not part of `make test`.
bench-count: setup
	@if ! command -v valgrind >/dev/null 2>&1; then \
	    if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "+ apt-get install -y valgrind"; apt-get install -y -qq valgrind >/dev/null; \
	    else echo "error: bench-count needs valgrind (Debian/Ubuntu: sudo apt-get install valgrind)" >&2; exit 1; fi; fi
	$(VENV)/bin/python bench/count.py

# --- clean ---------------------------------------------------------------

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints -o -name .pytest_cache -o -name .hypothesis \) -type d -prune -exec rm -rf {} +
