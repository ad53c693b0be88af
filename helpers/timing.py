"""Timing: the book's Timer and Benchmark, the Measurement record, and the quick mode.

`Timer` and `Benchmark` keep the names and call style of the D2L book, so book
code ports unchanged.  Everything that is measured and compared goes through
`helpers.compare` (helpers/comparison.py), which interleaves the modes; its
`Comparison.measurements()` gives one `Measurement` per mode (median and
quartiles of the time per call) for `bar_modes` and `plot`.

Set the environment variable ``HYBRID_QUICK=1`` to scale every repetition
count down (the test suite does this); students get full measurements.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from .checks import check_callable, check_count

QUICK_ENV = "HYBRID_QUICK"
QUICK_FACTOR = 10

Clock = Callable[[], float]
Sync = Optional[Callable[[], Any]]


def quick_mode() -> bool:
    """Return True when the quick mode for CI is switched on by HYBRID_QUICK."""
    return os.environ.get(QUICK_ENV, "").strip().lower() not in ("", "0", "false", "no")


def scale(n: int, minimum: int = 1) -> int:
    """Return n in full mode, n / 10 rounded up (at least `minimum`, 0 stays 0) in quick mode."""
    check_count("n", n, allow_zero=True)
    check_count("minimum", minimum, allow_zero=True)
    if not quick_mode() or n == 0:
        return n
    return max(minimum, math.ceil(n / QUICK_FACTOR))


def format_time(seconds: float) -> str:
    """Format a duration with a unit that keeps 3-4 significant digits."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise TypeError(f"seconds must be a number, got {type(seconds).__name__}")
    size = abs(seconds)
    for unit, factor in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if size >= factor * 0.9995:   # a value that rounds up to 1 takes the larger unit ("1 µs", not "1e+03 ns")
            return f"{seconds / factor:.3g} {unit}" if size < 100 * factor else f"{seconds / factor:.0f} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


class Timer:
    """Record multiple running times (the book's d2l.Timer)."""

    def __init__(self, clock: Clock = time.perf_counter) -> None:
        check_callable("clock", clock)
        self.clock = clock
        self.times: list[float] = []
        self.start()

    def start(self) -> None:
        """Start the timer."""
        self.tik = self.clock()

    def stop(self) -> float:
        """Stop the timer, record the time and return it."""
        self.times.append(self.clock() - self.tik)
        return self.times[-1]

    def avg(self) -> float:
        """Return the average time."""
        return sum(self.times) / len(self.times)

    def sum(self) -> float:
        """Return the sum of the times."""
        return sum(self.times)

    def cumsum(self) -> list[float]:
        """Return the accumulated times."""
        out, total = [], 0.0
        for t in self.times:
            total += t
            out.append(total)
        return out


class Benchmark:
    """Time a block and print '<description>: 0.1234 sec' (the book's Benchmark).

    Pass `sync` (e.g. ``npx.waitall``) so that asynchronous work started in the
    block is finished before the clock stops.
    """

    def __init__(self, description: str = "Done", sync: Sync = None,
                 clock: Clock = time.perf_counter) -> None:
        if not isinstance(description, str):
            raise TypeError(f"description must be a str, got {type(description).__name__}")
        check_callable("sync", sync, optional=True)
        self.description = description
        self.sync = sync
        self.clock = clock
        self.seconds: Optional[float] = None

    def __enter__(self) -> "Benchmark":
        self.timer = Timer(self.clock)
        return self

    def __exit__(self, *args: Any) -> None:
        if self.sync is not None:
            self.sync()
        self.seconds = self.timer.stop()
        print(f"{self.description}: {self.seconds:.4f} sec")


@dataclass
class Measurement:
    """Times per call from repeated timed blocks, with median and spread."""

    label: str
    times: list[float]
    number: int
    warmup: int
    extra: dict = field(default_factory=dict)

    @property
    def repeats(self) -> int:
        """Number of timed blocks."""
        return len(self.times)

    @property
    def median(self) -> float:
        """Median time per call, in seconds."""
        return statistics.median(self.times)

    @property
    def q1(self) -> float:
        """First quartile of the time per call, in seconds."""
        return _quantile(self.times, 0.25)

    @property
    def q3(self) -> float:
        """Third quartile of the time per call, in seconds."""
        return _quantile(self.times, 0.75)

    @property
    def iqr(self) -> float:
        """Interquartile range (q3 - q1) of the time per call, in seconds."""
        return self.q3 - self.q1

    @property
    def min(self) -> float:
        """Fastest time per call, in seconds."""
        return min(self.times)

    @property
    def spread(self) -> float:
        """Half the interquartile range: the '±' printed next to the median."""
        return self.iqr / 2

    def __str__(self) -> str:
        head = f"{self.label}: " if self.label else ""
        return (f"{head}{format_time(self.median)} ± {format_time(self.spread)} per call "
                f"(median ± IQR/2 of {self.repeats} repeats of {self.number} calls)")


def _quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile of `values` (q between 0 and 1)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = q * (len(ordered) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def factor_digits(*ratios: float) -> int:
    """Decimals that show every one of `ratios` with at least two significant digits (2 at the least)."""
    for ratio in ratios:
        if ratio <= 0:
            raise ValueError(f"ratio must be positive, got {ratio}")
    return max(max(2, 1 - math.floor(math.log10(r))) for r in ratios)


def format_factor(ratio: float, digits: Optional[int] = None) -> str:
    """Format a speed-up like 2.31x, keeping two significant digits below 0.01x (or `digits` decimals)."""
    return f"{ratio:.{factor_digits(ratio) if digits is None else digits}f}x"


def format_factor_sig(ratio: float, sig: int = 3) -> str:
    """Format a factor with `sig` significant digits and no thousands separator: 1294.67 -> '1290x',
    2.031 -> '2.03x', 0.01234 -> '0.0123x'. For large factors, whose decimals mean nothing."""
    if ratio <= 0:
        raise ValueError(f"ratio must be positive, got {ratio}")
    if isinstance(sig, bool) or not isinstance(sig, int) or sig < 1:
        raise ValueError(f"sig must be a positive int, got {sig!r}")
    rounded = float(f"{ratio:.{sig}g}")
    return f"{rounded:.{max(0, sig - 1 - math.floor(math.log10(rounded)))}f}x"


def format_factors(median: float, low: float, high: float,
                   threshold: Optional[float] = None) -> tuple[str, str, str]:
    """A factor and its interval with the same decimals, so that '0.100x to 0.10x' cannot happen.

    One decimal more (up to three) while the two ends would print alike, an end would print
    as `threshold` or its inverse, or an end other than 1 would print as 1, so that the printed
    ends show the interval, its verdict and which side of 1 it lies on.
    """
    digits = factor_digits(median, low, high)
    for _ in range(3):
        ends = {f"{low:.{digits}f}", f"{high:.{digits}f}"}
        alike = low != high and len(ends) == 1
        bounds = {f"{b:.{digits}f}" for b in (threshold, 1 / threshold)} if threshold and threshold > 0 else set()
        as_one = any(end != 1 and f"{end:.{digits}f}" == f"{1:.{digits}f}" for end in (low, high))
        if not alike and not bounds & ends and not as_one:
            break
        digits += 1
    return format_factor(median, digits), format_factor(low, digits), format_factor(high, digits)


__all__ = ["Benchmark", "Clock", "Measurement", "QUICK_ENV", "QUICK_FACTOR", "Timer", "factor_digits", "format_factor",
           "format_factor_sig", "format_factors",
           "format_time", "quick_mode", "scale"]
