"""helpers.mxnet_compat: the NumPy 2 names MXNet 1.9.1 needs, put back for its import only."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

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


# The import hook (install_import_hook, and the .pth file of tools/setup_env.py): each test runs a
# fresh Python, since an import can happen only once per process.
COMPAT_FILE = Path(mxnet_compat.__file__)
LOAD_COMPAT = ("import importlib.util, sys\n"
               f"spec = importlib.util.spec_from_file_location('compat', {str(COMPAT_FILE)!r})\n"
               "compat = importlib.util.module_from_spec(spec)\n"
               "spec.loader.exec_module(compat)\n")
# Takes off the hook that the environment's .pth file (tools/setup_env.py) may have installed.
REMOVE_HOOKS = ("import sys\n"
                "sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, 'hybridize_mxnet_hook', False)]\n")
# The book's MXNet cells (D2L 13.1), unchanged but for the export folder.
BOOK_CELLS = """
from mxnet import np, npx
from mxnet.gluon import nn
npx.set_np()

def get_net():
    net = nn.HybridSequential()
    net.add(nn.Dense(256, activation='relu'),
            nn.Dense(128, activation='relu'),
            nn.Dense(2))
    net.initialize()
    return net

x = np.random.normal(size=(1, 512))
net = get_net()
y_eager = net(x)
net.hybridize()
y_hybrid = net(x)
npx.waitall()
net.export(EXPORT_PREFIX)
"""


def run_fresh(code: str, *args: str) -> subprocess.CompletedProcess:
    """Run `code` in a new Python process (this interpreter, with `args` before -c)."""
    return subprocess.run([sys.executable, *args, "-c", code], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name, expected", [("mxnet", True), ("mxnet.numpy", True), ("mxnet.gluon.nn", True),
                                            ("mxnet_extra", False), ("numpy", False), ("d2l.mxnet", False)])
def test_is_mxnet_matches_the_package_and_its_submodules_only(name: str, expected: bool) -> None:
    assert mxnet_compat.is_mxnet(name) is expected


def test_is_mxnet_rejects_a_name_that_is_not_a_str() -> None:
    with pytest.raises(TypeError, match="fullname"):
        mxnet_compat.is_mxnet(None)


def test_the_hook_passes_other_modules_by_and_is_installed_once() -> None:
    hook = mxnet_compat.MXNetImportHook()
    assert hook.find_spec("json") is None and hook.find_spec("numpy") is None
    before = list(sys.meta_path)
    try:
        mxnet_compat.remove_import_hook()  # the one the environment's .pth file installed, if any
        assert not any(getattr(f, "hybridize_mxnet_hook", False) for f in sys.meta_path)
        assert mxnet_compat.install_import_hook() is True
        assert mxnet_compat.install_import_hook() is False
        assert isinstance(sys.meta_path[0], mxnet_compat.MXNetImportHook)
        assert mxnet_compat.remove_import_hook() == 1
    finally:
        sys.meta_path[:] = before


@pytest.mark.skipif(not np.__version__.startswith("2."), reason="the names are missing only on NumPy 2")
def test_the_hook_puts_the_names_back_for_mxnet_and_its_later_submodules_only(tmp_path: Path) -> None:
    # A stand-in package named mxnet that reads removed names at import, as MXNet 1.9.1 does,
    # with a submodule imported only later: it runs wherever NumPy 2 does, MXNet or not.
    package = tmp_path / "mxnet"
    package.mkdir()
    (package / "__init__.py").write_text("import numpy as _np\nPZERO = _np.PZERO\n")
    (package / "later.py").write_text("import numpy as _np\nalltrue = _np.alltrue\n")
    code = (LOAD_COMPAT + f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "compat.install_import_hook()\n"
            "assert 'numpy' not in sys.modules, 'numpy imported before mxnet'\n"
            "import mxnet\n"
            "import numpy\n"
            "assert not hasattr(numpy, 'PZERO'), 'the names must go again after the import'\n"
            "import mxnet.later\n"
            "assert not hasattr(numpy, 'alltrue')\n"
            "assert mxnet.later.alltrue is numpy.all\n"
            "print(mxnet.PZERO, type(mxnet.__loader__).__name__, mxnet.__loader__.is_package('mxnet'))\n")
    result = run_fresh(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["0.0", "CompatLoader", "True"]
    without = run_fresh(REMOVE_HOOKS + f"sys.path.insert(0, {str(tmp_path)!r})\nimport mxnet\n")
    assert "np.PZERO` was removed" in without.stderr, "the stand-in must fail without the hook"


def test_without_mxnet_the_hook_does_nothing_and_imports_no_numpy() -> None:
    # -S: no site-packages, so neither MXNet nor NumPy can be found, as in an environment without them.
    code = (LOAD_COMPAT + "compat.install_import_hook()\n"
            "try:\n"
            "    import mxnet\n"
            "except ModuleNotFoundError as e:\n"
            "    print(type(e).__name__, e.name)\n"
            "import json, email.message\n"
            "print('numpy' in sys.modules)\n")
    result = run_fresh(code, "-S")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["ModuleNotFoundError", "mxnet", "False"]


@pytest.mark.skipif(not frameworks.is_installed("mxnet"), reason="MXNet is not installed here")
def test_with_the_hook_the_books_mxnet_cells_run_in_a_fresh_process(tmp_path: Path) -> None:
    code = (LOAD_COMPAT + "compat.install_import_hook()\n"
            f"EXPORT_PREFIX = {str(tmp_path / 'my_mlp')!r}\n" + BOOK_CELLS +
            "import numpy\n"
            "assert not hasattr(numpy, 'NINF'), 'numpy must be left as it was'\n"
            "assert numpy.allclose(y_eager.asnumpy(), y_hybrid.asnumpy(), atol=1e-6)\n"
            "print(type(x).__module__, y_hybrid.shape)\n")
    result = run_fresh(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["mxnet.numpy", "(1,", "2)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_mlp-0000.params", "my_mlp-symbol.json"]


@pytest.mark.skipif(not frameworks.is_installed("mxnet"), reason="MXNet is not installed here")
def test_without_the_hook_the_books_import_line_fails_on_numpy_2() -> None:
    if not np.__version__.startswith("2."):
        pytest.skip("MXNet 1.9.1 imports by itself on NumPy 1.23")
    code = REMOVE_HOOKS + "from mxnet import np, npx\n"
    result = run_fresh(code)
    assert result.returncode != 0 and "was removed in the NumPy 2.0 release" in result.stderr
