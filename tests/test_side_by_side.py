"""helpers.side_by_side: notebook 06's tiny comparison, sweep chart, H100 estimate and ONNX graph."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import models, modes, side_by_side as side

SIZES = (8, 4, 2)
TINY = (1, 1, 1)


def test_h100_layer_times_takes_the_largest_term() -> None:
    times = side.h100_layer_times((512, 256, 128, 2), 1)
    assert len(times) == 5                                   # three products, two ReLU passes
    assert all(t == side.KERNEL_FLOOR for t in times)        # batch 1: every kernel at the floor
    big = side.h100_layer_times((512, 256, 128, 2), 1024)
    work = 2 * 1024 * 512 * 256 / (side.H100_TFLOPS * 1e12)
    assert big[0] == pytest.approx(work)                     # batch 1024: the first layer is bound by arithmetic
    assert "= 4.01 µs" in side.first_layer_line((512, 256, 128, 2), 1024)


def test_h100_layer_times_takes_another_floor() -> None:
    assert side.h100_layer_times((512, 256, 128, 2), 1, floor=5e-6) == [5e-6] * 5   # batch 1: all at the floor
    assert side.h100_layer_times((512, 256, 128, 2), 1, floor=None) == side.h100_layer_times((512, 256, 128, 2), 1)
    with pytest.raises(ValueError, match="floor"):
        side.h100_layer_times(SIZES, 1, floor=-1e-6)


def test_h100_layer_times_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="sizes"):
        side.h100_layer_times((512,), 1)
    with pytest.raises((TypeError, ValueError), match="batch"):
        side.h100_layer_times(SIZES, 0)


def test_gpu_time_without_a_gpu_is_the_estimate() -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("a GPU measures the device time instead")
    t, how = side.gpu_time(models.init_weights(SIZES), SIZES, 4)
    assert t == pytest.approx(sum(side.h100_layer_times(SIZES, 4)))
    assert "estimated" in how


def test_tiny_and_book_times_both_networks_and_extras() -> None:
    pytest.importorskip("torch")
    labels = ["PyTorch eager", "torch.jit.script"]
    tiny = modes.build_modes(models.init_weights(TINY), labels)
    book = modes.build_modes(models.init_weights(SIZES), labels)
    x_tiny = np.ones((1, 1), dtype=np.float32)
    x_book = np.ones((1, 8), dtype=np.float32)
    for mode in book.values():
        modes.first_call(mode, x_book)
    cmp = side.tiny_and_book(tiny, x_tiny, book, x_book, extra={"nothing": (lambda: None, None)},
                             budget=0.05, min_rounds=2)
    assert set(cmp.labels) == {*labels, *(m + side.BOOK for m in labels), "nothing"}
    lines = side.overhead_lines(cmp, labels, {"torch.jit.script": "per-call cost"})
    assert lines[0].split()[:3] == ["PyTorch", "eager", "o"] and "per-call cost" in lines[1]
    with pytest.raises(ValueError, match="same modes"):
        side.tiny_and_book(tiny, x_tiny, {"PyTorch eager": book["PyTorch eager"]}, x_book)


class _Ratio:
    def __init__(self, median: float) -> None:
        self.median, self.low, self.high = median, median * 0.9, median * 1.1


class _Cmp:
    def __init__(self, gain: float) -> None:
        self.gain = gain

    def ratio(self, graph: str, eager: str) -> _Ratio:
        return _Ratio(self.gain)


SWEEP = ([{"kind": "batch", "batch": b, "flops": models.flops(SIZES, b), "cmp": _Cmp(3 / b ** 0.5)}
          for b in (1, 4, 16, 64)]
         + [{"kind": k, "batch": 16, "flops": 100 * i, "cmp": _Cmp(1.5)} for k in ("depth", "width") for i in (1, 2)])


def test_gains_near_brackets_the_batch() -> None:
    near = side.gains_near(SWEEP, ("e", "g"), 10)
    assert [b for b, _ in near] == [4, 16]
    assert near[0][1] == pytest.approx(1.5)
    assert [b for b, _ in side.gains_near(SWEEP, ("e", "g"), 100)] == [64]
    with pytest.raises((TypeError, ValueError), match="batch"):
        side.gains_near(SWEEP, ("e", "g"), 0)


def test_sweep_chart_has_three_panels_and_alt_text() -> None:
    pytest.importorskip("matplotlib")
    from helpers import plotting
    fig = side.sweep_chart(SWEEP, {"PyTorch": ("e", "g")}, "Hardware: test")
    assert len(fig.axes) == 3
    assert "PyTorch" in plotting.alt_text(fig)
    with pytest.raises(ValueError, match="non-empty"):
        side.sweep_chart([], {"PyTorch": ("e", "g")}, "")


def test_sweep_chart_draws_the_bound_on_the_batch_panel() -> None:
    pytest.importorskip("matplotlib")
    from helpers import plotting
    fig = side.sweep_chart(SWEEP, {"PyTorch": ("e", "g")}, "Hardware: test", marks={"PyTorch": 1e3})
    batch_panel = fig.axes[0]
    dashed = [line for line in batch_panel.get_lines() if line.get_linestyle() == "--"]
    assert dashed and all(y >= 1 for y in dashed[0].get_ydata())
    assert "bound 1 + o·r/W" in plotting.alt_text(fig)
    with pytest.raises((TypeError, ValueError), match="marks"):
        side.sweep_chart(SWEEP, {"PyTorch": ("e", "g")}, "", marks={"PyTorch": 0})


def test_device_of_adds_each_extra_kernel_at_the_floor() -> None:
    assert side.device_of("PyTorch eager", 10e-6) == 10e-6                      # the five kernels of the base
    assert side.device_of("JAX eager", 10e-6) == pytest.approx(10e-6 + 3 * side.KERNEL_FLOOR)
    assert side.device_of("jax.jit", 10e-6, floor=5e-6) == pytest.approx(10e-6 + 5e-6)
    with pytest.raises(ValueError, match="label must be among"):
        side.device_of("MXNet eager", 10e-6)


def test_with_launches_adds_the_launches_off_a_gpu(monkeypatch) -> None:
    monkeypatch.setattr(side, "on_gpu", lambda label: False)
    assert side.with_launches("PyTorch eager", 50e-6) == pytest.approx(50e-6 + 5 * side.HOST_LAUNCH)
    assert side.with_launches("jax.jit", 20e-6, launch=1e-6) == pytest.approx(21e-6)    # one CUDA graph
    monkeypatch.setattr(side, "on_gpu", lambda label: True)                            # measured: launches included
    assert side.with_launches("JAX eager", 20e-6) == 20e-6
    with pytest.raises(ValueError, match="label must be among"):
        side.with_launches("ONNX Runtime", 20e-6)


def test_on_gpu_names_a_bad_label() -> None:
    with pytest.raises(ValueError, match="label must be among"):
        side.on_gpu("numba")


def test_onnx_node_types(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    path = tmp_path / "mlp.onnx"
    models.export_onnx(models.torch_mlp(models.init_weights(SIZES)), path, SIZES[0])
    assert side.onnx_node_types(path) == ["Gemm", "Relu", "Gemm"]
    assert "Relu" not in side.onnx_node_types(path, optimized=True)     # fused into the product
    with pytest.raises(FileNotFoundError, match="path"):
        side.onnx_node_types(tmp_path / "missing.onnx")
    del torch
