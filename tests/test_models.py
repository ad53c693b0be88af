"""Unit tests of helpers.models: sizes, work counts, and the same MLP in every framework."""

import os

import numpy as np
import pytest

import helpers
from helpers import models

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's C++ start-up lines


def test_sizes_book_and_configurable():
    assert models.mlp_sizes() == (512, 256, 128, 2)
    assert models.mlp_sizes(depth=3, width=64) == (512, 64, 64, 64, 2)
    assert models.mlp_sizes(depth=1, width=8, in_features=4, out_features=3) == (4, 8, 3)
    assert models.n_layers((512, 256, 128, 2)) == 3
    assert models.n_ops((512, 256, 128, 2)) == 5


def test_sizes_reject_bad_arguments():
    with pytest.raises(ValueError, match="depth"):
        models.mlp_sizes(depth=0)
    with pytest.raises(TypeError, match="width"):
        models.mlp_sizes(depth=2, width=2.5)
    with pytest.raises(ValueError, match="sizes"):
        models.flops((4,))
    with pytest.raises(TypeError, match="sizes"):
        models.flops("512")
    with pytest.raises(ValueError, match="batch"):
        models.flops((4, 2), batch=0)


def test_flops_bytes_and_intensity():
    sizes = (4, 3, 2)
    assert models.flops(sizes) == 2 * (4 * 3 + 3 * 2)
    assert models.flops(sizes, batch=10) == 10 * models.flops(sizes)
    params = 4 * 3 + 3 + 3 * 2 + 2
    assert models.min_bytes(sizes, batch=5) == 4 * (params + 5 * 9)
    assert models.intensity(sizes, batch=5) == pytest.approx(models.flops(sizes, 5) / models.min_bytes(sizes, 5))
    # more rows per weight read: intensity grows with the batch
    assert models.intensity(models.BOOK_SIZES, 1024) > 50 * models.intensity(models.BOOK_SIZES, 1)


def test_init_weights_shapes_and_seed():
    w = models.init_weights((5, 4, 3), seed=1)
    assert [(W.shape, b.shape) for W, b in w] == [((4, 5), (4,)), ((3, 4), (3,))]
    assert all(W.dtype == np.float32 for W, _ in w)
    assert np.all(np.abs(w[0][0]) <= 1 / np.sqrt(5))
    assert np.array_equal(w[1][0], models.init_weights((5, 4, 3), seed=1)[1][0])
    with pytest.raises(TypeError, match="weights"):
        models.torch_mlp([1, 2])


def _reference(weights, x):
    for W, b in weights[:-1]:
        x = np.maximum(x @ W.T + b, 0)
    W, b = weights[-1]
    return x @ W.T + b


SIZES = (6, 5, 4, 2)


@pytest.fixture(scope="module")
def weights_and_input():
    x = np.random.default_rng(0).standard_normal((3, SIZES[0])).astype(np.float32)
    return models.init_weights(SIZES, seed=0), x


def test_torch_mlp_and_onnx_export(weights_and_input, tmp_path):
    torch = pytest.importorskip("torch")
    w, x = weights_and_input
    net = models.torch_mlp(w)
    y = net(torch.from_numpy(x))
    assert not y.requires_grad
    np.testing.assert_allclose(y.numpy(), _reference(w, x), rtol=1e-5, atol=1e-6)
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    path = tmp_path / "mlp.onnx"
    caught = models.export_onnx(net, path, in_features=SIZES[0])
    assert all(isinstance(c, str) for c in caught)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    big = np.repeat(x, 4, axis=0)  # the batch axis is dynamic
    np.testing.assert_allclose(session.run(None, {"x": big})[0], _reference(w, big), rtol=1e-5, atol=1e-6)


def test_mxnet_mlp(weights_and_input):
    # before the TensorFlow test: importing MXNet after TensorFlow crashes this MXNet build
    if not helpers.is_installed("mxnet"):
        pytest.skip("MXNet is not installed here")
    mx = helpers.import_mxnet()
    w, x = weights_and_input
    net = models.mxnet_mlp(w)
    net.hybridize()
    np.testing.assert_allclose(net(mx.nd.array(x)).asnumpy(), _reference(w, x), rtol=1e-5, atol=1e-6)


def test_tf_mlp(weights_and_input):
    pytest.importorskip("tensorflow")
    w, x = weights_and_input
    net = models.tf_mlp(w)
    np.testing.assert_allclose(net(x).numpy(), _reference(w, x), rtol=1e-5, atol=1e-6)


def test_jax_mlp(weights_and_input):
    jax = pytest.importorskip("jax")
    w, x = weights_and_input
    params, apply = models.jax_mlp(w)
    np.testing.assert_allclose(np.asarray(jax.jit(apply)(params, x)), _reference(w, x), rtol=1e-5, atol=1e-6)
