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


def depth_sentence(trend: Ratio) -> str:
    """'In this run ...': how our factor at five hidden layers compares with one's (`trend`)."""
    return "In this run " + side_sentence(
        trend, below="our gap grew by a larger fraction than the framework's epoch: our factor is lower at 5 hidden layers than at 1",
        above="our gap grew by a smaller fraction than the framework's epoch: our factor is higher at 5 hidden layers than at 1",
        includes="no change of our factor from 1 to 5 hidden layers is resolved") \
        + f", {trend.factor_text()}"   # the median with the interval's formatter, as `describe` prints it
