"""Alt text of figures (helpers.plotting): derived from the figure, settable, stored in the notebook.

The kernel test executes a small notebook with nbclient, as `make outputs` does, and checks
that each figure's image/png output carries {"alt": ...} in its metadata, which the HTML
edition writes into <img alt> (tests/test_editions.py checks the pages).
"""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

import helpers
from helpers import Measurement


def test_line_chart_description_names_title_axes_and_series():
    fig = helpers.plot([1, 2, 3], [[1, 4, 9], [1, 2, 3]], xlabel="n", ylabel="time (s)",
                       legend=["square", "linear"], yscale="log", title="Growth")
    text = helpers.describe_figure(fig)
    assert text.startswith("Line chart titled 'Growth' of time (s) (log scale) against n")
    assert "square: 3 points, from 1 at 1 to 9 at 3" in text
    assert "linear: 3 points, from 1 at 1 to 3 at 3" in text


def test_unlabelled_lines_are_named_after_the_labelled_line_of_their_colour():
    fig, ax = helpers.new_figure()
    ax.plot([1, 2], [1, 2], color="C0", label="PyTorch")
    ax.plot([1, 2], [2, 3], color="C0", linestyle="--")
    ax.plot([1, 2], [3, 4], color="C1")
    ax.axvline(1.5, color="k")
    text = helpers.describe_figure(fig)
    assert "PyTorch: 2 points" in text
    assert "PyTorch, dashed: 2 points, from 2 at 1 to 3 at 2" in text
    assert "line 3: 2 points" in text
    assert "line 4: a vertical line at 1.5" in text
    ax.axvline(1024, color="k")
    assert "line 5: a vertical line at 1024" in helpers.describe_figure(fig)
    single = helpers.describe_figure(helpers.plot([1, 2], [3, 4], xlabel="n", ylabel="y"))
    assert "the line: 2 points" in single


def test_bar_chart_description_gives_each_bar_and_its_value():
    ms = [Measurement("eager", [1e-6, 2e-6, 3e-6], number=1, warmup=0),
          Measurement("graph", [1e-6, 1e-6, 1e-6], number=1, warmup=0)]
    text = helpers.describe_figure(helpers.bar_modes(ms, unit="µs", title="Modes"))
    assert text == "Bar chart titled 'Modes' of time per call (µs), median with quartiles, 2 bars: eager 2; graph 1."


def test_diagram_description_lists_boxes_and_arrows():
    fig = helpers.draw_dataflow([("a", "add1"), ("b", "add1")], ops={"add1": "add"})
    assert helpers.describe_figure(fig) == "Diagram with 3 labelled boxes: a, b, add; 2 arrows: a to add; b to add."


def test_explicit_alt_text_wins_and_bad_input_is_named():
    fig = helpers.plot([1, 2], [3, 4], alt="A rising line.")
    assert helpers.plotting.alt_text(fig) == "A rising line."
    fig, _ = helpers.new_figure(alt="  Two   words ")
    assert helpers.plotting.alt_text(fig) == "Two words"
    with pytest.raises(ValueError, match="text"):
        helpers.set_alt_text(fig, " ")
    with pytest.raises(TypeError, match="fig"):
        helpers.set_alt_text("not a figure", "x")
    with pytest.raises(TypeError, match="fig"):
        helpers.describe_figure(None)


def test_figures_have_an_opaque_white_background_for_dark_themes():
    fig, _ = helpers.new_figure()
    assert tuple(fig.get_facecolor()) == (1.0, 1.0, 1.0, 1.0)


CELLS = [
    "import helpers",
    "helpers.plot([1, 2, 3], [1, 4, 9], xlabel='n', ylabel='n squared', title='Squares')",
    "fig, ax = helpers.new_figure()\nax.plot([0, 1], [1, 0], label='falling')\nax.set_xlabel('x')\nfig",
    # A figure made without helpers gets derived alt text too, or the one set for it.
    "from matplotlib.figure import Figure\nraw = Figure()\nraw.add_subplot().plot([1, 2])\n"
    "helpers.set_alt_text(raw, 'A straight line from 1 to 2.')",
]


def test_alt_text_reaches_the_stored_notebook_output(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    alts = [output.metadata["image/png"]["alt"] for cell in nb.cells for output in cell.outputs
            if "image/png" in output.get("data", {})]
    assert alts == ["Line chart titled 'Squares' of n squared against n: the line: 3 points, from 1 at 1 to 9 at 3.",
                    "Line chart of unlabelled values against x: falling: 2 points, from 1 at 0 to 0 at 1.",
                    "A straight line from 1 to 2."]
