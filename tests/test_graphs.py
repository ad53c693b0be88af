"""Unit tests of helpers.graphs: the layered layout and the data-flow figure."""

import pytest

import helpers
from helpers.graphs import draw_dataflow, layered_layout

FANCY = [("a", "add1"), ("b", "add1"), ("c", "add2"), ("d", "add2"),
         ("add1", "e"), ("add2", "f"), ("e", "add3"), ("f", "add3"), ("add3", "g")]
FANCY_OPS = {"add1": "add", "add2": "add", "add3": "add"}


def test_layout_puts_inputs_left_and_children_between_parents():
    pos = layered_layout(FANCY)
    assert [pos[n] for n in "abcd"] == [(0.0, 3.0), (0.0, 2.0), (0.0, 1.0), (0.0, 0.0)]
    assert pos["add1"] == (1.0, 2.5) and pos["add2"] == (1.0, 0.5)
    assert pos["add3"] == (3.0, 1.5) and pos["g"] == (4.0, 1.5)


def test_layout_uses_the_longest_path():
    pos = layered_layout([("a", "b"), ("b", "c"), ("a", "c")])
    assert pos["c"][0] == 2.0


def test_draw_dataflow_returns_figure_with_nodes_and_arrows():
    import matplotlib.pyplot as plt
    before = plt.get_fignums()
    fig = draw_dataflow(FANCY, ops=FANCY_OPS, title="fancy_func")
    ax = fig.axes[0]
    arrows = [t for t in ax.texts if getattr(t, "arrow_patch", None) is not None]
    labels = sorted(t.get_text() for t in ax.texts if t not in arrows)
    assert labels == sorted(["a", "b", "c", "d", "e", "f", "g", "add", "add", "add"])
    assert len(arrows) == len(FANCY)
    assert ax.get_title() == "fancy_func"
    assert plt.get_fignums() == before  # not registered with pyplot: shown once


def test_draw_dataflow_is_exported_from_helpers():
    assert helpers.draw_dataflow is draw_dataflow


@pytest.mark.parametrize("edges, error, match", [
    ("ab", TypeError, "edges must be a sequence"),
    ([], ValueError, "at least one"),
    ([("a", "b", "c")], ValueError, "pairs"),
    ([("a", 1)], TypeError, "strings"),
    ([("a", "b"), ("b", "a")], ValueError, "acyclic"),
])
def test_layout_rejects_bad_edges(edges, error, match):
    with pytest.raises(error, match=match):
        layered_layout(edges)


def test_draw_dataflow_rejects_unknown_ops():
    with pytest.raises(ValueError, match="ops must name nodes"):
        draw_dataflow([("a", "b")], ops={"mul": "mul"})


def test_graph_edges_names_operations_and_draws_a_shared_node_once():
    from collections import namedtuple
    from helpers.graphs import graph_edges
    N = namedtuple("N", "op args value")
    a, b = N("input", (), "a"), N("input", (), "b")
    e = N("add", (a, b), None)
    f = N("add", (e, N("const", (), 7)), None)
    root = N("add", (e, f), None)
    edges, ops = graph_edges(root, {"add": "+"})
    assert ops == {"add1": "+", "add2": "+", "add3": "+"}
    assert edges == [("a", "add1"), ("b", "add1"), ("add1", "add2"), ("7", "add2"),
                     ("add1", "add3"), ("add2", "add3")]
    draw_dataflow(edges, ops=ops)


def test_graph_edges_rejects_bad_input():
    from helpers.graphs import graph_edges
    with pytest.raises(TypeError, match="symbols"):
        graph_edges(None, ["add"])
    with pytest.raises(TypeError, match="root"):
        graph_edges(3, {"add": "+"})
