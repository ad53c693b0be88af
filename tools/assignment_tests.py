"""Hidden tests of the exercises, for the nbgrader assignments that tools/assignments.py builds.

TESTS[notebook][k] is the test of the notebook's k-th worked solution code cell (1-based, in
the notebook's order); it runs right after that cell, in the student's kernel, and is worth one
point. Each checks what the exercise asks for (a value, a shape, a graph, an exported program
that accepts batch 8), never a time: timings differ from machine to machine. Exercises without a
test here (timings, explanations) are graded by hand, from the written answers.
"""

TESTS: dict[str, dict[int, str]] = {
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
        3: """_r = exported_cond.module()
assert torch.allclose(_r(pos), BranchyCond()(pos)) and torch.allclose(_r(neg), BranchyCond()(neg))
assert "cond" in exported_cond.graph_module.code, "both branches must be in the graph (torch.cond)"
""",
        4: """_r = torch.export.load(exercise_folder / "my_mlp_dynamic.pt2").module()
_v8 = torch.randn(size=(8, 512)).to(device)
assert tuple(_r(_v8).shape) == (8, 2), "the exported program must accept a batch of 8"
assert torch.allclose(_r(_v8), net(_v8), rtol=1e-5, atol=1e-6)
""",
    },
    "04_tensorflow": {
        1: """assert times.experimental_get_tracing_count() == 6, "six Python floats trace six graphs"
""",
        2: """assert times_tensor.experimental_get_tracing_count() == 1, "a tensor argument traces one graph"
""",
        3: """assert np.allclose(net(x), raw_mlp(x), atol=1e-6)
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
    },
    "06_side_by_side": {
        1: """assert tuple(wide_sizes) == (512, 1024, 1024, 2)
assert {"PyTorch eager", "torch.jit.script"} <= set(res.labels)
""",
    },
    "09_activations_init": {
        1: """assert losses[0] > 100 and acc1 < 0.15, "N(0, 1) weights: a huge first loss, then guessing"
""",
        3: """assert len(xavier_normal) == len(SEEDS), "one run per seed"
""",
    },
    "08_matmul_alignment": {
        1: """assert torch.allclose(padded_product(), a @ b, rtol=1e-4, atol=1e-3), "padding must not change the product"
""",
    },
}
