"""Unit tests of helpers.roofline: the roof, the measurements and the chart."""

import importlib.util
import time

import numpy as np
import pytest

import helpers
from helpers import roofline


def test_roof_is_bandwidth_bound_then_flat():
    assert roofline.roof(0.5, peak_gflops=100, bandwidth_gbs=20) == pytest.approx(10)
    assert roofline.roof(50, peak_gflops=100, bandwidth_gbs=20) == pytest.approx(100)
    with pytest.raises(ValueError, match="intensity"):
        roofline.roof(0, 100, 20)
    with pytest.raises(TypeError, match="peak_gflops"):
        roofline.roof(1, "100", 20)


def test_peak_matmul_and_copy_numpy():
    m = roofline.peak_matmul(64, backend="numpy", number=2, repeats=3, warmup=1)
    assert isinstance(m, helpers.Measurement)
    assert m.extra["flops"] == 2 * 64 ** 3
    assert m.extra["gflops"] == pytest.approx(2 * 64 ** 3 / m.min / 1e9)
    c = roofline.copy_bandwidth(2**16, backend="numpy", number=2, repeats=3, warmup=1)
    assert c.extra["bytes"] == 2 * 2**16
    assert c.extra["gbs"] == pytest.approx(2 * 2**16 / c.min / 1e9)


def _independent_rate(fn, n, calls=5):
    """The product's rate timed here, without the helper: n^3 x 2 FLOP over the fastest call."""
    fn()
    best = min(_timed(fn) for _ in range(calls))
    return 2 * n ** 3 / best / 1e9


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_peak_matmul_rate_agrees_with_an_independent_timing(backend):
    lib = pytest.importorskip(backend)
    if backend == "torch":
        lib.set_num_threads(1)   # one thread, as the module asks; the conftest gives the pool back
    n = 256
    m = roofline.peak_matmul(n, backend=backend, number=2, repeats=3, warmup=1)
    assert m.extra["flops"] == 2 * n ** 3
    assert m.extra["gflops"] == pytest.approx(2 * n ** 3 / m.min / 1e9)
    assert m.min <= m.median
    a = np.ones((n, n), dtype=np.float32)
    if backend == "torch":
        t = lib.from_numpy(a)
        fn = lambda: t @ t  # noqa: E731
    else:
        t, f = lib.numpy.asarray(a), lib.jit(lib.numpy.matmul)
        fn = lambda: f(t, t).block_until_ready()  # noqa: E731
    # The helper's peak and a plain timing of the same product differ by load, not by 10x: a
    # wrong FLOP count, a wrong unit (ms for s) or a product not waited for would.
    assert 0.1 < m.extra["gflops"] / _independent_rate(fn, n) < 10


def _fake_peak_matmul(rates):
    def fake(n, backend, **kwargs):
        return helpers.Measurement(backend, [2 * n ** 3 / (rates[backend] * 1e9)], 1, 0,
                                   extra={"flops": 2 * n ** 3, "gflops": rates[backend]})
    return fake


def test_machine_peak_takes_the_fastest_library(monkeypatch):
    monkeypatch.setattr(roofline, "peak_matmul", _fake_peak_matmul({"numpy": 110.0, "torch": 100.0, "jax": 220.0}))
    peak = roofline.machine_peak(64, backends=["numpy", "torch", "jax"])
    assert peak.gflops == 220.0 and peak.source == "measured"
    assert "jax.jit" in peak.description and "NumPy, PyTorch, jax.jit" in peak.description
    assert peak.below() == pytest.approx({"NumPy": 2.0, "PyTorch": 2.2, "jax.jit": 1.0})
    assert peak.lines()[1] == "  NumPy    110.0 GFLOP/s, 2.00x below the peak"


def test_machine_peak_from_the_cpu(monkeypatch):
    monkeypatch.setattr(roofline, "peak_matmul", _fake_peak_matmul({"numpy": 40.0, "torch": 50.0}))
    peak = roofline.machine_peak(64, backends=["numpy", "torch"], flops_per_cycle=32, ghz=2.0)
    assert peak.gflops == 64.0 and peak.source == "cpu"
    assert peak.description == "the CPU's 32 FLOP per cycle x 2 GHz"
    assert peak.below() == pytest.approx({"NumPy": 1.6, "PyTorch": 1.28})
    # A datasheet figure below a measured rate is wrong for this machine: the measurement wins.
    low = roofline.machine_peak(64, backends=["numpy", "torch"], flops_per_cycle=16, ghz=2.0)
    assert low.gflops == 50.0 and low.source == "measured" and "above the 32.0 GFLOP/s" in low.description
    with pytest.raises(ValueError, match="together"):
        roofline.machine_peak(64, backends=["numpy"], ghz=2.0)
    with pytest.raises(ValueError, match="backend"):
        roofline.machine_peak(64, backends=["fortran"])


def test_installed_backends_lists_numpy_first():
    found = roofline.installed_backends()
    assert found[0] == "numpy" and set(found) <= set(roofline.BACKENDS)
    for name in ("torch", "jax"):
        assert (name in found) == (importlib.util.find_spec(name) is not None)


def test_measurements_reject_bad_arguments():
    with pytest.raises(ValueError, match="backend"):
        roofline.peak_matmul(8, backend="fortran")
    with pytest.raises(ValueError, match="n must"):
        roofline.peak_matmul(0, backend="numpy")
    with pytest.raises(ValueError, match="n_bytes"):
        roofline.copy_bandwidth(2, backend="numpy")


def test_roofline_chart_draws_roofs_and_points():
    points = [("eager", 0.5, 2.0), ("graph", 0.5, 8.0), ("eager", 60.0, 80.0)]
    fig = roofline.roofline_chart(points, peak_gflops=100, bandwidths={"DRAM": 10, "cache": 50},
                                  hardware="Hardware: test")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["matmul peak (100 GFLOP/s)", "DRAM (10 GB/s)", "cache (50 GB/s)", "eager", "graph"]
    assert ax.get_xlabel().startswith("arithmetic intensity")
    with pytest.raises(TypeError, match="points"):
        roofline.roofline_chart([("x", 1.0)], 100, {"DRAM": 10})
    with pytest.raises(TypeError, match="bandwidths"):
        roofline.roofline_chart(points, 100, {})
