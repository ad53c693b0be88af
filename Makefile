# Two commands do all the set-up: `make lab` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3.11
# The environment lives in .venv, except in a clone whose path has a space ("OneDrive - ...",
# "My Drive"): PyTorch 2.13's torch.compile passes its -L library folders to the linker unquoted
# and fails there ("cannot find -ltorch"), so such a clone keeps it in ~/.cache/hybridize/.
space  := $(subst ,, )
VENV   ?= $(if $(findstring $(space),$(CURDIR)),$(HOME)/.cache/hybridize/venv-$(shell pwd | cksum | cut -d' ' -f1),.venv)
# The tested configuration without MXNet (as on a Mac with Apple silicon or on Windows).
VENV_NOMXNET ?= $(VENV)-nomxnet
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Notebooks to (re)execute with `make outputs`; e.g. make outputs NB=notebooks/01_imperative.ipynb
NB     ?= $(sort $(wildcard notebooks/[0-9]*.ipynb))
# Quick mode (fewer repetitions) for the test suite; `make test QUICK=` measures in full.
QUICK  ?= 1
PORT   ?= 8888
# reveal.js, require.js, jQuery, MathJax and the widgets renderer for the offline editions.
WEB    := web/node_modules/.package-lock.json

.PHONY: help setup lab test test-nomxnet venv-path hub outputs slides html handout assignments constraints clean

help:
	@echo "make lab          set up .venv (first time only) and open JupyterLab on the notebooks"
	@echo "make test         set up .venv (first time only) and run every test"
	@echo "make hub          serve the collection to a class with JupyterHub on 127.0.0.1:8000 (as root)"
	@echo "make test-nomxnet set up $(VENV_NOMXNET) without MXNet and execute every notebook there"
	@echo "make outputs      re-execute the notebooks in full mode and store their outputs (NB=...)"
	@echo "make slides       build a reveal.js slide deck of each executed notebook into build/slides/"
	@echo "make html         build the static HTML edition with an index page into build/html/"
	@echo "make handout      build the student edition (no solutions: notebooks, HTML, slides) into build/handout/"
	@echo "make assignments  build nbgrader assignments (source, release) into build/assignments/"
	@echo "make constraints  re-freeze constraints.txt after changing requirements.txt"
	@echo "make clean        remove what the notebooks and tests wrote (keeps .venv)"

setup: $(STAMP)

# Shared, idempotent setup: runs again only when the pins or the package change.
$(STAMP): requirements.txt constraints.txt pyproject.toml jupyter/overrides.json
	@tools/check_python.sh "$(PYTHON)" "$(VENV)"
	@if [ -x "$(BIN)/python" ] && ! tools/check_python.sh "$(BIN)/python" 2>/dev/null; then \
	  echo "$(VENV) holds another Python version: recreating it"; rm -rf "$(VENV)"; fi
	@[ -x "$(BIN)/python" ] || "$(PYTHON)" -m venv "$(VENV)"
	@echo "Installing the pinned environment into $(VENV) (a few minutes the first time)..."
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	$(BIN)/python -m pip install --disable-pip-version-check -q --no-deps -e .
	@mkdir -p $(VENV)/share/jupyter/lab/settings
	@cp jupyter/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	$(BIN)/python -m pip check
	@touch $(STAMP)

# Where the environment is (outside the clone when its path has a space).
venv-path:
	@echo "$(VENV)"

lab: $(STAMP)
	@token=$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(24))'); \
	root=$$([ "$$(id -u)" = 0 ] && echo --allow-root); \
	echo "JupyterLab will listen on 127.0.0.1 only. Open: http://127.0.0.1:$(PORT)/lab?token=$$token"; \
	exec $(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) --ServerApp.port_retries=0 \
	  --IdentityProvider.token="$$token" --ServerApp.root_dir=notebooks $$root

# With npm at hand, the tests build and open the offline editions too (else they are skipped).
# Inductor's on-disk cache does not key its C++ on ATEN_CPU_CAPABILITY: code generated for
# AVX-512 fails to build under ATEN_CPU_CAPABILITY=default, so each capability gets its own cache.
test: $(STAMP) $(if $(shell command -v npm),$(WEB))
	HYBRID_QUICK=$(QUICK) TORCHINDUCTOR_COMPILE_THREADS=1 \
	  TORCHINDUCTOR_CACHE_DIR="$${TORCHINDUCTOR_CACHE_DIR:-$${TMPDIR:-/tmp}/torchinductor_$$(id -un)_$${ATEN_CPU_CAPABILITY:-native}}" \
	  $(BIN)/python -m pytest

# The same pins without MXNet, in a second environment: every notebook must execute to the end
# without an error (05 is skipped, with its reason). Outputs are not compared: the stored ones
# come from the full environment. Re-installed only when the pins change.
$(VENV_NOMXNET)/.installed: requirements.txt constraints.txt pyproject.toml
	@tools/check_python.sh "$(PYTHON)" "$(VENV_NOMXNET)"
	@[ -x "$(VENV_NOMXNET)/bin/python" ] || "$(PYTHON)" -m venv "$(VENV_NOMXNET)"
	@echo "Installing the pins without MXNet into $(VENV_NOMXNET) (a few minutes the first time)..."
	@sed -e '/^mxnet==/d' -e '/^-c /d' requirements.txt > "$(VENV_NOMXNET)/requirements.txt"
	$(VENV_NOMXNET)/bin/python -m pip install --disable-pip-version-check -q \
	  -r $(VENV_NOMXNET)/requirements.txt -c constraints.txt
	$(VENV_NOMXNET)/bin/python -m pip install --disable-pip-version-check -q --no-deps -e .
	$(VENV_NOMXNET)/bin/python -m pip check
	@touch $@

test-nomxnet: $(VENV_NOMXNET)/.installed
	HYBRID_QUICK=$(QUICK) TORCHINDUCTOR_COMPILE_THREADS=1 \
	  TORCHINDUCTOR_CACHE_DIR="$${TORCHINDUCTOR_CACHE_DIR:-$${TMPDIR:-/tmp}/torchinductor_$$(id -un)_$${ATEN_CPU_CAPABILITY:-native}}" \
	  $(VENV_NOMXNET)/bin/python -m pytest -o addopts= -ra -p no:cacheprovider \
	  --nbval-lax --nbval-current-env notebooks

outputs: $(STAMP)
	@[ -n "$(NB)" ] || { echo "no notebooks to execute"; exit 0; }
	HYBRID_QUICK= $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	  --ExecutePreprocessor.timeout=1800 --ExecutePreprocessor.kernel_name=python3 \
	  --ExecutePreprocessor.record_timing=False $(NB)
	$(BIN)/python tools/normalize_notebooks.py $(NB)

$(WEB): web/package.json web/package-lock.json
	npm ci --prefix web --ignore-scripts --no-audit --no-fund

slides html: $(STAMP) $(WEB)
	$(BIN)/python tools/build_editions.py $@ $(NB)

# A JupyterHub for a class on this machine (hub/jupyterhub_config.py; README, "On a JupyterHub").
# Runs as root: the hub creates the students' system users and starts each server as its student.
hub: $(STAMP) $(WEB)
	@[ "$$(id -u)" = 0 ] || { echo "make hub runs as root (sudo make hub): the hub creates system users"; exit 1; }
	$(BIN)/jupyterhub -f hub/jupyterhub_config.py

# nbgrader assignments from the stored notebooks (README, "Homework with autograding").
assignments: $(STAMP)
	$(BIN)/python tools/assignments.py $(NB)

# The student edition: every cell tagged `solution` left out (nbconvert's TagRemovePreprocessor),
# as notebooks, HTML pages and slide decks, in build/handout/.
handout: $(STAMP) $(WEB)
	$(BIN)/python tools/build_editions.py handout $(NB)

constraints: $(STAMP)
	$(BIN)/python tools/freeze_constraints.py

clean:
	rm -rf notebooks/scratch build .pytest_cache
