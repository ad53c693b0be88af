"""How the steps of one operation, each timed alone, add up against the operation timed whole.

`cost_parts` reads the medians of one interleaved comparison: the whole (a warm cache hit, say)
and its parts. It prints each part's share of the whole, the parts' sum, and what the parts leave
unaccounted for, so that a breakdown never shows more than it measured.
"""

from __future__ import annotations

from typing import Sequence

from .comparison import Comparison
from .timing import format_time


def cost_parts(cmp: Comparison, whole: str, parts: Sequence[str], *, rest: str = "not accounted for") -> str:
    """Lines: each part's median and share of `whole`'s median, the rest (whole minus their sum), the whole."""
    if not isinstance(cmp, Comparison):
        raise TypeError(f"cmp must be a helpers Comparison, got {type(cmp).__name__}")
    if isinstance(parts, str) or not parts:
        raise ValueError(f"parts must be a non-empty list of labels, got {parts!r}")
    if whole in parts:
        raise ValueError(f"parts must not contain the whole, {whole!r}")
    total = cmp.median(whole)
    medians = {part: cmp.median(part) for part in parts}
    summed = sum(medians.values())
    width = max(len(label) for label in [*parts, rest, whole])

    def line(label: str, seconds: float) -> str:
        return f"  {label:<{width}} {format_time(seconds):>9} {100 * seconds / total:5.0f} %"

    return "\n".join([f"In this run the {len(parts)} parts of '{whole}', timed alone, add up to "
                      f"{format_time(summed)} of its {format_time(total)}:",
                      *(line(part, seconds) for part, seconds in medians.items()),
                      line(rest, total - summed),
                      line(whole, total)])


__all__ = ["cost_parts"]
