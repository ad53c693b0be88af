"""Models: the same MLP, with the same weights, in every framework.

`mlp_sizes` describes the network (the book's 512 -> 256 -> 128 -> 2 by
default, or `depth` hidden layers of `width` units), `init_weights` draws one
set of NumPy weights, and the builders turn them into a PyTorch, TensorFlow
(Keras), MXNet (Gluon) or JAX model that computes the same function; the
PyTorch model can be exported to ONNX for ONNX Runtime.  `flops` and
`min_bytes` count the work and the memory traffic of one forward call.

No framework is imported at module import time.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable, Optional, Sequence

from .checks import check_int as _check_int
from .frameworks import import_tensorflow
from .mxnet_compat import import_mxnet

BOOK_SIZES = (512, 256, 128, 2)

Weights = list  # list of (W of shape (out, in), b of shape (out,)) NumPy float32 pairs


def mlp_sizes(depth: Optional[int] = None, width: int = 256, in_features: int = 512,
              out_features: int = 2) -> tuple[int, ...]:
    """Return layer sizes: the book's (512, 256, 128, 2) without depth, else depth x width."""
    if depth is None:
        return BOOK_SIZES
    _check_int("depth", depth)
    _check_int("width", width)
    _check_int("in_features", in_features)
    _check_int("out_features", out_features)
    return (in_features, *([width] * depth), out_features)


def _check_sizes(sizes: Sequence[int]) -> tuple[int, ...]:
    """Return `sizes` as a tuple of at least two positive ints, else raise."""
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__"):
        raise TypeError(f"sizes must be a sequence of ints, got {type(sizes).__name__}")
    if len(sizes) < 2:
        raise ValueError(f"sizes must hold at least an input and an output size, got {list(sizes)}")
    for s in sizes:
        _check_int("sizes[i]", s)
    return tuple(sizes)


def n_layers(sizes: Sequence[int]) -> int:
    """Return the number of dense layers (one matmul and one bias each)."""
    return len(_check_sizes(sizes)) - 1


def n_ops(sizes: Sequence[int]) -> int:
    """Return the operators an eager call runs: one per dense layer, one per ReLU."""
    return 2 * n_layers(sizes) - 1


def flops(sizes: Sequence[int], batch: int = 1) -> int:
    """Return the floating-point operations of one forward call (2 per multiply-add)."""
    sizes = _check_sizes(sizes)
    _check_int("batch", batch)
    return 2 * batch * sum(a * b for a, b in zip(sizes[:-1], sizes[1:]))


def min_bytes(sizes: Sequence[int], batch: int = 1, itemsize: int = 4) -> int:
    """Return the bytes a call must move at least: weights, biases, input, activations once."""
    sizes = _check_sizes(sizes)
    _check_int("batch", batch)
    _check_int("itemsize", itemsize)
    params = sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))
    return itemsize * (params + batch * sum(sizes))


def intensity(sizes: Sequence[int], batch: int = 1, itemsize: int = 4) -> float:
    """Return the arithmetic intensity of a call: FLOPs per byte moved."""
    return flops(sizes, batch) / min_bytes(sizes, batch, itemsize)


def init_weights(sizes: Sequence[int], seed: int = 0) -> Weights:
    """Draw float32 weights as PyTorch's nn.Linear does: U(-1/sqrt(in), 1/sqrt(in))."""
    import numpy as np
    sizes = _check_sizes(sizes)
    _check_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    weights = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        bound = 1.0 / np.sqrt(n_in)
        W = rng.uniform(-bound, bound, size=(n_out, n_in)).astype(np.float32)
        b = rng.uniform(-bound, bound, size=(n_out,)).astype(np.float32)
        weights.append((W, b))
    return weights


def _check_weights(weights: Any) -> Weights:
    """Return `weights` if it is a non-empty list of (W, b) pairs, else raise."""
    if not isinstance(weights, (list, tuple)) or not weights:
        raise TypeError("weights must be a non-empty list of (W, b) pairs from init_weights")
    for pair in weights:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise TypeError("weights must be a non-empty list of (W, b) pairs from init_weights")
    return list(weights)


def torch_mlp(weights: Weights, device: Any = None) -> Any:
    """Return an nn.Sequential of Linear and ReLU layers holding `weights` (no gradients)."""
    import torch
    from torch import nn
    weights = _check_weights(weights)
    layers: list = []
    for i, (W, b) in enumerate(weights):
        layer = nn.Linear(W.shape[1], W.shape[0])
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(W))
            layer.bias.copy_(torch.from_numpy(b))
        layers.append(layer)
        if i < len(weights) - 1:
            layers.append(nn.ReLU())
    net = nn.Sequential(*layers).eval().requires_grad_(False)
    return net if device is None else net.to(device)


def tf_mlp(weights: Weights) -> Any:
    """Return a Keras Sequential of Dense layers holding `weights`."""
    import_tensorflow()  # Keras's backend, imported the safe way (frameworks.import_tensorflow)
    import keras
    weights = _check_weights(weights)
    layers: list = [keras.Input(shape=(weights[0][0].shape[1],))]
    for i, (W, _) in enumerate(weights):
        layers.append(keras.layers.Dense(W.shape[0], activation="relu" if i < len(weights) - 1 else None))
    net = keras.Sequential(layers)
    for layer, (W, b) in zip(net.layers, weights):
        layer.set_weights([W.T, b])  # Keras stores the kernel as (in, out)
    return net


def mxnet_mlp(weights: Weights, ctx: Any = None) -> Any:
    """Return a Gluon HybridSequential of Dense layers holding `weights`."""
    mx = import_mxnet()
    from mxnet.gluon import nn
    weights = _check_weights(weights)
    ctx = ctx or mx.cpu()
    net = nn.HybridSequential()
    for i, (W, _) in enumerate(weights):
        net.add(nn.Dense(W.shape[0], in_units=W.shape[1],
                         activation="relu" if i < len(weights) - 1 else None))
    net.initialize(ctx=ctx)
    for layer, (W, b) in zip(net, weights):
        layer.weight.set_data(mx.nd.array(W, ctx=ctx))
        layer.bias.set_data(mx.nd.array(b, ctx=ctx))
    return net


def jax_mlp(weights: Weights) -> tuple[list, Callable[[Any, Any], Any]]:
    """Return (params, apply) where apply(params, x) runs the MLP op by op in JAX."""
    import jax.numpy as jnp
    weights = _check_weights(weights)
    params = [(jnp.asarray(W.T), jnp.asarray(b)) for W, b in weights]

    def apply(params: list, x: Any) -> Any:
        """Run the MLP: x @ W + b, ReLU between layers."""
        for W, b in params[:-1]:
            x = jnp.maximum(x @ W + b, 0.0)
        W, b = params[-1]
        return x @ W + b

    return params, apply


def export_onnx(net: Any, path: str | os.PathLike, in_features: int) -> list[str]:
    """Export a PyTorch model to ONNX (legacy exporter, dynamic batch); return its warnings.

    torch 2.9+ defaults to the torch.export-based exporter, which needs the
    onnxscript package; ``dynamo=False`` selects the TorchScript-based one,
    which warns that it is deprecated.  The warnings are caught and returned.
    """
    import torch
    _check_int("in_features", in_features)
    x = torch.zeros(1, in_features, device=next(net.parameters()).device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.onnx.export(net, (x,), os.fspath(path), dynamo=False, input_names=["x"],
                          output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    return [f"{w.category.__name__}: {w.message}" for w in caught]
