"""Every framework's ways of running the book's MLP ("modes"), built by name, for side-by-side timing.

A `Mode` knows its framework, how to turn a NumPy input into its own tensor, how to run one
call and how to wait for queued work. MXNet's and JAX's calls return before their work is done,
so their modes wait inside every call (`wait_to_read`, `block_until_ready`): a timed call is one
call's latency, never overlapped with the next call's Python. `build_modes` builds the modes
named in `MODE_LABELS`, `first_call` runs one once (compiling it), and `compare_modes` times
several, interleaved, with `helpers.compare`.

No framework is imported at module import time.
"""

from __future__ import annotations

import importlib
import time
import warnings
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence

from . import models
from .comparison import Comparison, compare
from .frameworks import device, import_tensorflow, synchronizer
from .mxnet_compat import import_mxnet
from .native import capture_fd

# Every mode, in the order of the tables, with its framework.
FRAMEWORK_OF = {
    "PyTorch eager": "torch", "torch.jit.script": "torch", "torch.compile": "torch",
    "TensorFlow eager": "tensorflow", "tf.function": "tensorflow", "tf.function + XLA": "tensorflow",
    "MXNet eager": "mxnet", "hybridize()": "mxnet", "hybridize(static)": "mxnet",
    "JAX eager": "jax", "jax.jit": "jax",
    "ONNX Runtime": "onnxruntime",
}
MODE_LABELS = tuple(FRAMEWORK_OF)
# Each framework's eager mode: the baseline of its hybridized modes.
EAGER = {"torch": "PyTorch eager", "tensorflow": "TensorFlow eager", "mxnet": "MXNet eager", "jax": "JAX eager"}


class Mode(NamedTuple):
    """One way to run the network: its framework, label, input converter, call and wait."""

    framework: str
    label: str
    to_input: Callable[[Any], Any]
    run: Callable[[Any], Any]
    sync: Optional[Callable[[], Any]] = None


class Modes(dict):
    """{label: Mode}, with the warnings the frameworks raised while the modes were built."""

    warnings: list[str]


def mode_labels(frameworks: Iterable[str]) -> list[str]:
    """Return the labels of every mode whose framework is in `frameworks`, in table order."""
    chosen = set(frameworks)
    unknown = chosen - set(FRAMEWORK_OF.values())
    if unknown:
        raise ValueError(f"frameworks must be among {sorted(set(FRAMEWORK_OF.values()))}, got {sorted(unknown)}")
    return [label for label, fw in FRAMEWORK_OF.items() if fw in chosen]


def _runner(label: str, weights: models.Weights, onnx_path: Any, threads: int,
            caught: list[str]) -> Callable[[Any], Any]:
    """Build the callable of one mode (importing its framework now)."""
    fw = FRAMEWORK_OF[label]
    if fw == "torch":
        torch = importlib.import_module("torch")
        net = models.torch_mlp(weights, device("torch"))
        if label == "torch.jit.script":  # TorchScript warns that it is deprecated: caught, reported once
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                net = torch.jit.script(net)
            caught += [f"{label}: {w.message}" for w in seen]
        elif label == "torch.compile":
            net = torch.compile(net)
        return net
    if fw == "tensorflow":
        tf = import_tensorflow()
        net = models.tf_mlp(weights)
        if label == "tf.function":
            return tf.function(net)
        if label == "tf.function + XLA":
            return tf.function(net, jit_compile=True)
        return net
    if fw == "mxnet":
        net = models.mxnet_mlp(weights, device("mxnet"))
        if label == "hybridize()":
            net.hybridize()
        elif label == "hybridize(static)":
            net.hybridize(static_alloc=True, static_shape=True)
        return lambda x: _waited(net(x))
    if fw == "jax":
        jax = importlib.import_module("jax")
        params, apply = models.jax_mlp(weights)
        f = jax.jit(apply) if label == "jax.jit" else apply
        return lambda x: f(params, x).block_until_ready()
    ort = importlib.import_module("onnxruntime")
    if onnx_path is None:
        raise ValueError("onnx_path must name the exported model to build 'ONNX Runtime'")
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(str(onnx_path), options, providers=[device("onnxruntime")])
    return lambda x: session.run(None, {"x": x})[0]


def _waited(y: Any) -> Any:
    """Wait until MXNet's engine has computed `y` (its call only queued the work); return `y`."""
    y.wait_to_read()
    return y


def _converter(fw: str) -> Callable[[Any], Any]:
    """Return the function that turns a NumPy array into the framework's input tensor."""
    if fw == "torch":
        torch = importlib.import_module("torch")
        return lambda x: torch.from_numpy(x).to(device("torch"))
    if fw == "tensorflow":
        tf = import_tensorflow()

        def to_tf(x: Any) -> Any:
            with tf.device(device("tensorflow")):
                return tf.constant(x)
        return to_tf
    if fw == "mxnet":
        mx = import_mxnet()
        return lambda x: mx.nd.array(x, ctx=device("mxnet"))
    return lambda x: x  # JAX and ONNX Runtime take NumPy arrays


def build_modes(weights: models.Weights, labels: Sequence[str], onnx_path: Any = None,
                threads: int = 1) -> Modes:
    """Build the named modes of the MLP holding `weights` (ONNX Runtime reads `onnx_path`)."""
    weights = models._check_weights(weights)
    if isinstance(labels, str) or not labels:
        raise TypeError("labels must be a non-empty sequence of mode labels")
    unknown = [label for label in labels if label not in FRAMEWORK_OF]
    if unknown:
        raise ValueError(f"labels must be among {list(MODE_LABELS)}, got {unknown}")
    modes, caught = Modes(), []
    for label in labels:
        fw = FRAMEWORK_OF[label]
        sync = synchronizer(fw) if fw in ("torch", "tensorflow", "mxnet") else None
        modes[label] = Mode(fw, label, _converter(fw), _runner(label, weights, onnx_path, threads, caught), sync)
    modes.warnings = sorted(set(caught))
    return modes


def as_numpy(y: Any) -> Any:
    """Return a mode's output as a NumPy array."""
    import numpy as np
    if hasattr(y, "asnumpy"):
        return y.asnumpy()
    if hasattr(y, "detach"):  # PyTorch, possibly on a GPU
        return y.detach().cpu().numpy()
    if hasattr(y, "numpy"):  # TensorFlow
        return y.numpy()
    return np.asarray(y)


def _check_mode(mode: Any) -> Mode:
    """Return `mode` if it is a Mode, else raise a clear error."""
    if not isinstance(mode, Mode):
        raise TypeError(f"mode must be a Mode (from build_modes), got {type(mode).__name__}")
    return mode


def first_call(mode: Mode, x: Any) -> tuple[Any, float]:
    """Run the mode once on the NumPy input x (compiling it for this shape); return (output, seconds).

    XLA writes a few C++ log lines straight to file descriptor 2 on its first compilation;
    they are caught and dropped.
    """
    _check_mode(mode)
    t = mode.to_input(x)
    with capture_fd(2):
        start = time.perf_counter()
        y = mode.run(t)
        if mode.sync is not None:
            mode.sync()
        seconds = time.perf_counter() - start
    return as_numpy(y), seconds


def eager_of(label: str, modes: Iterable[str]) -> Optional[str]:
    """Return the eager mode of `label`'s framework if it is among `modes` and is not `label`."""
    if label not in FRAMEWORK_OF:
        raise ValueError(f"label must be among {list(MODE_LABELS)}, got {label!r}")
    eager = EAGER.get(FRAMEWORK_OF[label])
    return eager if eager in set(modes) and eager != label else None


def by_framework(modes: dict) -> dict[str, dict]:
    """Group {label: Mode} by framework, in table order: {framework: {label: Mode}}."""
    groups: dict[str, dict] = {}
    for label, mode in modes.items():
        groups.setdefault(_check_mode(mode).framework, {})[label] = mode
    return groups


def calls_of(modes: dict, x: Any, suffix: str = "") -> tuple[dict, dict]:
    """The modes as calls on the NumPy input x, converted once: ({label + suffix: call}, {label + suffix: sync})."""
    if not isinstance(modes, dict) or not modes:
        raise TypeError("modes must be a non-empty {label: Mode} dict (from build_modes)")
    if not isinstance(suffix, str):
        raise TypeError(f"suffix must be a str, got {type(suffix).__name__}")
    inputs = {label: _check_mode(mode).to_input(x) for label, mode in modes.items()}
    calls = {label + suffix: (lambda m=mode, v=inputs[label]: m.run(v)) for label, mode in modes.items()}
    return calls, {label + suffix: mode.sync for label, mode in modes.items()}


def compare_modes(modes: dict, x: Any, **options: Any) -> Comparison:
    """Time the modes on the NumPy input x with helpers.compare, interleaved, each block synchronized."""
    calls, syncs = calls_of(modes, x)
    return compare(calls, sync=syncs, **options)


def sweep(grid: Sequence[tuple[str, Sequence[int], int]], labels: Sequence[str], seed: int = 1,
          progress: Optional[Callable[[int], Any]] = None, **options: Any) -> list[dict]:
    """Time the modes `labels` at each (kind, sizes, batch) of `grid`, one interleaved comparison per point.

    The models of a network are built once (weights seeded 0) and reused while consecutive points
    share its sizes; each mode's first call on a point's input is made before timing. The inputs
    are drawn from one generator seeded `seed`. `progress(i)` is called before point i (from 1);
    `options` go to `compare_modes`. Returns one dict per point: kind, sizes, batch, flops, cmp.
    """
    import numpy as np
    points = list(grid)
    if not points:
        raise ValueError("grid must hold at least one (kind, sizes, batch) point")
    for point in points:
        if not (isinstance(point, tuple) and len(point) == 3 and isinstance(point[0], str)):
            raise TypeError(f"grid must hold (kind, sizes, batch) tuples, got {point!r}")
    rng, rows, built, built_for = np.random.default_rng(seed), [], None, None
    for i, (kind, sizes, batch) in enumerate(points, start=1):
        if progress is not None:
            progress(i)
        sizes = tuple(sizes)
        if sizes != built_for:
            built, built_for = build_modes(models.init_weights(sizes, seed=0), labels), sizes
        x = rng.standard_normal((batch, sizes[0]), dtype=np.float32)
        for mode in built.values():
            first_call(mode, x)                      # compile for this shape before timing
        rows.append({"kind": kind, "sizes": sizes, "batch": batch, "flops": models.flops(sizes, batch),
                     "cmp": compare_modes(built, x, **options)})
    return rows
