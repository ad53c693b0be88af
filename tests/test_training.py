"""Unit tests of helpers.training: verdicts over seeds."""

import pytest

from helpers.training import accuracy_verdict, describe_accuracy, mean_spread, seed_verdict


def test_seed_verdict_needs_every_seed_beyond_the_margin():
    assert seed_verdict([0.96, 0.97], [0.20, 0.25], 0.05) == "higher by more than 0.05"
    assert seed_verdict([0.20, 0.25], [0.96, 0.97], 0.05) == "lower by more than 0.05"
    assert seed_verdict([0.96, 0.97], [0.95, 0.965], 0.03) == "less than 0.03 apart"
    assert seed_verdict([0.90, 0.97], [0.95, 0.96], 0.03) == "not resolved at 0.03"
    # a gap smaller than the margin is no claim either way
    assert seed_verdict([0.99, 1.0], [0.95, 0.96], 0.05) == "not resolved at 0.05"


def test_seed_verdict_checks_its_arguments():
    with pytest.raises(TypeError, match="a"):
        seed_verdict([], [1.0], 0.1)
    with pytest.raises(TypeError, match="b"):
        seed_verdict([1.0], ["x"], 0.1)
    with pytest.raises(ValueError, match="margin"):
        seed_verdict([1.0], [1.0], 0)


def test_lines_print_percentages():
    assert mean_spread([0.5, 1.0]) == (0.75, 0.5, 1.0)
    assert describe_accuracy("ReLU", [0.965, 0.963]) == "ReLU: mean 96.4% (96.3% to 96.5%)"
    line = accuracy_verdict("ReLU", [0.96, 0.97], "Sigmoid", [0.2, 0.25], margin=0.05)
    assert line == "ReLU against Sigmoid: higher by more than 5 points, mean 96.5% against 22.5%"
    line = accuracy_verdict("a", [0.96], "b", [0.965], margin=0.03)
    assert line.startswith("a against b: less than 3 points apart,")
