"""When a one-off compile pays back, counted in training steps, for one row of a pay-back table.

`payback_steps` takes one interleaved ratio (compiled against eager, above 1 where the compiled
mode is faster), the compile time and what compiling adds to each step (the median of per-round
differences, compiled minus eager, negative where compiling saves time), and says after how
many steps the compile time is paid back, or why it never is.
"""

from __future__ import annotations

from .checks import check_positive
from .comparison import Ratio
from .one_sided import side_of_one


def payback_steps(ratio: Ratio, compile_seconds: float, added_per_step: float) -> str:
    """'after N steps' (compile time / time saved per step), or why the compile never pays back."""
    if not isinstance(ratio, Ratio):
        raise TypeError(f"ratio must be a helpers Ratio, got {type(ratio).__name__}")
    compile_seconds = check_positive("compile_seconds", compile_seconds)
    if isinstance(added_per_step, bool) or not isinstance(added_per_step, (int, float)):
        raise TypeError(f"added_per_step must be a number of seconds, got {added_per_step!r}")
    side = side_of_one(ratio)
    if side == "below 1":
        return "never: the compiled steps are slower"
    if side == "above 1" and added_per_step < 0:
        return f"after {compile_seconds / -added_per_step:,.0f} steps"
    if side.startswith("no interval"):
        return "too few rounds to tell"
    return "never: no saving resolved"


def one_figure(n: float) -> str:
    """`n` rounded to one significant figure, printed with thousands separators: '3,000'."""
    if isinstance(n, bool) or not isinstance(n, (int, float)) or not n >= 0 or n == float("inf"):
        raise ValueError(f"n must be a finite number >= 0, got {n!r}")
    return f"{float(f'{n:.1g}'):,.0f}"
