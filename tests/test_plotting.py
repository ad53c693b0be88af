"""Unit tests of helpers.plotting and of the nbval sanitize rules."""

import re
from pathlib import Path

import numpy as np
import pytest
from nbval.plugin import get_sanitize_patterns

import helpers
from helpers import Measurement

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


def test_plot_returns_figure_with_lines_and_labels():
    fig = helpers.plot([1, 2, 3], [[1, 4, 9], [1, 2, 3]], xlabel="n", ylabel="t",
                       legend=["square", "linear"], yscale="log")
    ax = fig.axes[0]
    assert len(ax.lines) == 2
    assert ax.get_xlabel() == "n" and ax.get_ylabel() == "t"
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["square", "linear"]


def test_plot_accepts_numpy_and_y_alone():
    fig = helpers.plot(np.arange(5.0))
    assert list(fig.axes[0].lines[0].get_xdata()) == [0, 1, 2, 3, 4]


def test_plot_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="X and Y must have the same length, got 3 and 2"):
        helpers.plot([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="legend"):
        helpers.plot([1, 2], [[1, 2], [3, 4]], legend=["only one"])
    with pytest.raises(TypeError, match="X"):
        helpers.plot(5)


def test_plot_is_not_registered_with_pyplot():
    import matplotlib.pyplot as plt
    before = plt.get_fignums()
    helpers.plot([1, 2], [3, 4])
    assert plt.get_fignums() == before


def test_bar_modes_draws_median_and_quartiles():
    ms = [Measurement("eager", [1e-6, 2e-6, 3e-6], number=1, warmup=0),
          Measurement("graph", [1e-6, 1e-6, 1e-6], number=1, warmup=0)]
    fig = helpers.bar_modes(ms, unit="µs", hardware="Hardware: test")
    ax = fig.axes[0]
    widths = [round(p.get_width(), 6) for p in ax.patches]
    assert widths == [2.0, 1.0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["eager", "graph"]
    assert "µs" in ax.get_xlabel()
    assert any(t.get_text() == "Hardware: test" for t in fig.texts)


def test_bar_modes_rejects_bad_input():
    with pytest.raises(ValueError, match="unit"):
        helpers.bar_modes([Measurement("a", [1.0], 1, 0)], unit="fortnights")
    with pytest.raises(TypeError, match="measurements"):
        helpers.bar_modes([1.0, 2.0])


def sanitize(text: str) -> str:
    for regex, replace in get_sanitize_patterns(SANITIZE.read_text()):
        text = re.sub(regex, replace, text)
    return text


@pytest.mark.parametrize("line, expected", [
    ("Eager mode: 0.1234 sec", "Eager mode: TIME"),
    ("eager: 31.2 µs ± 1.3 µs per call (median ± IQR/2 of 7 repeats of 100 calls)",
     "eager: TIME ± TIME per call (median ± IQR/2 of N repeats of M calls)"),
    ("compiled  12.5 ms  250 ns  2.31x", "compiled TIME TIME  Nx"),
    ("Hardware: Intel Xeon, 2 cores, no GPU", "Hardware: HARDWARE"),
    ("<function f at 0x7f3a2b1c9d30>", "<function f at 0xADDRESS>"),
    ("peak 330.5 GFLOP/s, copy 12.1 GB/s", "peak RATE, copy RATE"),
    ("first call took 23 s", "first call took TIME"),
    ("fancy_func(1, 2, 3, 4) = 10", "fancy_func(1, 2, 3, 4) = 10"),
    ("x of shape (1, 512): 512 samples in 1024x1024", "x of shape (1, 512): 512 samples in 1024x1024"),
])
def test_sanitize_masks_timings_only(line, expected):
    assert sanitize(line) == expected


def test_sanitize_ignores_column_alignment_of_timings():
    a = "eager        31.2 µs     1.3 µs  1.00x\n"
    b = "eager       123 µs      12.5 µs  1.00x\n"
    assert sanitize(a) == sanitize(b) == "eager TIME TIME  Nx\n"


def test_describe_figure_names_a_fill_between_band_as_a_band_not_a_point():
    fig = helpers.plot([1, 2, 3], [2, 3, 4], xlabel="n", ylabel="rate", legend=["median"])
    ax = fig.axes[0]
    ax.fill_between([1, 2, 3], [1, 2, 3], [3, 4, 5], alpha=0.2, label="quartiles")
    ax.scatter([2], [3], label="marked")
    text = helpers.describe_figure(fig)
    assert "quartiles: a shaded band from 1 to 3" in text
    assert "quartiles: 1 scattered points" not in text
    assert "marked: 1 scattered points" in text        # a real scatter is still counted
    assert text.startswith("Line chart of rate against n")
    band_only, bx = helpers.new_figure()
    bx.fill_betweenx([0, 10], [1, 1], [2, 2])
    assert helpers.describe_figure(band_only).endswith("band: a shaded band from 0 to 10 of y.")
