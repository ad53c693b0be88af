"""helpers.alignment: aligned test arrays and notebook 08's readings in words."""

import numpy as np
import pytest

from helpers.alignment import aligned_floats, column_table, divisible_by, rise_reading
from helpers.hardware import Cache
from helpers.comparison import Ratio


def _r(mode, low, high, rounds=40, base="n = 1025", median=None):
    return Ratio(mode, base, median or (low * high) ** 0.5, low, high, rounds=rounds)


@pytest.mark.parametrize("count", [1, 17, 1024 * 1024])
def test_aligned_floats_start_a_line_and_are_seeded(count):
    a = aligned_floats(count)
    assert a.dtype == np.float32 and a.shape == (count,) and a.ctypes.data % 64 == 0
    assert np.array_equal(a[:5], aligned_floats(count)[:5])
    assert aligned_floats(8, line=128).ctypes.data % 128 == 0


def test_aligned_floats_bad_arguments():
    with pytest.raises(ValueError, match="count"):
        aligned_floats(0)
    with pytest.raises(ValueError, match="line"):
        aligned_floats(8, line=66)
    with pytest.raises(TypeError, match="count"):
        aligned_floats(2.5)


def test_divisible_by():
    assert [divisible_by(k) for k in (1, 2, 4, 8, 16)] == ["odd", "2, not 4", "4, not 8", "8, not 16", "16 or more"]
    with pytest.raises(ValueError, match="powers of two"):
        divisible_by(3)
    with pytest.raises(ValueError, match="powers of two"):
        divisible_by(32)


def test_rise_reading_names_each_group():
    up, flat = _r("g", 1.004, 1.01), _r("g", 0.99, 1.01)
    down = _r("g", 0.98, 0.99)
    assert rise_reading({2: up, 4: up, 8: up, 16: up}) == (
        "the groups '2, not 4' and '4, not 8' already beat the odd sizes")
    assert rise_reading({2: flat, 4: up, 8: up}) == (
        "the group '4, not 8' already beat the odd sizes; '2, not 4' is not resolved")
    assert rise_reading({2: up, 4: down, 8: up}) == (
        "the group '2, not 4' already beat the odd sizes; '4, not 8' ran slower")
    assert rise_reading({2: flat, 4: flat, 8: up}) == (
        "no group below 8 beat the odd sizes: a step at 8 fits this run")
    assert rise_reading({2: _r("g", 1.01, 1.02, rounds=3), 4: up}) == "too few rounds to tell"
    with pytest.raises(ValueError, match="no group"):
        rise_reading({8: up, 16: up})
    with pytest.raises(TypeError, match="groups"):
        rise_reading({})


def test_column_table():
    zen5 = [Cache(1, "Data", 48 * 1024, 64, 12), Cache(2, "Unified", 1024 * 1024, 64, 16)]
    lines = column_table(zen5, (1024, 1025), page=4096)
    assert lines[0].split() == ["n", "=", "1024", "n", "=", "1025"]
    assert lines[1].split()[-2:] == ["1024", "1025"] and lines[2].split()[-2:] == ["12", "768"]
    assert lines[3].split()[-2:] == ["1024", "17"] and lines[4].split()[-2:] == ["256", "256"]
    assert lines[5] == "n = 1024: too many for the L1; at least 768 come from beyond the L2 on every pass"
    assert lines[6] == "n = 1025: too many for the L1; they fit the L2 unless the page frames crowd one set"
    assert column_table([], (1024,), page=4096)[0].startswith("No cache ways reported here")
    assert column_table(zen5, (64,), page=4096)[-1] == "n = 64: they fit the L1; they fit the L2 unless the page frames crowd one set"
    with pytest.raises(ValueError):
        column_table(zen5, (1024,), page=0)
