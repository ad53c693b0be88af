"""Unit tests of helpers.training: verdicts over seeds."""

import pytest

from helpers.training import (accuracy_verdict, describe_accuracy, loss_verdict, mean_spread, ratio_verdict,
                              seed_verdict)


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


def test_ratio_verdict_needs_every_pair_beyond_the_factor():
    assert ratio_verdict([0.09, 0.11], [0.15, 0.21], 1.2) == "lower by more than 1.2x"
    assert ratio_verdict([0.15, 0.21], [0.09, 0.11], 1.2) == "higher by more than 1.2x"
    assert ratio_verdict([0.10, 0.11], [0.105, 0.115], 1.2) == "less than 1.2x apart"
    # one pair 1.2 times apart or more leaves "less than" open; one pair closer leaves "lower" open
    assert ratio_verdict([0.10, 0.11], [0.10, 0.125], 1.2) == "not resolved at 1.2x"
    assert ratio_verdict([0.10], [0.12], 1.2) == "not resolved at 1.2x"


def test_ratio_verdict_checks_its_arguments():
    with pytest.raises(ValueError, match="positive"):
        ratio_verdict([0.0], [1.0], 1.2)
    with pytest.raises(ValueError, match="threshold"):
        ratio_verdict([1.0], [1.0], 1.0)
    with pytest.raises(TypeError, match="b"):
        ratio_verdict([1.0], [], 1.2)


def test_loss_line_prints_nats():
    line = loss_verdict("Xavier", [0.09, 0.11], "default", [0.15, 0.21], threshold=1.2)
    assert line == "Xavier against default: last loss lower by more than 1.2x, mean 0.100 nats against 0.180 nats"
