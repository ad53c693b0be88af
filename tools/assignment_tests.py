"""Hidden tests of the exercises, for the nbgrader assignments that tools/assignments.py builds.

TESTS[notebook][N] holds the tests of exercise N (its "### Exercise N", "**Exercise N.**" or
"**Solution N.**" heading): one test, or a list of them, each worth one point. They run in the
student's kernel right after the exercise's last worked-solution code cell. Each checks what the
exercise asks for (a value, a shape, a graph, an exported program that accepts batch 8, a
verdict computed with helpers.compare), never a time or which verdict came out: timings differ
from machine to machine. Exercises without a test here are graded by hand, from the written
answers.
"""

# A verdict of helpers.Ratio.verdict; which one comes out depends on the machine.
_VERDICT = r"faster|slower|within the noise|about the same \(within .+\)|within \S+ either way"

TESTS: dict[str, dict[int, str | list[str]]] = {
    "01_imperative": {
        1: """import dis as _dis
assert calls_only(1, 2, 3, 4) == names_only(1, 2, 3, 4) == fancy_func(1, 2, 3, 4)
assert any(i.opname.startswith("CALL") for i in _dis.get_instructions(calls_only)), "calls_only must call add"
assert not any(i.opname.startswith("CALL") for i in _dis.get_instructions(names_only)), "names_only must not call"
""",
        2: """_g, _peak = peak_new_memory(one_buffer, a, b, c, d)
assert np.array_equal(_g, fancy_func(a, b, c, d)), "one_buffer must compute fancy_func's g"
assert _peak < 1.5 * a.nbytes, f"one_buffer allocates {_peak / a.nbytes:.1f} arrays, one is enough"
""",
    },
    "02_symbolic": {
        1: """assert fn_mul(1, 2, 3, 4) == mul_func(1, 2, 3, 4) == 21
assert "*" in source_mul, "the compiled source must multiply"
""",
        2: """_t = fancy_func(inp("a"), const(-0.0), inp("c"), const(-0.0))
assert str(simplify(_t)) == "(a + c)", str(simplify(_t))
""",
        3: """assert relu_sum(-3, 1) == 0 and relu_sum(2, 1) == 3
""",
        4: """assert str(traced_ints) == "((a + b) + 7)", str(traced_ints)
""",
    },
    "03_pytorch": {
        1: f"""import re as _re
assert tuple(x256.shape) == (256, 512), "a batch of 256 rows"
assert {{"eager", "torch.jit.script", "torch.compile (Inductor)"}} <= set(big.labels), "time the three modes"
assert _re.fullmatch({_VERDICT!r}, big.ratio("torch.jit.script", "eager").verdict(1.5))
""",
        2: """_r = exported_cond.module()
assert torch.allclose(_r(pos), BranchyCond()(pos)) and torch.allclose(_r(neg), BranchyCond()(neg))
assert "cond" in exported_cond.graph_module.code, "both branches must be in the graph (torch.cond)"
""",
        3: """_r = torch.export.load(exercise_folder / "my_mlp_dynamic.pt2").module()
_v8 = torch.randn(size=(8, 512)).to(device)
assert tuple(_r(_v8).shape) == (8, 2), "the exported program must accept a batch of 8"
assert torch.allclose(_r(_v8), net(_v8), rtol=1e-5, atol=1e-6)
""",
    },
    "04_tensorflow": {
        1: ["""assert times.experimental_get_tracing_count() == 6, "six Python floats trace six graphs"
""", """assert times_tensor.experimental_get_tracing_count() == 1, "a tensor argument traces one graph"
"""],
        2: ["""assert np.allclose(net(x), raw_mlp(x), atol=1e-6)
""", f"""import re as _re
assert {{"eager", "tf.function"}} <= set(raw.labels) and len(raw.labels) == 3, "time raw ops next to both modes"
assert _re.fullmatch({_VERDICT!r}, raw.ratio(next(l for l in raw.labels if l not in ("eager", "tf.function")), "eager").verdict(1.5))
"""],
        3: f"""import re as _re
assert {{"eager", "tf.function"}} <= set(big.labels), "time the modes with helpers.compare"
assert _re.fullmatch({_VERDICT!r}, big.ratio("tf.function", "eager").verdict(1.5))
assert tuple(x256.shape) == (256, 512), "a batch of 256 rows"
""",
    },
    "05_mxnet": {
        1: """_n = RebindNet(prefix="hidden_test_")
_n.initialize(ctx=device)
_eager = _n(x_small).asnumpy()
_n.hybridize()
assert np.allclose(_eager, _n(x_small).asnumpy()), "the rebinding version must hybridize"
""",
        2: """assert np.allclose(eager_pos, hybrid_pos) and np.allclose(eager_neg, hybrid_neg)
assert not np.allclose(eager_pos, eager_neg), "the two branches must differ"
""",
        3: """assert list(batch_sizes) == [1, 16, 256] and len(speed_ups) == 3 and min(speed_ups) > 0
""",
    },
    "06_side_by_side": {
        1: """assert tuple(wide_sizes) == (512, 1024, 1024, 2)
assert {"PyTorch eager", "torch.jit.script"} <= set(res.labels)
""",
    },
    "07_framework_vs_scratch": {
        1: f"""import re as _re
assert {{"scratch 1", "framework 1", "scratch 5", "framework 5"}} <= set(big.labels), "both versions, 1 and 5 layers"
assert BATCH == 50, "set BATCH back to 50 for the rest of the notebook"
assert _re.fullmatch({_VERDICT!r}, big.pair_ratio([("scratch 1", "framework 1"), ("scratch 5", "framework 5")]).verdict(1.05))
""",
    },
    "09_activations_init": {
        1: """assert losses[0] > 100 and acc1 < 0.15, "N(0, 1) weights: a huge first loss, then guessing"
""",
        2: """assert {0.5, 2.0} <= set(sigmoid) and all(len(sigmoid[lr]) == len(SEEDS) for lr in (0.5, 2.0)), "every seed at both rates"
""",
        3: """assert len(xavier_normal) == len(SEEDS), "one run per seed"
""",
    },
    "08_matmul_alignment": {
        1: """assert torch.allclose(padded_product(), a @ b, rtol=1e-4, atol=1e-3), "padding must not change the product"
""",
        2: f"""import re as _re
assert a64.dtype == b64.dtype == torch.float64 and tuple(a64.shape) == (1024, 1024)
assert {{"float32", "float64"}} <= set(precision.labels), "time both precisions with helpers.compare"
assert _re.fullmatch({_VERDICT!r}, precision.ratio("float64", "float32").verdict(1.5))
""",
        3: f"""import re as _re
assert {{"start 0", "start 1"}} <= set(shifted.labels), "time the aligned and the misaligned start"
assert _re.fullmatch({_VERDICT!r}, shifted.ratio("start 1", "start 0").verdict(1.2))
""",
    },
}
