"""helpers.gap_reading words this run's reading of a ratio at a threshold."""

import pytest

import helpers
from helpers.comparison import Comparison, Ratio


def _r(low, high, rounds=40, median=None):
    return Ratio("XLA", "tf.function", median or (low * high) ** 0.5, low, high, rounds=rounds)


@pytest.mark.parametrize("low, high, expected", [
    (1.2, 1.3, "XLA is faster by more than 1.10x (10 %)"),
    (0.79, 0.88, "XLA is slower by more than 1.10x (10 %)"),
    (1.01, 1.04, "XLA is a little faster, by less than 1.10x (10 %)"),
    (0.95, 0.98, "XLA is a little slower, by less than 1.10x (10 %)"),
    (0.97, 1.03, "XLA: no difference resolved, and any is under 1.10x (10 %)"),
    (1.02, 1.2, "XLA is faster, by an amount not resolved at 1.10x (10 %)"),
    (0.8, 0.99, "XLA is slower, by an amount not resolved at 1.10x (10 %)"),
    (0.85, 1.2, "XLA: not resolved at 1.10x (10 %)"),
])
def test_gap_reading(low, high, expected):
    assert helpers.gap_reading(_r(low, high), 1.1, subject="XLA") == expected


def test_gap_reading_other_threshold_and_few_rounds():
    assert helpers.gap_reading(_r(1.6, 1.8), 1.5, subject="A") == "A is faster by more than 1.50x (50 %)"
    assert helpers.gap_reading(_r(1.2, 1.3, rounds=3), 1.1, subject="XLA") == "too few rounds to tell"


def test_gap_reading_bad_input():
    with pytest.raises(TypeError, match="ratio"):
        helpers.gap_reading(1.2, 1.1, subject="XLA")
    with pytest.raises(ValueError, match="threshold"):
        helpers.gap_reading(_r(1.2, 1.3), 1.0, subject="XLA")
    with pytest.raises(TypeError, match="subject"):
        helpers.gap_reading(_r(1.2, 1.3), 1.1, subject="")


@pytest.mark.parametrize("values, expected", [
    ([1.0, 1.002, 0.998, 1.005, 1.004], "flat: every group within 1.0 % of odd"),
    ([1.0, 1.0, 1.005, 1.03, 1.03], "a jump of 2.5 % up at 8, most of the 3.0 % spread"),
    ([1.0, 1.01, 1.02, 1.03, 1.03], "a gradual rise of 3.0 % from odd to 16, no step over 1.0 %"),
    ([1.0, 0.99, 0.98, 0.97, 0.965], "a gradual fall of 3.5 % from odd to 16, no step over 1.0 %"),
    ([1.0, 1.015, 0.99, 1.02, 0.99], "no steady trend: up and down by more than 1.0 %"),
])
def test_trend_reading(values, expected):
    names = ["odd", "2", "4", "8", "16"]
    assert helpers.trend_reading(dict(zip(names, values))) == expected


def test_trend_reading_checks_its_arguments():
    with pytest.raises(TypeError, match="values"):
        helpers.trend_reading({"odd": 1.0, "2": 1.1})
    with pytest.raises(ValueError, match="values"):
        helpers.trend_reading({"odd": 1.0, "2": -1.0, "4": 1.0})
    with pytest.raises(ValueError, match="tolerance"):
        helpers.trend_reading({"odd": 1.0, "2": 1.0, "4": 1.0}, tolerance=2)


@pytest.mark.parametrize("low, high, rounds, expected", [
    (1.2, 1.3, 40, "faster than eager"),
    (0.7, 0.9, 40, "slower than eager"),
    (0.9, 1.1, 40, "about as fast as eager (no difference resolved)"),
    (1.2, 1.3, 3, "too few rounds to tell"),
])
def test_side_against_names_the_side_of_one(low, high, rounds, expected):
    from helpers.readings import side_against
    assert side_against(_r(low, high, rounds=rounds), "eager") == expected


def test_side_against_checks_its_arguments():
    from helpers.readings import side_against
    with pytest.raises(TypeError, match="baseline"):
        side_against(_r(1.2, 1.3), "")
    with pytest.raises(TypeError, match="ratio"):
        side_against(1.2, "eager")
