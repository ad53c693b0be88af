"""Stored notebooks carry no execution timestamps, their solution cells open collapsed, and each
code cell carries the hash of the source that produced its outputs."""

import hashlib
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_outputs_come_from_the_stored_source(path):
    nb = nbformat.read(path, as_version=4)
    found = normalize_notebooks.hash_problems(nb)
    assert found == [], (
        f"{path.name}: {len(found)} code cell(s) whose stored outputs may not come from their source "
        f"(cells counted from 0):\n  " + "\n  ".join(found)
        + f"\nRe-execute it: make outputs NB=notebooks/{path.name} (records each executed cell's source hash)")


def test_normalize_records_the_source_hash_of_executed_cells_only():
    executed = nbformat.v4.new_code_cell("print(1)")
    executed.metadata["execution"] = {"iopub.status.busy": "2026-11-21T07:00:35Z"}
    edited = nbformat.v4.new_code_cell("print(2)")       # stored earlier, never executed since
    empty = nbformat.v4.new_code_cell("")
    nb = nbformat.v4.new_notebook(cells=[executed, edited, empty, nbformat.v4.new_markdown_cell("text")])
    normalize_notebooks.normalize(nb)
    assert executed.metadata["hybridize"]["source_sha256"] == hashlib.sha256(b"print(1)").hexdigest()
    assert "hybridize" not in edited.metadata and "execution" not in executed.metadata
    assert normalize_notebooks.hash_problems(nb) == [
        "cell 1: no source hash (not executed by make outputs since hashes were introduced)"]
    executed.source = "print(10)"                        # an edit after execution
    normalize_notebooks.normalize(nb)                    # no timestamps: the old hash stays
    assert normalize_notebooks.hash_problems(nb)[0] == \
        "cell 0: source changed after it was executed (hash does not match)"
