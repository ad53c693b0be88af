# Two commands do all the set-up: `make lab` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# The newest of python3.13, python3.12 and python3.11 that runs, or PYTHON=/path/to/python. Python 3.11
# stores the outputs; on 3.12 and 3.13 PyPI's torch is the CUDA build (about 3.8 GB to download).
PYTHON ?= $(or $(shell for p in python3.13 python3.12 python3.11; do "$$p" -c "" >/dev/null 2>&1 && { echo $$p; break; }; done),none)
# The environment lives in .venv, except in a clone whose path has a space ("OneDrive - ...",
# "My Drive"): PyTorch 2.13's torch.compile passes its -L library folders to the linker unquoted
# and fails there ("cannot find -ltorch"), so such a clone keeps it in ~/.cache/hybridize/.
space  := $(subst ,, )
VENV   ?= $(if $(findstring $(space),$(CURDIR)),$(HOME)/.cache/hybridize/venv-$(shell pwd | cksum | cut -d' ' -f1),.venv)
# The tested configuration without MXNet (as on a Mac with Apple silicon or on Windows).
VENV_NOMXNET ?= $(VENV)-nomxnet
# `make test-notebooks`: which environment, and what to leave out of it (WITHOUT=mxnet).
WITHOUT ?=
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Notebooks to (re)execute with `make outputs`; e.g. make outputs NB=notebooks/01_imperative.ipynb
NB     ?= $(sort $(wildcard notebooks/[0-9]*.ipynb))
# `make test-notebooks VERDICTS=mask`: compare everything but the verdicts' words (tests/nbval_sanitize_verdicts.cfg).
VERDICTS ?=
# Quick mode (fewer repetitions) for the test suite; `make test QUICK=` measures in full.
QUICK  ?= 1
PORT   ?= 8888
# `make lab INSTRUCTOR=1`: JupyterLab with nbgrader's instructor tools (students see the Assignments list only).
INSTRUCTOR ?=
# reveal.js, require.js, jQuery, MathJax and the widgets renderer for the offline editions.
WEB    := web/node_modules/.package-lock.json

.PHONY: help setup lab test test-notebooks test-nomxnet test-avx2 venv-path hub outputs slides html handout assignments class-results constraints clean

help:
	@echo "make lab          set up .venv (first time only) and open JupyterLab on the notebooks"
	@echo "                  (a student's view; INSTRUCTOR=1 adds nbgrader's formgrader and Create Assignment)"
	@echo "make test         set up .venv (first time only) and run every test"
	@echo "make hub          serve the collection to a class with JupyterHub on 127.0.0.1:8000 (as root)"
	@echo "make test-notebooks  execute and compare every notebook in VENV made with PYTHON (WITHOUT=mxnet)"
	@echo "make test-nomxnet set up $(VENV_NOMXNET) without MXNet and execute every notebook there"
	@echo "make test-avx2    run every test as an AVX2-only machine would (PyTorch, oneMKL, XLA limited)"
	@echo "make outputs      re-execute the notebooks in full mode and store their outputs (NB=...)"
	@echo "make slides       build a reveal.js slide deck of each executed notebook into build/slides/"
	@echo "make html         build the static HTML edition with an index page into build/html/"
	@echo "make handout      build the student edition (no solutions: notebooks, HTML, slides) into build/handout/"
	@echo "make assignments  build nbgrader assignments (source, release) into build/assignments/"
	@echo "make class-results  one report of the class's runs (SUBMISSIONS=folder) into build/class-results/"
	@echo "make constraints  re-freeze constraints.txt after changing requirements.txt"
	@echo "make clean        remove what the notebooks and tests wrote (keeps .venv)"

setup: $(STAMP)

# One set-up for make and for Windows (tools/setup_env.py): it installs again only when the pins change.
$(STAMP): requirements.txt requirements-nodeps.txt constraints.txt pyproject.toml jupyter/overrides.json tools/setup_env.py
	@command -v "$(PYTHON)" >/dev/null 2>&1 || { echo "error: no Python 3.13, 3.12 or 3.11 was found on the PATH" \
	  "(PYTHON=$(PYTHON)). Install one (python.org, 'apt install python3.12-venv', pyenv, Homebrew)," \
	  "or point to it: make PYTHON=/path/to/python3.13" >&2; exit 1; }
	"$(PYTHON)" tools/setup_env.py setup --venv "$(VENV)" $(if $(WITHOUT),--without $(WITHOUT))
	@touch $(STAMP)

# Where the environment is (outside the clone when its path has a space).
venv-path:
	@echo "$(VENV)"

lab: $(STAMP)
	@exec "$(PYTHON)" tools/setup_env.py lab --venv "$(VENV)" --port $(PORT) $(if $(INSTRUCTOR),--instructor)

# What every notebook run reads, in one place: `make test`, `make test-notebooks` and `make outputs`.
# Inductor compiles its C++ in-process (under load a worker timed out and left a broken build), and its
# on-disk cache does not key its C++ on ATEN_CPU_CAPABILITY: code generated for AVX-512 fails to build
# under ATEN_CPU_CAPABILITY=default, so each capability (and MKL instruction limit) gets its own cache.
RUN_ENV = TORCHINDUCTOR_COMPILE_THREADS=1 \
  TORCHINDUCTOR_CACHE_DIR="$${TORCHINDUCTOR_CACHE_DIR:-$${TMPDIR:-/tmp}/torchinductor_$$(id -un)_$${ATEN_CPU_CAPABILITY:-native}_$${MKL_ENABLE_INSTRUCTIONS:-all}}"

# With npm at hand, the tests build and open the offline editions too (else they are skipped).
test: $(STAMP) $(if $(shell command -v npm),$(WEB))
	HYBRID_QUICK=$(QUICK) $(RUN_ENV) $(BIN)/python -m pytest

# Every notebook executed in the environment VENV made with PYTHON, less WITHOUT, and compared with its
# stored outputs (nbval, the same sanitizer); without a framework (WITHOUT=mxnet, as on a Mac with Apple
# silicon or on Windows: 05 is skipped, 06 leaves rows out) every cell must run, outputs are not compared.
# VERDICTS=mask (the other Pythons in .ci/run) compares everything but a verdict's words: the run on
# Python 3.11 compares those; here a cell must run, write nothing new to stderr and print the rest alike.
test-notebooks: $(STAMP)
	@mkdir -p build && cat tests/nbval_sanitize.cfg $(if $(filter mask,$(VERDICTS)),tests/nbval_sanitize_verdicts.cfg) \
	  > build/nbval_sanitize_run.cfg
	HYBRID_QUICK=$(QUICK) HYBRID_WITHOUT="$(WITHOUT)" $(RUN_ENV) $(BIN)/python -m pytest -o addopts= -ra \
	  -p no:cacheprovider --nbval-current-env \
	  $(if $(WITHOUT),--nbval-lax,--nbval --nbval-sanitize-with build/nbval_sanitize_run.cfg) notebooks

test-nomxnet:
	$(MAKE) test-notebooks VENV="$(VENV_NOMXNET)" WITHOUT=mxnet

# The whole suite as an AVX2-only machine runs it, on a larger CPU: PyTorch's kernels, oneMKL and
# XLA (JAX, TensorFlow) limited to AVX2, with a fresh Inductor cache.
test-avx2: $(STAMP)
	@cache=$$(mktemp -d); ATEN_CPU_CAPABILITY=avx2 MKL_ENABLE_INSTRUCTIONS=AVX2 \
	  XLA_FLAGS="--xla_cpu_max_isa=AVX2 $${XLA_FLAGS:-}" TORCHINDUCTOR_CACHE_DIR=$$cache \
	  $(MAKE) test; status=$$?; rm -rf $$cache; exit $$status

outputs: $(STAMP)
	@[ -n "$(NB)" ] || { echo "no notebooks to execute"; exit 0; }
	HYBRID_QUICK= $(RUN_ENV) $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	  --ExecutePreprocessor.timeout=1800 --ExecutePreprocessor.kernel_name=python3 \
	  $(NB)
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

# The class's own numbers (README, "For instructors"): the records of the Summary cells of the
# notebooks students handed in, as one report. SUBMISSIONS: nbgrader's submitted/ folder (after
# `nbgrader collect`) or any folder of handed-in notebooks, one sub-folder per student.
SUBMISSIONS ?= build/assignments/submitted
class-results: $(STAMP)
	$(BIN)/python tools/class_results.py $(SUBMISSIONS)

# The student edition: every cell tagged `solution` left out (nbconvert's TagRemovePreprocessor),
# as notebooks, HTML pages and slide decks, in build/handout/.
handout: $(STAMP) $(WEB)
	$(BIN)/python tools/build_editions.py handout $(NB)

constraints: $(STAMP)
	$(BIN)/python tools/freeze_constraints.py

clean:
	rm -rf notebooks/scratch build .pytest_cache
