"""Comparisons that reproduce: interleaved rounds, per-round ratios, intervals and verdicts.

`compare` times several ways of doing the same work *in rounds*: each round runs one
timed block of every mode (A B C, then B C A, then C A B, ...), so that drift, turbo
clocks and busy neighbours hit every mode alike.  Each block is timed with the standard
library's `timeit.Timer`, which pauses the garbage collector while it runs, and holds
enough calls to last a few milliseconds (calibrated per mode, as `timeit.Timer.autorange`
does with a shorter target).  The number of rounds follows a time budget, so fast and
slow modes get the same number of rounds.

A speed-up is computed per round (baseline time / mode time in the same round; for
`group_ratio` and `pair_ratio`, one value per round too, the median over the modes or
pairs of that round), so each round gives one value.  The factor printed is the median of
those values.  Its interval is a distribution-free 95 % interval of that median (order
statistics), taken over *blocks* of consecutive rounds: when one round resembles the next
(the machine drifts), `round_interval` groups neighbouring rounds into blocks, with a
block length chosen from the lag-1 autocorrelation of the per-round values, and takes the
interval over the block medians.  The interval covers this run's round-to-round noise,
not another process or another machine.  With fewer than 6 rounds no 95 % interval
exists; the range is printed and no claim is made.

`Ratio.verdict(T)` turns the interval into words, against a threshold T chosen for the
claim, and always names T: "faster by more than 1.50x", "slower by more than 1.50x",
"less than 1.20x apart" (the interval lies inside (1/T, T): not resolved at T, which is
not "no effect"), "not resolved at 1.50x" (the interval reaches past T or 1/T), and
"not resolved at 1.50x (fewer than 6 rounds)".  Verdicts, not numbers, are what the
tests compare.

`set_threads` fixes the thread count of every framework, and `machine_load` says when
other processes are busy (measured over half a second with psutil).
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
import timeit
from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple, Optional, Sequence, Union

from .checks import check_callable, check_count, check_positive
from .checks import check_count as _check_count  # the name set_threads and machine_load call
from .timing import (QUICK_FACTOR, Clock, Measurement, format_factor, format_factors, format_time,
                     quick_mode)

SyncArg = Union[None, Callable[[], Any], Mapping[str, Optional[Callable[[], Any]]]]

# Environment variables read at import time by the frameworks and the BLAS libraries.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")


def rounds_needed(confidence: float = 0.95) -> int:
    """Fewest values whose widest order-statistic interval (the range) covers the median at `confidence`.

    The range of n independent values misses the median with probability 2 / 2**n, so
    95 % needs 6 values (96.9 %); with 5 the range covers only 93.8 %.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return max(2, math.ceil(math.log2(2 / (1 - confidence)) - 1e-12))


MIN_ROUNDS = rounds_needed(0.95)  # 6: below this, no 95 % interval is claimed


class Interval(NamedTuple):
    """An interval of a median and the probability that it covers the median (independent values)."""

    low: float
    high: float
    coverage: float  # 1 - 2 P(Binomial(n, 1/2) <= k), for the k values cut from each end

    def claims(self, confidence: float = 0.95) -> bool:
        """True when the interval reaches `confidence`; False means it is only the range."""
        return self.coverage >= confidence


def median_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Return a distribution-free interval for the median of independent `values` (order statistics).

    The interval runs from the (k+1)-th smallest to the (k+1)-th largest value, with k the
    largest number of values cut from each end whose binomial coverage is still at least
    `confidence`.  With too few values (fewer than 6 at 95 %) no such k exists: the
    interval is the whole range, and its `coverage` (below `confidence`) flags that it is
    no 95 % claim (`Interval.claims` is False).
    """
    if isinstance(values, (str, bytes)) or not values:
        raise ValueError("values must not be empty")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    ordered = sorted(values)
    n = len(ordered)
    k = 0  # number of values cut from each end (P(B <= k) is the miss rate of one end)
    below = 0.0  # P(Binomial(n, 1/2) <= j)
    coverage = 1 - 2 * 0.5 ** n  # the whole range
    for j in range(n // 2):
        below += math.comb(n, j) / 2 ** n
        if 1 - 2 * below < confidence:
            break
        k, coverage = j, 1 - 2 * below
    return Interval(ordered[k], ordered[n - 1 - k], coverage)


def _ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def lag1_autocorrelation(values: Sequence[float]) -> float:
    """Lag-1 autocorrelation of the ranks of `values` in their order (0 for fewer than 3 or all equal).

    Ranks, not the values, so that one slow round does not decide it.
    """
    n = len(values)
    if n < 3:
        return 0.0
    centred = [r - (n + 1) / 2 for r in _ranks(values)]
    total = sum(c * c for c in centred)
    if total == 0:
        return 0.0
    return sum(a * b for a, b in zip(centred, centred[1:])) / total


def block_length(values: Sequence[float], confidence: float = 0.95) -> int:
    """Rounds per block for `round_interval`: 1 for independent rounds, more when rounds drift.

    The lag-1 autocorrelation r of the per-round values is corrected for its downward bias
    in short series (r + (1 + 3r) / n, Kendall's approximation for the AR(1) estimate).  At
    0.1 or less the rounds count as independent.  Above, an AR(1) series of correlation r
    holds as much information about its mean as one independent value every
    (1 + r) / (1 - r) rounds; blocks take 1.5 times that, so that neighbouring blocks are
    nearly independent too (a block length of exactly (1 + r) / (1 - r) covered 91-93 % at
    nominal 95 % in simulation, 1.5 times it 95-96 %).  Blocks never get so long that fewer
    than `rounds_needed(confidence)` of them are left.
    """
    n = len(values)
    most = n // rounds_needed(confidence)
    if most <= 1:  # too few rounds for two blocks of the length needed
        return 1
    r = lag1_autocorrelation(values)
    r = min(r + (1 + 3 * r) / n, 0.9)
    if r <= 0.1:
        return 1
    return min(most, math.ceil(1.5 * (1 + r) / (1 - r)))


def round_interval(per_round: Sequence[float], confidence: float = 0.95) -> tuple[Interval, int]:
    """Interval of the median of per-round values that stays honest when rounds drift; and the block length.

    Consecutive rounds are grouped into blocks of about `block_length` rounds (all rounds
    used, blocks of near-equal length), each block is reduced to its median, and the
    order-statistic interval is taken over the block medians (`median_interval`).  With
    independent rounds the blocks are single rounds.  The interval is widened, if need be,
    to hold the median of all rounds (the factor printed).
    """
    values = list(per_round)
    if not values:
        raise ValueError("per_round must not be empty")
    n = len(values)
    block = block_length(values, confidence)
    m = n // block
    edges = [round(i * n / m) for i in range(m + 1)]
    blocks = [statistics.median(values[edges[i]:edges[i + 1]]) for i in range(m)]
    interval = median_interval(blocks, confidence)
    centre = statistics.median(values)
    return Interval(min(interval.low, centre), max(interval.high, centre), interval.coverage), block


@dataclass(frozen=True)
class Ratio:
    """The speed-up of `mode` over `baseline`: median of per-round ratios and its interval.

    `rounds` counts the per-round values, `block` the rounds per block of the interval
    (1 when rounds are independent), and `needed` the rounds a claimed interval needs
    (6 at 95 %): with fewer, [low, high] is only the range and no verdict is resolved.
    """

    mode: str
    baseline: str
    median: float
    low: float
    high: float
    rounds: int
    block: int = 1
    needed: int = MIN_ROUNDS
    words: tuple[str, str] = ("faster", "slower")  # ("larger", "smaller") for a ratio of speed-ups

    @property
    def half_width(self) -> float:
        """Half the interval's width, relative to the median (0.05 means ±5 %)."""
        return (self.high - self.low) / 2 / self.median

    @property
    def claimed(self) -> bool:
        """True when [low, high] is a 95 % interval; False when too few rounds make it the range."""
        return self.rounds >= self.needed

    def verdict(self, threshold: float = 1.2) -> str:
        """Return the verdict at `threshold` T (> 1), with T in its words.

        'faster by more than Tx' (the interval lies above T), 'slower by more than Tx'
        (below 1/T; `words` replaces 'faster' and 'slower', e.g. 'larger' for a ratio of
        speed-ups), 'less than Tx apart' (inside (1/T, T): not resolved at T, which does not
        mean no effect), 'not resolved at Tx' (the interval reaches past T or 1/T), and
        'not resolved at Tx (fewer than 6 rounds)' when no interval is claimed.
        """
        t = check_positive("threshold", threshold)
        if t <= 1:
            raise ValueError(f"threshold must be greater than 1, got {threshold}")
        factor = format_factor(t)
        if not self.claimed:
            return f"not resolved at {factor} (fewer than {self.needed} rounds)"
        above, below = self.words
        if self.low > t:
            return f"{above} by more than {factor}"
        if self.high < 1 / t:
            return f"{below} by more than {factor}"
        if self.low > 1 / t and self.high < t:
            return f"less than {factor} apart"
        return f"not resolved at {factor}"

    def _texts(self, threshold: Optional[float] = None) -> tuple[str, str, str]:
        """Median, low and high as printed (`format_factors`: a decimal more where the ends print alike)."""
        return format_factors(self.median, self.low, self.high, threshold)

    def interval_text(self, threshold: Optional[float] = None) -> str:
        """'(6.34x to 6.53x)', or '(range 1.20x to 1.60x)' when too few rounds make it no interval."""
        head = "" if self.claimed else "range "
        _, low, high = self._texts(threshold)
        return f"({head}{low} to {high})"

    def factor_text(self) -> str:
        """'<median> (<low> to <high>)', all three with one formatter, as `describe` prints them."""
        return f"{self._texts()[0]} {self.interval_text()}"

    def describe(self, threshold: float = 1.2) -> str:
        """Return '<verdict>, <median> (<low> to <high>)'.

        For example 'faster by more than 1.50x, 6.44x (6.34x to 6.53x)'; with fewer than 6 rounds
        'not resolved at 1.50x (fewer than 6 rounds), 1.40x (range 1.20x to 1.60x)'. An end that
        would round to the threshold gets another decimal ('1.02x (0.980x to 1.098x)' at 1.10x).
        """
        return f"{self.verdict(threshold)}, {self._texts(threshold)[0]} {self.interval_text(threshold)}"


def _ratio(mode: str, baseline: str, per_round: list[float], confidence: float) -> Ratio:
    """A Ratio from one value per round: median, block interval, flags."""
    interval, block = round_interval(per_round, confidence)
    return Ratio(mode, baseline, statistics.median(per_round), interval.low, interval.high, len(per_round),
                 block, rounds_needed(confidence))


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
        """Speed-up of `mode` over `baseline` from the ratios of each round (see `round_interval`)."""
        a = self.times[self._check_label("baseline", baseline)]
        b = self.times[self._check_label("mode", mode)]
        return _ratio(mode, baseline, [x / y for x, y in zip(a, b)], confidence)

    def difference(self, mode: str, baseline: str) -> float:
        """Median over rounds of `mode`'s seconds per call minus `baseline`'s, taken round by round."""
        a = self.times[self._check_label("mode", mode)]
        b = self.times[self._check_label("baseline", baseline)]
        return statistics.median(x - y for x, y in zip(a, b))

    def net_ratio(self, mode: str, baseline: str, overhead: str, confidence: float = 0.95) -> Ratio:
        """Speed-up of `mode` over `baseline` once `overhead`'s time is taken off both, round by round.

        Per round (baseline - overhead) / (mode - overhead): for example two walks without the
        fixed cost of the call that runs them.  A round where `mode` or `baseline` took no longer
        than `overhead` (a block slowed by other processes) has nothing left to compare and is left
        out; the Ratio counts only the rounds kept, so too few of them read "too few rounds".
        Interval as in `round_interval`.  Raises ValueError where no round is left.
        """
        base = self.times[self._check_label("baseline", baseline)]
        times = self.times[self._check_label("mode", mode)]
        fixed = self.times[self._check_label("overhead", overhead)]
        per_round = [(b - o) / (m - o) for b, m, o in zip(base, times, fixed) if b > o and m > o]
        if not per_round:
            raise ValueError(f"overhead {overhead!r} took as long as {mode!r} or {baseline!r} "
                             f"in every round: nothing is left to compare")
        return _ratio(mode, baseline, per_round, confidence)

    def _amounts(self, work: Optional[Mapping[str, float]]) -> dict[str, float]:
        return {label: 1.0 for label in self.labels} if work is None else dict(work)

    def group_ratio(self, group: Sequence[str], baseline: Sequence[str],
                    work: Optional[Mapping[str, float]] = None, confidence: float = 0.95) -> Ratio:
        """Ratio of rates of two groups of modes: per round, median rate of `group` / of `baseline`.

        The rate of a mode is `work[label]` / its time per call (work 1 when `work` is None),
        so modes that do different amounts of work compare fairly.  With one label per group
        this is the ratio of two rates.  One value per round; interval as in `round_interval`.
        """
        for name, labels in (("group", group), ("baseline", baseline)):
            if isinstance(labels, str) or not labels:
                raise TypeError(f"{name} must be a non-empty sequence of labels")
            for label in labels:
                self._check_label(name, label)
        amount = self._amounts(work)
        missing = [label for label in (*group, *baseline) if label not in amount]
        if missing:
            raise ValueError(f"work has no amount for {missing}")

        def rate(labels: Sequence[str], r: int) -> float:
            return statistics.median(amount[label] / self.times[label][r] for label in labels)

        per_round = [rate(group, r) / rate(baseline, r) for r in range(self.rounds)]
        name = group[0] if len(group) == 1 else f"{len(group)} modes"
        base = baseline[0] if len(baseline) == 1 else f"{len(baseline)} modes"
        return _ratio(name, base, per_round, confidence)

    def pair_ratio(self, pairs: Sequence[tuple[str, str]], work: Optional[Mapping[str, float]] = None,
                   confidence: float = 0.95) -> Ratio:
        """Ratio of rates over (mode, baseline) pairs: per round, the median over the pairs.

        Each pair is compared within each round, so pairs of modes timed next to each other
        (neighbours in the rotating order) share the machine's conditions best.  The pairs of
        one round share that round's conditions too, so they give one value per round (their
        median), not one value per pair: the interval (`round_interval`) counts rounds.
        """
        if isinstance(pairs, (str, bytes)) or not pairs:
            raise TypeError("pairs must be a non-empty sequence of (mode, baseline) pairs")
        amount = self._amounts(work)
        checked = []
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise TypeError(f"pairs must hold (mode, baseline) tuples, got {pair!r}")
            mode, base = self._check_label("mode", pair[0]), self._check_label("baseline", pair[1])
            if mode not in amount or base not in amount:
                raise ValueError(f"work has no amount for {pair}")
            checked.append((mode, base))
        per_round = [statistics.median((amount[m] / self.times[m][r]) / (amount[b] / self.times[b][r])
                                       for m, b in checked)
                     for r in range(self.rounds)]
        return _ratio(f"{len(pairs)} pairs", "their baselines", per_round, confidence)

    def verdict(self, mode: str, baseline: str, threshold: float = 1.2) -> str:
        """Print '<mode> against <baseline>: <verdict>, <factor> (<interval>)'; return the verdict."""
        r = self.ratio(mode, baseline)
        print(f"{mode} against {baseline}: {r.describe(threshold)}")
        return r.verdict(threshold)

    def measurements(self) -> list[Measurement]:
        """The modes as helpers.Measurement objects (for bar_modes and plot)."""
        return [Measurement(label, list(t), self.number[label], warmup=0) for label, t in self.times.items()]

    def rows(self, *labels: str) -> "Comparison":
        """The same rounds for some of the modes only, in the order given (to print a table in parts)."""
        if not labels:
            raise TypeError("rows needs at least one label")
        for label in labels:
            self._check_label("label", label)
        return Comparison({label: list(self.times[label]) for label in labels},
                          {label: self.number[label] for label in labels})

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
        claimed = self.rounds >= MIN_ROUNDS
        print(f"{'mode':<{width}} | median ± IQR/2 | speed-up "
              + ("(95 % interval)" if claimed else f"(range: fewer than {MIN_ROUNDS} rounds, no interval)"))
        for m in self.measurements():
            line = f"{m.label:<{width}} | {format_time(m.median)} ± {format_time(m.spread)} | "
            if m.label in bases:
                r = self.ratio(m.label, bases[m.label])
                line += f"{format_factors(r.median, r.low, r.high)[0]} {r.interval_text()} over {bases[m.label]}"
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
            check_callable(f"sync[{label!r}]", s, optional=True)
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
        check_callable(f"modes[{label!r}]", fn)
    budget = check_positive("budget", budget)
    block = check_positive("block", block)
    check_count("min_rounds", min_rounds)
    check_count("max_rounds", max_rounds)
    check_count("warmup", warmup, allow_zero=True)
    if max_rounds < min_rounds:
        raise ValueError(f"max_rounds must be at least min_rounds ({min_rounds}), got {max_rounds}")
    check_callable("clock", clock)
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
    check_callable("fn", fn)
    check_callable("sync", sync, optional=True)
    start = clock()
    fn()
    if sync is not None:
        sync()
    return clock() - start


def time_alone(fn: Callable[[], Any], label: str = "", *, number: int = 100, repeats: int = 7,
               warmup: int = 10, sync: Optional[Callable[[], Any]] = None, clock: Clock = time.perf_counter,
               quiet: bool = True) -> Measurement:
    """Time one function alone, for a rate that compares with nothing (a roofline's peak).

    `warmup` untimed calls (then `sync`), then `repeats` blocks of `number` calls, each block
    timed as `compare` times its blocks (`sync` inside, garbage collector paused); the counts
    are scaled down in quick mode.  Anything compared with something else goes through
    `compare`, which interleaves.  Prints the Measurement unless `quiet`.
    """
    check_callable("fn", fn)
    check_callable("sync", sync, optional=True)
    check_callable("clock", clock)
    check_count("number", number)
    check_count("repeats", repeats)
    check_count("warmup", warmup, allow_zero=True)
    if quick_mode():
        number = max(1, math.ceil(number / QUICK_FACTOR))
        repeats = max(3, math.ceil(repeats / QUICK_FACTOR))
        warmup = math.ceil(warmup / QUICK_FACTOR)
    for _ in range(warmup):
        fn()
    if sync is not None:
        sync()
    run = _block(fn, number, sync)
    result = Measurement(label, [_timed(run, clock) / number for _ in range(repeats)], number, warmup)
    if not quiet:
        print(result)
    return result


def set_threads(n: int) -> str:
    """Use `n` threads in every framework; return a line saying so.

    Call it before importing the frameworks: MXNet and the BLAS libraries read their
    thread count from the environment when they are imported, and JAX's XLA:CPU client
    when it starts (its first operation).  Frameworks already imported are set through
    their own API where they have one (PyTorch, TensorFlow before its first operation).
    ONNX Runtime takes its thread counts from each session's options, not from here
    (helpers.modes passes them).
    """
    _check_count("n", n)
    if n == 0:
        raise ValueError("n must be one or more, got 0")
    for name in THREAD_VARIABLES:
        os.environ[name] = "1" if name == "TF_NUM_INTEROP_THREADS" else str(n)
    # XLA:CPU (jax.jit and JAX's eager operations) sizes the intra-op thread pool of its PJRT
    # client from PJRT_NPROC, else NPROC, else the CPU count (xla/pjrt/utils.cc,
    # DefaultThreadPoolSize; jaxlib 0.10.2).  XLA_FLAGS cannot do it in 0.10.2: with
    # "--xla_cpu_multi_thread_eigen=false" a jax.jit matmul still ran on several threads
    # (tests/test_threads.py), and XLA aborts on a flag it does not know, so none is added.
    # TensorFlow's XLA (jit_compile=True) runs on TensorFlow's pool: TF_NUM_INTRAOP_THREADS.
    os.environ["PJRT_NPROC"] = str(n)
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
    jax_backends = getattr(sys.modules.get("jax._src.xla_bridge"), "_backends", None)
    if jax_backends:  # JAX's CPU client has started: its pool size is fixed
        late.append("jax")
    line = f"Threads: {n} per framework"
    if late:
        line += f" (too late for {', '.join(late)}: imported before set_threads)"
    return line


def busy_cores(interval: float = 0.5) -> Optional[float]:
    """Return how many of this process's cores were busy over the next `interval` seconds (None without psutil).

    This process only sleeps meanwhile, so the time counted is other processes' (and any busy
    thread of this one).  A one-minute load average would also count this notebook's own recent
    work, such as a compilation a few seconds earlier.
    """
    interval = check_positive("interval", interval)
    from .frameworks import usable_cpus
    try:
        import psutil
    except ImportError:
        return None
    per_cpu = psutil.cpu_percent(interval=interval, percpu=True)
    return sum(per_cpu[i] for i in usable_cpus() if i < len(per_cpu)) / 100


def machine_load(cores: Optional[int] = None, interval: float = 0.5) -> str:
    """Return a 'Machine load: ...' line that says whether other processes keep the CPU busy.

    The timings need up to two cores of their own (the Python thread, and MXNet's engine thread
    in notebooks 05 and 06), so the line calls the machine quiet when other work leaves at least
    that many cores, less half a core, free.
    """
    from .frameworks import usable_cores
    cores = usable_cores() if cores is None else cores
    _check_count("cores", cores)
    busy = busy_cores(interval)
    if busy is None:
        return "Machine load: unknown here (the psutil package is not installed)"
    head = f"Machine load: {busy:.1f} of {cores} cores busy over {interval:g} s while this process waited"
    if cores - busy < min(2, cores) - 0.5:
        return (f"{head}: other processes are busy, so timings are slowed and noisier; "
                "some verdicts may read 'not resolved'")
    return f"{head}: quiet enough for timing"


__all__ = ["MIN_ROUNDS", "Comparison", "Interval", "Ratio", "block_length", "compare", "first_call",
           "busy_cores", "lag1_autocorrelation", "machine_load", "median_interval", "round_interval",
           "rounds_needed", "set_threads", "time_alone"]
