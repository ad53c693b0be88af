"""helpers.mxnet_profile: per-call counts from MXNet's aggregated profiler dump."""

import pytest

from helpers.mxnet_profile import per_call_counts, profile_counts


def rows(**counts):
    return {name.replace("__", ","): {"Count": n} for name, n in counts.items()}


STATIC = {"MXNET_C_API": {"MXNet C API Calls": {"Count": 500}, "MXNet C API Concurrency": {"Count": 900},
                          "MXInvokeCachedOpEx": {"Count": 100}, "MXInvokeCachedOp": {"Count": 100},
                          "MXNDArrayFree": {"Count": 100}, "MXNDArrayGetContext": {"Count": 200}},
          "operator": rows(Activation__FullyConnected__Activation=100, FullyConnected=200, DeleteVariable=100)}


def test_static_graph_counts():
    c = per_call_counts(STATIC, 100)
    assert c["from_python"] == 4            # the inner MXInvokeCachedOp is not a call from Python
    assert c["dispatches"] == 3             # one segment and two operators
    assert c["freed"] == 1
    assert c["operators"] == {"Activation": 2, "FullyConnected": 3}
    assert c["api"] == {"MXInvokeCachedOp": 1, "MXInvokeCachedOpEx": 1, "MXNDArrayFree": 1, "MXNDArrayGetContext": 2}


def test_eager_counts():
    stats = {"MXNET_C_API": {"MXNet C API Calls": {"Count": 22}, "MXImperativeInvokeEx": {"Count": 5}},
             "operator": rows(Activation=2, FullyConnected=3, DeleteVariable=5)}
    c = per_call_counts(stats, 1)
    assert (c["from_python"], c["dispatches"], c["freed"]) == (22, 5, 5)


@pytest.mark.parametrize("stats, calls, word", [(STATIC, 0, "calls"), (STATIC, 1.5, "calls"), ({}, 1, "stats"),
                                                ({"operator": {}}, 1, "stats")])
def test_bad_input_names_the_argument(stats, calls, word):
    with pytest.raises(ValueError, match=word):
        per_call_counts(stats, calls)


def test_profile_counts_checks_arguments():
    with pytest.raises(ValueError, match="call"):
        profile_counts("net", 10)
    with pytest.raises(ValueError, match="calls"):
        profile_counts(lambda: None, 0)


def test_engine_ops_count_each_operation_once_per_call():
    from helpers.mxnet_profile import per_call_engine_ops
    events = []
    for _ in range(2):
        for name in ("ImperativeBulk", "Activation,FullyConnected,Activation", "ImperativeBulk", "DeleteVariable"):
            events += [{"name": name, "cat": "operator", "ph": "B"}, {"name": name, "cat": "operator", "ph": "E"}]
    events.append({"name": "MXNDArrayFree", "cat": "MXNET_C_API", "ph": "B"})
    assert per_call_engine_ops(events, 2) == {"Activation,FullyConnected,Activation": 1, "DeleteVariable": 1,
                                              "ImperativeBulk": 2}
    with pytest.raises(ValueError, match="calls"):
        per_call_engine_ops(events, 0)
    with pytest.raises(ValueError, match="events"):
        per_call_engine_ops({}, 1)


def test_trace_events_reads_whole_files_and_fragments():
    from helpers.mxnet_profile import trace_events
    event = '{"name": "ImperativeBulk", "cat": "operator", "ph": "B", "args": {"a": 0}}'
    assert trace_events('{"traceEvents": [' + event + '], "displayTimeUnit": "ms"}')[0]["name"] == "ImperativeBulk"
    fragment = ",\n" + event + ",\n" + event + '\n],\n"displayTimeUnit": "ms"\n}'
    assert [e["name"] for e in trace_events(fragment)] == ["ImperativeBulk"] * 2
