"""How a speed-up changes from one setting to another, measured within one interleaved comparison.

A speed-up of `mode` over `baseline` is one value per round (`Comparison.ratio`). Two such
speed-ups measured in the same `compare` call (the same modes at batch 1 and at batch 256, say)
share each round's conditions, so their quotient is one value per round too:

    (baseline_1 / mode_1) / (baseline_2 / mode_2)

`ratio_of_speedups` returns the median of those values with the same 95 % interval and verdicts
as any other `Ratio`, in the words of a ratio of speed-ups: "larger by more than 1.50x" (the first
speed-up is larger than the second by more than 1.5x) or "smaller by more than 1.50x".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from .comparison import Comparison, Ratio, _ratio


def _pair(name: str, pair: Any, cmp: Comparison) -> tuple[str, str]:
    """Check that `pair` is a (mode, baseline) tuple of labels measured in `cmp`."""
    if not (isinstance(pair, Sequence) and not isinstance(pair, str) and len(pair) == 2):
        raise TypeError(f"{name} must be a (mode, baseline) pair of labels, got {pair!r}")
    for label in pair:
        if label not in cmp.times:
            raise ValueError(f"{name}: {label!r} is not one of the measured modes {cmp.labels}")
    if pair[0] == pair[1]:
        raise ValueError(f"{name}: mode and baseline must differ, got {pair!r}")
    return pair[0], pair[1]


def ratio_of_speedups(cmp: Comparison, first: Sequence[str], second: Sequence[str],
                      confidence: float = 0.95) -> Ratio:
    """How many times larger the speed-up `first` = (mode, baseline) is than `second`, per round."""
    if not isinstance(cmp, Comparison):
        raise TypeError(f"cmp must be a helpers.Comparison (from helpers.compare), got {type(cmp).__name__}")
    m1, b1 = _pair("first", first, cmp)
    m2, b2 = _pair("second", second, cmp)
    if (m1, b1) == (m2, b2):
        raise ValueError("first and second must be different speed-ups")
    t = cmp.times
    per_round = [(t[b1][r] / t[m1][r]) / (t[b2][r] / t[m2][r]) for r in range(cmp.rounds)]
    return replace(_ratio(f"{m1} over {b1}", f"{m2} over {b2}", per_round, confidence),
                   words=("larger", "smaller"))
