"""rate_words and rate_chart read the rates of several sizes of one computation."""

import pytest

from helpers.comparison import Comparison, Ratio
from helpers.rates import rate_chart, rate_words


@pytest.mark.parametrize("median, low, high, words", [
    (0.78, 0.75, 0.80, "lost 22.0 % of its rate against"),
    (1.04, 1.01, 1.07, "gained 4.0 % in rate against"),
    (1.017, 1.016, 1.019, "gained 1.7 % in rate against"),
    (1.00, 0.97, 1.03, "showed no resolved difference against")])
def test_rate_words(median, low, high, words):
    assert rate_words(Ratio("a", "b", median, low, high, rounds=40)) == words


def test_rate_words_rejects_a_number():
    with pytest.raises(TypeError, match="ratio must be"):
        rate_words(0.5)


def test_rate_chart_draws_one_point_per_size():
    pytest.importorskip("matplotlib")
    sizes = list(range(6, 18))
    label = "n = {}".format
    times = {label(n): [n**3 * (1 + 0.01 * (r % 3)) * (0.9 if n % 8 == 0 else 1) for r in range(12)]
             for n in sizes}
    work = {label(n): n**3 for n in sizes}
    fig = rate_chart(Comparison(times, {k: 1 for k in times}), sizes, work, label, "test")
    ax = fig.axes[0]
    assert list(ax.lines[0].get_xdata()) == sizes
    assert list(ax.lines[2].get_xdata()) == [8, 16]
    # the multiples of 8 ran 0.9x the time, so their rate lies above the median size's
    assert all(y > 1 for y in ax.lines[2].get_ydata())
    with pytest.raises(TypeError, match="comparison must be"):
        rate_chart({}, sizes, work, label, "test")
    with pytest.raises(ValueError, match="sizes must"):
        rate_chart(Comparison(times, {k: 1 for k in times}), sizes[:1], work, label, "test")
