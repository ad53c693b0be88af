"""helpers.scratch_gap words notebook 07's gap readings as its cells print them."""

from helpers.comparison import Ratio
from helpers.scratch_gap import depth_sentence, swap_sentence


def _r(low, high, median):
    return Ratio("a", "b", median, low, high, rounds=40)


def test_swap_sentence():
    assert swap_sentence(_r(0.85, 0.86, 0.86), _r(0.976, 0.980, 0.977)) == (
        "so: with torch.relu, ours is still the slower, pooled over the depths (the table shows at which): "
        "our relu makes about 86% of the gap (from the medians)")
    assert swap_sentence(_r(0.85, 0.86, 0.86), _r(0.98, 1.01, 0.99)).endswith("no gap is resolved: our relu makes the gap")
    assert "what gap there is" not in swap_sentence(_r(0.85, 0.86, 0.86), _r(1.01, 1.02, 1.01))
    assert swap_sentence(_r(1.01, 1.02, 1.01), _r(0.97, 0.98, 0.975)).endswith("our relu makes what gap there is")


def test_depth_sentence():
    assert depth_sentence(_r(0.98, 0.99, 0.985)) == (
        "In this run our gap grew by a larger fraction than the framework's epoch: our factor is lower at 5 hidden "
        "layers than at 1, 0.98x (0.98x to 0.99x)")
    assert "higher at 5 hidden layers" in depth_sentence(_r(1.01, 1.03, 1.02))
    assert "no change of our factor" in depth_sentence(_r(0.99, 1.01, 1.0))


def test_depth_sentence_names_a_resolved_change_inside_the_threshold_small():
    assert depth_sentence(_r(0.979, 0.996, 0.984), 1.05).startswith(
        "In this run a small but resolved decline within those 1.05x: our gap grew")
    assert depth_sentence(_r(1.01, 1.03, 1.02), 1.05).startswith("In this run a small but resolved rise within those 1.05x")
    assert depth_sentence(_r(0.90, 0.94, 0.92), 1.05).startswith("In this run our gap grew")
    assert "small" not in depth_sentence(_r(0.99, 1.01, 1.0), 1.05)


def test_depth_sentence_prints_the_median_inside_its_interval():
    """A median near 1 with a narrow interval below it is not rounded to '1.00x'."""
    sentence = depth_sentence(_r(0.9931, 0.9997, 0.9956))
    assert "1.00x" not in sentence
    assert sentence.endswith("0.9956x (0.9931x to 0.9997x)")
