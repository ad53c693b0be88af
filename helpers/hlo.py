"""Read XLA's optimized HLO text: the program's steps, each with the TensorFlow ops it computes.

`xla_steps` takes the text that TensorFlow returns from
``fn.experimental_get_compiler_ir(x)(stage="optimized_hlo")``; no framework is imported here.
"""

from __future__ import annotations

import re

# Instructions of the entry computation that compute nothing: inputs, reshapes of memory, constants.
_NO_COMPUTATION = ("parameter", "bitcast", "constant", "tuple", "copy")


def _computations(hlo: str) -> dict[str, list[str]]:
    """The instructions of each computation, by name; the entry computation is named "ENTRY"."""
    computations: dict[str, list[str]] = {}
    current = None
    for line in hlo.splitlines():
        head = re.match(r"^(ENTRY )?%?([\w.\-]+) .*\{$", line)
        if head:
            current = "ENTRY" if head.group(1) else head.group(2)
            computations[current] = []
        elif line.strip() == "}":
            current = None
        elif current and line.strip():
            computations[current].append(line.strip())
    return computations


def _tf_ops(lines: list[str]) -> str:
    """The TensorFlow op types named in the lines' metadata, in order, once each, joined by " + "."""
    found = [op for line in lines for op in re.findall(r'op_type="(\w+)"', line)]
    return " + ".join(dict.fromkeys(found))


def xla_steps(hlo: str) -> list[tuple[str, str]]:
    """The steps of an optimized HLO module's entry computation, as (step, TensorFlow ops) pairs.

    A fused step reads "fusion (kind)", with the ops of the computation it calls; any other step
    is the HLO instruction's name ("dot", ...). Parameters, bitcasts, constants, tuples and copies
    are left out.
    """
    if not isinstance(hlo, str):
        raise TypeError(f"hlo must be the HLO text (str), got {type(hlo).__name__}")
    computations = _computations(hlo)
    if "ENTRY" not in computations:
        raise ValueError("hlo has no ENTRY computation: pass the text of an HLO module")
    steps = []
    for line in computations["ENTRY"]:
        m = re.match(r"(?:ROOT )?%?[\w.\-]+ = \S+ ([\w\-]+)\(", line)
        if not m or m.group(1) in _NO_COMPUTATION:
            continue
        if m.group(1) == "fusion":
            kind = re.search(r"kind=(\w+)", line).group(1)
            called = re.search(r"calls=%?([\w.\-]+)", line).group(1)
            steps.append((f"fusion ({kind})", _tf_ops(computations.get(called, []))))
        else:
            steps.append((m.group(1), _tf_ops([line])))
    return steps
