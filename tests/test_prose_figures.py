"""Every measured figure in a notebook's prose is printed by a cell of the same notebook.

A heuristic, kept simple on purpose:

- A *figure* is a number followed by a unit: ms, µs (or us), ns, s (after a space: "80s" is
  a decade), a factor (``2.31x``, ``2.31×``: written against the number, so "1024 x 1024" is a
  shape, not a figure), GFLOP/s, GB/s, or % (``12 %``, ``12%``).
- Not figures: a number right after "than ", "at ", "within " or "threshold of " (a threshold, as the
  sanitizer keeps it: "by more than 1.5x", "not resolved at 1.5x"); "95 %" (the interval's
  confidence level), "0 %" and "100 %" (none and all); text inside ``$...$`` (formulas).
- A figure passes when its value appears among the numbers of the stored outputs of the same
  notebook (stdout, stderr, text/plain, an error message), compared as numbers: "1.2x" in
  the prose matches "1.20x" in a verdict.
- A sentence that names its source is exempt: it holds a link (``http``, ``](``) or one of
  the words in SOURCES ("the book", "d2l", "datasheet", "issue", "source:", ...), and so is a
  sentence that calls its figure a prediction ("predict") or computes it ("by arithmetic").

Sentences are split at ". ", "! ", "? ", ": " followed by a capital, and at line breaks that
start a list item.  Run it on other notebooks (a copy being edited):
    python tests/test_prose_figures.py DIR_OR_NOTEBOOK ...
or set HYBRID_NOTEBOOKS=DIR for the pytest run.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

from prose_checks import main, notebooks

SOURCES = ("the book", "d2l", "datasheet", "data sheet", "issue", "source:", "earlier build",
           "published", "release notes", "documentation", "http", "](",
           "predict", "by arithmetic")  # a prediction or a computed figure is no measurement
UNIT = r"\s?(?:ms|µs|us|ns|GFLOP/s|GB/s)(?![\w/])|\ss(?![\w/])|\s?%|(?:x|×)(?!\w)"
FIGURE = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)(?:{UNIT})")
NOT_MEASURED = {"95 %", "95%", "0 %", "0%", "100 %", "100%"}
NOT_BEFORE = re.compile(r"(?:than|at|within|threshold of)\s+$", re.I)
SENTENCE = re.compile(r"(?<=[.!?:])\s+(?=[A-Z*`(])|\n\s*(?=[-*]\s|\d+\.\s)")


def output_text(nb: nbformat.NotebookNode) -> str:
    """Every stored output of the notebook's code cells, as one text."""
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            parts.append(out.get("text", ""))
            parts.append(str(out.get("data", {}).get("text/plain", "")))
            parts += [out.get("ename", ""), out.get("evalue", "")]
    return "\n".join(parts)


def figures(sentence: str) -> list[str]:
    """The measured figures of a sentence, as written ("0.355 ns", "6.44x")."""
    text = re.sub(r"\$[^$]*\$", " ", sentence)
    found = []
    for match in FIGURE.finditer(text):
        before = text[:match.start()]
        if NOT_BEFORE.search(before):
            continue
        if match.group(0).strip() in NOT_MEASURED:
            continue
        found.append(match.group(0).strip())
    return found


def names_a_source(sentence: str) -> bool:
    lowered = " ".join(sentence.lower().split())  # a source's words may wrap across lines
    return any(word in lowered for word in SOURCES)


def problems(path: Path) -> list[str]:
    """Each figure of the prose that no stored output prints, with its cell (counted from 0)."""
    nb = nbformat.read(path, as_version=4)
    printed = output_text(nb)
    numbers = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", printed)}
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for sentence in SENTENCE.split(cell.source):
            if names_a_source(sentence):
                continue
            for figure in figures(sentence):
                number = re.match(r"\d+(?:\.\d+)?", figure).group(0)
                if float(number) not in numbers:
                    out.append(f"cell {i}: {figure!r} is printed by no cell: "
                               f"{' '.join(sentence.split())[:140]!r}")
    return out


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.name)
def test_every_figure_in_the_prose_is_printed(path):
    found = problems(path)
    assert not found, (f"{path.name}: figures in the prose that no stored output prints (print them, "
                       f"drop them, or name their source):\n  " + "\n  ".join(found))


def test_the_heuristic(tmp_path):
    assert figures("It took 0.355 ns per number, 6.44x (6.34x to 6.53x) the rate, 12 % more, 25.8 GB/s") == \
        ["0.355 ns", "6.44x", "6.34x", "6.53x", "12 %", "25.8 GB/s"]
    assert figures("a 1024 x 1024 product, faster by more than 1.5x, not resolved at 1.2x, "
                   "within 1.20x, a 95 % interval, $2^{10}$ values, 3 cores, 10 seconds, the 80s, "
                   "100 % of it") == []
    assert names_a_source("The book's build printed 2.1447 s (d2l-en issue 2155).")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("Eager took 1.95 ms, 1.2x the rest. Graph mode took 395 µs.\n"
                                      "The book's build printed 2.1447 s."),
        nbformat.v4.new_code_cell("print(x)", outputs=[nbformat.v4.new_output("stream", name="stdout",
                                                                               text="eager | 1.95 ms, 1.20x\n")])])
    path = tmp_path / "01_x.ipynb"
    nbformat.write(nb, str(path))
    assert problems(path) == ["cell 0: '395 µs' is printed by no cell: 'Graph mode took 395 µs.'"]


if __name__ == "__main__":
    sys.exit(main(problems, sys.argv[1:]))
