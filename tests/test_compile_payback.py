"""payback_steps says after how many steps a compile pays back, or why it never does."""

import pytest

from helpers.comparison import Ratio
from helpers.compile_payback import one_figure, payback_steps


def test_pays_back_after_compile_time_over_saving():
    # 2 s of compiling, 1 ms saved per step: 2,000 steps
    assert payback_steps(Ratio("c", "e", 1.2, 1.1, 1.3, rounds=40), 2.0, -1e-3) == "after 2,000 steps"


def test_never_pays_back():
    assert payback_steps(Ratio("c", "e", 0.9, 0.85, 0.95, rounds=40), 2.0, 1e-4).startswith("never: the compiled")
    assert payback_steps(Ratio("c", "e", 1.0, 0.9, 1.1, rounds=40), 2.0, -1e-5) == "never: no saving resolved"
    # faster by the ratios' median, but no time saved by the differences' median: no break-even
    assert payback_steps(Ratio("c", "e", 1.1, 1.05, 1.2, rounds=40), 2.0, 0.0) == "never: no saving resolved"
    assert payback_steps(Ratio("c", "e", 1.5, 1.2, 1.9, rounds=3), 2.0, -1e-3) == "too few rounds to tell"


def test_bad_arguments():
    with pytest.raises(TypeError, match="ratio must be"):
        payback_steps(1.2, 2.0, -1e-3)
    with pytest.raises(ValueError, match="compile_seconds"):
        payback_steps(Ratio("c", "e", 1.2, 1.1, 1.3, rounds=40), 0, -1e-3)
    with pytest.raises(TypeError, match="added_per_step"):
        payback_steps(Ratio("c", "e", 1.2, 1.1, 1.3, rounds=40), 2.0, "1 ms")


def test_one_figure_rounds_to_one_significant_figure():
    assert one_figure(2_740) == "3,000"
    assert one_figure(140) == "100"
    assert one_figure(0.4) == "0"
    assert one_figure(0) == "0"
    for bad in (-1, float("inf"), float("nan"), "5", True):
        with pytest.raises(ValueError, match="n must be"):
            one_figure(bad)
