"""A plain sentence for a measured ratio: where its interval lies against 1.

A notebook asks a one-sided question (did the gap grow, did the rate fall?) and gives the three
answers in words; `side_reading` picks the one this run's interval supports, so the cell prints
the reading instead of parsing a verdict's text.
"""

from __future__ import annotations

from .comparison import Ratio
from .one_sided import SIDES, side_of_one

TOO_FEW = "too few rounds to tell"


def side_reading(ratio: Ratio, *, above: str, below: str, includes: str) -> str:
    """'interval against 1: <side>; <the sentence for that side>' ('too few rounds to tell' without an interval)."""
    for name, text in (("above", above), ("below", below), ("includes", includes)):
        if not isinstance(text, str) or not text:
            raise TypeError(f"{name} must be a non-empty str, got {text!r}")
    side = side_of_one(ratio)
    sentence = {SIDES[0]: above, SIDES[1]: below, SIDES[2]: includes}.get(side, TOO_FEW)
    return f"interval against 1: {side}; {sentence}"
