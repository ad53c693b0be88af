"""Normalize stored notebooks: no execution timestamps, solution cells collapsed with their outputs.

    python tools/normalize_notebooks.py notebooks/*.ipynb     # rewrites the files in place
    python tools/normalize_notebooks.py --check notebooks/*.ipynb

`make outputs` runs it after executing. A solution cell (tag `solution`) opens collapsed in
JupyterLab, source and outputs, so a student does not see an answer before trying. Cell
metadata `execution` (nbclient's timestamps) would change every cell on every run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

HIDDEN = {"source_hidden": True, "outputs_hidden": True}


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
    """Drop execution timestamps and collapse solution cells, in place; return the notebook."""
    for cell in nb.cells:
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
