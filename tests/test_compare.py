"""Unit tests of helpers.compare: interleaving, intervals and verdicts, with a fake clock;
the intervals' coverage on simulated rounds; and the sanitizer on verdict lines."""

import math
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import helpers
from helpers.comparison import (MIN_ROUNDS, Comparison, Ratio, block_length, busy_cores, compare, first_call,
                                lag1_autocorrelation, machine_load, median_interval, round_interval,
                                rounds_needed, set_threads, time_alone)
from helpers.frameworks import usable_cores

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


class FakeClock:
    """A clock that advances only when a fake mode does 'work'; records the order of calls."""

    def __init__(self) -> None:
        self.now = 0.0
        self.order: list[str] = []

    def __call__(self) -> float:
        return self.now

    def mode(self, label: str, seconds: float):
        def run() -> None:
            self.order.append(label)
            self.now += seconds
        return run


def test_median_interval_uses_order_statistics():
    values = list(range(1, 21))  # n = 20: the 95 % interval of the median is (x6, x15)
    interval = median_interval(values)
    assert (interval.low, interval.high) == (6, 15)
    assert interval.coverage == pytest.approx(1 - 2 * sum(math.comb(20, j) for j in range(6)) / 2 ** 20)
    assert interval.coverage >= 0.95 and interval.claims()
    with pytest.raises(ValueError, match="values"):
        median_interval([])
    with pytest.raises(ValueError, match="confidence"):
        median_interval([1.0], confidence=1.5)


def test_fewer_than_six_values_make_no_95_percent_claim():
    assert rounds_needed(0.95) == MIN_ROUNDS == 6 and rounds_needed(0.99) == 8
    five = median_interval([3.0, 1.0, 2.0, 5.0, 4.0])  # the range covers 1 - 2/32 = 93.75 %
    assert (five.low, five.high) == (1.0, 5.0)
    assert five.coverage == pytest.approx(0.9375) and not five.claims(0.95)
    six = median_interval([3.0, 1.0, 2.0, 5.0, 4.0, 6.0])
    assert (six.low, six.high) == (1.0, 6.0) and six.coverage == pytest.approx(1 - 2 / 64) and six.claims()


def test_compare_interleaves_and_rotates_the_order(full_mode):
    clock = FakeClock()
    modes = {"a": clock.mode("a", 0.002), "b": clock.mode("b", 0.001)}
    result = compare(modes, budget=0.001, block=0.004, min_rounds=4, warmup=1, clock=clock)
    assert result.number == {"a": 2, "b": 5}  # the smallest 1-2-5 block lasting 4 ms
    assert result.rounds == 4
    timed = clock.order[1 + 1 + 2 * (1 + 2) + 2 * (1 + 2 + 5):]  # after warm-up and calibration (each size twice)
    blocks = []
    for label in timed:
        if not blocks or blocks[-1][0] != label:
            blocks.append([label, 0])
        blocks[-1][1] += 1
    # rounds a b | b a | a b | b a: neighbouring blocks of one mode merge in the call log
    assert blocks == [["a", 2], ["b", 10], ["a", 4], ["b", 10], ["a", 2]]
    assert result.median("a") == pytest.approx(0.002)
    assert result.ratio("b", "a").median == pytest.approx(2.0)


def test_compare_runs_until_the_budget_is_spent(full_mode):
    clock = FakeClock()
    result = compare({"x": clock.mode("x", 0.01)}, budget=1.0, block=0.01, min_rounds=3, warmup=0, clock=clock)
    assert result.rounds == 100


def test_quick_mode_spends_a_tenth_but_keeps_min_rounds(quick):
    clock = FakeClock()
    result = compare({"x": clock.mode("x", 0.01)}, budget=1.0, block=0.01, min_rounds=3, warmup=0, clock=clock)
    assert result.rounds in (10, 11)  # 0.1 s of 10 ms rounds, up to rounding of the clock
    result = compare({"x": clock.mode("x", 0.01)}, budget=0.01, block=0.01, min_rounds=7, warmup=0, clock=clock)
    assert result.rounds == 7


def test_sync_runs_inside_every_block(full_mode):
    clock = FakeClock()
    waits = []
    result = compare({"x": clock.mode("x", 0.001), "y": clock.mode("y", 0.001)}, budget=1e-9, block=0.001,
                     min_rounds=2, warmup=0, sync={"x": lambda: waits.append(clock.now)}, clock=clock)
    assert result.rounds == 2
    assert len(waits) == 2 + 2  # the calibration block twice, then one per round; none for y


def test_ratio_and_verdicts():
    times = {"eager": [6.0, 6.0, 6.6, 6.0, 5.4, 6.0, 6.0], "graph": [1.0] * 7}
    cmp = Comparison(times, {"eager": 1, "graph": 1})
    r = cmp.ratio("graph", "eager")
    assert r.median == pytest.approx(6.0) and r.low == pytest.approx(5.4) and r.high == pytest.approx(6.6)
    assert r.half_width == pytest.approx(0.1) and r.rounds == 7 and r.block == 1 and r.claimed
    assert r.verdict(1.5) == "faster by more than 1.50x"
    assert cmp.ratio("eager", "graph").verdict(1.5) == "slower by more than 1.50x"
    assert r.verdict(6.0) == "not resolved at 6.00x"  # the interval straddles the threshold
    assert r.describe(1.5) == "faster by more than 1.50x, 6.00x (5.40x to 6.60x)"
    assert r.describe(1.1) == "faster by more than 1.10x, 6.00x (5.40x to 6.60x)"
    same = Ratio("a", "b", 0.89, 0.88, 0.90, 20)  # a resolved 11 % slow-down is still < 1.2x apart
    assert same.verdict(1.2) == "less than 1.20x apart"
    assert same.verdict(1.1) == "slower by more than 1.10x"
    assert same.verdict(1.12) == "not resolved at 1.12x"
    near = Ratio("a", "b", 1.02, 0.98, 1.0996, 20)  # the high end would print as the threshold
    assert near.verdict(1.1) == "less than 1.10x apart"
    assert near.describe(1.1).endswith("(0.9800x to 1.0996x)")   # one decimal more until it differs
    assert near.describe(1.2).endswith("(0.98x to 1.10x)")       # away from the threshold: as usual
    low_end = Ratio("a", "b", 0.95, 0.9092, 0.99, 20)  # the low end would print as 1/1.1 = 0.91
    assert low_end.describe(1.1).endswith("(0.9092x to 0.9900x)")  # 0.909 would still match 1/1.1
    alike = Ratio("a", "b", 1.002, 1.001, 1.004, 20)  # both ends would print as 1.00x: one decimal more
    assert alike.describe(1.5).endswith("1.002x (1.001x to 1.004x)")
    point = Ratio("a", "b", 2.0, 2.0, 2.0, 20)  # a degenerate interval keeps its usual decimals
    assert point.describe(1.5).endswith("2.00x (2.00x to 2.00x)")
    far = Ratio("a", "b", 0.3, 0.29, 0.31, 20)  # the same words for every threshold, 2x and more too
    assert far.verdict(10) == "less than 10.00x apart"
    assert far.verdict(3) == "slower by more than 3.00x"
    with pytest.raises(ValueError, match="threshold"):
        r.verdict(0.9)
    with pytest.raises(ValueError, match="mode"):
        cmp.ratio("nope", "eager")


def test_fewer_than_six_rounds_resolve_nothing_and_print_the_range():
    cmp = Comparison({"eager": [6.0, 6.6, 5.4, 6.0, 6.2], "graph": [1.0] * 5}, {"eager": 1, "graph": 1})
    r = cmp.ratio("graph", "eager")
    assert r.rounds == 5 and not r.claimed
    assert (r.low, r.high) == pytest.approx((5.4, 6.6))  # the range: no 95 % interval
    assert r.verdict(1.5) == "not resolved at 1.50x (fewer than 6 rounds)"
    assert r.describe(1.5) == "not resolved at 1.50x (fewer than 6 rounds), 6.00x (range 5.40x to 6.60x)"
    assert Ratio("a", "b", 6.0, 5.4, 6.6, 6).verdict(1.5) == "faster by more than 1.50x"


def test_group_ratio_compares_rates_per_round():
    times = {"a": [2.0, 2.0, 2.0], "b": [4.0, 4.0, 4.0], "c": [1.0, 1.0, 1.0], "d": [1.0, 1.0, 1.0]}
    cmp = Comparison(times, dict.fromkeys(times, 1))
    r = cmp.group_ratio(["a"], ["c"])
    assert r.median == pytest.approx(0.5)  # a takes twice as long: half the rate
    r = cmp.group_ratio(["a"], ["c"], work={"a": 2.0, "c": 1.0})
    assert r.median == pytest.approx(1.0)  # twice the work in twice the time: the same rate
    r = cmp.group_ratio(["c", "d", "a"], ["b"])
    assert r.median == pytest.approx(4.0) and r.mode == "3 modes" and r.baseline == "b"
    with pytest.raises(TypeError, match="group"):
        cmp.group_ratio("a", ["b"])
    with pytest.raises(ValueError, match="work"):
        cmp.group_ratio(["a"], ["b"], work={"a": 1.0})


def test_pair_ratio_gives_one_value_per_round():
    times = {"a": [1.0, 2.0, 1.0], "b": [2.0, 4.0, 2.0], "c": [1.0, 1.0, 1.0]}
    cmp = Comparison(times, dict.fromkeys(times, 1))
    r = cmp.pair_ratio([("a", "b"), ("c", "b"), ("a", "c")])
    # per round, pair ratios (a/b, c/b, a/c): (2, 2, 1), (2, 4, 0.5), (2, 2, 1); medians 2, 2, 2
    assert r.rounds == 3 and r.median == pytest.approx(2.0)
    assert (r.low, r.high) == pytest.approx((2.0, 2.0))
    assert r.mode == "3 pairs" and r.baseline == "their baselines"
    assert cmp.pair_ratio([("a", "b")], work={"a": 1.0, "b": 2.0}).median == pytest.approx(1.0)
    with pytest.raises(TypeError, match="pairs"):
        cmp.pair_ratio([])
    with pytest.raises(TypeError, match="pairs"):
        cmp.pair_ratio(["ab"])
    with pytest.raises(ValueError, match="work"):
        cmp.pair_ratio([("a", "b")], work={"a": 1.0})


def test_difference_and_net_ratio_work_round_by_round():
    times = {"slow": [5.0, 7.0, 6.0, 5.0, 6.0, 7.0, 5.0, 6.0],
             "fast": [2.0, 4.0, 3.0, 2.0, 3.0, 4.0, 2.0, 3.0],
             "call": [1.0, 3.0, 2.0, 1.0, 2.0, 3.0, 1.0, 2.0]}
    cmp = Comparison(times, dict.fromkeys(times, 1))
    assert cmp.difference("slow", "fast") == 3.0
    assert cmp.difference("fast", "slow") == -3.0
    net = cmp.net_ratio("slow", "fast", "call")
    assert net.median == 0.25 and net.low == net.high == 0.25   # (fast - call) / (slow - call) = 1 / 4
    assert (net.mode, net.baseline, net.rounds) == ("slow", "fast", 8)
    assert net.verdict(1.25) == "slower by more than 1.25x"
    assert cmp.ratio("slow", "fast").median > net.median         # the fixed cost hides part of the gap
    with pytest.raises(ValueError, match="overhead"):
        cmp.net_ratio("call", "fast", "call")
    # a round where load made the overhead as slow as a mode is left out, and counted out
    slowed = dict(times, call=[1.0, 3.0, 2.0, 5.0, 2.0, 3.0, 1.0, 2.0])
    kept = Comparison(slowed, dict.fromkeys(slowed, 1)).net_ratio("slow", "fast", "call")
    assert kept.median == 0.25 and kept.rounds == 7
    with pytest.raises(ValueError, match="overhead must be one of"):
        cmp.net_ratio("slow", "fast", "nothing")
    with pytest.raises(ValueError, match="mode must be one of"):
        cmp.difference("nothing", "fast")


def test_verdict_and_table_print(capsys):
    cmp = Comparison({"eager": [2e-3] * 6, "graph": [1e-3] * 6}, {"eager": 3, "graph": 5})
    assert cmp.verdict("graph", "eager", threshold=1.5) == "faster by more than 1.50x"
    cmp.table(baseline="eager")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "graph against eager: faster by more than 1.50x, 2.00x (2.00x to 2.00x)"
    assert out[1] == "mode  | median ± IQR/2 | speed-up (95 % interval)"
    assert out[2] == "eager | 2 ms ± 0 ns | -"
    assert out[3] == "graph | 1 ms ± 0 ns | 2.00x (2.00x to 2.00x) over eager"
    assert out[4] == "(6 rounds, interleaved)"
    assert [m.number for m in cmp.measurements()] == [3, 5]
    with pytest.raises(TypeError, match="baseline"):
        cmp.table(baseline=3)


def test_rows_keeps_the_rounds_of_the_labels_given(capsys):
    cmp = Comparison({"eager": [2e-3] * 6, "graph": [1e-3] * 6, "other": [4e-3] * 6}, {"eager": 3, "graph": 5, "other": 1})
    part = cmp.rows("graph", "eager")
    assert part.labels == ["graph", "eager"] and part.rounds == 6 and part.number == {"graph": 5, "eager": 3}
    assert part.ratio("graph", "eager").median == cmp.ratio("graph", "eager").median
    part.table(baseline="eager")
    assert capsys.readouterr().out.splitlines()[1] == "graph | 1 ms ± 0 ns | 2.00x (2.00x to 2.00x) over eager"
    with pytest.raises(ValueError, match="label"):
        cmp.rows("nope")
    with pytest.raises(TypeError):
        cmp.rows()


def test_table_with_fewer_than_six_rounds_prints_ranges(capsys):
    cmp = Comparison({"eager": [2e-3, 3e-3, 2e-3], "graph": [1e-3] * 3}, {"eager": 1, "graph": 1})
    cmp.table(baseline="eager")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "mode  | median ± IQR/2 | speed-up (range: fewer than 6 rounds, no interval)"
    assert out[2] == "graph | 1 ms ± 0 ns | 2.00x (range 2.00x to 3.00x) over eager"


def test_compare_checks_its_arguments():
    with pytest.raises(TypeError, match="modes"):
        compare({})
    with pytest.raises(TypeError, match=r"modes\['a'\]"):
        compare({"a": 3})
    with pytest.raises(ValueError, match="budget"):
        compare({"a": lambda: None}, budget=0)
    with pytest.raises(ValueError, match="max_rounds"):
        compare({"a": lambda: None}, min_rounds=5, max_rounds=2)
    with pytest.raises(ValueError, match="sync names"):
        compare({"a": lambda: None}, sync={"b": lambda: None})


def test_compare_on_real_work_gives_a_tight_ratio(full_mode):
    """Two real workloads whose costs differ about threefold: the verdict must say so."""
    data = list(range(300))
    result = compare({"one": lambda: sum(data), "three": lambda: (sum(data), sum(data), sum(data))},
                     budget=1.0, block=0.002, min_rounds=40)
    r = result.ratio("one", "three")
    assert 2.0 < r.median < 4.0
    assert r.verdict(1.5) == "faster by more than 1.50x"


def test_first_call_times_one_call_and_sync():
    clock = FakeClock()
    assert first_call(clock.mode("x", 0.25), sync=clock.mode("s", 0.5), clock=clock) == pytest.approx(0.75)
    with pytest.raises(TypeError, match="fn"):
        first_call(None)


def test_set_threads_sets_the_environment(monkeypatch):
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS",
                 "PJRT_NPROC"):
        monkeypatch.delenv(name, raising=False)
    # set_threads also sets an imported PyTorch's pool and variables this test did not delete:
    # the autouse fixture in tests/conftest.py gives both back.
    line = set_threads(2)
    assert line.startswith("Threads: 2 per framework")
    assert os.environ["OMP_NUM_THREADS"] == "2" and os.environ["TF_NUM_INTRAOP_THREADS"] == "2"
    assert os.environ["TF_NUM_INTEROP_THREADS"] == "1"
    with pytest.raises(ValueError, match="n"):
        set_threads(0)


def test_machine_load_says_busy_or_quiet(monkeypatch):
    monkeypatch.setattr("helpers.comparison.busy_cores", lambda interval: 1.2)
    assert "other processes are busy" in machine_load(cores=2)
    assert "quiet enough" in machine_load(cores=8)        # six cores still free
    monkeypatch.setattr("helpers.comparison.busy_cores", lambda interval: 0.2)
    assert machine_load(cores=2) == ("Machine load: 0.2 of 2 cores busy over 0.5 s while this process waited: "
                                     "quiet enough for timing")
    assert "other processes are busy" not in machine_load(cores=1)
    monkeypatch.setattr("helpers.comparison.busy_cores", lambda interval: 0.7)
    assert "other processes are busy" in machine_load(cores=1)
    monkeypatch.setattr("helpers.comparison.busy_cores", lambda interval: None)
    assert machine_load(cores=2).startswith("Machine load: unknown")
    with pytest.raises(ValueError, match="cores"):
        machine_load(cores=0)


def test_busy_cores_sees_a_spinning_process():
    quiet = busy_cores(0.3)
    assert quiet is not None and 0 <= quiet <= usable_cores()
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)                                   # let it start
        assert busy_cores(0.5) >= 0.6                     # one core spinning, whatever else runs
    finally:
        spinner.kill()
        spinner.wait()
    with pytest.raises(ValueError, match="interval"):
        busy_cores(0)


def test_exported_from_helpers():
    assert helpers.compare is compare and helpers.set_threads is set_threads


def test_one_slow_call_does_not_fix_a_too_small_block(full_mode):
    clock = FakeClock()
    costs = iter([1.0])  # the first call after warm-up is slow once (a late compile, a busy moment)

    def mode():
        clock.now += next(costs, 0.001)

    result = compare({"x": mode}, budget=1e-9, block=0.004, min_rounds=2, warmup=0, clock=clock)
    assert result.number == {"x": 5}


def test_time_alone_times_blocks_with_sync_inside(full_mode):
    clock = FakeClock()
    waits = []
    m = time_alone(clock.mode("x", 0.5), "x", number=4, repeats=3, warmup=2,
                   sync=lambda: waits.append(clock.now), clock=clock)
    assert m.times == [0.5, 0.5, 0.5] and m.number == 4 and m.warmup == 2
    assert clock.order == ["x"] * (2 + 3 * 4)
    assert len(waits) == 1 + 3  # after the warm-up, then inside every timed block
    with pytest.raises(TypeError, match="fn"):
        time_alone(3)
    with pytest.raises(ValueError, match="repeats"):
        time_alone(lambda: None, repeats=0)


def test_time_alone_scales_down_in_quick_mode(quick):
    clock = FakeClock()
    m = time_alone(clock.mode("x", 1.0), number=100, repeats=7, warmup=10, clock=clock)
    assert (m.number, m.repeats, m.warmup) == (10, 3, 1)
    assert len(clock.order) == 1 + 3 * 10


# --- Blocks of rounds: the interval when rounds drift --------------------------------------------

def ar1(n, rho, rng):
    """n values of a stationary AR(1) series with lag-1 correlation rho and unit variance."""
    x, out = rng.gauss(0, 1), []
    for _ in range(n):
        out.append(x)
        x = rho * x + math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
    return out


def test_block_length_follows_the_autocorrelation():
    rng = random.Random(3)
    assert lag1_autocorrelation([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]) == pytest.approx(0.5)  # ranks 1..6
    assert lag1_autocorrelation([1.0, 1.0, 1.0]) == 0.0
    assert block_length([1.0, 3.0] * 20) == 1  # alternating: negative autocorrelation
    assert block_length([float(i) for i in range(40)]) == 6  # a trend: as long as 6 blocks allow
    drifting = [math.exp(0.1 * v) for v in ar1(200, 0.8, rng)]
    assert 6 <= block_length(drifting) <= 200 // MIN_ROUNDS
    interval, block = round_interval(drifting)
    assert block == block_length(drifting) and interval.low <= sorted(drifting)[100] <= interval.high


def coverage(make_comparison, ratio, truth, simulations, seed):
    """Share of simulated runs whose printed interval holds the true factor."""
    rng = random.Random(seed)
    hits = 0
    for _ in range(simulations):
        r = ratio(make_comparison(rng))
        hits += r.low <= truth <= r.high
    return hits / simulations


def rounds_comparison(rho, rounds, truth=2.0, sd=0.05):
    """Baseline and mode times whose per-round ratio is truth x exp(AR(1) noise)."""
    def make(rng):
        noise = ar1(rounds, rho, rng)
        base = [truth * math.exp(sd * e) for e in noise]
        return Comparison({"base": base, "mode": [1.0] * rounds}, {"base": 1, "mode": 1})
    return make


def by_ratio(cmp):
    return cmp.ratio("mode", "base")


def test_interval_covers_about_95_percent_of_independent_rounds():
    cov = coverage(rounds_comparison(0.0, 40), by_ratio, 2.0, 1000, seed=1)
    assert 0.93 <= cov <= 0.985  # order statistics of 40 values: 96.2 % exactly, a little more with blocks


def test_interval_covers_at_least_90_percent_when_rounds_drift():
    """AR(1) drift, autocorrelation 0.5, 40 rounds: plain order statistics covered 82.5 % (4000 runs)."""
    make = rounds_comparison(0.5, 40)
    cov = coverage(make, by_ratio, 2.0, 1000, seed=2)
    assert cov >= 0.90

    def plain(cmp):  # one block per round: the interval without blocks
        per_round = [a / b for a, b in zip(cmp.times["base"], cmp.times["mode"])]
        return median_interval(per_round)

    assert coverage(make, plain, 2.0, 1000, seed=2) < 0.88  # the test can fail: blocks are needed


def pairs_comparison(n_pairs, rounds, truth=2.0, shared=0.05, own=0.02):
    """Modes in pairs whose rate ratio is truth x a per-round effect shared by every pair x its own noise."""
    def make(rng):
        times = {}
        effect = [rng.gauss(0, shared) for _ in range(rounds)]
        for p in range(n_pairs):
            times[f"base {p}"] = [truth * math.exp(e + rng.gauss(0, own)) for e in effect]
            times[f"mode {p}"] = [1.0] * rounds
        return Comparison(times, dict.fromkeys(times, 1))
    return make


def test_pair_ratio_covers_at_least_90_percent_with_a_shared_round_effect():
    """16 pairs x 11 rounds, as in 08: pooling the 176 values as independent covered 45 % (4000 runs)."""
    make = pairs_comparison(16, 11)
    pairs = [(f"mode {p}", f"base {p}") for p in range(16)]
    assert coverage(make, lambda cmp: cmp.pair_ratio(pairs), 2.0, 500, seed=3) >= 0.90

    def pooled(cmp):  # the old way: every pair of every round as one independent value
        return median_interval([cmp.times[b][r] / cmp.times[m][r] for m, b in pairs for r in range(11)])

    assert coverage(make, pooled, 2.0, 500, seed=3) < 0.80


# --- The sanitizer on verdict lines: measured factors masked, thresholds kept ---------------------

def sanitize_rules():
    """The (regex, replace) pairs of nbval_sanitize.cfg, read as nbval reads them."""
    text = SANITIZE.read_text()
    rules = re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, flags=re.MULTILINE)
    assert len(rules) == text.count("\nregex: ")  # every regex: line has its replace: line
    return rules


def sanitize(line):
    for regex, replace in sanitize_rules():
        line = re.sub(regex, replace, line)
    return line


def test_sanitize_rules_are_read_as_nbval_reads_them():
    nbval = pytest.importorskip("nbval.plugin")
    assert nbval.get_sanitize_patterns(SANITIZE.read_text()) == sanitize_rules()


@pytest.mark.parametrize("stored, fresh", [
    ("tf.function against eager: faster by more than 1.50x, 6.44x (6.34x to 6.53x)",
     "tf.function against eager: faster by more than 1.50x, 5.03x (4.92x to 5.10x)"),
    ("1032 against 1024: less than 1.20x apart, 0.89x (0.88x to 0.90x)",
     "1032 against 1024: less than 1.20x apart, 1.01x (0.97x to 1.05x)"),
    ("a against b: not resolved at 1.10x, 1.08x (1.02x to 1.14x)",
     "a against b: not resolved at 1.10x, 0.93x (0.89x to 1.12x)"),
    ("a against b: not resolved at 1.50x (fewer than 6 rounds), 1.40x (range 1.20x to 1.60x)",
     "a against b: not resolved at 1.50x (fewer than 6 rounds), 1.31x (range 1.02x to 1.71x)"),
    ("graph | 1 ms ± 0 ns | 2.00x (2.00x to 2.00x) over eager",
     "graph | 3 ms ± 1 ms | 12.5x (11.0x to 14.25x) over eager"),
])
def test_a_measured_factor_change_is_masked(stored, fresh):
    assert sanitize(stored) == sanitize(fresh)
    assert "Nx" in sanitize(stored)


@pytest.mark.parametrize("stored, fresh", [
    ("tf.function against eager: faster by more than 1.50x, 6.44x (6.34x to 6.53x)",
     "tf.function against eager: faster by more than 1.20x, 6.44x (6.34x to 6.53x)"),
    ("1032 against 1024: less than 1.20x apart, 0.89x (0.88x to 0.90x)",
     "1032 against 1024: less than 1.05x apart, 0.89x (0.88x to 0.90x)"),
    ("a against b: not resolved at 1.10x, 1.08x (1.02x to 1.14x)",
     "a against b: not resolved at 1.50x, 1.08x (1.02x to 1.14x)"),
    ("a against b: slower by more than 10.00x, 0.02x (0.01x to 0.03x)",
     "a against b: slower by more than 3.00x, 0.02x (0.01x to 0.03x)"),
    ("tf.function against eager: faster by more than 1.50x, 6.44x (6.34x to 6.53x)",
     "tf.function against eager: not resolved at 1.50x, 6.44x (6.34x to 6.53x)"),
])
def test_a_threshold_or_verdict_change_is_visible(stored, fresh):
    assert sanitize(stored) != sanitize(fresh)


def test_describe_output_keeps_its_threshold_through_the_sanitizer():
    for threshold in (1.05, 1.1, 1.2, 1.5, 2.0, 10.0):
        for r in (Ratio("a", "b", 6.44, 6.34, 6.53, 40), Ratio("a", "b", 0.89, 0.88, 0.9, 40),
                  Ratio("a", "b", 1.1, 0.9, 1.3, 40), Ratio("a", "b", 1.4, 1.2, 1.6, 5)):
            line = sanitize(r.describe(threshold))
            assert line.startswith(r.verdict(threshold) + ", Nx (")  # the verdict and its threshold, intact
            assert line.count("Nx") == 3


def test_a_reading_in_words_is_masked_but_a_verdict_on_its_own_line_is_not():
    stored = "In this run Inductor is slower than eager (its interval lies below 1)."
    fresh = "In this run Inductor is about as fast as eager."
    assert sanitize(stored) == sanitize(fresh) == "In this run READING"
    assert sanitize("In this run, page faults per call: eager 410.") == "In this run READING"
    verdict = "torch.compile (Inductor) against eager: less than 3.00x apart, 0.60x (0.59x to 0.60x)"
    assert sanitize(verdict) != sanitize(verdict.replace("less than 3.00x apart", "not resolved at 3.00x"))


def test_factor_text_uses_one_formatter():
    r = Ratio("g", "n = 1025", 1.0149, 1.005, 1.019, 40)  # median and ends rounded alike: 1.015x (1.005x to 1.019x)
    assert r.factor_text() == r.describe(1.5).split(", ", 1)[1]
    low, high = (float(x.rstrip("x")) for x in r.interval_text().strip("()").split(" to "))
    assert low <= float(r.factor_text().split("x")[0]) <= high
