"""Count what CPython executes for one call: frames entered, instructions run, additions."""

from __future__ import annotations

import dis
import sys
from typing import Any, Callable


def trace_run(fn: Callable[..., Any], *args: Any) -> dict[str, Any]:
    """Run fn(*args) under a trace; return {"frames": {...}, "instructions": {...}, "additions": n}.

    ``frames`` and ``instructions`` map each function's name to the frames it entered and the
    instructions it executed (a frame's first instruction, ``RESUME``, comes as a "call" event and
    is not counted); ``additions`` counts ``BINARY_OP`` instructions.  The function runs twice and
    the second run is kept: on CPython 3.12.1 the first traced call of a process reports no
    instructions (CPython issue 114480).  A trace function set before is restored afterwards.
    """
    if not callable(fn):
        raise TypeError(f"trace_run: fn must be callable, got {type(fn).__name__}")
    previous = sys.gettrace()
    for _ in range(2):
        frames: dict[str, int] = {}
        instructions: dict[str, int] = {}
        opnames: list[str] = []

        def tracer(frame: Any, event: str, arg: Any) -> Any:
            name = frame.f_code.co_name
            frame.f_trace_opcodes = True
            if event == "call":
                frames[name] = frames.get(name, 0) + 1
            elif event == "opcode":
                instructions[name] = instructions.get(name, 0) + 1
                opnames.append(dis.opname[frame.f_code.co_code[frame.f_lasti]])
            return tracer

        sys.settrace(tracer)
        try:
            fn(*args)
        finally:
            sys.settrace(previous)
    return {"frames": frames, "instructions": instructions, "additions": opnames.count("BINARY_OP")}
