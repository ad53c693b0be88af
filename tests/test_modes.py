"""helpers.modes: every framework's modes of the MLP, built by name, checked and timed."""

from __future__ import annotations

import numpy as np
import pytest

import helpers
from helpers import models, modes

SIZES = (8, 4, 2)
X = np.random.default_rng(0).standard_normal((3, 8), dtype=np.float32)


def reference() -> np.ndarray:
    """The MLP's output computed with NumPy alone."""
    h = X
    weights = models.init_weights(SIZES, seed=0)
    for i, (w, b) in enumerate(weights):
        h = h @ w.T + b
        if i < len(weights) - 1:
            h = np.maximum(h, 0)
    return h


def test_mode_labels_follow_the_table_order() -> None:
    assert modes.mode_labels(["jax", "torch"]) == ["PyTorch eager", "torch.jit.script", "torch.compile",
                                                   "JAX eager", "jax.jit"]
    with pytest.raises(ValueError, match="frameworks must be among"):
        modes.mode_labels(["theano"])


def test_eager_of() -> None:
    present = ["PyTorch eager", "torch.jit.script", "ONNX Runtime"]
    assert modes.eager_of("torch.jit.script", present) == "PyTorch eager"
    assert modes.eager_of("PyTorch eager", present) is None           # not its own baseline
    assert modes.eager_of("ONNX Runtime", present) is None            # no eager mode of its own
    assert modes.eager_of("jax.jit", present) is None                 # its eager mode is absent
    with pytest.raises(ValueError, match="label must be among"):
        modes.eager_of("numba", present)


def test_build_modes_checks_its_arguments() -> None:
    weights = models.init_weights(SIZES, seed=0)
    with pytest.raises(ValueError, match="labels must be among"):
        modes.build_modes(weights, ["PyTorch eager", "numba"])
    with pytest.raises(TypeError, match="labels must be"):
        modes.build_modes(weights, "PyTorch eager")
    with pytest.raises(TypeError, match="weights must be"):
        modes.build_modes([], ["PyTorch eager"])


def test_torch_modes_compute_the_same_function() -> None:
    pytest.importorskip("torch")
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["PyTorch eager", "torch.jit.script"])
    assert list(built) == ["PyTorch eager", "torch.jit.script"]
    # torch 2.13 deprecates TorchScript: build_modes catches that warning and reports it, labelled
    # with its mode (an empty list, a lost warning or an unlabelled one fails).
    assert any(w.startswith("torch.jit.script: ") and "deprecated" in w.lower() for w in built.warnings), built.warnings
    assert all(w.startswith("torch.jit.script: ") for w in built.warnings), built.warnings
    for mode in built.values():
        y, seconds = modes.first_call(mode, X)
        assert mode.framework == "torch" and seconds > 0
        np.testing.assert_allclose(y, reference(), atol=1e-5)


def test_mxnet_mode_waits_for_its_engine() -> None:
    if not helpers.is_installed("mxnet"):
        pytest.skip("MXNet is not installed here")
    helpers.import_mxnet()
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["MXNet eager", "hybridize(static)"])
    assert all(mode.sync is not None for mode in built.values())   # MXNet is asynchronous
    for mode in built.values():
        np.testing.assert_allclose(modes.first_call(mode, X)[0], reference(), atol=1e-5)


def test_mxnet_mode_waits_inside_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    if not helpers.is_installed("mxnet"):
        pytest.skip("MXNet is not installed here")
    helpers.import_mxnet()
    waited = []

    class Output:
        def wait_to_read(self) -> None:
            waited.append(self)

    class Net:
        def __init__(self) -> None:
            self.hybridized: dict = {}

        def hybridize(self, **options: bool) -> None:
            self.hybridized = options

        def __call__(self, x: object) -> Output:
            return Output()

    monkeypatch.setattr(modes.models, "mxnet_mlp", lambda weights, ctx=None: Net())
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["MXNet eager", "hybridize(static)"])
    for n, mode in enumerate(built.values(), start=1):
        y = mode.run(None)
        assert waited[-1] is y and len(waited) == n   # each call waited for its own output, once


def test_compare_modes_times_every_mode() -> None:
    pytest.importorskip("torch")
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["PyTorch eager", "torch.jit.script"])
    result = modes.compare_modes(built, X, budget=0.05, min_rounds=3, block=0.001, warmup=1)
    assert result.labels == ["PyTorch eager", "torch.jit.script"]
    assert result.rounds >= 3 and all(result.median(label) > 0 for label in built)
    with pytest.raises(TypeError, match="modes must be"):
        modes.compare_modes({}, X)
    with pytest.raises(TypeError, match="mode must be a Mode"):
        modes.compare_modes({"x": lambda v: v}, X)


def test_onnx_runtime_needs_a_path() -> None:
    pytest.importorskip("onnxruntime")
    with pytest.raises(ValueError, match="onnx_path"):
        modes.build_modes(models.init_weights(SIZES, seed=0), ["ONNX Runtime"])


def test_as_numpy_reads_every_framework() -> None:
    assert modes.as_numpy([1.0, 2.0]).tolist() == [1.0, 2.0]
    torch = pytest.importorskip("torch")
    assert modes.as_numpy(torch.ones(2, requires_grad=True) * 2).tolist() == [2.0, 2.0]
    tf = pytest.importorskip("tensorflow")
    assert modes.as_numpy(tf.constant([3.0])).tolist() == [3.0]


def test_by_framework_groups_in_table_order() -> None:
    pytest.importorskip("torch")
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["PyTorch eager", "torch.jit.script"])
    fake = modes.Mode("jax", "jax.jit", lambda v: v, lambda v: v)
    groups = modes.by_framework({**built, "jax.jit": fake})
    assert list(groups) == ["torch", "jax"] and list(groups["torch"]) == ["PyTorch eager", "torch.jit.script"]
    with pytest.raises(TypeError, match="mode must be a Mode"):
        modes.by_framework({"x": object()})


def test_calls_of_names_each_call_with_its_suffix() -> None:
    pytest.importorskip("torch")
    built = modes.build_modes(models.init_weights(SIZES, seed=0), ["PyTorch eager"])
    calls, syncs = modes.calls_of(built, X, suffix=", book")
    assert list(calls) == list(syncs) == ["PyTorch eager, book"]
    np.testing.assert_allclose(modes.as_numpy(calls["PyTorch eager, book"]()), reference(), atol=1e-5)
    with pytest.raises(TypeError, match="modes must be"):
        modes.calls_of({}, X)
    with pytest.raises(TypeError, match="suffix must be"):
        modes.calls_of(built, X, suffix=1)


def test_sweep_times_every_point_and_reports_progress() -> None:
    pytest.importorskip("torch")
    grid = [("batch", SIZES, 1), ("batch", SIZES, 4), ("width", (8, 6, 2), 2)]
    seen: list[int] = []
    rows = modes.sweep(grid, ["PyTorch eager", "torch.jit.script"], progress=seen.append,
                       budget=0.05, min_rounds=2, block=0.001)
    assert seen == [1, 2, 3]
    assert [(r["kind"], r["sizes"], r["batch"]) for r in rows] == [(k, tuple(s), b) for k, s, b in grid]
    assert [r["flops"] for r in rows] == [models.flops(s, b) for _, s, b in grid]
    assert all(r["cmp"].labels == ["PyTorch eager", "torch.jit.script"] and r["cmp"].rounds >= 2 for r in rows)
    with pytest.raises(ValueError, match="grid must hold at least one"):
        modes.sweep([], ["PyTorch eager"])
    with pytest.raises(TypeError, match="grid must hold"):
        modes.sweep([("batch", SIZES)], ["PyTorch eager"])
