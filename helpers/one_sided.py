"""Which side of 1 a factor's interval lies on: the one-sided reading of a Ratio.

A verdict reads an interval against a band (1/T, T). Some questions are one-sided instead: did
the rate fall, did a speed-up shrink, were the compiled epochs slower at all? `side_of_one`
answers them: "above 1", "below 1" or "includes 1" (this run does not resolve which side).
"""

from __future__ import annotations

from .comparison import Ratio

SIDES = ("above 1", "below 1", "includes 1", "no interval (fewer than 6 rounds)")


def side_of_one(ratio: Ratio) -> str:
    """Where the interval lies against 1: 'above 1', 'below 1', 'includes 1', or no interval."""
    if not isinstance(ratio, Ratio):
        raise TypeError(f"ratio must be a helpers Ratio, got {type(ratio).__name__}")
    if not ratio.claimed:
        return SIDES[3]
    if ratio.low > 1:
        return SIDES[0]
    if ratio.high < 1:
        return SIDES[1]
    return SIDES[2]
