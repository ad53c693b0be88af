"""Machinery of notebook 06 (every framework side by side): the tiny-network comparison, the sweep
chart, the H100 estimate with its kernel and launch counts, and ONNX Runtime's fused graph, so that
the notebook's cells show only the measured quantities.

No framework is imported at module import time.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence

from . import models
from .checks import check_count, check_positive
from .comparison import Comparison, compare
from .modes import FRAMEWORK_OF, calls_of, first_call
from .timing import format_time

BOOK = ", book's network"   # the suffix of a mode's label on the book's network in the tiny comparison
H100_TFLOPS = 67.0          # NVIDIA H100 SXM datasheet: FP32 (non-tensor) TFLOP/s
H100_TBS = 3.35             # NVIDIA H100 SXM datasheet: HBM3 TB/s
KERNEL_FLOOR = 2e-6         # seconds of device time per kernel at the least: an assumed round figure
HOST_LAUNCH = 2e-6          # seconds of host CPU per kernel launch: an assumed round figure
# Kernels per call on the book's network: PyTorch's five operators (on CUDA at batch 1 each linear also copies its
# bias first: three more, not counted here), JAX eager's programs; torch.compile's and jax.jit's as compiled on a
# CPU (a GPU's may differ).
KERNELS = {"PyTorch eager": 5, "torch.jit.script": 5, "torch.compile": 5, "JAX eager": 8, "jax.jit": 6}
# Host launches per call on a GPU: one per kernel; for jax.jit the assumed best case, one replayed CUDA graph.
LAUNCHES = {**KERNELS, "jax.jit": 1}
SWEEP_PANELS = {"batch": "batch 1 to 4096", "depth": "depth 1 to 32, batch 16", "width": "width 64 to 2048, batch 16"}


def tiny_and_book(tiny: Mapping[str, Any], x_tiny: Any, book: Mapping[str, Any], x_book: Any,
                  extra: Optional[Mapping[str, tuple[Callable[[], Any], Any]]] = None,
                  **options: Any) -> Comparison:
    """Time each tiny mode and the same mode on the book's network (label + BOOK) in one comparison.

    Each tiny mode's first call is made before timing; `extra` maps more labels to (call, sync);
    `options` go to helpers.compare.
    """
    if not tiny or set(tiny) != set(book):
        raise ValueError(f"tiny and book must hold the same modes, got {sorted(tiny)} and {sorted(book)}")
    for mode in tiny.values():
        first_call(mode, x_tiny)
    calls, syncs = calls_of(dict(tiny), x_tiny)
    book_calls, book_syncs = calls_of(dict(book), x_book, suffix=BOOK)
    calls, syncs = calls | book_calls, syncs | book_syncs
    for label, (call, sync) in (extra or {}).items():
        if label in calls or not callable(call):
            raise ValueError(f"extra: {label!r} must be a new label with a callable, got {call!r}")
        calls[label], syncs[label] = call, sync
    return compare(calls, sync=syncs, **options)


def overhead_lines(cmp: Comparison, labels: Sequence[str], names: Mapping[str, str]) -> list[str]:
    """One line per mode: its tiny call (named `names[label]`, default 'o') and its share of its book call."""
    lines = []
    for label in labels:
        o, call = cmp.median(label), cmp.median(label + BOOK)
        share = (f"{o / call:4.0%} of {format_time(call)}" if o < call else
                 f"at most the book's whole call, {format_time(call)}: the tiny call took {format_time(o)}")
        lines.append(f"  {label:<17} {names.get(label, 'o')} = {format_time(min(o, call)):>8}, {share}")
    return lines


def sweep_gain(row: Mapping[str, Any], pair: Sequence[str]) -> Any:
    """The Ratio of a sweep point: pair = (eager, graph), the graph's speed-up over eager."""
    eager, graph = pair
    return row["cmp"].ratio(graph, eager)


def sweep_chart(sweep: Sequence[Mapping[str, Any]], pairs: Mapping[str, Sequence[str]], hardware: str,
                marks: Mapping[str, float] | None = None) -> Any:
    """Three panels (batch, depth, width): each graph mode's speed-up over eager, with its interval, against FLOP.

    marks: {framework: W = o x r in FLOP}; if given, the batch panel also draws each framework's bound
    1 + mark / W (dashed) and a diamond at the mark, where the bound is 2x."""
    from matplotlib.ticker import NullFormatter
    from .plotting import COLORS, new_figure
    if not sweep or not pairs:
        raise ValueError("sweep and pairs must be non-empty (from modes.sweep and the notebook's PAIRS)")
    fig, ax = new_figure((10, 3.8), alt=(
        "Three line charts side by side (batch, depth, width sweeps): speed-up of each framework's graph mode "
        "over its eager mode (median of per-round ratios with its 95 % interval as a bar, logarithmic) against "
        "the work per call in FLOP (logarithmic), one colour per framework (" + ", ".join(pairs) + "). "
        "A horizontal line marks 1x."
        + (" On the batch panel a dashed line in each framework's colour draws the model's bound 1 + o·r/W ("
           + ", ".join(marks) + "), and a diamond marks the mark W = o·r, where the bound is 2x." if marks else "")))
    ax.remove()
    axes = fig.subplots(1, 3, sharey=True)
    gains = {(id(r), fw): sweep_gain(r, pair) for r in sweep for fw, pair in pairs.items()}
    low, high = min(g.low for g in gains.values()), max(g.high for g in gains.values())
    ticks = [t for t in (0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200) if low / 1.5 <= t <= high * 1.5]
    for ax, (kind, title) in zip(axes, SWEEP_PANELS.items()):
        rows = [r for r in sweep if r["kind"] == kind]
        for i, fw in enumerate(pairs):
            g = [gains[id(r), fw] for r in rows]
            ax.errorbar([r["flops"] for r in rows], [q.median for q in g], fmt="o-", capsize=2,
                        yerr=[[q.median - q.low for q in g], [q.high - q.median for q in g]],
                        color=COLORS[i % len(COLORS)], label=fw)
        ax.axhline(1, color="k", lw=0.8)
        if kind == "batch" and marks:
            _draw_bounds(ax, [r["flops"] for r in rows], pairs, marks, (ticks[0], ticks[-1]))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())   # powers of ten only: minor labels overlap
        ax.set_yticks(ticks, [f"{t:g}x" for t in ticks])
        ax.set_yticks([], minor=True)
        ax.grid(True, alpha=0.3)
        ax.set_title(title)
        ax.set_xlabel("work per call (FLOP)")
    axes[0].set_ylabel("speed-up of hybridized over eager")
    axes[0].legend(fontsize=8)
    fig.supxlabel(hardware, x=0.99, ha="right", fontsize=7, color="0.4")
    return fig


def _draw_bounds(ax: Any, flops: Sequence[float], pairs: Mapping[str, Sequence[str]],
                 marks: Mapping[str, float], ylim: tuple[float, float]) -> None:
    """Dashed 1 + mark/W over the panel's range of W, clipped to ylim, and a diamond at (mark, 2x)."""
    from .plotting import COLORS
    lo, hi = min(flops), max(flops)
    grid = [lo * (hi / lo) ** (k / 60) for k in range(61)] if hi > lo else [lo]
    for i, fw in enumerate(pairs):
        if fw not in marks:
            continue
        check_positive(f"marks[{fw!r}]", marks[fw])
        color = COLORS[i % len(COLORS)]
        pts = [(w, 1 + marks[fw] / w) for w in grid if 1 + marks[fw] / w <= ylim[1]]
        if pts:
            ax.plot([w for w, _ in pts], [b for _, b in pts], "--", color=color, lw=1)
        if lo <= marks[fw] <= hi:
            ax.plot([marks[fw]], [2], "D", color=color, ms=6, mfc="white")


def gains_near(sweep: Sequence[Mapping[str, Any]], pair: Sequence[str], batch: float) -> list[tuple[int, float]]:
    """The batch sweep's points just below and just above `batch`: [(batch, median gain), ...]."""
    check_positive("batch", batch)
    rows = sorted((r for r in sweep if r["kind"] == "batch"), key=lambda r: r["batch"])
    below = [r for r in rows if r["batch"] <= batch][-1:]
    above = [r for r in rows if r["batch"] > batch][:1]
    return [(r["batch"], sweep_gain(r, pair).median) for r in below + above]


def h100_layer_times(sizes: Sequence[int], batch: int, floor: Optional[float] = None) -> list[float]:
    """Estimated seconds per kernel on an H100: (matmul + bias) per layer, then a ReLU pass.

    floor: each kernel's least device time in seconds (default KERNEL_FLOOR, an assumed figure)."""
    sizes = models._check_sizes(sizes)
    batch = check_count("batch", batch)
    floor = KERNEL_FLOOR if floor is None else floor
    if not floor >= 0:
        raise ValueError(f"floor must be at least 0 seconds, got {floor!r}")
    times = []
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        work = 2 * batch * n_in * n_out
        traffic = 4 * (n_in * n_out + n_out + batch * (n_in + n_out))      # float32 weights, bias, input, output
        times.append(max(work / (H100_TFLOPS * 1e12), traffic / (H100_TBS * 1e12), floor))
        if i < len(sizes) - 2:
            times.append(max(2 * 4 * batch * n_out / (H100_TBS * 1e12), floor))   # ReLU: read + write
    return times


def first_layer_line(sizes: Sequence[int], batch: int) -> str:
    """How the estimate gets the first layer's time: max(arithmetic, traffic, floor)."""
    n_in, n_out = models._check_sizes(sizes)[:2]
    flop = 2 * batch * n_in * n_out
    traffic = 4 * (n_in * n_out + n_out + batch * (n_in + n_out))
    return (f"first layer: max({flop / 1e6:.3f} MFLOP / {H100_TFLOPS:.0f} TFLOP/s, {traffic / 1e6:.3f} MB /"
            f" {H100_TBS} TB/s, floor {format_time(KERNEL_FLOOR)}) = {format_time(h100_layer_times(sizes, batch)[0])}")


def gpu_time(weights: Any, sizes: Sequence[int], batch: int, dev: Any = None) -> tuple[float, str]:
    """Device time of one call: measured as one CUDA graph where PyTorch has a GPU, else the H100 estimate."""
    import torch
    batch = check_count("batch", batch)
    if not torch.cuda.is_available():
        return sum(h100_layer_times(sizes, batch)), "estimated, NVIDIA H100 SXM datasheet"
    dev = dev or torch.device("cuda")
    net = models.torch_mlp(weights, dev)
    x = torch.randn(batch, sizes[0], device=dev)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up outside the capture, as CUDA graphs require
        for _ in range(3):
            net(x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        net(x)
    replay = compare({"CUDA graph": graph.replay}, budget=2, sync=torch.cuda.synchronize)
    return replay.median("CUDA graph"), f"measured on {torch.cuda.get_device_name(0)}"


def on_gpu(label: str) -> bool:
    """Whether the mode's framework runs on a GPU here (then its measured time holds the launches)."""
    from .frameworks import device
    if label not in FRAMEWORK_OF:
        raise ValueError(f"label must be among {list(FRAMEWORK_OF)}, got {label!r}")
    dev = device(FRAMEWORK_OF[label])
    return getattr(dev, "type", None) == "cuda" or getattr(dev, "platform", None) in ("gpu", "cuda")


def _check_gpu_label(label: str) -> str:
    """The label, if the GPU estimate counts its kernels (KERNELS); else a ValueError."""
    if label not in KERNELS:
        raise ValueError(f"label must be among {list(KERNELS)}, got {label!r}")
    return label


def device_of(label: str, base: float, floor: float = KERNEL_FLOOR) -> float:
    """The device's time per call: PyTorch's five kernels (base), plus the mode's extra kernels at the floor."""
    return base + (KERNELS[_check_gpu_label(label)] - KERNELS["PyTorch eager"]) * floor


def with_launches(label: str, thread: float, launch: float = HOST_LAUNCH) -> float:
    """The thread's time per call, plus the launches it would pay on a GPU where they are not in it."""
    return thread + (0.0 if on_gpu(_check_gpu_label(label)) else LAUNCHES[label] * launch)


def onnx_node_types(path: Any, optimized: bool = False, threads: int = 1) -> list[str]:
    """The op types of an ONNX model's nodes: as exported, or as ONNX Runtime runs them (default optimizations)."""
    import onnx
    from pathlib import Path
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path: no ONNX model at {path}")
    if optimized:
        import onnxruntime as ort
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = check_count("threads", threads)
        opts.log_severity_level = 3     # errors only: saving an optimized model warns that it suits this machine
        out = path.with_name(path.stem + "_as_run.onnx")
        opts.optimized_model_filepath = str(out)
        ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        path = out
    return [node.op_type for node in onnx.load(str(path)).graph.node]
