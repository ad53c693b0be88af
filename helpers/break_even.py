"""When a one-off cost pays back: compile time against the time a faster mode saves per epoch.

`break_even` turns one interleaved ratio (compiled against eager, above 1 where compiled is faster),
the eager epoch's median time and the compile time into one sentence.
"""

from __future__ import annotations

from .comparison import Ratio
from .one_sided import side_of_one
from .timing import format_time


def break_even(ratio: Ratio, eager_seconds: float, compile_seconds: float) -> str:
    """'pays back after N epochs (low to high)', or why it never does, for a speed-up `ratio`."""
    if not isinstance(ratio, Ratio):
        raise TypeError(f"ratio must be a helpers Ratio, got {type(ratio).__name__}")
    for name, value in (("eager_seconds", eager_seconds), ("compile_seconds", compile_seconds)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    side = side_of_one(ratio)
    if side == "below 1":
        return "compiled epochs slower: never pays back at this size"
    if side != "above 1":
        return "no saving resolved in this run: no break-even"
    saving = eager_seconds * (1 - 1 / ratio.median)
    fast, slow = (compile_seconds / (eager_seconds * (1 - 1 / f)) for f in (ratio.high, ratio.low))
    return (f"compile {format_time(compile_seconds)}, saves {format_time(saving)} per epoch: "
            f"pays back after {compile_seconds / saving:.0f} epochs ({fast:.0f} to {slow:.0f})")
