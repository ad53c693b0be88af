"""Unit tests of helpers.tracing: frames, instructions and additions counted for one call."""

import sys

import pytest

import helpers
from helpers.tracing import trace_run


def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


def inlined(a, b, c, d):
    return (a + b) + (c + d)


def test_counts_frames_and_additions_of_each_function():
    fancy = trace_run(fancy_func, 1, 2, 3, 4)
    assert fancy["frames"] == {"fancy_func": 1, "add": 3}
    assert fancy["additions"] == 3
    flat = trace_run(inlined, 1, 2, 3, 4)
    assert flat["frames"] == {"inlined": 1}
    assert flat["additions"] == 3


def test_calls_execute_more_instructions_than_the_inlined_expression():
    fancy = trace_run(fancy_func, 1, 2, 3, 4)["instructions"]
    flat = trace_run(inlined, 1, 2, 3, 4)["instructions"]
    assert set(fancy) == {"fancy_func", "add"} and set(flat) == {"inlined"}
    assert sum(fancy.values()) >= 3 * sum(flat.values())
    assert fancy["add"] % 3 == 0, "three identical calls of add execute the same instructions"


def test_a_function_without_additions_counts_none():
    assert trace_run(lambda x: x, 1)["additions"] == 0


def test_restores_the_previous_trace_function():
    before = sys.gettrace()
    trace_run(inlined, 1, 2, 3, 4)
    assert sys.gettrace() is before


def test_trace_is_removed_when_the_function_raises():
    before = sys.gettrace()
    with pytest.raises(ZeroDivisionError):
        trace_run(lambda: 1 / 0)
    assert sys.gettrace() is before


def test_rejects_a_non_callable_naming_the_argument():
    with pytest.raises(TypeError, match="fn must be callable"):
        trace_run(42)


def test_is_exported():
    assert helpers.trace_run is trace_run
