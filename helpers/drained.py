"""Time calls to an asynchronous framework with and without a wait inside the timed block."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from .checks import check_callable, check_count
from .comparison import Comparison, _block, _timed


def compare_waits(call: Callable[[], Any], sync: Callable[[], Any], *, rounds: int = 40, calls: int = 10,
                  labels: Sequence[str] = ("with wait", "without wait"),
                  clock: Callable[[], float] = time.perf_counter) -> Comparison:
    """Time blocks of `calls` calls of `call`, once with `sync()` inside the timed block and once without.

    The two kinds of block alternate in rotating order, `rounds` times, each timed as `helpers.compare`
    times its blocks (garbage collector paused). Before every block `sync()` runs untimed, so that no
    work is left over from the previous block. The first label is the block that waits, the second the
    block that does not; the result holds seconds per call.
    """
    check_callable("call", call)
    check_callable("sync", sync)
    check_callable("clock", clock)
    rounds = check_count("rounds", rounds)
    calls = check_count("calls", calls)
    labels = list(labels)
    if len(labels) != 2 or len(set(labels)) != 2 or not all(isinstance(label, str) for label in labels):
        raise ValueError(f"labels must be two different strings, got {labels!r}")
    blocks = {labels[0]: _block(call, calls, sync), labels[1]: _block(call, calls, None)}
    times: dict[str, list[float]] = {label: [] for label in labels}
    for r in range(rounds):
        for label in labels[r % 2:] + labels[:r % 2]:
            sync()                                   # untimed: drain what the previous block queued
            times[label].append(_timed(blocks[label], clock) / calls)
    sync()
    return Comparison(times, {label: calls for label in labels})
