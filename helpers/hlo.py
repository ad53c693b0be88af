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


# HLO instructions that only move, shape or name data: left out of `hlo_steps`' lists of what a step computes.
_NO_ARITHMETIC = _NO_COMPUTATION + ("broadcast", "reshape", "transpose")


def hlo_steps(hlo: str) -> list[str]:
    """The computing steps of an optimized HLO module's entry computation, as short strings.

    Framework-neutral (JAX's ``jit(f).lower(...).compile().as_text()`` as well as TensorFlow's):
    a step that computes nothing (only bitcasts, copies, broadcasts) is left out, a fusion reads
    "fusion (kind): op + op" with the HLO instructions of the computation it calls, and any other
    step is the instruction's name ("dot").
    """
    if not isinstance(hlo, str):
        raise TypeError(f"hlo must be the HLO text (str), got {type(hlo).__name__}")
    computations = _computations(hlo)
    if "ENTRY" not in computations:
        raise ValueError("hlo has no ENTRY computation: pass the text of an HLO module")
    kind_of = lambda line: (m.group(1) if (m := re.match(r"(?:ROOT )?%?[\w.\-]+ = \S+ ([\w\-]+)\(", line)) else None)
    steps = []
    for line in computations["ENTRY"]:
        kind = kind_of(line)
        if kind is None or kind in _NO_ARITHMETIC:
            continue
        if kind != "fusion":
            steps.append(kind)
            continue
        called = re.search(r"calls=%?([\w.\-]+)", line).group(1)
        ops = [k for k in map(kind_of, computations.get(called, [])) if k and k not in _NO_ARITHMETIC]
        if ops:
            fusion_kind = re.search(r"kind=(\w+)", line).group(1)
            steps.append(f"fusion ({fusion_kind}): " + " + ".join(dict.fromkeys(ops)))
    return steps
