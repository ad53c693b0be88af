"""Data: scikit-learn's digits (shipped inside the package) and a local FashionMNIST reader.

Nothing here downloads anything.  ``load_digits`` reads the 1797 8x8 images that
scikit-learn installs with itself; ``load_fashion_mnist`` reads the four standard
IDX gzip files from a folder the user already has.  Nothing heavy is imported at
module import time: NumPy and PyTorch are imported by the functions that use them.
"""

from __future__ import annotations

import gzip
import os
import struct
from pathlib import Path
from typing import Any, Iterator, NamedTuple, Optional

from .checks import check_int as _check_int

FASHION_FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "t10k": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}
# IDX type byte -> big-endian NumPy dtype (the format stores every number big-endian)
IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


class Split(NamedTuple):
    """Training and validation arrays: flattened float32 images and int64 labels."""

    X_train: Any
    y_train: Any
    X_val: Any
    y_val: Any


def resize_matrix(n_in: int, n_out: int) -> np.ndarray:
    """Return the (n_out, n_in) matrix of bilinear interpolation weights along one axis.

    Pixel centres are aligned as in PIL and ``torch.nn.functional.interpolate``
    (``align_corners=False``): output pixel i samples input position
    (i + 0.5) * n_in / n_out - 0.5, clamped to the image, as a weighted average
    of its two nearest input pixels.  Every row sums to one.
    """
    import numpy as np
    n_in, n_out = _check_int("n_in", n_in, 1), _check_int("n_out", n_out, 1)
    pos = np.clip((np.arange(n_out) + 0.5) * n_in / n_out - 0.5, 0, n_in - 1)
    left = np.floor(pos).astype(int)
    right = np.minimum(left + 1, n_in - 1)
    frac = pos - left
    weights = np.zeros((n_out, n_in))
    np.add.at(weights, (np.arange(n_out), left), 1 - frac)
    np.add.at(weights, (np.arange(n_out), right), frac)
    return weights


def resize_images(images: np.ndarray, size: int) -> np.ndarray:
    """Resize a stack of square images (n, h, h) to (n, size, size) by bilinear interpolation."""
    import numpy as np
    images = np.asarray(images)
    if images.ndim != 3 or images.shape[1] != images.shape[2]:
        raise ValueError(f"images must have shape (n, h, h), got {images.shape}")
    size = _check_int("size", size, 1)
    weights = resize_matrix(images.shape[1], size).astype(np.float32)
    # separable: interpolate the rows, then the columns (out = W @ image @ W.T)
    return np.einsum("ij,njk,lk->nil", weights, images.astype(np.float32), weights)


def _split(X: np.ndarray, y: np.ndarray, n_val: int, seed: int) -> Split:
    """Shuffle with `seed` and hold out the last `n_val` examples for validation."""
    import numpy as np
    order = np.random.default_rng(seed).permutation(len(X))
    train, val = order[:len(X) - n_val], order[len(X) - n_val:]
    return Split(X[train], y[train], X[val], y[val])


def load_digits(image_size: int = 8, n_val: int = 297, seed: int = 0) -> Split:
    """Return scikit-learn's 1797 handwritten digits as a seeded train/validation Split.

    Images are scaled to [0, 1] and flattened: 64 inputs at the native 8x8, or
    image_size**2 inputs after bilinear resizing (28 gives FashionMNIST's 784).
    The default n_val=297 leaves 1500 training images, whole batches of 50, 100 or 250.
    """
    import numpy as np
    image_size = _check_int("image_size", image_size, 1)
    n_val = _check_int("n_val", n_val, 1)
    seed = _check_int("seed", seed, 0)
    from sklearn.datasets import load_digits as sklearn_digits  # ships the data: no download
    bunch = sklearn_digits()
    if n_val >= len(bunch.images):
        raise ValueError(f"n_val must leave training images (fewer than {len(bunch.images)}), "
                         f"got {n_val}")
    images = bunch.images.astype(np.float32) / 16.0  # pixel values are 0..16
    if image_size != images.shape[1]:
        images = resize_images(images, image_size)
    X = images.reshape(len(images), -1).astype(np.float32)
    return _split(X, bunch.target.astype(np.int64), n_val, seed)


def _shown(path: Path) -> str:
    """Return `path` relative to the working directory when possible, as given otherwise."""
    if not path.is_absolute():
        return path.as_posix()
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.name


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Read one IDX file (gzip-compressed when its name ends in .gz) into a NumPy array."""
    import numpy as np
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path, got {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path: no IDX file at {_shown(path)}")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in IDX_DTYPES:
        raise ValueError(f"path: {_shown(path)} is not an IDX file (bad magic number "
                         f"{data[:4].hex() or 'empty'}; expected 0000 then a type byte and a rank)")
    dtype, ndim = np.dtype(IDX_DTYPES[data[2]]), data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(f"path: {_shown(path)} ends inside its header ({len(data)} bytes)")
    shape = struct.unpack(f">{ndim}I", data[4:header])
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(data) - header != expected:
        raise ValueError(f"path: {_shown(path)} holds {len(data) - header} bytes of data, "
                         f"but its header {shape} says {expected}")
    return np.frombuffer(data, dtype=dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def load_fashion_mnist(folder: str | os.PathLike) -> Split:
    """Read FashionMNIST's four IDX gzip files from a local folder (never downloads).

    Training: train-images/labels (60000); validation: t10k-images/labels (10000).
    Images are scaled to [0, 1] and flattened to 784 float32 inputs.
    """
    import numpy as np
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a str or path, got {type(folder).__name__}")
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"folder: {_shown(root)} is not a folder; put the four "
                                f"FashionMNIST .gz files in one (this code never downloads)")
    missing = [name for pair in FASHION_FILES.values() for name in pair if not (root / name).is_file()]
    if missing:
        raise FileNotFoundError(f"folder: {_shown(root)} lacks " + ", ".join(missing))
    arrays = []
    for images_name, labels_name in FASHION_FILES.values():
        images, labels = read_idx(root / images_name), read_idx(root / labels_name)
        if images.ndim != 3 or labels.ndim != 1:
            raise ValueError(f"folder: {images_name} must hold (n, rows, cols) images and "
                             f"{labels_name} (n,) labels, got {images.shape} and {labels.shape}")
        if len(images) != len(labels):
            raise ValueError(f"folder: {images_name} holds {len(images)} images but "
                             f"{labels_name} holds {len(labels)} labels")
        arrays += [(images.reshape(len(images), -1) / np.float32(255)).astype(np.float32),
                   labels.astype(np.int64)]
    return Split(*arrays)


def batches(X: Any, y: Any, batch_size: int, seed: Optional[int] = None,
            drop_last: bool = False) -> Iterator[tuple[Any, Any]]:
    """Yield (X, y) mini-batches of NumPy arrays or tensors, shuffled by `seed` (None: in order).

    The same seed gives the same batches; pass a new seed each epoch (e.g. the
    epoch number) for a new order.  drop_last skips a final, smaller batch.
    """
    import numpy as np
    if len(X) != len(y):
        raise ValueError(f"X and y must hold as many examples, got {len(X)} and {len(y)}")
    batch_size = _check_int("batch_size", batch_size, 1)
    if seed is not None:
        seed = _check_int("seed", seed, 0)
    order = np.arange(len(X)) if seed is None else np.random.default_rng(seed).permutation(len(X))
    stop = len(X) - len(X) % batch_size if drop_last else len(X)
    if type(X).__module__.startswith("torch"):
        import torch
        order = torch.from_numpy(order).to(X.device)
    for start in range(0, stop, batch_size):
        idx = order[start:start + batch_size]
        yield X[idx], y[idx]


def to_tensors(split: Split, device: Any = None) -> Split:
    """Return the Split as PyTorch tensors (float32 images, int64 labels) on `device`."""
    if not isinstance(split, Split):
        raise TypeError(f"split must be a Split, got {type(split).__name__}")
    import torch
    return Split(*(torch.as_tensor(a, device=device) for a in split))
