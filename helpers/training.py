"""Training comparisons over several seeds: mean, spread and a verdict whose margin beats the spread.

A training run's accuracy differs from CPU to CPU (AVX2 and AVX-512 kernels round
differently, and hundreds of SGD steps grow those differences), so a single run ranks
nothing. `seed_verdict` compares two sets of runs, one value per seed, and claims a
difference only when every seed of one lies beyond every seed of the other by a margin.
"""

from __future__ import annotations

import statistics
from typing import Sequence


def _values(name: str, values: Sequence[float]) -> list[float]:
    """Return `values` as a list of floats, or raise a clear error naming `name`."""
    if isinstance(values, (str, bytes)) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of numbers")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{name} must hold numbers, got {type(v).__name__}")
        out.append(float(v))
    return out


def seed_verdict(a: Sequence[float], b: Sequence[float], margin: float) -> str:
    """Return 'higher by more than M', 'lower by more than M', 'less than M apart' or 'not resolved at M'.

    'higher' when every value of `a` exceeds every value of `b` by more than `margin`;
    'less than M apart' when no value of one is `margin` or more from any value of the other;
    'not resolved' when the seeds leave both open.
    """
    xs, ys = _values("a", a), _values("b", b)
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin > 0:
        raise ValueError(f"margin must be a positive number, got {margin!r}")
    m = f"{margin:g}"
    if min(xs) - max(ys) > margin:
        return f"higher by more than {m}"
    if min(ys) - max(xs) > margin:
        return f"lower by more than {m}"
    if max(xs) - min(ys) < margin and max(ys) - min(xs) < margin:
        return f"less than {m} apart"
    return f"not resolved at {m}"


def mean_spread(values: Sequence[float]) -> tuple[float, float, float]:
    """Return (mean, lowest, highest) of one value per seed."""
    xs = _values("values", values)
    return statistics.fmean(xs), min(xs), max(xs)


def describe_accuracy(name: str, values: Sequence[float]) -> str:
    """Format accuracies of several seeds as 'name: mean 96.5 % (96.3 % to 96.6 %)'."""
    mean, low, high = mean_spread(values)
    return f"{name}: mean {mean:.1%} ({low:.1%} to {high:.1%})"


def accuracy_verdict(name_a: str, a: Sequence[float], name_b: str, b: Sequence[float],
                     margin: float = 0.03) -> str:
    """One line: '<a> against <b>: <verdict>, 96.5 % against 22.8 %' (accuracies as fractions)."""
    word = seed_verdict(a, b, margin)
    points = f"{100 * margin:g}"
    word = word.replace(f" {margin:g}", f" {points} point{'' if points == '1' else 's'}")
    return (f"{name_a} against {name_b}: {word}, mean {statistics.fmean(a):.1%} "
            f"against {statistics.fmean(b):.1%}")


def ratio_verdict(a: Sequence[float], b: Sequence[float], threshold: float) -> str:
    """Compare positive values (losses) by factor: 'lower by more than Tx', 'higher by more than Tx', ...

    'lower' when every value of `a` times `threshold` is below every value of `b`;
    'higher' the other way round; 'less than Tx apart' when no value of one is `threshold`
    times or more any value of the other; 'not resolved at Tx' when the seeds leave both open.
    """
    xs, ys = _values("a", a), _values("b", b)
    if min(xs + ys) <= 0:
        raise ValueError("ratio_verdict compares positive values only")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not threshold > 1:
        raise ValueError(f"threshold must be a number above 1, got {threshold!r}")
    t = f"{threshold:g}x"
    if max(xs) * threshold < min(ys):
        return f"lower by more than {t}"
    if max(ys) * threshold < min(xs):
        return f"higher by more than {t}"
    if max(xs) < threshold * min(ys) and max(ys) < threshold * min(xs):
        return f"less than {t} apart"
    return f"not resolved at {t}"


def loss_verdict(name_a: str, a: Sequence[float], name_b: str, b: Sequence[float],
                 threshold: float = 1.2, quantity: str = "last loss") -> str:
    """One line: '<a> against <b>: last loss lower by more than 1.2x, mean 0.096 nats against 0.181 nats'."""
    word = ratio_verdict(a, b, threshold)
    return (f"{name_a} against {name_b}: {quantity} {word}, mean {statistics.fmean(a):.3f} nats "
            f"against {statistics.fmean(b):.3f} nats")


__all__ = ["accuracy_verdict", "describe_accuracy", "loss_verdict", "mean_spread", "ratio_verdict",
           "seed_verdict"]
