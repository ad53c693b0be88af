"""Unit tests of helpers.timing (the book's Timer and Benchmark, Measurement, quick mode) and helpers.checks."""

import statistics

import pytest

import helpers
from helpers import checks
from helpers.timing import Benchmark, Measurement, Timer, format_time, scale


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


def test_quick_mode_scales_counts(quick):
    assert helpers.quick_mode()
    assert scale(1000) == 100
    assert scale(7) == 1
    assert scale(7, minimum=3) == 3
    assert scale(0) == 0


def test_full_mode_keeps_counts(full_mode):
    assert not helpers.quick_mode()
    assert scale(1000) == 1000
    assert scale(7, minimum=3) == 7


@pytest.mark.parametrize("value", ["0", "false", "no", ""])
def test_quick_mode_off_values(monkeypatch, value):
    monkeypatch.setenv("HYBRID_QUICK", value)
    assert not helpers.quick_mode()


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
    (8.5e-9, "8.5 ns"), (0.0, "0 ns"), (250.0, "250 s"), (0.9996e-6, "1 µs"), (999.4e-9, "999 ns"),
])
def test_format_time_units(seconds, text):
    assert format_time(seconds) == text


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


def test_measurement_statistics_and_text():
    m = Measurement("toy", [1.0, 3.0, 2.0, 5.0, 4.0], number=1, warmup=4)
    assert m.median == 3.0
    assert m.q1 == 2.0 and m.q3 == 4.0
    assert m.iqr == 2.0 and m.spread == 1.0
    assert m.min == 1.0 and m.repeats == 5
    assert str(m) == "toy: 3 s ± 1 s per call (median ± IQR/2 of 5 repeats of 1 calls)"


def test_the_measuring_engine_is_compare_alone():
    """measure and print_table timed modes one after another; compare is the one path now."""
    for name in ("measure", "print_table"):
        assert not hasattr(helpers, name) and not hasattr(helpers.timing, name)
    for name in ("VERDICTS", "SEED_VERDICTS", "FASHION_CLASSES", "median_interval", "layered_layout"):
        assert name not in helpers.__all__ and not hasattr(helpers, name)
    from helpers import comparison, data, training
    assert not hasattr(comparison, "VERDICTS") and not hasattr(training, "SEED_VERDICTS")
    assert not hasattr(data, "FASHION_CLASSES")


def test_one_set_of_argument_checks():
    """Every module of helpers takes its checks from helpers.checks (no private copy left)."""
    from helpers import comparison, data, models, roofline, timing
    assert data._check_int is models._check_int is checks.check_int
    assert roofline._check_positive is checks.check_positive
    assert comparison.check_count is timing.check_count is checks.check_count
    for module in (comparison, timing):
        for name in ("_check_positive", "_check_int", "_check_callable"):
            assert not hasattr(module, name), (module.__name__, name)


@pytest.mark.parametrize("call, error, message", [
    (lambda: checks.check_positive("budget", 0), ValueError, "budget must be positive and finite, got 0"),
    (lambda: checks.check_positive("budget", float("inf")), ValueError, "budget must be positive and finite"),
    (lambda: checks.check_positive("budget", True), TypeError, "budget must be a number, got bool"),
    (lambda: checks.check_int("size", 0), ValueError, "size must be 1 or more, got 0"),
    (lambda: checks.check_int("seed", -1, minimum=0), ValueError, "seed must be 0 or more, got -1"),
    (lambda: checks.check_int("size", 2.0), TypeError, "size must be an int, got float"),
    (lambda: checks.check_count("repeats", 0), ValueError, "repeats must be 1 or more, got 0"),
    (lambda: checks.check_count("warmup", -1, allow_zero=True), ValueError, "warmup must be 0 or more"),
    (lambda: checks.check_callable("sync", "waitall"), TypeError, "sync must be callable, got str"),
])
def test_checks_name_the_argument_and_the_value(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_checks_return_what_they_accept():
    import numpy as np
    assert checks.check_positive("x", 2) == 2.0 and isinstance(checks.check_positive("x", 2), float)
    assert checks.check_int("n", np.int64(3)) == 3 and type(checks.check_int("n", np.int64(3))) is int
    assert checks.check_count("n", 0, allow_zero=True) == 0
    assert checks.check_callable("f", None, optional=True) is None


def test_a_factor_and_its_interval_share_their_decimals():
    from helpers.comparison import Ratio
    from helpers.timing import format_factors
    assert format_factors(0.1003, 0.0999, 0.1004) == ("0.1003x", "0.0999x", "0.1004x")  # ends alike: a decimal more
    assert Ratio("a", "b", 0.1003, 0.0999, 0.1004, 40).describe(3) == \
        "slower by more than 3.00x, 0.1003x (0.0999x to 0.1004x)"
    assert format_factors(0.442, 0.439, 0.444) == ("0.442x", "0.439x", "0.444x")
    assert format_factors(1.02, 0.98, 1.0996, threshold=1.1) == ("1.0200x", "0.9800x", "1.0996x")
    assert format_factors(2.0, 2.0, 2.0) == ("2.00x", "2.00x", "2.00x")
    assert format_factors(4.95, 4.82, 5.02) == ("4.95x", "4.82x", "5.02x")
    # an end above or below 1 that would print as 1.00x gets a decimal more: which side of 1 shows
    assert format_factors(1.01, 1.003, 1.03) == ("1.010x", "1.003x", "1.030x")
    assert format_factors(0.99, 0.97, 0.998) == ("0.990x", "0.970x", "0.998x")
    assert format_factors(1.01, 1.0, 1.03) == ("1.01x", "1.00x", "1.03x")    # exactly 1 stays as it is


@pytest.mark.parametrize("ratio, text", [(1294.67, "1290x"), (1367.83, "1370x"), (999.6, "1000x"), (12345.6, "12300x"),
                                         (2.031, "2.03x"), (0.01234, "0.0123x"), (100.0, "100x")])
def test_format_factor_sig_prints_three_significant_digits_without_separator(ratio, text):
    from helpers.timing import format_factor_sig
    assert format_factor_sig(ratio) == text
    with pytest.raises(ValueError):
        format_factor_sig(0.0)
