"""side_of_one reads a factor's interval against 1."""

import pytest

import helpers
from helpers.comparison import Comparison, Ratio
from helpers.one_sided import side_of_one


@pytest.mark.parametrize("low, high, side", [(1.02, 1.3, "above 1"), (0.7, 0.99, "below 1"),
                                             (0.95, 1.05, "includes 1"), (1.0, 1.2, "includes 1"),
                                             (0.8, 1.0, "includes 1")])
def test_side_of_one(low, high, side):
    assert side_of_one(Ratio("a", "b", (low + high) / 2, low, high, rounds=40)) == side


def test_side_of_one_of_a_measured_comparison():
    # b takes twice a's time in every round, whatever the round's load: a is 2x faster.
    times = {"a": [1.0 + 0.3 * (r % 4) for r in range(12)]}
    times["b"] = [2 * t for t in times["a"]]
    cmp = Comparison(times, {"a": 1, "b": 1})
    assert helpers.side_of_one(cmp.ratio("a", "b")) == "above 1"
    assert helpers.side_of_one(cmp.ratio("b", "a")) == "below 1"


def test_side_of_one_without_an_interval_and_with_a_bad_argument():
    assert side_of_one(Ratio("a", "b", 0.5, 0.4, 0.6, rounds=3)).startswith("no interval")
    with pytest.raises(TypeError, match="ratio must be"):
        side_of_one(0.5)
