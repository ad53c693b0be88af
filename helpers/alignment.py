"""Matrix sizes and cache sets (notebook 08): test arrays that start a cache line, and this run's
readings of its size experiments in words, so the notebook's cells show the arithmetic only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from .checks import check_count, check_int
from .comparison import Ratio
from .one_sided import SIDES, side_of_one

FLOAT = 4  # bytes per float32


def aligned_floats(count: int, *, line: int = 64, seed: int = 0) -> np.ndarray:
    """`count` seeded standard-normal float32 values whose first value starts a `line`-byte cache line."""
    count = check_count("count", count)
    line = check_int("line", line, FLOAT)
    if line % FLOAT:
        raise ValueError(f"line must be a multiple of {FLOAT} bytes, got {line}")
    raw = np.empty(count + line // FLOAT, dtype=np.float32)
    skip = (-raw.ctypes.data % line) // FLOAT
    out = raw[skip: skip + count]
    out[:] = np.random.default_rng(seed).standard_normal(count, dtype=np.float32)   # the same values wherever it starts
    return out


def divisible_by(k: int, cap: int = 16) -> str:
    """The name of the group of sizes whose largest power-of-two divisor is k: '4, not 8', '16 or more'."""
    k, cap = check_count("k", k), check_count("cap", cap)
    if k & (k - 1) or cap & (cap - 1) or k > cap:
        raise ValueError(f"k and cap must be powers of two with k <= cap, got k={k}, cap={cap}")
    return "odd" if k == 1 else f"{k} or more" if k == cap else f"{k}, not {2 * k}"


def rise_reading(groups: Mapping[int, Ratio], step: int = 8, cap: int = 16) -> str:
    """Which groups below `step` (keys: their largest power-of-two divisor) beat the odd sizes, in words
    (each group's own interval against 1; no step between groups is read from medians alone)."""
    if not isinstance(groups, Mapping) or not groups:
        raise TypeError(f"groups must map powers of two to Ratios, got {groups!r}")
    step = check_count("step", step)
    below = {divisible_by(k, cap): side_of_one(r) for k, r in sorted(groups.items()) if 1 < k < step}
    if not below:
        raise ValueError(f"groups has no group between odd and {step}: {sorted(groups)}")
    if SIDES[3] in below.values():
        return "too few rounds to tell"
    beat = [f"'{name}'" for name, side in below.items() if side == SIDES[0]]
    if not beat:
        return f"no group below {step} beat the odd sizes: a step at {step} fits this run"
    which = f"the group {beat[0]}" if len(beat) == 1 else f"the groups {' and '.join(beat)}"
    rest = [f"'{name}' {'is not resolved' if side == SIDES[2] else 'ran slower'}"
            for name, side in below.items() if side != SIDES[0]]
    return f"{which} already beat the odd sizes" + (f"; {', '.join(rest)}" if rest else "")


def column_table(caches: Sequence, sizes: Sequence[int], page: int, itemsize: int = 4) -> list[str]:
    """How one column of an n x n matrix fits the L1 and the L2: a table (a column per size), then a line per size.

    `caches`: `helpers.cpu_caches()`; where it reports no ways for the L1 data or the L2 cache, a
    model 32 KiB 8-way L1 and 1 MiB 8-way L2 (64-byte lines) stand in, and a first line says so.
    The L1 set of a line follows from its page offset; lines at one page offset reach only
    (L2 bytes per way / page) of the L2's sets, whichever page frames they sit on.
    """
    from .hardware import Cache

    page, itemsize = check_count("page", page), check_count("itemsize", itemsize)
    l1 = next((c for c in caches if c.level == 1 and c.kind == "Data" and c.ways), None)
    l2 = next((c for c in caches if c.level == 2 and c.ways), None)
    lines = []
    if l1 is None or l2 is None:
        lines.append("No cache ways reported here: using a model 32 KiB 8-way L1 and 1 MiB 8-way L2.")
        l1, l2 = Cache(1, "Data", 32 * 1024, 64, 8), Cache(2, "Unified", 1024 * 1024, 64, 8)
    l2_slots = max(1, l2.way_size // page) * l2.ways   # L2 lines that one page offset can reach
    counts = {}
    for n in sizes:
        n = check_count("n", n)
        rows = [row * n * itemsize for row in range(n)]
        l1_slots = len({r % l1.way_size // l1.line for r in rows}) * l1.ways
        crowd = max(Counter(r % page // l2.line for r in rows).values())   # lines at one page offset
        counts[n] = (n, l1_slots, crowd, l2_slots)
    names = ("lines one column needs", "lines the L1 sets it reaches hold", "most lines at one page offset",
             "lines the L2 sets of one page offset hold")
    lines.append(f"{'':<42}" + "".join(f"{f'n = {n}':>10}" for n in counts))
    for i, name in enumerate(names):
        lines.append(f"{name:<42}" + "".join(f"{c[i]:>10}" for c in counts.values()))
    for n, (_, l1_slots, crowd, slots) in counts.items():
        l1_words = "too many for the L1" if l1_slots < n else "they fit the L1"
        l2_words = (f"at least {crowd - slots} come from beyond the L2 on every pass" if crowd > slots
                    else "they fit the L2 unless the page frames crowd one set")
        lines.append(f"n = {n}: {l1_words}; {l2_words}")
    return lines


__all__ = ["aligned_floats", "column_table", "divisible_by", "rise_reading"]
