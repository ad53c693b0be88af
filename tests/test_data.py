"""helpers.data: the digits loader, the IDX/FashionMNIST reader and the batch iterator."""

import gzip
import struct

import numpy as np
import pytest

from helpers import data


def write_idx(path, array, type_byte=0x08, magic=None):
    """Write `array` as an IDX file (gzip-compressed when the name ends in .gz)."""
    header = magic if magic is not None else bytes([0, 0, type_byte, array.ndim])
    header += struct.pack(f">{array.ndim}I", *array.shape)
    dtype = data.IDX_DTYPES[type_byte]
    payload = header + np.asarray(array, dtype=dtype).tobytes()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(payload)


def write_fashion(folder, n_train=3, n_test=2):
    """Write a tiny FashionMNIST folder: 4x5 images, labels 0..9."""
    rng = np.random.default_rng(0)
    folder.mkdir(exist_ok=True)
    for kind, n in (("train", n_train), ("t10k", n_test)):
        images_name, labels_name = data.FASHION_FILES[kind]
        write_idx(folder / images_name, rng.integers(0, 256, (n, 4, 5), dtype=np.uint8))
        write_idx(folder / labels_name, np.arange(n, dtype=np.uint8) % 10)
    return folder


def test_read_idx_round_trips_gzip_and_multibyte_types(tmp_path):
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    write_idx(tmp_path / "x-idx3-ubyte.gz", images)
    back = data.read_idx(tmp_path / "x-idx3-ubyte.gz")
    assert back.dtype == np.uint8 and back.shape == (2, 3, 4)
    np.testing.assert_array_equal(back, images)
    floats = np.array([[1.5, -2.0], [3.25, 0.0]])
    write_idx(tmp_path / "f.idx", floats, type_byte=0x0D)  # big-endian float32, not gzipped
    back = data.read_idx(tmp_path / "f.idx")
    assert back.dtype == np.float32 and back.dtype.isnative
    np.testing.assert_array_equal(back, floats)


def test_read_idx_rejects_bad_magic_and_wrong_size(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_idx(tmp_path / "bad.gz", np.zeros(3, np.uint8), magic=b"\x1f\x00\x08\x01")
    with pytest.raises(ValueError, match=r"path: bad.gz is not an IDX file \(bad magic number 1f000801"):
        data.read_idx("bad.gz")
    with gzip.open(tmp_path / "short.gz", "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + struct.pack(">I", 5) + b"\x00\x01")
    with pytest.raises(ValueError, match=r"path: short.gz holds 2 bytes of data, but its header \(5,\) says 5"):
        data.read_idx(tmp_path / "short.gz")  # absolute path shown relative to the working folder
    with pytest.raises(FileNotFoundError, match="path: no IDX file at nothing.gz"):
        data.read_idx("nothing.gz")
    with pytest.raises(TypeError, match="path must be a str or path"):
        data.read_idx(3)


def test_load_fashion_mnist_reads_a_local_folder(tmp_path):
    split = data.load_fashion_mnist(write_fashion(tmp_path / "fashion"))
    assert [a.shape for a in split] == [(3, 20), (3,), (2, 20), (2,)]
    assert split.X_train.dtype == np.float32 and split.y_train.dtype == np.int64
    assert 0 <= split.X_train.min() and split.X_train.max() <= 1
    assert split.y_val.tolist() == [0, 1]


def test_load_fashion_mnist_errors_name_the_argument_and_relative_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="folder: no_such_folder is not a folder.*never downloads"):
        data.load_fashion_mnist("no_such_folder")
    folder = write_fashion(tmp_path / "fashion")
    (folder / "t10k-labels-idx1-ubyte.gz").unlink()
    with pytest.raises(FileNotFoundError, match="folder: fashion lacks t10k-labels-idx1-ubyte.gz$"):
        data.load_fashion_mnist(folder)
    write_idx(folder / "t10k-labels-idx1-ubyte.gz", np.zeros(5, np.uint8))
    with pytest.raises(ValueError, match="t10k-images-idx3-ubyte.gz holds 2 images but "
                                         "t10k-labels-idx1-ubyte.gz holds 5 labels"):
        data.load_fashion_mnist("fashion")
    with pytest.raises(TypeError, match="folder must be a str or path"):
        data.load_fashion_mnist(None)


def test_load_digits_shapes_dtypes_and_seeded_split():
    split = data.load_digits()
    assert [a.shape for a in split] == [(1500, 64), (1500,), (297, 64), (297,)]
    assert split.X_train.dtype == np.float32 and split.y_train.dtype == np.int64
    assert split.X_train.min() == 0 and split.X_train.max() == 1
    assert sorted(set(split.y_val.tolist())) == list(range(10))
    again, other = data.load_digits(), data.load_digits(seed=1)
    for a, b in zip(split, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(split.y_val, other.y_val)
    big = data.load_digits(image_size=28, n_val=100)
    assert big.X_train.shape == (1697, 784) and big.X_train.dtype == np.float32


def test_resize_keeps_constant_images_and_averages_neighbours():
    weights = data.resize_matrix(8, 28)
    assert weights.shape == (28, 8)
    np.testing.assert_allclose(weights.sum(axis=1), 1)
    np.testing.assert_allclose(data.resize_matrix(8, 8), np.eye(8))
    out = data.resize_images(np.full((2, 8, 8), 0.5), 28)
    assert out.shape == (2, 28, 28) and out.dtype == np.float32
    np.testing.assert_allclose(out, 0.5, rtol=1e-6)
    ramp = data.resize_images(np.tile(np.arange(2.0), (1, 2, 1)), 4)  # columns 0, 1 -> 0, .25, .75, 1
    np.testing.assert_allclose(ramp[0, 0], [0, 0.25, 0.75, 1])


def test_bad_digits_and_resize_arguments_are_named():
    with pytest.raises(ValueError, match="image_size must be 1 or more, got 0"):
        data.load_digits(image_size=0)
    with pytest.raises(TypeError, match="n_val must be an int, got float"):
        data.load_digits(n_val=0.2)
    with pytest.raises(ValueError, match="n_val must leave training images"):
        data.load_digits(n_val=1797)
    with pytest.raises(ValueError, match=r"images must have shape \(n, h, h\)"):
        data.resize_images(np.zeros((8, 8)), 4)


def test_batches_are_seeded_cover_everything_and_drop_last():
    X, y = np.arange(10, dtype=np.float32)[:, None], np.arange(10)
    in_order = list(data.batches(X, y, 4))
    assert [b[1].tolist() for b in in_order] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    first = [b[1].tolist() for b in data.batches(X, y, 4, seed=3)]
    assert first == [b[1].tolist() for b in data.batches(X, y, 4, seed=3)]
    assert sorted(sum(first, [])) == list(range(10)) and first != [b[1].tolist() for b in in_order]
    dropped = list(data.batches(X, y, 4, seed=3, drop_last=True))
    assert [len(b[0]) for b in dropped] == [4, 4]
    for xb, yb in data.batches(X, y, 3, seed=1):
        np.testing.assert_array_equal(xb[:, 0], yb)  # images stay with their labels
    with pytest.raises(ValueError, match="batch_size must be 1 or more, got 0"):
        next(data.batches(X, y, 0))
    with pytest.raises(ValueError, match="X and y must hold as many examples, got 10 and 9"):
        next(data.batches(X, y[:9], 2))
    with pytest.raises(TypeError, match="split must be a Split"):
        data.to_tensors((X, y))


def test_importing_the_module_imports_no_framework():
    import subprocess
    import sys
    code = "import sys, helpers.data; print(sorted({'torch', 'sklearn'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
