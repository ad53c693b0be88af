"""Roofline: this machine's peak matmul rate and copy bandwidth, and the chart.

`peak_matmul` times a large square matmul and `copy_bandwidth` a large copy
(NumPy, or PyTorch on its device); `roof` is the best rate a kernel of a given
arithmetic intensity can reach, min(peak, bandwidth x intensity), and
`roofline_chart` draws measured points under those lines.

No framework is imported at module import time.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .frameworks import check_choice
from .plotting import COLORS, new_figure
from .timing import Measurement, measure

BACKENDS = ("numpy", "torch")


def _check_backend(backend: Any) -> str:
    """Return `backend` if it is one of BACKENDS, else raise a clear error."""
    return check_choice("backend", backend, BACKENDS)


def _check_positive(name: str, value: Any) -> float:
    """Return `value` as a float if it is a positive number, else raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not value > 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return float(value)


def _arrays(backend: str, shape: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """Return (a, b, sync) float32 arrays of `shape` on the backend's device."""
    if backend == "numpy":
        import numpy as np
        rng = np.random.default_rng(0)
        return (rng.standard_normal(shape, dtype=np.float32),
                rng.standard_normal(shape, dtype=np.float32), None)
    import torch
    from .frameworks import device, synchronizer
    dev = device("torch")
    gen = torch.Generator(device="cpu").manual_seed(0)
    a = torch.randn(shape, generator=gen).to(dev)
    b = torch.randn(shape, generator=gen).to(dev)
    return a, b, synchronizer("torch")


def peak_matmul(n: int = 2048, backend: str = "torch", number: int = 3, repeats: int = 5,
                warmup: int = 2) -> Measurement:
    """Time an n x n float32 matmul; extra["gflops"] is the rate of the fastest repeat (a peak)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    backend = _check_backend(backend)
    a, b, sync = _arrays(backend, (n, n))
    if backend == "numpy":
        import numpy as np
        out = np.empty_like(a)
        fn = lambda: np.matmul(a, b, out=out)  # noqa: E731
    else:
        import torch
        out = torch.empty_like(a)
        fn = lambda: torch.matmul(a, b, out=out)  # noqa: E731
    m = measure(fn, f"{n} x {n} matmul ({backend})", number=number, repeats=repeats,
                warmup=warmup, sync=sync, quiet=True)
    m.extra["flops"] = 2 * n ** 3
    m.extra["gflops"] = 2 * n ** 3 / m.min / 1e9
    return m


def copy_bandwidth(n_bytes: int = 256 * 2**20, backend: str = "torch", number: int = 3,
                   repeats: int = 5, warmup: int = 2) -> Measurement:
    """Time copying n_bytes; extra["gbs"] is the fastest repeat's rate, read and write counted."""
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, int) or n_bytes < 4:
        raise ValueError(f"n_bytes must be an int of at least 4, got {n_bytes!r}")
    backend = _check_backend(backend)
    src, dst, sync = _arrays(backend, (n_bytes // 4,))
    if backend == "numpy":
        import numpy as np
        fn = lambda: np.copyto(dst, src)  # noqa: E731
    else:
        fn = lambda: dst.copy_(src)  # noqa: E731
    m = measure(fn, f"copy of {n_bytes} bytes ({backend})", number=number, repeats=repeats,
                warmup=warmup, sync=sync, quiet=True)
    moved = 2 * 4 * (n_bytes // 4)
    m.extra["bytes"] = moved
    m.extra["gbs"] = moved / m.min / 1e9
    return m


def roof(intensity: float, peak_gflops: float, bandwidth_gbs: float) -> float:
    """Return the attainable GFLOP/s at `intensity` FLOP/byte: min(peak, bandwidth x intensity)."""
    intensity = _check_positive("intensity", intensity)
    peak_gflops = _check_positive("peak_gflops", peak_gflops)
    bandwidth_gbs = _check_positive("bandwidth_gbs", bandwidth_gbs)
    return min(peak_gflops, bandwidth_gbs * intensity)


def roofline_chart(points: Sequence[tuple[str, float, float]], peak_gflops: float,
                   bandwidths: Mapping[str, float], title: str | None = None,
                   hardware: str | None = None, figsize: Sequence[float] = (7.0, 4.5)) -> Any:
    """Draw (label, FLOP/byte, GFLOP/s) points under the peak line and one roof per bandwidth."""
    import numpy as np
    peak_gflops = _check_positive("peak_gflops", peak_gflops)
    if not isinstance(bandwidths, Mapping) or not bandwidths:
        raise TypeError("bandwidths must be a non-empty mapping of label -> GB/s")
    items = list(points)
    for item in items:
        if not isinstance(item, (list, tuple)) or len(item) != 3:
            raise TypeError("points must be a sequence of (label, intensity, gflops) triples")
        _check_positive("intensity", item[1])
        _check_positive("gflops", item[2])
    xs = [p[1] for p in items] or [1.0]
    lo, hi = min(xs + [0.1]) / 3, max(xs + [peak_gflops / min(bandwidths.values())]) * 3
    grid = np.geomspace(lo, hi, 200)
    fig, ax = new_figure(figsize)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.axhline(peak_gflops, color="k", lw=1.5, label=f"matmul peak ({peak_gflops:.0f} GFLOP/s)")
    for i, (name, bw) in enumerate(bandwidths.items()):
        bw = _check_positive("bandwidths[...]", bw)
        ax.plot(grid, np.minimum(peak_gflops, bw * grid), ls=("--", ":", "-.")[i % 3], color="0.3",
                label=f"{name} ({bw:.0f} GB/s)")
    markers = "osD^v<>pPX*h"
    seen: dict[str, int] = {}
    for label, x, y in items:
        first = label not in seen
        k = seen.setdefault(label, len(seen))
        ax.plot([x], [y], markers[k % len(markers)], color=COLORS[k % len(COLORS)], ms=7,
                label=label if first else None)
    ax.set_xlabel("arithmetic intensity (FLOP per byte moved)")
    ax.set_ylabel("achieved GFLOP/s")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7, loc="lower right", ncol=2)
    if hardware:
        fig.text(0.99, 0.005, hardware, ha="right", va="bottom", fontsize=7, color="0.4")
    return fig
