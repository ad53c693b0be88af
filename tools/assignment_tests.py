"""Hidden tests of the exercises, for the nbgrader assignments that tools/assignments.py builds.

TESTS[notebook][N] holds the tests of exercise N (its "### Exercise N", "**Exercise N.**" or
"**Solution N.**" heading): one test, or a list of them, each worth one point. They run in the
student's kernel right after the exercise's last worked-solution code cell. Each checks what the
exercise asks for (a value, a shape, a graph, an exported program that accepts batch 8, the FLOP
count behind a printed rate, the modes and the direction of a measured ratio), and each fails for
a wrong answer. None checks a time or which verdict came out: timings differ from machine to
machine, and a verdict string has the right form whatever was measured. Exercises without a
test here are graded by hand, from the written answers.
"""

TESTS: dict[str, dict[int, str | list[str]]] = {
    "01_imperative": {
        1: """assert {"fancy_func", "calls_only", "names_only", "inlined"} <= set(split.labels), \
    "time fancy_func, calls_only, names_only and inlined together with helpers.compare"
assert split.rounds >= 3, "interleaved rounds"
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
        1: """assert tuple(x256.shape) == (256, 512), "a batch of 256 rows"
assert {"eager", "torch.jit.script", "torch.compile (Inductor)"} <= set(big.labels), "time the three modes"
_weights = sum(p.numel() for p in net.parameters() if p.dim() == 2)
assert flops == 2 * 256 * _weights, f"a batch of 256 does 2 x 256 x {_weights} FLOP, not {flops}"
for _mode in (scripted, compiled):
    assert torch.allclose(_mode(x256), net(x256), rtol=1e-4, atol=1e-5), "every mode computes the same at batch 256"
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
""", """assert {"eager", "tf.function"} <= set(raw.labels) and len(raw.labels) == 3, "time raw ops next to both modes"
assert "net" not in raw_mlp.__code__.co_names, "raw_mlp must use TensorFlow ops on the weights, not call the Keras model"
"""],
        3: """assert {"eager", "tf.function"} <= set(big.labels), "time the modes with helpers.compare"
assert tuple(x256.shape) == (256, 512), "a batch of 256 rows"
_weights = sum(int(np.prod(w.shape)) for w in net.weights if len(w.shape) == 2)
assert flops == 2 * 256 * _weights, f"a batch of 256 does 2 x 256 x {_weights} FLOP, not {flops}"
assert np.allclose(fast(x256), net(x256), atol=1e-5), "tf.function computes the same at batch 256"
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
        3: """assert list(batch_sizes) == [1, 16, 256] and len(speed_ups) == 3
assert tuple(xb.shape) == (256, 512), "the last comparison times batch 256"
assert speed_ups[-1] == pair.ratio("static", "eager").median, \
    "speed_ups holds static hybridize's speed-up over eager (static against eager, not the inverse)"
""",
    },
    "06_side_by_side": {
        1: """assert tuple(wide_sizes) == (512, 1024, 1024, 2)
assert {"PyTorch eager", "torch.jit.script"} <= set(res.labels)
""",
    },
    "07_framework_vs_scratch": {
        1: """assert {"scratch 1", "framework 1", "scratch 5", "framework 5"} <= set(big.labels), "both versions, 1 and 5 layers"
assert BATCH == 50, "set BATCH back to 50 for the rest of the notebook"
assert sorted(pairs) == [("scratch 1", "framework 1"), ("scratch 5", "framework 5")], \
    "pair each scratch version with the framework version of the same depth, scratch first"
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
        2: """assert {"stride 4096", "stride 4097", "stride 4112"} <= set(odd.labels), \
    "time rows 4097 floats apart next to the claim's two strides"
""",
        3: """assert {"start 0", "start 1"} <= set(shifted.labels), "time the aligned and the misaligned start"
assert tuple(a.shape) == (1024, 1024) and a.data_ptr() % 64 == 4, \
    "the last views start one float (4 bytes) after a 64-byte boundary"
""",
        4: """assert abs(intensity - 2 * N**3 / (3 * N**2 * 4)) < 1e-6 * intensity, \
    f"a {N} product does 2 N^3 FLOP on 3 N^2 float32 values: {2 * N**3 / (3 * N**2 * 4):.0f} FLOP per byte"
assert abs(reached - 2 * N**3 / precision.median("float32") / 1e9) < 1e-6 * reached, "the float32 product's GFLOP/s"
assert abs(feed - bandwidth * intensity / reached) < 1e-6 * feed, "bandwidth x intensity over the rate reached"
""",
    },
}
