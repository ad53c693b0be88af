"""Roofline: this machine's peak matmul rate and copy bandwidth, and the chart.

The roof is the machine's, not one library's.  `machine_peak` times an n x n float32 product
in each installed library (NumPy's BLAS, PyTorch's, and `jax.jit`, whose XLA hands a large
product to a library: YNNPACK or Eigen in jaxlib 0.10.2) and takes the fastest as the peak, or takes the CPU's FLOP per cycle x clock when the
caller knows them (a datasheet); it says which source it used and how far each library falls
below that peak.  `peak_matmul` times one library, `copy_bandwidth` a large copy (NumPy, or
PyTorch on its device); `roof` is the best rate a kernel of a given arithmetic intensity can
reach, min(peak, bandwidth x intensity), and `roofline_chart` draws measured points under
those lines.

Measure with one thread in every library (`helpers.set_threads(1)` before importing them):
a rate measured on several threads is not one core's roof.

No framework is imported at module import time.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from .frameworks import check_choice
from .plotting import COLORS, new_figure
from .checks import check_positive as _check_positive
from .comparison import time_alone as measure
from .timing import Measurement

BACKENDS = ("numpy", "torch", "jax")
# How each backend's product is named in what the notebooks print.
LIBRARY = {"numpy": "NumPy", "torch": "PyTorch", "jax": "jax.jit"}


def _check_backend(backend: Any) -> str:
    """Return `backend` if it is one of BACKENDS, else raise a clear error."""
    return check_choice("backend", backend, BACKENDS)


def _arrays(backend: str, shape: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """Return (a, b, sync) float32 arrays of `shape` on the backend's device."""
    if backend == "numpy":
        import numpy as np
        rng = np.random.default_rng(0)
        return (rng.standard_normal(shape, dtype=np.float32),
                rng.standard_normal(shape, dtype=np.float32), None)
    if backend == "jax":
        import jax
        import numpy as np
        rng = np.random.default_rng(0)
        return (jax.numpy.asarray(rng.standard_normal(shape, dtype=np.float32)),
                jax.numpy.asarray(rng.standard_normal(shape, dtype=np.float32)), None)
    import torch
    from .frameworks import device, synchronizer
    dev = device("torch")
    gen = torch.Generator(device="cpu").manual_seed(0)
    a = torch.randn(shape, generator=gen).to(dev)
    b = torch.randn(shape, generator=gen).to(dev)
    return a, b, synchronizer("torch")


def peak_matmul(n: int = 2048, backend: str = "torch", number: int = 3, repeats: int = 5,
                warmup: int = 2) -> Measurement:
    """Time an n x n float32 matmul in one library; extra["gflops"] is the fastest repeat's rate.

    `backend` is "numpy" (its BLAS), "torch" (on its device) or "jax" (`jax.jit`, on the CPU).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    backend = _check_backend(backend)
    a, b, sync = _arrays(backend, (n, n))
    if backend == "numpy":
        import numpy as np
        out = np.empty_like(a)
        fn = lambda: np.matmul(a, b, out=out)  # noqa: E731
    elif backend == "jax":
        import jax
        product = jax.jit(jax.numpy.matmul)
        fn = lambda: product(a, b).block_until_ready()  # noqa: E731
        fn()                                            # compile before the warm-up
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


@dataclass
class Peak:
    """The machine's peak FLOP rate, where it comes from, and each library's measured rate.

    `source` is "measured" (the fastest library's product is the peak) or "cpu" (FLOP per
    cycle x clock, given by the caller); `description` says it in words; `rates` holds each
    library's measured GFLOP/s, keyed by its printed name (NumPy, PyTorch, jax.jit).
    """

    gflops: float
    source: str
    description: str
    rates: dict[str, float] = field(default_factory=dict)

    def below(self) -> dict[str, float]:
        """How far each library falls below the peak: peak / its rate (1.0x for the fastest)."""
        return {name: self.gflops / rate for name, rate in self.rates.items()}

    def lines(self) -> list[str]:
        """The peak and its source, then one line per library with its rate and distance."""
        out = [f"peak: {self.gflops:.1f} GFLOP/s, {self.description}"]
        for name, factor in self.below().items():
            out.append(f"  {name:<8} {self.rates[name]:.1f} GFLOP/s, {factor:.2f}x below the peak")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def installed_backends() -> list[str]:
    """The BACKENDS whose library is installed (NumPy always is)."""
    return [b for b in BACKENDS if b == "numpy" or importlib.util.find_spec(b) is not None]


def machine_peak(n: int = 1024, backends: Optional[Sequence[str]] = None, *,
                 flops_per_cycle: Optional[float] = None, ghz: Optional[float] = None,
                 number: int = 5, repeats: int = 5, warmup: int = 2) -> Peak:
    """Return this machine's peak: the fastest float32 n x n product among `backends`, or the CPU's.

    `backends` defaults to every installed one (`installed_backends()`).  With
    `flops_per_cycle` and `ghz` (one core's FLOP per cycle and clock, from a datasheet), the
    peak is their product, unless a library measured faster (then the figures given were
    wrong for this machine, and the measured rate is used and the description says so).
    """
    if (flops_per_cycle is None) != (ghz is None):
        raise ValueError("give flops_per_cycle and ghz together, or neither")
    names = installed_backends() if backends is None else [_check_backend(b) for b in backends]
    if not names:
        raise ValueError("backends must name at least one library")
    rates = {LIBRARY[b]: peak_matmul(n, backend=b, number=number, repeats=repeats,
                                     warmup=warmup).extra["gflops"] for b in names}
    best = max(rates, key=rates.get)
    measured = (f"measured: the fastest {n} x {n} float32 product on this machine, {best}'s "
                f"(of {', '.join(rates)})")
    if flops_per_cycle is None:
        return Peak(rates[best], "measured", measured, rates)
    cpu = _check_positive("flops_per_cycle", flops_per_cycle) * _check_positive("ghz", ghz)
    if rates[best] > cpu:
        return Peak(rates[best], "measured", measured + f"; above the {cpu:.1f} GFLOP/s of "
                    f"{flops_per_cycle:g} FLOP per cycle x {ghz:g} GHz given", rates)
    return Peak(cpu, "cpu", f"the CPU's {flops_per_cycle:g} FLOP per cycle x {ghz:g} GHz", rates)


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
        fig.supxlabel(hardware, x=0.99, ha="right", fontsize=7, color="0.4")  # below the axis label
    return fig
