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
    sentence = side_sentence(ratio, above=above, below=below, includes=includes)
    return f"interval against 1: {side_of_one(ratio)}; {sentence}"


def side_sentence(ratio: Ratio, *, above: str, below: str, includes: str) -> str:
    """The sentence for the side of 1 that this run's interval lies on, alone ('too few rounds to tell'
    without an interval): side_reading without its 'interval against 1: <side>;' prefix."""
    for name, text in (("above", above), ("below", below), ("includes", includes)):
        if not isinstance(text, str) or not text:
            raise TypeError(f"{name} must be a non-empty str, got {text!r}")
    return {SIDES[0]: above, SIDES[1]: below, SIDES[2]: includes}.get(side_of_one(ratio), TOO_FEW)


def gap_reading(ratio: Ratio, threshold: float, *, subject: str) -> str:
    """This run's reading of `ratio` (subject against its baseline) at `threshold` T, in words.

    'XLA is faster by more than 10 %' (the interval lies beyond T or 1/T), 'XLA is a little
    slower, by less than 10 %' (inside (1/T, T) and on one side of 1), 'XLA: no difference
    resolved, and any is under 10 %' (inside (1/T, T) and around 1), 'XLA is faster, by an
    amount not resolved at 10 %' (one side of 1, reaching past T or 1/T), 'XLA: not resolved
    at 10 %', or 'too few rounds to tell' without an interval.
    """
    if not isinstance(ratio, Ratio):
        raise TypeError(f"ratio must be a helpers Ratio, got {type(ratio).__name__}")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not threshold > 1:
        raise ValueError(f"threshold must be a number greater than 1, got {threshold!r}")
    if not isinstance(subject, str) or not subject:
        raise TypeError(f"subject must be a non-empty str, got {subject!r}")
    if not ratio.claimed:
        return TOO_FEW
    above, below = ratio.words
    share = f"{(threshold - 1) * 100:.0f} %"
    if ratio.low > threshold or ratio.high < 1 / threshold:
        return f"{subject} is {above if ratio.low > 1 else below} by more than {share}"
    side = above if ratio.low > 1 else below if ratio.high < 1 else None
    if ratio.low > 1 / threshold and ratio.high < threshold:
        return (f"{subject} is a little {side}, by less than {share}" if side
                else f"{subject}: no difference resolved, and any is under {share}")
    return (f"{subject} is {side}, by an amount not resolved at {share}" if side
            else f"{subject}: not resolved at {share}")
