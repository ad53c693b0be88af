"""Rates of several sizes of one computation: a ratio of rates in words, and a chart of a sweep."""

from typing import Any, Callable, Mapping, Sequence

from .comparison import Comparison, Ratio
from .one_sided import side_of_one


def rate_words(ratio: Ratio) -> str:
    """A ratio of rates in words, saying only what its interval resolves: 'lost 22.0 % of its rate against'."""
    if not isinstance(ratio, Ratio):
        raise TypeError(f"ratio must be a helpers Ratio, got {type(ratio).__name__}")
    side = side_of_one(ratio)
    if side == "below 1":
        return f"lost {(1 - ratio.median) * 100:.1f} % of its rate against"
    if side == "above 1":
        return f"gained {(ratio.median - 1) * 100:.1f} % in rate against"
    return "showed no resolved difference against"


def rate_chart(comparison: Comparison, sizes: Sequence[int], work: Mapping[str, float],
               label: Callable[[int], str], title: str, marked: int = 8) -> Any:
    """Each size's rate against its round's median size: median over rounds, 95 % interval band.

    Odd sizes are grey dots, multiples of `marked` red circles; `label(n)` names size n's mode.
    """
    from .plotting import plot

    if not isinstance(comparison, Comparison):
        raise TypeError(f"comparison must be a helpers Comparison, got {type(comparison).__name__}")
    sizes = list(sizes)
    if len(sizes) < 2:
        raise ValueError(f"sizes must hold at least two sizes, got {sizes}")
    everyone = [label(n) for n in sizes]
    r = {n: comparison.group_ratio([label(n)], everyone, work=work) for n in sizes}
    marks, odds = [n for n in sizes if n % marked == 0], [n for n in sizes if n % 2 == 1]
    fig = plot([sizes, odds, marks], [[r[n].median for n in sizes], [r[n].median for n in odds],
                                      [r[n].median for n in marks]],
               xlabel="n (matrices are n × n, float32)", ylabel="rate / median size's rate, per round",
               legend=["every n", "odd n", f"multiples of {marked}"],
               fmts=("-", ".", "o"), title=title, figsize=(7, 4.2))
    ax = fig.axes[0]
    ax.lines[1].set_color("0.45")
    ax.lines[2].set_color("#d62728")
    ax.fill_between(sizes, [r[n].high for n in sizes], [r[n].low for n in sizes],
                    alpha=0.2, label="95 % interval")
    ax.axhline(1, color="0.6", linewidth=0.8)
    ax.autoscale(axis="y")                         # widen the axes to the whole band
    ax.get_legend().remove()                       # one legend below the axes, off the data
    fig.legend(loc="outside lower center", ncols=4, frameon=False)
    return fig
