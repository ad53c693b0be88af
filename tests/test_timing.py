"""Unit tests of helpers.timing, with a fake clock so the statistics are exact."""

import statistics

import pytest

import helpers
from helpers.timing import Benchmark, Measurement, Timer, format_time, measure, print_table, scale


class FakeClock:
    """A clock that advances only when the code under test does 'work'."""

    def __init__(self) -> None:
        self.now = 0.0
        self.events: list[str] = []

    def __call__(self) -> float:
        self.events.append("clock")
        return self.now

    def work(self, seconds: float) -> None:
        self.events.append("call")
        self.now += seconds


def test_timer_records_and_summarizes():
    clock = FakeClock()
    timer = Timer(clock)
    clock.work(2.0)
    assert timer.stop() == 2.0
    timer.start()
    clock.work(4.0)
    timer.stop()
    assert timer.times == [2.0, 4.0]
    assert timer.avg() == 3.0
    assert timer.sum() == 6.0
    assert timer.cumsum() == [2.0, 6.0]


def test_benchmark_prints_book_format_and_syncs_once(capsys):
    clock = FakeClock()
    synced = []
    with Benchmark("Eager mode", sync=lambda: synced.append(clock.now), clock=clock) as bench:
        clock.work(0.12345)
    assert capsys.readouterr().out == "Eager mode: 0.1235 sec\n"
    assert synced == [0.12345]
    assert bench.seconds == pytest.approx(0.12345)


def test_benchmark_default_description(capsys):
    with Benchmark():
        pass
    assert capsys.readouterr().out.startswith("Done: ")


def test_measure_statistics_with_fake_clock(full_mode, capsys):
    clock = FakeClock()
    durations = iter([1.0] * 4 + [1.0, 3.0, 2.0, 5.0, 4.0])  # 4 warm-up calls, then 5 blocks of 1 call
    result = measure(lambda: clock.work(next(durations)), "toy", number=1, repeats=5, warmup=4,
                     clock=clock)
    assert result.times == [1.0, 3.0, 2.0, 5.0, 4.0]
    assert result.median == 3.0
    assert result.q1 == 2.0 and result.q3 == 4.0
    assert result.iqr == 2.0 and result.spread == 1.0
    assert result.min == 1.0
    assert result.repeats == 5 and result.number == 1 and result.warmup == 4
    assert capsys.readouterr().out == "toy: 3 s ± 1 s per call (median ± IQR/2 of 5 repeats of 1 calls)\n"


def test_measure_divides_block_time_by_number(full_mode):
    clock = FakeClock()
    result = measure(lambda: clock.work(0.5), number=4, repeats=3, warmup=0, clock=clock, quiet=True)
    assert result.times == [0.5, 0.5, 0.5]


def test_measure_syncs_once_per_timed_block_inside_the_timing(full_mode):
    clock = FakeClock()
    result = measure(lambda: clock.work(1e-3), number=3, repeats=4, warmup=2,
                     sync=lambda: clock.events.append("sync"), clock=clock, quiet=True)
    events = clock.events
    # warm-up: 2 calls then one sync, before any clock reading
    assert events[:3] == ["call", "call", "sync"]
    blocks = events[3:]
    assert blocks.count("sync") == result.repeats == 4
    # each timed block: clock, 3 calls, sync, clock
    assert blocks == ["clock", "call", "call", "call", "sync", "clock"] * 4


def test_sync_work_is_counted_in_the_time(full_mode):
    clock = FakeClock()
    # the call returns at once; the queued work takes 2 s and is waited for by sync
    result = measure(lambda: None, number=1, repeats=3, warmup=0, sync=lambda: clock.work(2.0),
                     clock=clock, quiet=True)
    assert result.times == [2.0, 2.0, 2.0]


def test_quick_mode_scales_counts(quick):
    assert helpers.quick_mode()
    assert scale(1000) == 100
    assert scale(7) == 1
    assert scale(7, minimum=3) == 3
    assert scale(0) == 0
    clock = FakeClock()
    result = measure(lambda: clock.work(1.0), number=100, repeats=7, warmup=10, clock=clock, quiet=True)
    assert (result.number, result.repeats, result.warmup) == (10, 3, 1)
    assert clock.events.count("call") == 1 + 3 * 10


def test_full_mode_keeps_counts(full_mode):
    assert not helpers.quick_mode()
    assert scale(1000) == 1000
    clock = FakeClock()
    result = measure(lambda: clock.work(1.0), number=100, repeats=7, warmup=10, clock=clock, quiet=True)
    assert (result.number, result.repeats, result.warmup) == (100, 7, 10)


@pytest.mark.parametrize("value", ["0", "false", "no", ""])
def test_quick_mode_off_values(monkeypatch, value):
    monkeypatch.setenv("HYBRID_QUICK", value)
    assert not helpers.quick_mode()


@pytest.mark.parametrize("kwargs, error, name", [
    ({"repeats": 0}, ValueError, "repeats"),
    ({"repeats": -3}, ValueError, "repeats"),
    ({"number": 0}, ValueError, "number"),
    ({"warmup": -1}, ValueError, "warmup"),
    ({"repeats": 2.5}, TypeError, "repeats"),
    ({"number": True}, TypeError, "number"),
    ({"sync": "waitall"}, TypeError, "sync"),
])
def test_measure_rejects_bad_arguments(kwargs, error, name):
    with pytest.raises(error, match=name):
        measure(lambda: None, quiet=True, **kwargs)


def test_measure_rejects_non_callable():
    with pytest.raises(TypeError, match="fn"):
        measure(42)


def test_scale_rejects_negative():
    with pytest.raises(ValueError, match="n must"):
        scale(-1)


def test_benchmark_rejects_bad_sync_and_description():
    with pytest.raises(TypeError, match="sync"):
        Benchmark("x", sync=3)
    with pytest.raises(TypeError, match="description"):
        Benchmark(5)


@pytest.mark.parametrize("seconds, text", [
    (1.5, "1.5 s"), (0.25, "250 ms"), (31.2e-6, "31.2 µs"), (123.4e-6, "123 µs"),
    (8.5e-9, "8.5 ns"), (0.0, "0 ns"), (250.0, "250 s"),
])
def test_format_time_units(seconds, text):
    assert format_time(seconds) == text


def test_print_table_with_baseline(capsys):
    a = Measurement("eager", [4e-6, 4e-6, 4e-6], number=10, warmup=1)
    b = Measurement("compiled", [1e-6, 1e-6, 1e-6], number=10, warmup=1)
    print_table([a, b], baseline="eager")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["mode", "median", "±", "IQR/2", "speed-up"]
    assert lines[1].split() == ["eager", "4", "µs", "0", "ns", "1.00x"]
    assert lines[2].split() == ["compiled", "1", "µs", "0", "ns", "4.00x"]


def test_print_table_rejects_unknown_baseline():
    a = Measurement("eager", [1.0], number=1, warmup=0)
    with pytest.raises(ValueError, match="baseline"):
        print_table([a], baseline="graph")
    with pytest.raises(TypeError, match="measurements"):
        print_table([])


def test_median_matches_statistics_module():
    times = [0.3, 0.1, 0.4, 0.1, 0.5, 0.9]
    m = Measurement("x", times, number=1, warmup=0)
    assert m.median == statistics.median(times)
    assert m.q1 <= m.median <= m.q3


@pytest.mark.parametrize("ratio, text", [(2.314, "2.31x"), (1.0, "1.00x"), (0.0223, "0.022x"),
                                         (0.0023, "0.0023x"), (2.5e-5, "0.000025x")])
def test_format_factor_keeps_small_ratios_readable(ratio, text):
    from helpers.timing import format_factor
    assert format_factor(ratio) == text
