"""This run's reading of notebook 07's gap comparison, as the sentence its cell prints.

`swap_sentence` says how much of the from-scratch gap the swap to `torch.relu` removes; it picks the
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
