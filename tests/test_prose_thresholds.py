"""A verdict's threshold belongs to the sentence that claims it: prose and code name the same T.

The convention (CONTRIBUTING, "Measuring"): a markdown cell that announces a verdict names its
threshold with the verdict's own words, and the code cell below uses the same number.

- Thresholds in a markdown cell: "by more than 1.5x" (also "1.5×" and "1.5 times"), "less than
  1.2x apart", "not resolved at 1.5x" -> 1.5, 1.2, 1.5; "by more than 10 %" -> 1.10.
- Thresholds in a code cell (read with `ast`, so comments do not count):
  `x.describe(T)`, `x.verdict(T)` (a Ratio), `x.verdict(mode, base, T)` (a Comparison), and any
  call's `threshold=T` or `margin=M` (accuracy verdicts over seeds, named "by more than N points"); also inside a string constant that is itself Python code with such a
  call (a script the cell runs in a fresh process).  T must be a number literal.
- Rule 1: every threshold used in a code cell is named in the nearest markdown cell above it.
- Rule 2: every threshold named in a markdown cell is used by the nearest code cell below it,
  or by the last code cell above it that prints verdicts, in the same section (no "#" heading
  in between): a markdown cell that reads the verdicts just printed names their thresholds too.

Run on other notebooks (a copy being edited):
    python tests/test_prose_thresholds.py DIR_OR_NOTEBOOK ...
or set HYBRID_NOTEBOOKS=DIR for the pytest run.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat
import pytest

from prose_checks import main, notebooks

NUMBER = r"(\d+(?:\.\d+)?)"
FACTOR = rf"{NUMBER}\s?(?:x|×|times)(?![\w])"
PROSE = [
    (re.compile(rf"\bby more than {FACTOR}", re.I), lambda v: v),
    (re.compile(rf"\bless than {FACTOR} apart", re.I), lambda v: v),
    (re.compile(rf"\bnot resolved at {FACTOR}", re.I), lambda v: v),
    (re.compile(rf"\bby more than {NUMBER}\s?%", re.I), lambda v: 1 + v / 100),
    # Accuracy margins over seeds (helpers.training): "by more than 5 points" -> margin=0.05.
    (re.compile(rf"\b(?:by more than|less than|not resolved at) {NUMBER}\s?(?:percentage )?points?\b", re.I),
     lambda v: v / 100),
]


def _key(value: float) -> float:
    return round(value, 4)


def prose_thresholds(text: str) -> set[float]:
    """The thresholds a markdown cell names, as factors (10 % -> 1.1)."""
    found = set()
    for pattern, convert in PROSE:
        for match in pattern.finditer(text.replace("\n", " ")):
            found.add(_key(convert(float(match.group(1)))))
    return found


def code_thresholds(source: str) -> tuple[set[float], list[str]]:
    """(the thresholds a code cell's verdict calls use, the calls whose threshold is not a literal)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set(), []
    found, odd = set(), []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and re.search(r"\.(describe|verdict)\(|threshold\s*=", node.value)):
            inner, inner_odd = code_thresholds(node.value)     # a script held in a string
            found |= inner
            odd += inner_odd
        if not isinstance(node, ast.Call):
            continue
        args = []
        for kw in node.keywords:
            if kw.arg in ("threshold", "margin"):
                args.append(kw.value)
        if isinstance(node.func, ast.Attribute) and not any(kw.arg == "threshold" for kw in node.keywords):
            if node.func.attr == "describe" and len(node.args) == 1:
                args.append(node.args[0])
            elif node.func.attr == "verdict" and len(node.args) in (1, 3):
                args.append(node.args[-1])
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool):
                found.add(_key(float(arg.value)))
            else:
                odd.append(ast.get_source_segment(source, node) or ast.dump(node))
    return found, odd


def problems(path: Path) -> list[str]:
    """Every breach of the two rules in one notebook, one line each (cells counted from 0)."""
    cells = nbformat.read(path, as_version=4).cells
    out = []
    for i, cell in enumerate(cells):
        if cell.cell_type == "code":
            used, odd = code_thresholds(cell.source)
            for call in odd:
                out.append(f"cell {i}: threshold is not a number literal: {call}")
            above = next((j for j in range(i - 1, -1, -1) if cells[j].cell_type == "markdown"), None)
            named = prose_thresholds(cells[above].source) if above is not None else set()
            for t in sorted(used - named):
                out.append(f"cell {i}: uses threshold {t:g} that the markdown above (cell {above}) does not name")
        elif cell.cell_type == "markdown":
            named = prose_thresholds(cell.source)
            if not named:
                continue
            after = next((j for j in range(i + 1, len(cells)) if cells[j].cell_type == "code"), None)
            before = None
            for j in range(i - 1, -1, -1):
                if cells[j].cell_type == "markdown" and cells[j].source.lstrip().startswith("#"):
                    break                                     # another section
                if cells[j].cell_type == "code" and code_thresholds(cells[j].source)[0]:
                    before = j
                    break
            used = set()
            for j in (after, before):
                if j is not None:
                    used |= code_thresholds(cells[j].source)[0]
            for t in sorted(named - used):
                out.append(f"cell {i}: names threshold {t:g}, used by neither code cell {after} below "
                           f"nor code cell {before} above")
    return out


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.name)
def test_prose_and_code_name_the_same_thresholds(path):
    found = problems(path)
    assert not found, f"{path.name}:\n  " + "\n  ".join(found)


def _notebook(tmp_path, *cells):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(c[3:]) if c.startswith("md:")
                                         else nbformat.v4.new_code_cell(c) for c in cells])
    path = tmp_path / "01_x.ipynb"
    nbformat.write(nb, str(path))
    return path


def test_the_readers():
    assert prose_thresholds("faster by more than 1.5x, and less than 1.2× apart; not resolved at 3 times") == {1.5, 1.2, 3.0}
    assert prose_thresholds("slower by more than 10 %, or by more than\n5%") == {1.1, 1.05}
    assert prose_thresholds("6.4x faster, within 1.20x") == set()
    used, odd = code_thresholds("r.describe(1.5)\ncmp.verdict('a', 'b', 1.05)\nx.verdict(2)\n"
                                "helpers.compare(f, threshold=1.25)\n# r.describe(9)\nprint('describe(8)')")
    assert used == {1.5, 1.05, 2.0, 1.25} and odd == []
    assert code_thresholds("T = 1.5\nr.describe(T)")[1] == ["r.describe(T)"]
    script = 'SCRIPT = """\nprint(cmp.ratio("a", "b").describe(1.5))\n"""'
    assert code_thresholds(script)[0] == {1.5}


def test_a_changed_threshold_fails(tmp_path):
    good = _notebook(tmp_path, "md:The verdict: faster by more than 1.5x.", "print(r.describe(1.5))",
                     "md:And within 10 %: less than 10 % is not claimed; slower by more than 10 %.",
                     "cmp.verdict('a', 'b', threshold=1.1)")
    assert problems(good) == []
    changed = _notebook(tmp_path, "md:The verdict: faster by more than 1.5x.", "print(r.describe(1.3))")
    assert problems(changed) == [
        "cell 0: names threshold 1.5, used by neither code cell 1 below nor code cell None above",
        "cell 1: uses threshold 1.3 that the markdown above (cell 0) does not name"]
    unannounced = _notebook(tmp_path, "md:We time it.", "cmp.verdict('a', 'b', 1.5)")
    assert problems(unannounced) == ["cell 1: uses threshold 1.5 that the markdown above (cell 0) does not name"]


if __name__ == "__main__":
    sys.exit(main(problems, sys.argv[1:]))
