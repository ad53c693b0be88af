"""Unit tests of helpers.roofline: the roof, the measurements and the chart."""

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


def test_peak_matmul_torch():
    pytest.importorskip("torch")
    m = roofline.peak_matmul(32, backend="torch", number=1, repeats=3, warmup=1)
    assert m.extra["gflops"] > 0


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
