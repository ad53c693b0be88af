#!/usr/bin/env bash
# Stop with a clear message unless $1 is a Python 3.11 interpreter.
py="${1:-python3.11}"
if ! command -v "$py" >/dev/null 2>&1; then
  echo "error: '$py' was not found. This project needs Python 3.11 (mxnet 1.9.1 and" >&2
  echo "tensorflow 2.17.1 have no wheels for newer Pythons with numpy 1.23.5)." >&2
  echo "Install it (e.g. 'apt install python3.11 python3.11-venv', 'pyenv install 3.11'," >&2
  echo "or 'conda env create -f environment.yml'), or point to it: make PYTHON=/path/to/python3.11" >&2
  exit 1
fi
ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
if [ "$ver" != "3.11" ]; then
  echo "error: '$py' is Python ${ver:-unknown}, but this project needs Python 3.11." >&2
  echo "Point to a 3.11 interpreter: make PYTHON=/path/to/python3.11" >&2
  exit 1
fi
# PyTorch 2.13's torch.compile passes the Python library folder and the environment's torch/lib
# to the C++ linker unquoted (fixed upstream by pytorch/pytorch#191010): a space in either path
# breaks every compiled cell with "cannot find -ltorch". Stop here with what to do instead.
libdir=$("$py" -c 'import sys, sysconfig; print("" if sys.platform == "win32" else sysconfig.get_config_var("LIBDIR") or "")')
case "$libdir" in *[[:space:]]*)
  echo "error: '$py' is installed under a path with a space ($libdir)." >&2
  echo "torch.compile (PyTorch 2.13) cannot link there. Install Python 3.11 under a path without" >&2
  echo "spaces (e.g. 'UV_PYTHON_INSTALL_DIR=~/.uv-python uv python install 3.11', pyenv or Homebrew)" >&2
  echo "and point to it: make PYTHON=/path/to/python3.11" >&2
  exit 1;;
esac
if [ -n "${2:-}" ]; then
  venv=$("$py" -c 'import os, sys; print(os.path.abspath(sys.argv[1]))' "$2")
  case "$venv" in *[[:space:]]*)
    echo "error: the environment would be created at '$venv', a path with a space, where" >&2
    echo "torch.compile (PyTorch 2.13) cannot link. Choose a folder without spaces:" >&2
    echo "make VENV=/path/without/spaces/venv" >&2
    exit 1;;
  esac
fi
