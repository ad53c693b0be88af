"""break_even says after how many epochs a compile pays back, or why it never does."""

import pytest

from helpers.break_even import break_even
from helpers.comparison import Ratio


def test_pays_back():
    # 2x faster: an eager epoch of 1 s saves 0.5 s, so a 10 s compile pays back after 20 epochs
    text = break_even(Ratio("c", "e", 2.0, 1.5, 4.0, rounds=40), 1.0, 10.0)
    assert "pays back after 20 epochs (13 to 30)" in text


def test_slower_and_unresolved():
    assert break_even(Ratio("c", "e", 0.8, 0.7, 0.9, rounds=40), 1.0, 10.0).startswith("compiled epochs slower")
    assert break_even(Ratio("c", "e", 1.0, 0.9, 1.1, rounds=40), 1.0, 10.0).startswith("no saving resolved")
    assert break_even(Ratio("c", "e", 1.5, 1.2, 1.9, rounds=3), 1.0, 10.0).startswith("no saving resolved")


def test_bad_arguments():
    with pytest.raises(TypeError, match="ratio must be"):
        break_even(2.0, 1.0, 10.0)
    with pytest.raises(ValueError, match="eager_seconds"):
        break_even(Ratio("c", "e", 2.0, 1.5, 4.0, rounds=40), 0, 10.0)
    with pytest.raises(ValueError, match="compile_seconds"):
        break_even(Ratio("c", "e", 2.0, 1.5, 4.0, rounds=40), 1.0, -1)
