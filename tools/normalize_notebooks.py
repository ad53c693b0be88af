"""Normalize stored notebooks: no execution timestamps, solution cells collapsed with their outputs.

    python tools/normalize_notebooks.py notebooks/*.ipynb     # rewrites the files in place
    python tools/normalize_notebooks.py --check notebooks/*.ipynb

`make outputs` runs it after executing. A solution cell (tag `solution`) opens collapsed in
JupyterLab, source and outputs, so a student does not see an answer before trying. Cell
metadata `execution` (nbclient's timestamps) would change every cell on every run.

Before it drops those timestamps, it records in each code cell that carries them (a cell that
the run just executed) the SHA-256 of the cell's source, in
``metadata["hybridize"]["source_sha256"]``.  A cell edited after its execution then no longer
matches its hash (tests/test_notebook_metadata.py), and normalizing again cannot hide that: a
cell without timestamps keeps the hash it had.  The timestamps exist only when the notebook was
executed with nbclient's ``record_timing`` on (its default).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import nbformat

HIDDEN = {"source_hidden": True, "outputs_hidden": True}
KEY, HASH = "hybridize", "source_sha256"


def source_sha256(source: str) -> str:
    """The SHA-256 of a cell's source, as hex."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def hash_problems(nb: nbformat.NotebookNode) -> list[str]:
    """Code cells whose recorded source hash is missing or differs from their source (empty cells aside)."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not cell.source.strip():
            continue    # nbclient does not execute an empty cell
        stored = cell.metadata.get(KEY, {}).get(HASH)
        if stored is None:
            found.append(f"cell {i}: no source hash (not executed by make outputs since hashes were introduced)")
        elif stored != source_sha256(cell.source):
            found.append(f"cell {i}: source changed after it was executed (hash does not match)")
    return found


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """What normalize() would change, one line per cell."""
    found = []
    for i, cell in enumerate(nb.cells):
        if "execution" in cell.metadata:
            found.append(f"cell {i}: execution timestamps")
        if "solution" in cell.metadata.get("tags", []) and any(
                not cell.metadata.get("jupyter", {}).get(key) for key in HIDDEN):
            found.append(f"cell {i}: solution not collapsed (source and outputs)")
    return found


def normalize(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Record source hashes of executed cells, drop timestamps, collapse solutions; return the notebook."""
    for cell in nb.cells:
        if cell.cell_type == "code" and "execution" in cell.metadata:   # executed by this run
            cell.metadata.setdefault(KEY, {})[HASH] = source_sha256(cell.source)
        cell.metadata.pop("execution", None)
        if "solution" in cell.metadata.get("tags", []):
            cell.metadata.setdefault("jupyter", {}).update(HIDDEN)
    return nb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report problems, change nothing")
    args = parser.parse_args()
    bad = 0
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        found = problems(nb)
        if args.check:
            for line in found:
                print(f"{path}: {line}")
            bad += bool(found)
        elif found:
            nbformat.write(normalize(nb), path)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
