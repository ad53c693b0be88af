"""cost_parts prints each part of an operation against the whole, their sum and the rest."""

import pytest

from helpers.comparison import Comparison
from helpers.cost_parts import cost_parts


def _cmp():
    times = {"hit": [1.0e-6] * 3, "key": [0.5e-6] * 3, "lookups": [0.2e-6] * 3, "other": [9.0e-6] * 3}
    return Comparison(times, dict.fromkeys(times, 1))


def test_parts_shares_and_rest():
    lines = cost_parts(_cmp(), "hit", ["key", "lookups"]).splitlines()
    assert lines[0] == "In this run the 2 parts of 'hit', timed alone, add up to 700 ns of its 1 µs:"
    assert lines[1].split() == ["key", "500", "ns", "50", "%"]
    assert lines[2].split() == ["lookups", "200", "ns", "20", "%"]
    assert lines[3].split()[-4:] == ["300", "ns", "30", "%"]
    assert lines[3].strip().startswith("not accounted for")
    assert lines[4].split() == ["hit", "1", "µs", "100", "%"]


def test_parts_longer_than_whole_give_a_negative_rest():
    text = cost_parts(_cmp(), "hit", ["key", "other"], rest="left over")
    assert text.splitlines()[-2].split() == ["left", "over", "-8.5", "µs", "-850", "%"]


def test_bad_arguments():
    with pytest.raises(TypeError, match="cmp must be"):
        cost_parts({"hit": [1.0]}, "hit", ["key"])
    with pytest.raises(ValueError, match="parts must be a non-empty"):
        cost_parts(_cmp(), "hit", [])
    with pytest.raises(ValueError, match="parts must be a non-empty"):
        cost_parts(_cmp(), "hit", "key")
    with pytest.raises(ValueError, match="must not contain the whole"):
        cost_parts(_cmp(), "hit", ["hit", "key"])
    with pytest.raises(ValueError, match="label must be one of"):
        cost_parts(_cmp(), "hit", ["nope"])
