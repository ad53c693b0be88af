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
