"""This run's readings of notebook 07's two gap comparisons, as the sentences its cells print.

`swap_sentence` says how much of the from-scratch gap the swap to `torch.relu` removes;
`depth_sentence` says how our factor moved from one to five hidden layers. Each picks the
sentence that this run's interval supports (`side_sentence`).
"""

from __future__ import annotations

from .comparison import Ratio
from .readings import side_sentence


def swap_sentence(whole: Ratio, rest: Ratio) -> str:
    """'so: with torch.relu, ...': `whole` is scratch against framework, `rest` scratch with
    torch.relu against framework (both pooled); the share of the gap comes from their medians."""
    extra, left = 1 / whole.median - 1, 1 / rest.median - 1   # the scratch epoch's extra time, as a share of the framework's
    share = f"about {1 - left / extra:.0%} of the gap (from the medians)" if extra > 0 else "what gap there is"
    return "so: with torch.relu, " + side_sentence(
        rest, above="ours was the faster: our relu makes the whole gap, and more",
        below=f"ours is still the slower, pooled over the depths (the table shows at which): our relu makes {share}",
        includes="no gap is resolved: our relu makes the gap")


def depth_sentence(trend: Ratio, threshold: float | None = None) -> str:
    """'In this run ...': how our factor at five hidden layers compares with one's (`trend`).

    With `threshold` T (the verdict's), a direction resolved inside (1/T, T) is called what it is
    next to that verdict: 'a small but resolved' rise or decline, within those T.
    """
    small = (threshold is not None and trend.claimed and 1 / threshold < trend.low and trend.high < threshold)
    lead = f"a small but resolved {{}} within those {threshold:.2f}x: " if small else ""
    return "In this run " + side_sentence(
        trend, below=lead.format("decline") + "our gap grew by a larger fraction than the framework's epoch: "
                                              "our factor is lower at 5 hidden layers than at 1",
        above=lead.format("rise") + "our gap grew by a smaller fraction than the framework's epoch: "
                                    "our factor is higher at 5 hidden layers than at 1",
        includes="no change of our factor from 1 to 5 hidden layers is resolved") \
        + f", {trend.factor_text()}"   # the median with the interval's formatter, as `describe` prints it
