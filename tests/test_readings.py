"""helpers.gap_reading words this run's reading of a ratio at a threshold."""

import pytest

import helpers
from helpers.comparison import Ratio


def _r(low, high, rounds=40, median=None):
    return Ratio("XLA", "tf.function", median or (low * high) ** 0.5, low, high, rounds=rounds)


@pytest.mark.parametrize("low, high, expected", [
    (1.2, 1.3, "XLA is faster by more than 10 %"),
    (0.79, 0.88, "XLA is slower by more than 10 %"),
    (1.01, 1.04, "XLA is a little faster, by less than 10 %"),
    (0.95, 0.98, "XLA is a little slower, by less than 10 %"),
    (0.97, 1.03, "XLA: no difference resolved, and any is under 10 %"),
    (1.02, 1.2, "XLA is faster, by an amount not resolved at 10 %"),
    (0.8, 0.99, "XLA is slower, by an amount not resolved at 10 %"),
    (0.85, 1.2, "XLA: not resolved at 10 %"),
])
def test_gap_reading(low, high, expected):
    assert helpers.gap_reading(_r(low, high), 1.1, subject="XLA") == expected


def test_gap_reading_other_threshold_and_few_rounds():
    assert helpers.gap_reading(_r(1.6, 1.8), 1.5, subject="A") == "A is faster by more than 50 %"
    assert helpers.gap_reading(_r(1.2, 1.3, rounds=3), 1.1, subject="XLA") == "too few rounds to tell"


def test_gap_reading_bad_input():
    with pytest.raises(TypeError, match="ratio"):
        helpers.gap_reading(1.2, 1.1, subject="XLA")
    with pytest.raises(ValueError, match="threshold"):
        helpers.gap_reading(_r(1.2, 1.3), 1.0, subject="XLA")
    with pytest.raises(TypeError, match="subject"):
        helpers.gap_reading(_r(1.2, 1.3), 1.1, subject="")
