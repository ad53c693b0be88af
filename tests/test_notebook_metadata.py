"""Stored notebooks carry no execution timestamps, and their solution cells open collapsed."""

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("normalize_notebooks", ROOT / "tools" / "normalize_notebooks.py")
normalize_notebooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(normalize_notebooks)
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_notebook_is_normalized(path):
    nb = nbformat.read(path, as_version=4)
    assert normalize_notebooks.problems(nb) == [], "run: python tools/normalize_notebooks.py " + path.name
    assert any("solution" in c.metadata.get("tags", []) for c in nb.cells), "every notebook ends with solutions"


def test_normalize_drops_timestamps_and_collapses_solutions():
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("1 + 1")
    code.metadata["execution"] = {"iopub.status.busy": "2026-11-21T07:00:35Z"}
    solution = nbformat.v4.new_markdown_cell("**Solution.**")
    solution.metadata["tags"] = ["solution"]
    nb.cells = [code, solution]
    assert normalize_notebooks.problems(nb) == ["cell 0: execution timestamps",
                                                "cell 1: solution not collapsed (source and outputs)"]
    normalize_notebooks.normalize(nb)
    assert normalize_notebooks.problems(nb) == []
    assert solution.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
