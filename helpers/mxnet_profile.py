"""Count what one warm call of an MXNet network asks of C++, from MXNet's aggregated profiler.

`per_call_counts` reads the profiler's JSON dump (pure Python, tested without MXNet);
`profile_counts` runs the profiler over warm calls and imports MXNet only when called.
Counts hold for MXNet 1.9.1 on a CPU, with the profiler set to `aggregate_stats=True`.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

FREE = "DeleteVariable"   # the engine freeing an array: an engine operation, not an operator of the network


def per_call_counts(stats: Mapping[str, Any], calls: int) -> dict[str, Any]:
    """Per-call counts from the "Time" section of `profiler.dumps(format="json")`.

    Returns a dict with
    - "from_python": entries into MXNet's C API made from Python. The profiler counts the graph's
      call twice (`MXInvokeCachedOpEx` from Python and the `MXInvokeCachedOp` it calls inside C++);
      the inner one is left out;
    - "dispatches": operations the engine received, other than freeing arrays (operators joined by
      commas in one row, a static graph's segment, count as one);
    - "freed": engine variables deleted (`DeleteVariable`): mostly arrays freed, also per-call state;
    - "operators": the network's operators run, each counted once, by name;
    - "api": every C API entry, by name (the two totals left out).
    """
    if not isinstance(calls, int) or calls < 1:
        raise ValueError(f"calls must be a positive integer, got {calls!r}")
    if not isinstance(stats, Mapping) or "MXNET_C_API" not in stats or "operator" not in stats:
        raise ValueError("stats must be the profiler's 'Time' section, with 'MXNET_C_API' and 'operator'")
    api = {name: row["Count"] / calls for name, row in stats["MXNET_C_API"].items()}
    from_python = api.get("MXNet C API Calls", 0) - api.get("MXInvokeCachedOp", 0)
    dispatches = freed = 0.0
    operators: dict[str, float] = {}
    for names, row in stats["operator"].items():
        n = row["Count"] / calls
        if names == FREE:
            freed += n
            continue
        dispatches += n
        for name in names.split(","):
            operators[name] = operators.get(name, 0) + n
    return {"from_python": round(from_python), "dispatches": round(dispatches), "freed": round(freed),
            "operators": {name: round(n) for name, n in sorted(operators.items())},
            "api": {name: round(n) for name, n in sorted(api.items())
                    if not name.startswith("MXNet C API") and round(n) > 0}}


def _check_call(call: Any, calls: Any) -> None:
    """Raise a clear error unless `call` is callable and `calls` a positive integer."""
    if not callable(call):
        raise ValueError("call must be a function of no arguments, such as lambda: net(x)")
    if not isinstance(calls, int) or calls < 1:
        raise ValueError(f"calls must be a positive integer, got {calls!r}")


def _run_profiled(call: Callable[[], Any], calls: int) -> None:
    """Run `call()` `calls` times with MXNet's profiler on, and wait for the engine before stopping it."""
    import mxnet as mx
    from mxnet import profiler
    profiler.set_state("run")
    for _ in range(calls):
        call()
    mx.nd.waitall()
    profiler.set_state("stop")


def profile_counts(call: Callable[[], Any], calls: int = 100, filename: str | None = None) -> dict[str, Any]:
    """Profile `calls` warm calls of `call()` with MXNet's aggregating profiler; see `per_call_counts`.

    `filename` is where MXNet would dump a trace (none is dumped here); by default a file in the
    temporary folder, so that nothing is written beside the notebook.

    Aggregating turns off the engine's bulking of operators, so every dispatch is counted.
    """
    _check_call(call, calls)
    import os
    import tempfile

    import mxnet as mx
    from mxnet import profiler
    if filename is None:
        filename = os.path.join(tempfile.gettempdir(), "mxnet_profile.json")
    profiler.set_config(profile_all=True, aggregate_stats=True, filename=filename)
    mx.nd.waitall()
    profiler.dumps(reset=True)   # start from empty counts
    _run_profiled(call, calls)
    stats = json.loads(profiler.dumps(reset=True, format="json"))["Time"]
    return per_call_counts(stats, calls)


def per_call_engine_ops(events: Any, calls: int) -> dict[str, int]:
    """Engine operations per call, by name, from a non-aggregated trace's "traceEvents".

    Each operation the engine ran opens one "B" event of category "operator": a single operator
    (`FullyConnected`), a bulk of operators (`ImperativeBulk`), a static graph's segment (names
    joined by commas) or a freed variable (`DeleteVariable`).
    """
    if not isinstance(calls, int) or calls < 1:
        raise ValueError(f"calls must be a positive integer, got {calls!r}")
    if not isinstance(events, list):
        raise ValueError("events must be the trace's 'traceEvents' list")
    ops: dict[str, int] = {}
    for event in events:
        if isinstance(event, Mapping) and event.get("cat") == "operator" and event.get("ph") == "B":
            ops[event["name"]] = ops.get(event["name"], 0) + 1
    return {name: round(n / calls) for name, n in sorted(ops.items()) if round(n / calls) > 0}


def trace_engine_ops(call: Callable[[], Any], calls: int = 50, filename: str | None = None) -> dict[str, int]:
    """Trace `calls` warm calls of `call()` without aggregating, so bulking stays on as in a timed call.

    Returns the engine operations per call, by name (see `per_call_engine_ops`).
    """
    _check_call(call, calls)
    import os
    import tempfile

    import mxnet as mx
    from mxnet import profiler
    if filename is None:
        filename = os.path.join(tempfile.gettempdir(), "mxnet_trace.json")
    mx.nd.waitall()
    profiler.set_config(profile_all=True, aggregate_stats=False, filename=filename + ".earlier")
    profiler.dump(finished=False)   # writes away the events of earlier profiling, if any
    profiler.set_config(profile_all=True, aggregate_stats=False, filename=filename)
    _run_profiled(call, calls)
    profiler.dump(finished=False)
    with open(filename, encoding="utf-8") as f:
        return per_call_engine_ops(trace_events(f.read()), calls)


def trace_events(text: str) -> list[dict[str, Any]]:
    """The events of a trace file, also of one written by `profiler.dump(finished=False)`, which is
    a fragment of JSON: every complete object with a "name" at the top level of the event list."""
    decoder = json.JSONDecoder()
    events, i = [], 0
    while (i := text.find("{", i)) >= 0:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i += 1
            continue
        if "traceEvents" in obj:
            return list(obj["traceEvents"])
        if "name" in obj:
            events.append(obj)
        i = end
    return events
