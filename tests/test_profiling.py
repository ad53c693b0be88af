"""helpers.profiling groups profiler rows and compares eager and compiled steps; helpers.readings words a side of 1."""

from types import SimpleNamespace as Row

import pytest

import helpers
from helpers.comparison import Ratio
from helpers.profiling import GROUPS, compare_profiles, profile_group, replaced_rows, step_profile


@pytest.mark.parametrize("name, group", [
    ("aten::addmm", GROUPS[0]), ("aten::mm", GROUPS[0]), ("aten::relu", GROUPS[1]),
    ("autograd::engine::evaluate_function: ReluBackward0", GROUPS[2]), ("ReluBackward0", GROUPS[2]),
    ("## Call CompiledFxGraph abc", GROUPS[3]), ("TorchDynamo Cache Lookup", GROUPS[4]),
    ("CompiledFunctionBackward", GROUPS[4]), ("Optimizer.step#SGD.step", GROUPS[5])])
def test_profile_group(name, group):
    assert profile_group(name) == group


def _eager():
    return step_profile([Row(key="aten::addmm", count=6, self_cpu_time_total=600.0),
                         Row(key="aten::t", count=4, self_cpu_time_total=40.0),
                         Row(key="aten::threshold_backward", count=2, self_cpu_time_total=100.0),
                         Row(key="aten::relu", count=2, self_cpu_time_total=10.0),
                         Row(key="aten::as_strided", count=4, self_cpu_time_total=8.0),
                         Row(key="ReluBackward0", count=2, self_cpu_time_total=20.0)], steps=2)


def _compiled():
    return step_profile([Row(key="aten::addmm", count=6, self_cpu_time_total=620.0),
                         Row(key="aten::as_strided", count=2, self_cpu_time_total=2.0),
                         Row(key="## Call CompiledFxGraph x", count=2, self_cpu_time_total=60.0),
                         Row(key="TorchDynamo Cache Lookup", count=2, self_cpu_time_total=100.0)], steps=2)


def test_step_profile_is_per_step():
    p = _eager()
    assert p.aten_calls == 9 and p.matmul_calls == 3
    assert p.own[GROUPS[0]] == pytest.approx(300e-6) and p.op_time["aten::threshold_backward"] == pytest.approx(50e-6)
    with pytest.raises(ValueError, match="steps"):
        step_profile([], steps=0)


def test_compare_profiles_lists_the_removed_calls_and_nets_the_time():
    cmp = compare_profiles([_eager()], [_compiled()])
    assert [row[:4] for row in cmp.removed()] == [("aten::threshold_backward", "computes", 1, 0),
                                                  ("aten::t", "view or wrapper", 2, 0),
                                                  ("aten::relu", "view or wrapper", 1, 0),
                                                  ("aten::as_strided", "view or wrapper", 2, 1)]
    # the time is scaled to the calls removed: half of as_strided's 4 us per step
    assert cmp.removed()[-1][4] == pytest.approx(2e-6)
    added, saved = cmp.added_and_saved()
    assert added == pytest.approx(80e-6) and saved == pytest.approx(88e-6)
    summary = "\n".join(cmp.summary())
    assert "9 eager -> 4 compiled" in summary and "3 -> 3, every one kept" in summary
    assert "no more own time than it removes" in summary and len(cmp.summary()) == 4
    assert cmp.summary()[2:] == replaced_rows(cmp)
    details = "\n".join(cmp.details())
    assert "view or wrapper: 4 calls removed" in details and "computes: 1 calls removed" in details
    assert cmp.lines() == cmp.summary() + cmp.details()
    with pytest.raises(TypeError, match="eager"):
        compare_profiles([], [_compiled()])


def test_side_reading():
    words = dict(above="rose", below="fell", includes="unresolved")
    assert helpers.side_reading(Ratio("a", "b", 0.9, 0.85, 0.95, rounds=40), **words) == "interval against 1: below 1; fell"
    assert helpers.side_reading(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=40), **words).endswith("unresolved")
    assert helpers.side_reading(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=3), **words).endswith("too few rounds to tell")
    with pytest.raises(TypeError, match="above"):
        helpers.side_reading(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=40), above="", below="x", includes="y")


def test_side_sentence():
    words = dict(above="rose", below="fell", includes="unresolved")
    assert helpers.side_sentence(Ratio("a", "b", 0.9, 0.85, 0.95, rounds=40), **words) == "fell"
    assert helpers.side_sentence(Ratio("a", "b", 1.1, 1.05, 1.2, rounds=40), **words) == "rose"
    assert helpers.side_sentence(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=40), **words) == "unresolved"
    assert helpers.side_sentence(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=3), **words) == "too few rounds to tell"
    with pytest.raises(TypeError, match="below"):
        helpers.side_sentence(Ratio("a", "b", 1.0, 0.9, 1.1, rounds=40), above="x", below="", includes="y")


def test_replaced_rows_names_the_rows_it_compares():
    lines = replaced_rows(compare_profiles([_eager()], [_compiled()]))
    assert len(lines) == 2
    assert "other ATen operators, autograd engine" in lines[0] and "generated call(), wrappers" in lines[0]
    assert lines[1].startswith("so: in these rows (not the products, not the optimizer), compiling adds ")
    with pytest.raises(TypeError, match="comparison"):
        replaced_rows("not a comparison")


def test_alternate_profiles_counts_the_calls_of_a_step():
    torch = pytest.importorskip("torch")
    from helpers.profiling import alternate_profiles, profile_steps
    torch.manual_seed(0)
    W = torch.randn(4, 3, requires_grad=True)
    X = torch.ones(2, 4)
    order = []

    def step(name):
        def run():
            order.append(name)
            (X @ W).sum().backward()
        return run

    runs = alternate_profiles({"a": step("a"), "b": step("b")}, rounds=3, steps=2, warmup=1)
    assert [len(r) for r in runs.values()] == [2, 2]
    assert order == ["a", "a", "b", "b"] * 3                 # each profile holds `steps` calls, in turn
    one = runs["a"][0]
    assert one.matmul_calls == 2                              # per step: the product and its weight gradient
    assert one.aten_calls > one.matmul_calls and one.own[GROUPS[0]] > 0
    assert profile_steps(step("c"), steps=1).matmul_calls == 2


def test_alternate_profiles_names_a_bad_argument():
    from helpers.profiling import alternate_profiles, profile_steps
    with pytest.raises(TypeError, match="steppers"):
        alternate_profiles({}, rounds=2)
    with pytest.raises(ValueError, match="rounds"):
        alternate_profiles({"a": lambda: None}, rounds=1, warmup=1)
    with pytest.raises(ValueError, match="warmup"):
        alternate_profiles({"a": lambda: None}, rounds=2, warmup=-1)
    with pytest.raises(TypeError, match="step"):
        profile_steps(None)
    with pytest.raises(ValueError, match="steps"):
        profile_steps(lambda: None, steps=0)
