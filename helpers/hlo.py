"""Read XLA's optimized HLO text: the steps of the program's entry computation.

`xla_steps` lists each step with the TensorFlow ops it computes, from the text that TensorFlow
returns from ``fn.experimental_get_compiler_ir(x)(stage="optimized_hlo")``; `hlo_steps` lists each
step with the HLO instructions it computes, from any framework's text. No framework is imported here.
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


def _kind(line: str) -> str | None:
    """The HLO instruction's name on an instruction line ("dot", "fusion", ...), or None."""
    m = re.match(r"(?:ROOT )?%?[\w.\-]+ = \S+ ([\w\-]+)\(", line)
    return m.group(1) if m else None


def _entry_steps(hlo: str) -> list[tuple[str, str, list[str]]]:
    """Each instruction of the entry computation as (name, line, lines of the computation a fusion calls)."""
    if not isinstance(hlo, str):
        raise TypeError(f"hlo must be the HLO text (str), got {type(hlo).__name__}")
    computations = _computations(hlo)
    if "ENTRY" not in computations:
        raise ValueError("hlo has no ENTRY computation: pass the text of an HLO module")
    steps = []
    for line in computations["ENTRY"]:
        kind = _kind(line)
        if kind is None:
            continue
        called = re.search(r"calls=%?([\w.\-]+)", line) if kind == "fusion" else None
        steps.append((kind, line, computations.get(called.group(1), []) if called else []))
    return steps


def _fusion_kind(line: str) -> str:
    """The kind of a fusion instruction ("kLoop", "kOutput", ...)."""
    return re.search(r"kind=(\w+)", line).group(1)


def xla_steps(hlo: str) -> list[tuple[str, str]]:
    """The steps of an optimized HLO module's entry computation, as (step, TensorFlow ops) pairs.

    A fused step reads "fusion (kind)", with the ops of the computation it calls; any other step
    is the HLO instruction's name ("dot", ...). Parameters, bitcasts, constants, tuples and copies
    are left out.
    """
    steps = []
    for kind, line, called in _entry_steps(hlo):
        if kind in _NO_COMPUTATION:
            continue
        if kind == "fusion":
            steps.append((f"fusion ({_fusion_kind(line)})", _tf_ops(called)))
        else:
            steps.append((kind, _tf_ops([line])))
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
    steps = []
    for kind, line, called in _entry_steps(hlo):
        if kind in _NO_ARITHMETIC:
            continue
        if kind != "fusion":
            steps.append(kind)
            continue
        ops = [k for k in map(_kind, called) if k and k not in _NO_ARITHMETIC]
        if ops:
            steps.append(f"fusion ({_fusion_kind(line)}): " + " + ".join(dict.fromkeys(ops)))
    return steps
