"""A plain sentence for a measured ratio: where its interval lies against 1.

A notebook asks a one-sided question (did the gap grow, did the rate fall?) and gives the three
answers in words; `side_reading` picks the one this run's interval supports, so the cell prints
the reading instead of parsing a verdict's text.
"""

from __future__ import annotations

from collections.abc import Mapping

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

    For T = 1.1: 'XLA is faster by more than 1.10x (10 %)' (the interval lies beyond T or 1/T),
    'XLA is a little slower, by less than 1.10x (10 %)' (inside (1/T, T) and on one side of 1),
    'XLA: no difference resolved, and any is under 1.10x (10 %)' (inside (1/T, T) and around 1),
    'XLA is faster, by an amount not resolved at 1.10x (10 %)' (one side of 1, reaching past T
    or 1/T), 'XLA: not resolved at 1.10x (10 %)', or 'too few rounds to tell' without an interval.
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
    share = f"{threshold:.2f}x ({(threshold - 1) * 100:.0f} %)"
    if ratio.low > threshold or ratio.high < 1 / threshold:
        return f"{subject} is {above if ratio.low > 1 else below} by more than {share}"
    side = above if ratio.low > 1 else below if ratio.high < 1 else None
    if ratio.low > 1 / threshold and ratio.high < threshold:
        return (f"{subject} is a little {side}, by less than {share}" if side
                else f"{subject}: no difference resolved, and any is under {share}")
    return (f"{subject} is {side}, by an amount not resolved at {share}" if side
            else f"{subject}: not resolved at {share}")


def trend_reading(values: Mapping[str, float], *, tolerance: float = 0.01) -> str:
    """How ordered medians (factors against the first entry, e.g. groups of sizes) move, in words.

    'flat: every group within 1.0 % of odd', 'a jump of 2.0 % up at 8, not 16, most of the
    2.5 % spread', 'a gradual rise of 3.0 % from odd to 16 or more, no step over 1.0 %', the
    same for a fall, or 'no steady trend: up and down by more than 1.0 %'. `tolerance` is the
    step (0.01 = 1 %) below which a change counts as no change. Medians only: no interval.
    """
    if not isinstance(values, Mapping) or len(values) < 3:
        raise TypeError(f"values must be a mapping of at least 3 names to factors, got {values!r}")
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 for v in values.values()):
        raise ValueError(f"values must be positive factors, got {dict(values)!r}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be a number between 0 and 1, got {tolerance!r}")
    names, v = list(values), [float(x) for x in values.values()]

    def pct(x: float) -> str:
        return f"{abs(x) * 100:.1f} %"

    spread = max(v) - min(v)
    if spread < tolerance:
        return f"flat: every group within {pct(tolerance)} of {names[0]}"
    steps = [b - a for a, b in zip(v, v[1:])]
    big = max(range(len(steps)), key=lambda i: abs(steps[i]))
    others = [s for i, s in enumerate(steps) if i != big]
    if abs(steps[big]) > tolerance and abs(steps[big]) >= spread / 2 and all(abs(s) <= tolerance for s in others):
        return (f"a jump of {pct(steps[big])} {'up' if steps[big] > 0 else 'down'} at {names[big + 1]}, "
                f"most of the {pct(spread)} spread")
    largest = pct(steps[big])
    if all(s >= -tolerance for s in steps):
        return f"a gradual rise of {pct(v[-1] - v[0])} from {names[0]} to {names[-1]}, no step over {largest}"
    if all(s <= tolerance for s in steps):
        return f"a gradual fall of {pct(v[-1] - v[0])} from {names[0]} to {names[-1]}, no step over {largest}"
    return f"no steady trend: up and down by more than {pct(tolerance)}"


def side_against(ratio: Ratio, baseline: str) -> str:
    """'faster than <baseline>', 'slower than <baseline>' or 'about as fast as <baseline> (no difference
    resolved)', from the side of 1 that this run's interval lies on ('too few rounds to tell' without one)."""
    if not isinstance(baseline, str) or not baseline:
        raise TypeError(f"baseline must be a non-empty str, got {baseline!r}")
    return side_sentence(ratio, above=f"faster than {baseline}", below=f"slower than {baseline}",
                         includes=f"about as fast as {baseline} (no difference resolved)")
