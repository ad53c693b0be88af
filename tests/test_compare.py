"""Unit tests of helpers.compare: interleaving, intervals and verdicts, with a fake clock."""

import os

import pytest

import helpers
from helpers.comparison import Comparison, Ratio, compare, first_call, machine_load, median_interval, set_threads


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
    assert median_interval(values) == (6, 15)
    assert median_interval([3.0, 1.0, 2.0]) == (1.0, 3.0)  # too few values: the whole range
    with pytest.raises(ValueError, match="values"):
        median_interval([])
    with pytest.raises(ValueError, match="confidence"):
        median_interval([1.0], confidence=1.5)


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
    assert r.half_width == pytest.approx(0.1)
    assert r.verdict(1.2) == "faster"
    assert cmp.ratio("eager", "graph").verdict(1.2) == "slower"
    assert r.verdict(5.5) == "within the noise"
    same = Ratio("a", "b", 1.0, 0.95, 1.05, 20)
    assert same.verdict(1.2) == "about the same (within 1.20x)"
    far = Ratio("a", "b", 0.3, 0.29, 0.31, 20)  # 0.3x is not "about the same", but it is within 10x
    assert far.verdict(10) == "within 10.00x either way"
    assert far.verdict(1.2) == "slower"
    assert r.describe(1.2) == "faster, 6.00x (5.40x to 6.60x)"
    with pytest.raises(ValueError, match="threshold"):
        r.verdict(0.9)
    with pytest.raises(ValueError, match="mode"):
        cmp.ratio("nope", "eager")


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


def test_pair_ratio_pools_pairs_and_rounds():
    times = {"a": [1.0, 2.0], "b": [2.0, 4.0], "c": [1.0, 1.0]}
    cmp = Comparison(times, dict.fromkeys(times, 1))
    r = cmp.pair_ratio([("a", "b"), ("c", "b")])
    assert r.median == pytest.approx(2.0)  # per-round rate ratios 2, 2 (a/b) and 2, 4 (c/b)
    assert r.rounds == 4 and r.low == pytest.approx(2.0) and r.high == pytest.approx(4.0)
    assert cmp.pair_ratio([("a", "b")], work={"a": 1.0, "b": 2.0}).median == pytest.approx(1.0)
    with pytest.raises(TypeError, match="pairs"):
        cmp.pair_ratio([])
    with pytest.raises(TypeError, match="pairs"):
        cmp.pair_ratio(["ab"])
    with pytest.raises(ValueError, match="work"):
        cmp.pair_ratio([("a", "b")], work={"a": 1.0})


def test_verdict_and_table_print(capsys):
    cmp = Comparison({"eager": [2e-3] * 6, "graph": [1e-3] * 6}, {"eager": 3, "graph": 5})
    assert cmp.verdict("graph", "eager", threshold=1.5) == "faster"
    cmp.table(baseline="eager")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "graph against eager: faster, 2.00x (2.00x to 2.00x)"
    assert out[1].startswith("mode ")
    assert out[2] == "eager | 2 ms ± 0 ns | -"
    assert out[3] == "graph | 1 ms ± 0 ns | 2.00x (2.00x to 2.00x) over eager"
    assert out[4] == "(6 rounds, interleaved)"
    assert [m.number for m in cmp.measurements()] == [3, 5]
    with pytest.raises(TypeError, match="baseline"):
        cmp.table(baseline=3)


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
                     budget=0.3, block=0.002, min_rounds=15)
    r = result.ratio("one", "three")
    assert 2.0 < r.median < 4.0
    assert r.verdict(1.5) == "faster"


def test_first_call_times_one_call_and_sync():
    clock = FakeClock()
    assert first_call(clock.mode("x", 0.25), sync=clock.mode("s", 0.5), clock=clock) == pytest.approx(0.75)
    with pytest.raises(TypeError, match="fn"):
        first_call(None)


def test_set_threads_sets_the_environment(monkeypatch):
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS"):
        monkeypatch.delenv(name, raising=False)
    line = set_threads(2)
    assert line.startswith("Threads: 2 per framework")
    assert os.environ["OMP_NUM_THREADS"] == "2" and os.environ["TF_NUM_INTRAOP_THREADS"] == "2"
    assert os.environ["TF_NUM_INTEROP_THREADS"] == "1"
    with pytest.raises(ValueError, match="n"):
        set_threads(0)


def test_machine_load_says_busy_or_quiet(monkeypatch):
    monkeypatch.setattr("helpers.comparison.load_average", lambda: 3.0)
    assert "other processes are busy" in machine_load(cores=2)
    monkeypatch.setattr("helpers.comparison.load_average", lambda: 0.2)
    assert machine_load(cores=2) == "Machine load: 0.2 on 2 cores: quiet enough for timing"
    monkeypatch.setattr("helpers.comparison.load_average", lambda: None)
    assert machine_load(cores=2).startswith("Machine load: unknown")


def test_exported_from_helpers():
    assert helpers.compare is compare and helpers.set_threads is set_threads


def test_one_slow_call_does_not_fix_a_too_small_block(full_mode):
    clock = FakeClock()
    costs = iter([1.0])  # the first call after warm-up is slow once (a late compile, a busy moment)

    def mode():
        clock.now += next(costs, 0.001)

    result = compare({"x": mode}, budget=1e-9, block=0.004, min_rounds=2, warmup=0, clock=clock)
    assert result.number == {"x": 5}
