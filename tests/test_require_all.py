"""HYBRID_REQUIRE_ALL=1: a notebook's missing or broken framework fails where the requirements install it."""

import os

import pytest

import conftest
from conftest import decide, importable, platform_frameworks

LINUX = {"sys_platform": "linux", "platform_machine": "x86_64"}
APPLE_SILICON = {"sys_platform": "darwin", "platform_machine": "arm64"}
INTEL_MAC = {"sys_platform": "darwin", "platform_machine": "x86_64"}
WINDOWS = {"sys_platform": "win32", "platform_machine": "AMD64"}


def test_markers_say_where_each_framework_is_installed():
    everything = {"torch", "tensorflow", "jax", "onnxruntime", "mxnet"}
    assert platform_frameworks(LINUX) == everything
    assert platform_frameworks(APPLE_SILICON) == everything - {"mxnet"}
    assert platform_frameworks(WINDOWS) == everything - {"mxnet"}
    assert platform_frameworks(INTEL_MAC) == {"mxnet"}


def ok(name):
    return True, ""


def test_without_require_all_a_missing_framework_is_skipped():
    action, reason = decide(["torch", "mxnet"], False, {"torch", "mxnet"}, lambda n: n != "mxnet", ok)
    assert action == "skip" and "mxnet not installed" in reason
    assert decide(["torch"], False, set(), lambda n: True, ok) == (None, None)


def test_require_all_fails_a_framework_the_platform_installs():
    action, reason = decide(["torch", "mxnet"], True, {"torch", "mxnet"}, lambda n: n != "mxnet", ok)
    assert action == "fail" and "mxnet not installed" in reason and "HYBRID_REQUIRE_ALL=1" in reason
    # MXNet has no wheel for Apple silicon: still a skip there.
    action, reason = decide(["mxnet"], True, platform_frameworks(APPLE_SILICON), lambda n: False, ok)
    assert action == "skip" and "Apple silicon" in reason


def test_require_all_fails_a_framework_that_is_found_but_does_not_import():
    def broken_torch(name):
        return (False, "ImportError: libtorch_cpu.so: cannot open shared object file") if name == "torch" else (True, "")
    action, reason = decide(["torch"], True, {"torch"}, lambda n: True, broken_torch)
    assert action == "fail" and "torch installed but does not import" in reason and "libtorch_cpu.so" in reason
    # Without HYBRID_REQUIRE_ALL nothing is imported up front: the notebook's own cells fail.
    assert decide(["torch"], False, {"torch"}, lambda n: True, broken_torch) == (None, None)


def test_importable_sees_a_broken_install(tmp_path):
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('libtorch_cpu.so: cannot open shared object file')\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    good, why = importable("torch", env=env)
    assert not good and why == "ImportError: libtorch_cpu.so: cannot open shared object file"


def test_collection_fails_the_cells_under_require_all(pytester, monkeypatch):
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import helpers\nhelpers.require('mxnet')"),
                                         nbformat.v4.new_code_cell("print(2)")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(pytester.path / "needs_mxnet.ipynb"))
    pytester.makeconftest((conftest.PROJECT / "conftest.py").read_text())
    monkeypatch.setattr(conftest.frameworks, "is_installed", lambda name: name != "mxnet")
    monkeypatch.setenv("HYBRID_REQUIRE_ALL", "1")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env")
    if platform_frameworks() >= {"mxnet"}:
        result.assert_outcomes(errors=2)   # failed in setup: pytest exits with 1, as for a failure
        result.stdout.fnmatch_lines(["*HYBRID_REQUIRE_ALL=1: mxnet not installed*"])
    else:   # this machine's markers do not install MXNet (e.g. Apple silicon): still skipped
        result.assert_outcomes(skipped=2)
    monkeypatch.setenv("HYBRID_WITHOUT", "mxnet")      # an environment built without MXNet on purpose
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env").assert_outcomes(skipped=2)
    monkeypatch.delenv("HYBRID_WITHOUT")
    monkeypatch.setenv("HYBRID_REQUIRE_ALL", "0")
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env").assert_outcomes(skipped=2)


pytest_plugins = ["pytester"]
