"""Plotting: line plots in the book's style and bar charts of timed modes.

Every function builds a matplotlib Figure without pyplot and returns it, so a
figure shows exactly once: as a cell's last expression in Jupyter, or saved
with ``fig.savefig(...)``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .timing import Measurement

FIGSIZE = (6.0, 3.5)
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
FMTS = ("-", "m--", "g-.", "r:", "c-", "k--", "y-.", "b:")
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}


def _enable_inline_display() -> None:
    """Under Jupyter's inline backend, register the PNG display of figures now.

    pyplot does this lazily, and only after the cell that first imports it, so a
    figure returned by that very cell would show as text alone.
    """
    import matplotlib
    backend = matplotlib.get_backend()
    if backend != "module://matplotlib_inline.backend_inline":
        return
    from IPython import get_ipython
    from matplotlib.figure import Figure
    shell = get_ipython()
    if shell is None or Figure in shell.display_formatter.formatters["image/png"].type_printers:
        return
    from matplotlib_inline.backend_inline import configure_inline_support
    configure_inline_support(shell, backend)


def new_figure(figsize: Sequence[float] = FIGSIZE) -> tuple[Any, Any]:
    """Return a (figure, axes) pair with the project's look, outside pyplot."""
    _enable_inline_display()
    from matplotlib.figure import Figure
    if len(figsize) != 2:
        raise ValueError(f"figsize must be (width, height), got {figsize!r}")
    fig = Figure(figsize=tuple(figsize), layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def _as_series(name: str, values: Any) -> list[list[float]]:
    """Turn one sequence or a list of sequences into a list of float lists."""
    if values is None:
        return []
    if hasattr(values, "tolist"):
        values = values.tolist()
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{name} must be a sequence of numbers or of sequences")
    if values and all(hasattr(v, "__len__") for v in values):
        return [list(v.tolist() if hasattr(v, "tolist") else v) for v in values]
    return [list(values)]


def plot(X: Any, Y: Any = None, xlabel: Optional[str] = None, ylabel: Optional[str] = None,
         legend: Optional[Sequence[str]] = None, xlim: Any = None, ylim: Any = None,
         xscale: str = "linear", yscale: str = "linear", fmts: Sequence[str] = FMTS,
         figsize: Sequence[float] = FIGSIZE, title: Optional[str] = None, axes: Any = None) -> Any:
    """Plot one or more lines, as the book's d2l.plot does, and return the figure."""
    xs, ys = _as_series("X", X), _as_series("Y", Y)
    if not ys:  # plot(Y) alone: X is the index
        xs, ys = [list(range(len(y))) for y in xs], xs
    if len(xs) == 1 and len(ys) > 1:
        xs = xs * len(ys)
    if len(xs) != len(ys):
        raise ValueError(f"X and Y must hold as many lines, got {len(xs)} and {len(ys)}")
    for i, (x, y) in enumerate(zip(xs, ys)):
        if len(x) != len(y):
            raise ValueError(f"X and Y must have the same length, got {len(x)} and {len(y)}"
                             + (f" for line {i}" if len(ys) > 1 else ""))
    if legend is not None and len(legend) != len(ys):
        raise ValueError(f"legend must have one entry per line ({len(ys)}), got {len(legend)}")
    if axes is None:
        fig, ax = new_figure(figsize)
    else:
        fig, ax = axes.figure, axes
    for i, (x, y) in enumerate(zip(xs, ys)):
        ax.plot(x, y, fmts[i % len(fmts)], label=None if legend is None else legend[i])
    ax.set_xscale(xscale)
    ax.set_yscale(yscale)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend is not None:
        ax.legend()
    return fig


def bar_modes(measurements: Sequence[Measurement], unit: str = "µs", title: Optional[str] = None,
              hardware: Optional[str] = None, figsize: Sequence[float] = FIGSIZE) -> Any:
    """Bar chart of the median time per call of each mode, with IQR error bars."""
    items = list(measurements)
    if not items or not all(isinstance(m, Measurement) for m in items):
        raise TypeError("measurements must be a non-empty sequence of Measurement")
    if unit not in TIME_UNITS:
        raise ValueError(f"unit must be one of {list(TIME_UNITS)}, got {unit!r}")
    factor = TIME_UNITS[unit]
    medians = [m.median / factor for m in items]
    lower = [(m.median - m.q1) / factor for m in items]
    upper = [(m.q3 - m.median) / factor for m in items]
    fig, ax = new_figure(figsize)
    ax.grid(False)
    ax.grid(True, axis="x", alpha=0.3)
    positions = list(range(len(items)))
    ax.barh(positions, medians, xerr=[lower, upper], capsize=4,
            color=[COLORS[i % len(COLORS)] for i in positions])
    ax.set_yticks(positions, [m.label or f"mode {i}" for i, m in enumerate(items)])
    ax.invert_yaxis()
    ax.set_xlabel(f"time per call ({unit}), median with quartiles")
    if title:
        ax.set_title(title)
    if hardware:
        fig.supxlabel(hardware, x=0.99, ha="right", fontsize=7, color="0.4")
    return fig
