"""Plotting: line plots in the book's style and bar charts of timed modes.

Every function builds a matplotlib Figure without pyplot and returns it, so a
figure shows exactly once: as a cell's last expression in Jupyter, or saved
with ``fig.savefig(...)``.

Alt text: every figure shown in Jupyter once helpers has made or described one
carries a text description in its output's metadata (``image/png`` -> ``alt``),
which the HTML edition writes into ``<img alt="...">`` for screen readers. By
default it is derived from what the figure holds when it is shown (kind of chart,
title, axis labels, the series and their end points, bar values, diagram labels
and arrows). Set it yourself with ``alt=`` (``plot``, ``bar_modes``,
``new_figure``) or ``helpers.set_alt_text(fig, "...")`` for any matplotlib
figure, including one made with ``matplotlib.figure.Figure`` directly.
Figures have an opaque white background, so they stay readable in JupyterLab's
dark theme.
"""

from __future__ import annotations

import weakref
from typing import Any, Optional, Sequence

from .timing import Measurement

FIGSIZE = (6.0, 3.5)
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
FMTS = ("-", "m--", "g-.", "r:", "c-", "k--", "y-.", "b:")
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}


# Alt texts set explicitly, by figure (weak keys: a figure that is gone takes its text along).
_ALT_TEXTS: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()


def _enable_inline_display() -> None:
    """Under Jupyter's inline backend, register the PNG display of figures now, with alt text.

    pyplot does this lazily, and only after the cell that first imports it, so a
    figure returned by that very cell would show as text alone. The PNG printer of
    every matplotlib Figure is then wrapped so that its output carries alt text.
    """
    import matplotlib
    backend = matplotlib.get_backend()
    # "module://matplotlib_inline.backend_inline", or "inline" after `%matplotlib inline` (matplotlib 3.9+)
    if backend not in ("module://matplotlib_inline.backend_inline", "inline"):
        return
    from IPython import get_ipython
    from matplotlib.figure import Figure
    shell = get_ipython()
    if shell is None:
        return
    png = shell.display_formatter.formatters["image/png"]
    try:  # a printer registered by name (`%matplotlib inline`, matplotlib-inline 0.2) replaces ours
        png.lookup_by_type(Figure)  # at its first lookup: resolve it now, so that we wrap it below
    except KeyError:
        pass
    if Figure not in png.type_printers:
        from matplotlib_inline.backend_inline import configure_inline_support
        configure_inline_support(shell, backend)
    printer = png.type_printers.get(Figure)
    if printer is not None and not getattr(printer, "adds_alt_text", False):
        png.for_type(Figure, _with_alt_text(printer))


def _with_alt_text(printer: Any) -> Any:
    """Wrap an IPython PNG printer of figures so that it returns (data, {"alt": text, ...})."""
    def print_png(fig: Any) -> Any:
        data = printer(fig)
        if data is None:
            return None
        metadata: dict = {}
        if isinstance(data, tuple) and len(data) == 2:
            data, metadata = data[0], dict(data[1] or {})
        metadata["alt"] = alt_text(fig)
        return data, metadata
    print_png.adds_alt_text = True  # type: ignore[attr-defined]
    return print_png


def set_alt_text(fig: Any, text: str) -> Any:
    """Set the alt text a figure carries when shown in Jupyter (and in the HTML edition); return fig."""
    from matplotlib.figure import Figure
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a non-empty string that says what the figure shows")
    _ALT_TEXTS[fig] = " ".join(text.split())
    _enable_inline_display()
    return fig


def alt_text(fig: Any) -> str:
    """Return a figure's alt text: the one set with set_alt_text, else describe_figure(fig)."""
    return _ALT_TEXTS.get(fig) or describe_figure(fig)


def _number(value: float) -> str:
    """Format a number for reading aloud: whole numbers below 100,000 in full, else three significant digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e5:
        return str(int(value))
    return f"{value:.3g}"


def _axis_phrase(label: str, scale: str) -> str:
    """Describe an axis by its label and, when not linear, its scale."""
    label = label.strip() or "unlabelled values"
    return label if scale == "linear" else f"{label} ({scale} scale)"


_STYLE_NAMES = {"-": "solid", "--": "dashed", ":": "dotted", "-.": "dash-dotted", "None": "markers"}


def _line_name(line: Any, earlier: Sequence[Any], index: int, count: int) -> str:
    """Name a line by its legend label, or by the labelled line of the same colour drawn before it."""
    label = line.get_label()
    if label and not label.startswith("_"):
        return label
    from matplotlib.colors import same_color
    for other in reversed(earlier):
        other_label = other.get_label()
        if other_label and not other_label.startswith("_") and same_color(other.get_color(), line.get_color()):
            style = _STYLE_NAMES.get(str(line.get_linestyle()), str(line.get_linestyle()))
            same_style = line.get_linestyle() == other.get_linestyle()
            return f"{other_label}, again" if same_style else f"{other_label}, {style}"
    return "the line" if count == 1 else f"line {index + 1}"


def _band_phrase(band: Any) -> str:
    """Describe a shaded band (fill_between, fill_betweenx) by its label and the range it spans."""
    import numpy as np
    label = band.get_label()
    name = label if label and not label.startswith("_") else "band"
    vertical = getattr(band, "t_direction", "x") == "y"   # fill_betweenx spans the y axis
    ends = np.concatenate([path.vertices[:, 1 if vertical else 0] for path in band.get_paths()])
    ends = ends[np.isfinite(ends)]
    if not len(ends):
        return f"{name}: a shaded band"
    where = " of y" if vertical else ""
    return f"{name}: a shaded band from {_number(ends.min())} to {_number(ends.max())}{where}"


def _describe_axes(ax: Any) -> str:
    """Describe one axes: its kind, title, axes and what is drawn on it."""
    from matplotlib.container import BarContainer
    from matplotlib.text import Annotation
    title = ax.get_title().strip()
    named = f" titled '{title}'" if title else ""
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 0]
    from matplotlib.collections import PolyCollection
    # fill_between draws a PolyCollection (a band); its offsets are a dummy (0, 0), not a point.
    bands = [c for c in ax.collections if isinstance(c, PolyCollection) and c.get_paths()]
    points = [c for c in ax.collections if not isinstance(c, PolyCollection)
              and hasattr(c, "get_offsets") and len(c.get_offsets()) > 0]
    if not ax.axison:  # a diagram: labelled boxes joined by arrows
        labels = [t for t in ax.texts if t.get_text().strip() and not isinstance(t, Annotation)]
        where = {tuple(round(v, 6) for v in t.get_position()): t.get_text().strip() for t in labels}
        arrows = []
        for note in ax.texts:
            if isinstance(note, Annotation) and note.arrow_patch is not None:
                start = where.get(tuple(round(v, 6) for v in note.xyann))
                end = where.get(tuple(round(v, 6) for v in note.xy))
                arrows.append(f"{start} to {end}" if start and end else "one more arrow")
        text = f"Diagram{named} with {len(labels)} labelled boxes: " + ", ".join(where.values())
        return text + (f"; {len(arrows)} arrows: " + "; ".join(arrows) if arrows else "")
    xaxis = _axis_phrase(ax.get_xlabel(), ax.get_xscale())
    yaxis = _axis_phrase(ax.get_ylabel(), ax.get_yscale())
    if bars:
        horizontal = getattr(bars[0], "orientation", "vertical") == "horizontal"
        ticks = ax.get_yticklabels() if horizontal else ax.get_xticklabels()
        names = [t.get_text() for t in ticks]
        values = [p.get_width() if horizontal else p.get_height() for c in bars for p in c.patches]
        pairs = [f"{names[i] if i < len(names) and names[i] else f'bar {i + 1}'} {_number(v)}"
                 for i, v in enumerate(values)]
        measure = xaxis if horizontal else yaxis
        return f"Bar chart{named} of {measure}, {len(values)} bars: " + "; ".join(pairs)
    parts = []
    for i, line in enumerate(lines):
        name = _line_name(line, lines[:i], i, len(lines))
        x, y = line.get_xdata(), line.get_ydata()
        if line.get_transform() != ax.transData and len(set(map(float, y))) == 1:  # axhline
            parts.append(f"{name}: a level line at {_number(y[0])}")
        elif line.get_transform() != ax.transData and len(set(map(float, x))) == 1:  # axvline
            parts.append(f"{name}: a vertical line at {_number(x[0])}")
        elif len(x) == 1:
            parts.append(f"{name}: one point at {_number(x[0])}, {_number(y[0])}")
        else:
            parts.append(f"{name}: {len(x)} points, from {_number(y[0])} at {_number(x[0])} "
                         f"to {_number(y[-1])} at {_number(x[-1])}")
    for collection in points:
        label = collection.get_label()
        name = label if label and not label.startswith("_") else "points"
        parts.append(f"{name}: {len(collection.get_offsets())} scattered points")
    for band in bands:
        parts.append(_band_phrase(band))
    kind = ("Line chart" if lines else "Scatter plot" if points else "Area chart" if bands
            else "Empty chart")
    return f"{kind}{named} of {yaxis} against {xaxis}" + (": " + "; ".join(parts) if parts else "")


def describe_figure(fig: Any) -> str:
    """Describe what a figure shows in words, from its title, axes, series, bars and labels."""
    from matplotlib.figure import Figure
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    axes = [ax for ax in fig.axes if ax.get_visible()]
    suptitle = fig._suptitle.get_text().strip() if getattr(fig, "_suptitle", None) else ""
    descriptions = [_describe_axes(ax) for ax in axes] or ["Empty figure"]
    text = ". ".join(descriptions)
    if len(axes) > 1:
        text = f"{len(axes)} panels. " + text
    return (f"{suptitle}. " if suptitle else "") + text + "."


def new_figure(figsize: Sequence[float] = FIGSIZE, alt: Optional[str] = None) -> tuple[Any, Any]:
    """Return a (figure, axes) pair with the project's look, outside pyplot (alt: its alt text)."""
    _enable_inline_display()
    from matplotlib.figure import Figure
    if len(figsize) != 2:
        raise ValueError(f"figsize must be (width, height), got {figsize!r}")
    # An opaque white background keeps the figure readable in JupyterLab's dark theme.
    fig = Figure(figsize=tuple(figsize), layout="constrained", facecolor="white")
    if alt is not None:
        set_alt_text(fig, alt)
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
         figsize: Sequence[float] = FIGSIZE, title: Optional[str] = None, axes: Any = None,
         alt: Optional[str] = None) -> Any:
    """Plot one or more lines, as the book's d2l.plot does, and return the figure (alt: its alt text)."""
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
    if alt is not None:
        set_alt_text(fig, alt)
    return fig


def bar_modes(measurements: Sequence[Measurement], unit: str = "µs", title: Optional[str] = None,
              hardware: Optional[str] = None, figsize: Sequence[float] = FIGSIZE,
              alt: Optional[str] = None) -> Any:
    """Bar chart of the median time per call of each mode, with IQR error bars (alt: its alt text)."""
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
    if alt is not None:
        set_alt_text(fig, alt)
    return fig
