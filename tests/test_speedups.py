"""helpers.ratio_of_speedups: the quotient of two speed-ups, one value per round."""

import pytest

from helpers.comparison import Comparison
from helpers.speedups import ratio_of_speedups


def comparison(rounds: int = 12) -> Comparison:
    """Eager and graph at two batch sizes: the graph saves 3 ms per call at both sizes."""
    times = {"eager 1": [], "graph 1": [], "eager 256": [], "graph 256": []}
    for r in range(rounds):
        noise = 1 + 0.01 * (r % 3)          # one round's conditions, shared by all four modes
        times["eager 1"].append(4e-3 * noise)
        times["graph 1"].append(1e-3 * noise)
        times["eager 256"].append(8e-3 * noise)
        times["graph 256"].append(5e-3 * noise)
    return Comparison(times, {label: 1 for label in times})


def test_quotient_of_the_two_speed_ups():
    r = ratio_of_speedups(comparison(), ("graph 1", "eager 1"), ("graph 256", "eager 256"))
    assert r.median == pytest.approx(4 / 1.6)      # 4x at batch 1, 1.6x at batch 256
    assert r.low == pytest.approx(2.5) and r.high == pytest.approx(2.5)   # shared noise cancels
    assert r.verdict(1.5) == "larger by more than 1.50x"     # a ratio of speed-ups is not a speed
    assert r.describe(1.5).startswith("larger by more than 1.50x, 2.50x")
    assert r.mode == "graph 1 over eager 1" and r.baseline == "graph 256 over eager 256"


def test_swapped_order_inverts_the_verdict():
    r = ratio_of_speedups(comparison(), ("graph 256", "eager 256"), ("graph 1", "eager 1"))
    assert r.median == pytest.approx(1.6 / 4)
    assert r.verdict(1.5) == "smaller by more than 1.50x"


def test_few_rounds_resolve_nothing():
    r = ratio_of_speedups(comparison(rounds=4), ("graph 1", "eager 1"), ("graph 256", "eager 256"))
    assert not r.claimed and "fewer than 6 rounds" in r.verdict(1.5)


@pytest.mark.parametrize("first, second, error, words", [
    (("graph 1", "nope"), ("graph 256", "eager 256"), ValueError, "first: 'nope'"),
    ("graph 1", ("graph 256", "eager 256"), TypeError, "first must be a (mode, baseline) pair"),
    (("graph 1", "eager 1"), ("graph 256",), TypeError, "second must be a (mode, baseline) pair"),
    (("graph 1", "graph 1"), ("graph 256", "eager 256"), ValueError, "mode and baseline must differ"),
    (("graph 1", "eager 1"), ("graph 1", "eager 1"), ValueError, "must be different speed-ups"),
])
def test_bad_pairs_name_the_argument(first, second, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        ratio_of_speedups(comparison(), first, second)


def test_cmp_must_be_a_comparison():
    with pytest.raises(TypeError, match="cmp must be a helpers.Comparison"):
        ratio_of_speedups({"a": [1.0]}, ("a", "b"), ("c", "d"))
