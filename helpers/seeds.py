"""Seed verdicts as Summary claims, and what such a verdict means as a test.

`helpers.training` compares two sets of training runs, one value per seed, and claims a
difference only when every run of one lies beyond every run of the other by a margin. Here
those verdicts become the claims of a notebook's Summary (`accuracy_claim`, `loss_claim`), and
`separation_p` gives the chance of such a complete separation when the choice makes no
difference and the runs are exchangeable: 1 / C(n_a + n_b, n_a), 1/20 for three seeds against
three (the smallest p-value of the exact one-sided Mann-Whitney rank test for those sizes).
"""

from __future__ import annotations

import math
import statistics
from typing import Sequence

from .record import Quantity
from .training import _values, ratio_verdict, seed_verdict


def _check_size(name: str, n: int) -> int:
    """Return `n` when it is a positive int, or raise an error that names the argument."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"{name} must be a positive int, got {n!r}")
    return n


def separation_p(n_a: int, n_b: int) -> float:
    """Chance that all `n_a` runs of one choice land above all `n_b` of the other by luck alone.

    Under exchangeability (the choice makes no difference), every way of ranking the runs is
    equally likely, and exactly one of the C(n_a + n_b, n_a) ways puts the first set on top.
    """
    return 1 / math.comb(_check_size("n_a", n_a) + _check_size("n_b", n_b), n_a)


def accuracy_claim(a: Sequence[float], b: Sequence[float], margin: float) -> Quantity:
    """A Summary claim: accuracies of `a` against `b` (fractions, one per seed) at `margin`.

    The value is the difference of the means in percentage points; low and high are the
    smallest and largest difference over all seed pairs; the verdict is `seed_verdict`'s, in points.
    """
    xs, ys = _values("a", a), _values("b", b)
    word = seed_verdict(xs, ys, margin)                  # checks the margin
    points = f"{100 * margin:g}"
    word = word.replace(f" {margin:g}", f" {points} point{'' if points == '1' else 's'}")
    return Quantity("", "claim", 100 * (statistics.fmean(xs) - statistics.fmean(ys)), "points",
                    100 * (min(xs) - max(ys)), 100 * (max(xs) - min(ys)), 100 * margin, word)


def accuracy_finding(a: Sequence[float], b: Sequence[float], margin: float) -> Quantity:
    """`accuracy_claim`, kept as a finding of this run: its verdict may differ on another machine."""
    q = accuracy_claim(a, b, margin)
    return Quantity(q.name, "finding", q.value, q.unit, q.low, q.high, q.threshold, q.verdict)


def loss_claim(a: Sequence[float], b: Sequence[float], threshold: float) -> Quantity:
    """A Summary claim: losses of `a` against `b` (positive, one per seed) at factor `threshold`.

    The value is mean(b) / mean(a), how many times lower `a`'s loss is; low and high are the
    smallest and largest factor b / a over all seed pairs; the verdict is `ratio_verdict`'s.
    """
    xs, ys = _values("a", a), _values("b", b)
    word = ratio_verdict(xs, ys, threshold)              # checks the threshold and the signs
    return Quantity("", "claim", statistics.fmean(ys) / statistics.fmean(xs), "x",
                    min(ys) / max(xs), max(ys) / min(xs), float(threshold), word)


class SeedPairRange(Quantity):
    """A Quantity whose brackets are the range over seed pairs, labelled so, not a 95 % interval."""

    def text(self) -> str:
        """One line: 'name: verdict, 2.10x (all pairs of seeds: 1.75x to 2.39x)'."""
        line = super().text()
        if self.unit == "x" and self.low is not None and self.high is not None:
            head, _, tail = line.rpartition(" (")
            line = f"{head} (all pairs of seeds: {tail}"
        return line


def loss_claim_seed_pairs(a: Sequence[float], b: Sequence[float], threshold: float) -> Quantity:
    """`loss_claim`, printed with its brackets labelled 'all pairs of seeds:' (the range over every seed of a against every seed of b)."""
    q = loss_claim(a, b, threshold)
    return SeedPairRange(q.name, q.kind, q.value, q.unit, q.low, q.high, q.threshold, q.verdict)


__all__ = ["SeedPairRange", "accuracy_claim", "loss_claim", "loss_claim_seed_pairs", "separation_p"]
