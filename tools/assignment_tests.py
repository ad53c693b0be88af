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
        3: """_f, _src = compile_graph(relu_sum_graph(inp("a"), inp("b")), ["a", "b"])
for _args in [(-3, 1), (2, 1), (1, -1), (0.5, 2.0), (-2.5, 1.0)]:
    assert _f(*_args) == relu_sum(*_args), \
        f"the compiled graph of relu_sum_graph gives {_f(*_args)} at {_args}, relu_sum gives {relu_sum(*_args)}: {_src}"
assert relu_sum_graph(-3, 1) == 0 and relu_sum_graph(2, 1) == 3, "relu_sum_graph must compute relu_sum on numbers"
""",
        4: """_calls = [(1, 2, 3, 4), (5, 6, 3, 4), (1, 2, 5, 4), (1, 2, 3.0, 4), (1.5, 2, 3, 4), (7, 8, 3, 4)]
_keys = [fast_guard_key(_args, [2, 3]) for _args in _calls]
assert len(set(_keys)) == 4, f"the six calls need four distinct keys, fast_guard_key gives {len(set(_keys))}"
assert _keys[0] == _keys[1] == _keys[5] != _keys[3], "calls that differ only in a, b values share a key; c = 3.0 must not"
assert not any(isinstance(_part, str) for _key in _keys for _part in _key), "the key must hold no strings"
assert {"guard_key", "fast_guard_key"} <= set(keys.labels), "time fast_guard_key against guard_key with helpers.compare"
""",
    },
    "03_pytorch": {
        1: """assert tuple(x256.shape) == (256, 512), "a batch of 256 rows"
assert {"eager", "torch.jit.script", "torch.compile (Inductor)", "three products alone"} <= set(big.labels), \
    "time the three modes and the three products alone"
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
        1: ["""assert plain_traces == affine.experimental_get_tracing_count() == 9, \
    "three batch sizes times three Python floats: plain_traces must be affine's nine graphs"
""", """_before = affine_sig.experimental_get_tracing_count()
assert _before == 1, f"affine_sig traced {_before} graphs for the nine calls; its input_signature should give one"
_r = affine_sig(tf.ones((5, 3)), tf.constant(3.0))
assert affine_sig.experimental_get_tracing_count() == 1, "another batch size and scale must reuse affine_sig's graph"
assert np.allclose(_r, 4.0), "affine_sig must compute v * scale + 1"
"""],
        2: ["""assert set(first_256) == {"tf.function", "XLA"} and all(_s > 0 for _s in first_256.values()), \
    "first_256 must hold the first-call seconds of fast_256 and xla_256"
""", """assert fast_256.experimental_get_tracing_count() >= 1 and xla_256.experimental_get_tracing_count() >= 1, \
    "fast_256 and xla_256 must be fresh tf.functions called on x256"
assert xla_256._jit_compile and not fast_256._jit_compile, "xla_256 uses jit_compile=True, fast_256 does not"
"""],
        3: ["""assert ops_py["AddV2"] == 100, "the loop over range(100) unrolls into 100 additions in the graph"
assert ops_tf["StatelessWhile"] + ops_tf["While"] == 1 and ops_tf["AddV2"] < 100, \
    "the loop over tf.range(100) must become one while-loop operation"
""", """assert np.allclose(tf.function(add_py)(tf.zeros(3)), 100.0) and np.allclose(tf.function(add_tf)(tf.zeros(3)), 100.0), \
    "add_py and add_tf must add 1 a hundred times"
"""],
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
assert np.allclose(eager_pos, branch_pos) and np.allclose(eager_neg, branch_neg), \
    "with BranchNet's weights, CondNet must compute what BranchNet computes"
""",
        3: """assert list(batch_sizes) == [1, 16, 256]
assert set(engines) == {"ThreadedEnginePerDevice", "NaiveEngine"}, "one comparison per engine, each in its own process"
for _engine, _cmp in engines.items():
    assert {f"{_m} {_b}" for _m in ("eager", "static") for _b in (1, 16, 256)} <= set(_cmp.labels), \
        "eager and static at each batch, in one comparison"
    assert [(_r.mode, _r.baseline) for _r in speed_ups[_engine]] == \
        [(f"static {_b}", f"eager {_b}") for _b in (1, 16, 256)], \
        "speed_ups holds static hybridize's speed-up over eager (static against eager, not the inverse)"
    assert all(_r.low <= _r.median <= _r.high for _r in speed_ups[_engine])
""",
    },
    "06_side_by_side": {
        1: """assert tuple(wide_sizes) == (512, 1024, 1024, 2)
for _m in ("PyTorch eager", "torch.jit.script"):
    assert sum(_m in _l for _l in res.labels) >= 2, \
        f"time {_m} on the book's network and on the wide one, in the same comparison res"
""",
        2: """assert {"PyTorch eager", "batch 1", "batch 4096"} <= set(at64.labels), \
    "time PyTorch eager at batch 64 ('PyTorch eager'), 'batch 1' and 'batch 4096' in one comparison at64"
_o = at64.median("batch 1")
_r = models.flops(SIZES, 4096) / at64.median("batch 4096")
assert abs(predicted - (_o + models.flops(SIZES, 64) / _r)) < 1e-9 + 1e-6 * predicted, \
    "o from the batch-1 eager call, r from the eager rate at batch 4096, both from at64; W for batch 64"
""",
    },
    "07_framework_vs_scratch": {
        1: """assert {"scratch 1", "framework 1", "scratch 5", "framework 5"} <= set(big.labels), "both versions, 1 and 5 layers"
assert BATCH == 50, "set BATCH back to 50 for the rest of the notebook"
assert sorted(pairs) == [("scratch 1", "framework 1"), ("scratch 5", "framework 5")], \
    "pair each scratch version with the framework version of the same depth, scratch first"
""",
        2: """assert {"1 thread 50", "all cores 50", "1 thread 500", "all cores 500"} <= set(threads.labels), \\
    "time one thread against all the usable CPUs, at batch 50 and at batch 500, in one comparison"
assert torch.get_num_threads() == 1, "set the threads back to one for the rest of the notebook"
""",
        4: """_cold = [int(_w) for _w in cold_use.replace(",", " ").split() if _w.isdigit()]
_warm = [int(_w) for _w in warm_use.replace(",", " ").split() if _w.isdigit()]
assert _cold[0] == 0 and _cold[1] > 0, f"the first compile must start from an empty cache (fresh_cache()): {cold_use}"
assert _warm[0] > 0 and _warm[1] == 0, \\
    f"the second compile must find its graphs in the cache the first filled (reset and clear_caches() between): {warm_use}"
assert cold > 0 and warm > 0, "cold and warm hold the two first steps' times in seconds"
""",
    },
    "09_activations_init": {
        1: """assert losses[0] > 100 and acc1 < 0.15, "N(0, 1) weights: a huge first loss, then guessing"
""",
        2: """assert {0.5, 2.0} <= set(sigmoid) and all(len(sigmoid[lr]) == len(SEEDS) for lr in (0.5, 2.0)), "every seed at both rates"
""",
        3: """assert len(xavier_normal) == len(SEEDS), "one run per seed"
""",
        4: """assert sorted(deep4) == ["He", "default"], "deep4 holds the four-layer runs with the default and with He's rule"
assert all(len(deep4[_k]) == len(SEEDS) and all(len(_r) == 3 for _r in deep4[_k]) for _k in deep4), \
    "one run per seed: what run returns, (losses, accuracy, network)"
for _name, _runs in deep4.items():
    _linears = sum(isinstance(_m, nn.Linear) for _m in _runs[0][2])
    assert _linears == 5, f"deep4[{_name!r}] must have 4 hidden layers, not {_linears - 1}"
_check = run(nn.ReLU, HE, seed=SEEDS[0], hidden=DEEP[:4])
assert abs(deep4["He"][0][1] - _check[1]) < 1e-6 and abs(deep4["He"][0][0][-1] - _check[0][-1]) < 1e-6, \
    "deep4['He'] must come from run(nn.ReLU, HE, seed=..., hidden=DEEP[:4]), the four-layer network with He's rule"
""",
    },
    "08_matmul_alignment": {
        1: """assert sorted(pads) == [1028, 1040], "pads maps 1028 and 1040 to their padded products"
for _m, _f in pads.items():
    _r = _f()
    assert tuple(_r.shape) == (1025, 1025), f"the product padded to {_m} must be cut back to 1025 x 1025"
    assert torch.allclose(_r, a @ b, rtol=1e-4, atol=1e-3), f"padding to {_m} must not change the product"
assert {"directly", "padded to 1028", "padded to 1040"} <= set(pad2.labels), \
    "time the direct product and both padded ones in one comparison"
""",
        2: """assert l1_misses == {2048: 2048, 4160: 0}, \
    "last of three walks in a 32 KiB, 8-way L1: 2048 floats apart miss on every read, 4160 apart never"
assert {"stride 2048", "stride 4160"} <= set(walk2.labels), "time both walks in one comparison"
""",
        3: """assert {"start 0", "start 1"} <= set(shifted.labels), "time the aligned and the misaligned start"
assert tuple(a0.shape) == (1024, 1024) and a0.data_ptr() % 64 == 4, \
    "the last views start one float (4 bytes) after a 64-byte boundary"
""",
        4: """_i = 2 * 4096**2 / ((4096**2 + 2 * 4096) * 4)
assert abs(mv_intensity - _i) < 1e-9 * _i, f"2 * 4096^2 FLOP on 4096^2 + 2 * 4096 float32 values: {_i:.3f} FLOP per byte"
assert abs(mv_estimate - copy_rate * mv_intensity) < 1e-6 * mv_estimate, "copy rate (GB/s) x intensity (FLOP per byte)"
""",
    },
}
