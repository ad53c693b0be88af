"""Graphs: draw a small data-flow graph (values and the operations between them).

Nodes are named by strings and given as edges ``(source, target)``; the
layout is computed from the edges (inputs on the left, the flow to the
right), so a notebook only says what feeds what.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from .plotting import new_figure

VALUE_STYLE = {"boxstyle": "circle,pad=0.35", "facecolor": "#dbe9f6", "edgecolor": "#1f77b4"}
OP_STYLE = {"boxstyle": "round,pad=0.4", "facecolor": "#fde5cc", "edgecolor": "#ff7f0e"}


def _check_edges(edges: Any) -> list[tuple[str, str]]:
    """Return `edges` as a list of (str, str) pairs, or raise a clear error."""
    if isinstance(edges, (str, bytes)) or not isinstance(edges, Sequence):
        raise TypeError(f"edges must be a sequence of (source, target) pairs, got {type(edges).__name__}")
    if not edges:
        raise ValueError("edges must hold at least one (source, target) pair")
    pairs = []
    for edge in edges:
        if isinstance(edge, (str, bytes)) or not isinstance(edge, Sequence) or len(edge) != 2:
            raise ValueError(f"edges must hold (source, target) pairs, got {edge!r}")
        if not all(isinstance(name, str) for name in edge):
            raise TypeError(f"edges must name nodes with strings, got {edge!r}")
        pairs.append((edge[0], edge[1]))
    return pairs


def layered_layout(edges: Sequence[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Return {node: (x, y)}: x is the longest path from an input, y follows the inputs."""
    pairs = _check_edges(edges)
    nodes = list(dict.fromkeys(name for pair in pairs for name in pair))
    parents: dict[str, list[str]] = {n: [] for n in nodes}
    for source, target in pairs:
        parents[target].append(source)
    positions: dict[str, tuple[float, float]] = {}
    inputs = [n for n in nodes if not parents[n]]
    for i, name in enumerate(inputs):  # first input at the top
        positions[name] = (0.0, float(len(inputs) - 1 - i))
    pending = [n for n in nodes if parents[n]]
    while pending:
        ready = [n for n in pending if all(p in positions for p in parents[n])]
        if not ready:
            raise ValueError(f"edges must form an acyclic graph; a cycle runs through {pending}")
        for name in ready:
            xs, ys = zip(*(positions[p] for p in parents[name]))
            positions[name] = (max(xs) + 1.0, sum(ys) / len(ys))
        pending = [n for n in pending if n not in positions]
    return positions


def draw_dataflow(edges: Sequence[tuple[str, str]], ops: Optional[Mapping[str, str]] = None,
                  title: Optional[str] = None, figsize: Sequence[float] = (6.0, 3.0)) -> Any:
    """Draw a data-flow graph and return the figure: values as circles, operations as boxes.

    `ops` maps the nodes that are operations to the label shown in their box
    (several ``add`` nodes need distinct names but may share the label).
    """
    pairs = _check_edges(edges)
    ops = dict(ops or {})
    positions = layered_layout(pairs)
    unknown = [name for name in ops if name not in positions]
    if unknown:
        raise ValueError(f"ops must name nodes that appear in edges, got {unknown}")
    fig, ax = new_figure(figsize)
    ax.set_axis_off()
    for source, target in pairs:
        ax.annotate("", xy=positions[target], xytext=positions[source],
                    arrowprops={"arrowstyle": "-|>", "color": "0.35", "shrinkA": 15, "shrinkB": 15})
    for name, (x, y) in positions.items():
        style = OP_STYLE if name in ops else VALUE_STYLE
        ax.text(x, y, ops.get(name, name), ha="center", va="center", fontsize=11, bbox=style)
    xs, ys = zip(*positions.values())
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    if title:
        ax.set_title(title)
    return fig


def graph_edges(root: Any, symbols: Mapping[str, str]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Return ``(edges, ops)`` of the expression graph under `root`, for `draw_dataflow`.

    A node has ``op``, ``args`` and ``value``: an operation has an ``op`` in
    `symbols` (its label) and the nodes it reads in ``args``; any other node
    is a leaf (an input or a constant) named ``str(value)``. A node reached
    twice is drawn once; operations are named ``op1``, ``op2``, ... in the
    order they are finished.
    """
    if not isinstance(symbols, Mapping):
        raise TypeError(f"symbols must map operation names to labels, got {type(symbols).__name__}")
    names: dict[int, str] = {}
    edges: list[tuple[str, str]] = []
    ops: dict[str, str] = {}

    def visit(node: Any) -> str:
        if not all(hasattr(node, attr) for attr in ("op", "args", "value")):
            raise TypeError(f"root must be a graph of nodes with op, args and value, got {type(node).__name__}")
        if id(node) not in names:
            if node.op in symbols:
                args = [visit(arg) for arg in node.args]
                name = f"{node.op}{len(ops) + 1}"
                ops[name] = symbols[node.op]
                edges.extend((arg, name) for arg in args)
                names[id(node)] = name
            else:
                names[id(node)] = str(node.value)
        return names[id(node)]

    visit(root)
    return edges, ops
