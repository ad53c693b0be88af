"""helpers.mxnet_compat: the NumPy 2 names MXNet 1.9.1 needs, put back for its import only."""

from __future__ import annotations

import subprocess
import sys
import types

import numpy as np
import pytest

from helpers import frameworks, mxnet_compat


def fake_numpy(**present: object) -> types.SimpleNamespace:
    """A stand-in for a numpy module that has only `present` and the targets of the aliases."""
    targets = {"all": np.all, "any": np.any, "prod": np.prod, "cumprod": np.cumprod, "round": np.round,
               "isin": np.isin, "sort": np.sort, "trapezoid": np.trapezoid}
    return types.SimpleNamespace(**targets, **present)


def test_compat_names_cover_what_mxnet_reads_and_nothing_present() -> None:
    names = mxnet_compat.compat_names(fake_numpy(NINF=-1.0))
    expected = (set(mxnet_compat.CONSTANTS) | set(mxnet_compat.ALIASES) | set(mxnet_compat.FINANCIAL)) - {"NINF"}
    assert set(names) == expected
    assert names["alltrue"] is np.all and names["in1d"] is np.isin
    assert names["PINF"] == float("inf") and np.isnan(names["NaN"])


def test_financial_stubs_raise_naming_the_function() -> None:
    with pytest.raises(NotImplementedError, match="numpy.npv was removed in NumPy 1.20"):
        mxnet_compat.compat_names(fake_numpy())["npv"](0.1, [1, 2])


def test_numpy_compat_adds_the_names_inside_the_block_only() -> None:
    added_before = [name for name in mxnet_compat.CONSTANTS if hasattr(np, name)]
    with mxnet_compat.numpy_compat() as added:
        assert all(hasattr(np, name) for name in added)
    assert not any(hasattr(np, name) for name in added)
    assert [name for name in mxnet_compat.CONSTANTS if hasattr(np, name)] == added_before
    if np.__version__.startswith("2."):
        assert "alltrue" in added and "NINF" in added


@pytest.mark.skipif(not frameworks.is_installed("mxnet"), reason="MXNet is not installed here")
def test_import_mxnet_works_on_this_numpy_and_leaves_numpy_as_it_was() -> None:
    code = ("import numpy as np, helpers\n"
            "before = set(dir(np))\n"
            "mx = helpers.import_mxnet()\n"
            "assert set(dir(np)) == before, set(dir(np)) ^ before\n"
            "assert helpers.import_mxnet() is mx\n"
            "x = mx.nd.array([[1.0, 2.0]])\n"
            "print(mx.__version__, (x * 2).asnumpy().tolist())\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["1.9.1", "[[2.0,", "4.0]]"]
