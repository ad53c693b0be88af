"""helpers.scratch_gap words notebook 07's gap readings as its cells print them."""

from helpers.comparison import Ratio
from helpers.scratch_gap import swap_sentence


def _r(low, high, median):
    return Ratio("a", "b", median, low, high, rounds=40)


def test_swap_sentence():
    assert swap_sentence(_r(0.85, 0.86, 0.86), _r(0.976, 0.980, 0.977)) == (
        "so: with torch.relu, ours is still the slower, pooled over the depths (the table shows at which): "
        "our relu makes about 86% of the gap (from the medians)")
    assert swap_sentence(_r(0.85, 0.86, 0.86), _r(0.98, 1.01, 0.99)).endswith("no gap is resolved: our relu makes the gap")
    assert "what gap there is" not in swap_sentence(_r(0.85, 0.86, 0.86), _r(1.01, 1.02, 1.01))
    assert swap_sentence(_r(1.01, 1.02, 1.01), _r(0.97, 0.98, 0.975)).endswith("our relu makes what gap there is")
