"""The nbval harness itself: sanitized timings pass, other outputs compare exactly,
and a notebook whose framework is missing is skipped with the reason."""

from pathlib import Path

import nbformat
import pytest

from helpers import frameworks

ROOT = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]


def code_cell(source: str, text: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    return cell


def write_notebook(path: Path, *cells: nbformat.NotebookNode) -> None:
    nb = nbformat.v4.new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(path))


def test_nbval_masks_timings_compares_the_rest_and_skips_missing(pytester, monkeypatch):
    pytester.makeconftest((ROOT / "conftest.py").read_text())
    sanitize = pytester.path / "sanitize.cfg"
    sanitize.write_text((ROOT / "tests" / "nbval_sanitize.cfg").read_text())
    write_notebook(pytester.path / "a_runs.ipynb",
                   code_cell("print('Eager mode: 0.0001 sec')", "Eager mode: 0.4321 sec\n"),
                   code_cell("print(1 + 1)", "3\n"))
    write_notebook(pytester.path / "b_needs_mxnet.ipynb",
                   code_cell("import helpers\nhelpers.require('mxnet')", "Using mxnet 1.9.1\n"),
                   code_cell("print(2)", "2\n"))
    monkeypatch.setattr(frameworks, "is_installed", lambda name: name != "mxnet")
    # A student's run: CI's HYBRID_REQUIRE_ALL=1 (tests/test_require_all.py) must not leak in.
    monkeypatch.delenv("HYBRID_REQUIRE_ALL", raising=False)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--nbval", "--nbval-current-env",
                                          "--nbval-sanitize-with", str(sanitize), "-rs")
    result.assert_outcomes(passed=1, failed=1, skipped=2)
    result.stdout.fnmatch_lines(["*a_runs.ipynb::Cell 1*", "*SKIPPED*mxnet not installed*Apple silicon*"])


def test_without_comparing_a_cell_that_writes_to_stderr_still_fails(pytester, monkeypatch):
    # --nbval-lax (the configuration without MXNet) compares no output, but new stderr fails the cell.
    pytester.makeconftest((ROOT / "conftest.py").read_text())
    monkeypatch.delenv("HYBRID_REQUIRE_ALL", raising=False)
    quiet = code_cell("print(2)", "2\n")
    noisy = code_cell("import sys; print('careful', file=sys.stderr)", "")
    known = nbformat.v4.new_code_cell("import sys; print('known', file=sys.stderr)", execution_count=1)
    known.outputs = [nbformat.v4.new_output("stream", name="stderr", text="known\n")]
    write_notebook(pytester.path / "c_lax.ipynb", quiet, noisy, known)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*c_lax.ipynb::Cell 1*", "*wrote to stderr*", "careful"])
