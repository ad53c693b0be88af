"""Eager against static-hybridized MXNet, timed in a fresh process that runs a chosen engine.

MXNet reads `MXNET_ENGINE_TYPE` once, when it starts its engine, so timing under another engine
needs a new Python process. `engine_sweep` writes that process's script (`sweep_script`), runs it
with `helpers.run_python` and returns the `Comparison` it measured. The network is the book's MLP
(512 inputs, 256 and 128 hidden units with ReLU, 2 outputs, seed 0); the modes are named
"eager {batch}" and "static {batch}" (`hybridize(static_alloc=True, static_shape=True)`), all timed
in one interleaved `compare` call with `mx.nd.waitall` as the sync.
"""

from __future__ import annotations

import json
import statistics
from typing import Any, Sequence

from .checks import check_int, check_positive
from .comparison import Comparison, Interval, round_interval

ENGINES = ("ThreadedEnginePerDevice", "ThreadedEngine", "NaiveEngine")  # MXNet 1.9.1's engine types

_SCRIPT = """
import json, os
os.environ["MXNET_ENGINE_TYPE"] = {engine!r}   # read when MXNet starts its engine: before the import
import helpers
helpers.set_threads(1)
import mxnet as mx
from mxnet import nd
from mxnet.gluon import nn


def get_net():
    mx.random.seed(0)
    net = nn.HybridSequential()
    net.add(nn.Dense(256, in_units=512, activation="relu"), nn.Dense(128, in_units=256, activation="relu"),
            nn.Dense(2, in_units=128))
    net.initialize(ctx=mx.cpu())
    return net


mx.random.seed(0)
modes = {{}}
for batch in {batch_sizes!r}:
    xb = nd.random.normal(shape=(batch, 512), ctx=mx.cpu())
    eager, static = get_net(), get_net()
    static.hybridize(static_alloc=True, static_shape=True)
    modes[f"eager {{batch}}"] = lambda net=eager, xb=xb: net(xb)
    modes[f"static {{batch}}"] = lambda net=static, xb=xb: net(xb)
cmp = helpers.compare(modes, budget={budget!r}, min_rounds={min_rounds!r}, sync=mx.nd.waitall)
print(json.dumps({{"times": cmp.times, "number": cmp.number}}))
"""


def _check_args(engine: Any, batch_sizes: Any, budget: Any, min_rounds: Any) -> tuple[str, list[int], float, int]:
    """Return the checked arguments of `sweep_script`, or raise an error that names the bad one."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if isinstance(batch_sizes, (str, bytes)) or not isinstance(batch_sizes, Sequence) or not batch_sizes:
        raise TypeError(f"batch_sizes must be a non-empty list of ints, got {batch_sizes!r}")
    sizes = [check_int("batch_sizes", b) for b in batch_sizes]
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"batch_sizes must not repeat a size, got {batch_sizes!r}")
    return engine, sizes, check_positive("budget", budget), check_int("min_rounds", min_rounds)


def sweep_script(engine: str, batch_sizes: Sequence[int], budget: float = 8.0, min_rounds: int = 15) -> str:
    """The Python source that times eager against static at each batch size under `engine`."""
    engine, sizes, budget, min_rounds = _check_args(engine, batch_sizes, budget, min_rounds)
    return _SCRIPT.format(engine=engine, batch_sizes=sizes, budget=budget, min_rounds=min_rounds)


def engine_sweep(engine: str, batch_sizes: Sequence[int], budget: float = 8.0, min_rounds: int = 15,
                 timeout: float = 600) -> Comparison:
    """Time eager against static at each batch size in a fresh process running MXNet's `engine`."""
    from .files import run_python
    out = run_python(sweep_script(engine, batch_sizes, budget, min_rounds), timeout=check_positive("timeout", timeout))
    lines = out.strip().splitlines()
    if not lines:
        raise RuntimeError(f"the {engine} process printed nothing")
    return Comparison(**json.loads(lines[-1]))


def share_kept(cmp: Comparison, small: int = 1, large: int = 256) -> tuple[float, Interval]:
    """Static's saving at batch `large` over its saving at batch `small`, round by round: the median and its interval."""
    t = cmp.times
    per_round = [(el - sl) / (es - ss) for es, ss, el, sl in
                 zip(t[f"eager {small}"], t[f"static {small}"], t[f"eager {large}"], t[f"static {large}"])]
    return statistics.median(per_round), round_interval(per_round)[0]


__all__ = ["ENGINES", "engine_sweep", "share_kept", "sweep_script"]
