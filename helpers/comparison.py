"""Comparisons that reproduce: interleaved rounds, per-round ratios, intervals and verdicts.

`compare` times several ways of doing the same work *in rounds*: each round runs one
timed block of every mode (A B C, then B C A, then C A B, ...), so that drift, turbo
clocks and busy neighbours hit every mode alike.  Each block is timed with the standard
library's `timeit.Timer`, which pauses the garbage collector while it runs, and holds
enough calls to last a few milliseconds (calibrated per mode, as `timeit.Timer.autorange`
does with a shorter target).  The number of rounds follows a time budget, so fast and
slow modes get the same number of rounds.

A speed-up is computed per round (baseline time / mode time in the same round); its
median and a distribution-free 95 % interval of that median (from order statistics)
say how sure we are.  `Ratio.verdict` turns the interval into a word, against a
threshold chosen for the claim: "faster", "slower", "about the same (within 1.2x)" (for
thresholds of 2x and more: "within 3.00x either way") or "within the noise".  Verdicts, not
numbers, are what the tests compare.

`set_threads` fixes the thread count of every framework, and `machine_load` says when
other processes are busy.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
import timeit
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from .timing import (QUICK_FACTOR, Clock, Measurement, _check_callable, _check_count, format_factor,
                     format_time, quick_mode)

SyncArg = Union[None, Callable[[], Any], Mapping[str, Optional[Callable[[], Any]]]]

VERDICTS = ("faster", "slower", "about the same", "either way", "within the noise")

# Environment variables read at import time by the frameworks and the BLAS libraries.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")


def _check_positive(name: str, value: Any) -> float:
    """Return `value` as a float if it is a positive number, else raise a clear error."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not value > 0 or math.isinf(value):
        raise ValueError(f"{name} must be positive and finite, got {value}")
    return float(value)


def median_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """Return a distribution-free interval for the median of `values` (order statistics).

    The interval runs from the k-th smallest to the k-th largest value, with k the
    largest rank whose binomial coverage is still at least `confidence`; with fewer
    than six values no such k exists and the interval is the whole range.
    """
    if not values:
        raise ValueError("values must not be empty")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    ordered = sorted(values)
    n = len(ordered)
    k = 0  # number of values cut from each end (P(B <= k) is the miss rate of one end)
    below = 0.0  # P(Binomial(n, 1/2) <= k)
    for j in range(n // 2):
        below += math.comb(n, j) / 2 ** n
        if 1 - 2 * below < confidence:
            break
        k = j
    return ordered[k], ordered[n - 1 - k]


@dataclass(frozen=True)
class Ratio:
    """The speed-up of `mode` over `baseline`: median of per-round ratios and its interval."""

    mode: str
    baseline: str
    median: float
    low: float
    high: float
    rounds: int

    @property
    def half_width(self) -> float:
        """Half the interval's width, relative to the median (0.05 means ±5 %)."""
        return (self.high - self.low) / 2 / self.median

    def verdict(self, threshold: float = 1.2) -> str:
        """Return 'faster', 'slower', 'about the same (within Tx)', 'within Tx either way' or 'within the noise'."""
        t = _check_positive("threshold", threshold)
        if t <= 1:
            raise ValueError(f"threshold must be greater than 1, got {threshold}")
        if self.low > t:
            return "faster"
        if self.high < 1 / t:
            return "slower"
        if self.low > 1 / t and self.high < t:
            if t >= 2:  # 0.3x is not "about the same", but it is within 10x either way
                return f"within {format_factor(t)} either way"
            return f"about the same (within {format_factor(t)})"
        return "within the noise"

    def describe(self, threshold: float = 1.2) -> str:
        """Return the verdict with the factor and its interval, e.g. 'faster, 5.9x (5.6x to 6.2x)'."""
        return (f"{self.verdict(threshold)}, {format_factor(self.median)} "
                f"({format_factor(self.low)} to {format_factor(self.high)})")


@dataclass
class Comparison:
    """Per-call times of several modes, measured in interleaved rounds."""

    times: dict[str, list[float]]  # label -> seconds per call, one value per round
    number: dict[str, int]         # label -> calls per timed block

    @property
    def labels(self) -> list[str]:
        """The modes, in the order they were given."""
        return list(self.times)

    @property
    def rounds(self) -> int:
        """Number of rounds (each mode has one timed block per round)."""
        return len(next(iter(self.times.values())))

    def _check_label(self, name: str, label: Any) -> str:
        if label not in self.times:
            raise ValueError(f"{name} must be one of {self.labels}, got {label!r}")
        return label

    def median(self, label: str) -> float:
        """Median seconds per call of one mode."""
        return statistics.median(self.times[self._check_label("label", label)])

    def ratio(self, mode: str, baseline: str, confidence: float = 0.95) -> Ratio:
        """Speed-up of `mode` over `baseline` from the ratios of each round."""
        a = self.times[self._check_label("baseline", baseline)]
        b = self.times[self._check_label("mode", mode)]
        per_round = [x / y for x, y in zip(a, b)]
        low, high = median_interval(per_round, confidence)
        return Ratio(mode, baseline, statistics.median(per_round), low, high, len(per_round))

    def group_ratio(self, group: Sequence[str], baseline: Sequence[str],
                    work: Optional[Mapping[str, float]] = None, confidence: float = 0.95) -> Ratio:
        """Ratio of rates of two groups of modes: per round, median rate of `group` / of `baseline`.

        The rate of a mode is `work[label]` / its time per call (work 1 when `work` is None),
        so modes that do different amounts of work compare fairly.  With one label per group
        this is the ratio of two rates.
        """
        for name, labels in (("group", group), ("baseline", baseline)):
            if isinstance(labels, str) or not labels:
                raise TypeError(f"{name} must be a non-empty sequence of labels")
            for label in labels:
                self._check_label(name, label)
        amount = {label: 1.0 for label in self.labels} if work is None else dict(work)
        missing = [label for label in (*group, *baseline) if label not in amount]
        if missing:
            raise ValueError(f"work has no amount for {missing}")

        def rate(labels: Sequence[str], r: int) -> float:
            return statistics.median(amount[label] / self.times[label][r] for label in labels)

        per_round = [rate(group, r) / rate(baseline, r) for r in range(self.rounds)]
        low, high = median_interval(per_round, confidence)
        name = group[0] if len(group) == 1 else f"{len(group)} modes"
        base = baseline[0] if len(baseline) == 1 else f"{len(baseline)} modes"
        return Ratio(name, base, statistics.median(per_round), low, high, len(per_round))

    def pair_ratio(self, pairs: Sequence[tuple[str, str]], work: Optional[Mapping[str, float]] = None,
                   confidence: float = 0.95) -> Ratio:
        """Ratio of rates pooled over (mode, baseline) pairs and rounds: median and interval.

        Each pair is compared within each round, so pairs of modes timed next to each other
        (neighbours in the rotating order) share the machine's conditions best.
        """
        if isinstance(pairs, (str, bytes)) or not pairs:
            raise TypeError("pairs must be a non-empty sequence of (mode, baseline) pairs")
        amount = {label: 1.0 for label in self.labels} if work is None else dict(work)
        ratios = []
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"pairs must hold (mode, baseline) tuples, got {pair!r}")
            mode, base = self._check_label("mode", pair[0]), self._check_label("baseline", pair[1])
            if mode not in amount or base not in amount:
                raise ValueError(f"work has no amount for {pair}")
            ratios += [(amount[mode] / a) / (amount[base] / b) for a, b in zip(self.times[mode], self.times[base])]
        low, high = median_interval(ratios, confidence)
        return Ratio(f"{len(pairs)} pairs", "their baselines", statistics.median(ratios), low, high, len(ratios))

    def verdict(self, mode: str, baseline: str, threshold: float = 1.2) -> str:
        """Print '<mode> against <baseline>: <verdict>, <factor> (<interval>)'; return the verdict."""
        r = self.ratio(mode, baseline)
        print(f"{mode} against {baseline}: {r.describe(threshold)}")
        return r.verdict(threshold)

    def measurements(self) -> list[Measurement]:
        """The modes as helpers.Measurement objects (for bar_modes and plot)."""
        return [Measurement(label, list(t), self.number[label], warmup=0) for label, t in self.times.items()]

    def table(self, baseline: Union[None, str, Mapping[str, str]] = None) -> None:
        """Print each mode's median ± IQR/2 and its speed-up (with interval) over its baseline."""
        if isinstance(baseline, str):
            self._check_label("baseline", baseline)
            bases = {label: baseline for label in self.labels if label != baseline}
        elif baseline is None:
            bases = {}
        elif isinstance(baseline, Mapping):
            bases = {self._check_label("mode", m): self._check_label("baseline", b) for m, b in baseline.items()}
        else:
            raise TypeError(f"baseline must be None, a label or a mapping, got {type(baseline).__name__}")
        width = max(len("mode"), *(len(label) for label in self.labels))
        print(f"{'mode':<{width}} | median ± IQR/2 | speed-up (95 % interval)")
        for m in self.measurements():
            line = f"{m.label:<{width}} | {format_time(m.median)} ± {format_time(m.spread)} | "
            if m.label in bases:
                r = self.ratio(m.label, bases[m.label])
                line += (f"{format_factor(r.median)} ({format_factor(r.low)} to {format_factor(r.high)})"
                         f" over {bases[m.label]}")
            else:
                line += "-"
            print(line)
        print(f"({self.rounds} rounds, interleaved)")


def _syncs(sync: SyncArg, labels: list[str]) -> dict[str, Optional[Callable[[], Any]]]:
    """Return {label: sync callable or None} from one callable or a mapping."""
    if sync is None or callable(sync):
        return {label: sync for label in labels}
    if isinstance(sync, Mapping):
        unknown = set(sync) - set(labels)
        if unknown:
            raise ValueError(f"sync names unknown modes: {sorted(unknown)}")
        for label, s in sync.items():
            _check_callable(f"sync[{label!r}]", s, optional=True)
        return {label: sync.get(label) for label in labels}
    raise TypeError(f"sync must be None, a callable or a mapping, got {type(sync).__name__}")


def _block(fn: Callable[[], Any], number: int, sync: Optional[Callable[[], Any]]) -> Callable[[], None]:
    """Return a function that calls `fn` `number` times and then waits with `sync`."""
    def run() -> None:
        for _ in range(number):
            fn()
        if sync is not None:
            sync()
    return run


def _timed(block: Callable[[], None], clock: Clock) -> float:
    """Seconds taken by one run of `block`, timed by timeit (garbage collector paused)."""
    return timeit.Timer(stmt=block, timer=clock).timeit(number=1)


def _calibrate(fn: Callable[[], Any], sync: Optional[Callable[[], Any]], target: float, clock: Clock,
               limit: int = 1 << 20) -> int:
    """Smallest number of calls (1, 2, 5, 10, 20, ...) whose block lasts at least `target` seconds.

    Each candidate block is timed twice and the faster time counts, so that one slow call
    (a late first-call cost, a busy moment) does not fix a block size that is too small.
    """
    number = 1
    while number < limit:
        for step in (1, 2, 5):
            n = number * step
            block = _block(fn, n, sync)
            if min(_timed(block, clock), _timed(block, clock)) >= target:
                return n
        number *= 10
    return limit


def compare(modes: Mapping[str, Callable[[], Any]], *, budget: float = 2.0, block: float = 0.005,
            min_rounds: int = 15, max_rounds: int = 2000, warmup: int = 5, sync: SyncArg = None,
            clock: Clock = time.perf_counter) -> Comparison:
    """Time each mode in interleaved rounds until `budget` seconds are spent; return a Comparison.

    Every mode first runs `warmup` untimed calls, then gets a block size of calls lasting
    at least `block` seconds.  Rounds follow, rotating the order of the modes, until the
    budget is spent (a tenth of it in quick mode), with at least `min_rounds` and at most
    `max_rounds` rounds.  `sync` (one callable, or one per label) runs inside every block,
    after its calls, so asynchronous work is counted.
    """
    if not isinstance(modes, Mapping) or len(modes) < 1:
        raise TypeError("modes must be a non-empty mapping of label -> callable")
    labels = list(modes)
    for label, fn in modes.items():
        if not isinstance(label, str):
            raise TypeError(f"modes must have str labels, got {type(label).__name__}")
        _check_callable(f"modes[{label!r}]", fn)
    budget = _check_positive("budget", budget)
    block = _check_positive("block", block)
    _check_count("min_rounds", min_rounds)
    _check_count("max_rounds", max_rounds)
    _check_count("warmup", warmup, allow_zero=True)
    if max_rounds < min_rounds:
        raise ValueError(f"max_rounds must be at least min_rounds ({min_rounds}), got {max_rounds}")
    _check_callable("clock", clock)
    syncs = _syncs(sync, labels)
    if quick_mode():
        budget /= QUICK_FACTOR

    for label in labels:
        for _ in range(warmup):
            modes[label]()
        if warmup and syncs[label] is not None:
            syncs[label]()
    number = {label: _calibrate(modes[label], syncs[label], block, clock) for label in labels}
    blocks = {label: _block(modes[label], number[label], syncs[label]) for label in labels}

    times: dict[str, list[float]] = {label: [] for label in labels}
    start = clock()
    rounds = 0
    while rounds < max_rounds and (rounds < min_rounds or clock() - start < budget):
        shift = rounds % len(labels)
        for label in labels[shift:] + labels[:shift]:
            times[label].append(_timed(blocks[label], clock) / number[label])
        rounds += 1
    return Comparison(times, number)


def first_call(fn: Callable[[], Any], sync: Optional[Callable[[], Any]] = None,
               clock: Clock = time.perf_counter) -> float:
    """Seconds taken by one call of `fn` (and `sync`): the cost of a first call, compile included."""
    _check_callable("fn", fn)
    _check_callable("sync", sync, optional=True)
    start = clock()
    fn()
    if sync is not None:
        sync()
    return clock() - start


def set_threads(n: int) -> str:
    """Use `n` threads in every framework; return a line saying so.

    Call it before importing the frameworks: MXNet and the BLAS libraries read their
    thread count from the environment when they are imported.  Frameworks already
    imported are set through their own API where they have one (PyTorch, TensorFlow
    before its first operation).
    """
    _check_count("n", n)
    if n == 0:
        raise ValueError("n must be one or more, got 0")
    for name in THREAD_VARIABLES:
        os.environ[name] = "1" if name == "TF_NUM_INTEROP_THREADS" else str(n)
    # Inductor compiles its C++ in worker processes by default; under load a worker can time
    # out and leave a broken build behind (seen here with one core busy). Compile in-process.
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    late = []
    if sys.modules.get("torch") is not None:
        import torch
        torch.set_num_threads(n)
    if sys.modules.get("tensorflow") is not None:
        import tensorflow as tf
        try:
            tf.config.threading.set_intra_op_parallelism_threads(n)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # TensorFlow has already started its thread pools
            late.append("tensorflow")
    if sys.modules.get("mxnet") is not None:
        late.append("mxnet")
    line = f"Threads: {n} per framework"
    if late:
        line += f" (too late for {', '.join(late)}: imported before set_threads)"
    return line


def load_average() -> Optional[float]:
    """Return the one-minute load average, or None where the system has none (Windows)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def machine_load(cores: Optional[int] = None) -> str:
    """Return a 'Machine load: ...' line that says whether other processes keep the CPU busy."""
    from .frameworks import usable_cores
    cores = usable_cores() if cores is None else cores
    _check_count("cores", cores)
    load = load_average()
    if load is None:
        return "Machine load: unknown on this system (no load average)"
    head = f"Machine load: {load:.1f} on {cores} cores"
    if load > 0.75 * cores:
        return (f"{head}: other processes are busy, so timings are slowed and noisier; "
                "some verdicts may read 'within the noise'")
    return f"{head}: quiet enough for timing"


__all__ = ["Comparison", "Ratio", "VERDICTS", "compare", "first_call", "load_average",
           "machine_load", "median_interval", "set_threads"]
