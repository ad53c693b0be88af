"""Unit tests of helpers.frameworks and helpers.files (no notebook needed)."""

import json
import random
import subprocess
import sys

import numpy as np
import pytest

import helpers
from conftest import required_frameworks
from helpers import frameworks


def test_import_helpers_loads_no_framework():
    code = ("import sys, helpers; heavy = [m for m in ('torch', 'tensorflow', 'mxnet', 'jax', "
            "'onnxruntime', 'matplotlib', 'numpy') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_versions_lists_every_framework():
    found = helpers.versions()
    assert set(found) == set(helpers.FRAMEWORKS)
    for name in helpers.installed():
        assert isinstance(found[name], str) and found[name][0].isdigit()


def test_unknown_framework_is_named_in_the_error():
    with pytest.raises(ValueError, match="framework must be one of .* got 'pytorch'"):
        helpers.is_installed("pytorch")
    with pytest.raises(ValueError, match="framework"):
        helpers.device("theano")
    with pytest.raises(ValueError, match="framework"):
        helpers.seed_everything(0, frameworks=["caffe"])
    with pytest.raises(TypeError, match="framework"):
        helpers.version(3)


def test_missing_framework_reason_explains_platform(monkeypatch):
    monkeypatch.setattr(frameworks, "is_installed", lambda name: name != "mxnet")
    with pytest.raises(ModuleNotFoundError, match="mxnet not installed.*Apple silicon"):
        frameworks.require("torch", "mxnet")
    with pytest.raises(ValueError, match="frameworks"):
        frameworks.require()


def test_seed_everything_repeats_python_and_numpy():
    helpers.seed_everything(7)
    first = (random.random(), np.random.rand())
    helpers.seed_everything(7)
    assert (random.random(), np.random.rand()) == first


def test_seed_everything_rejects_bad_seed():
    with pytest.raises(TypeError, match="seed"):
        helpers.seed_everything("0")
    with pytest.raises(ValueError, match="seed"):
        helpers.seed_everything(-1)


@pytest.mark.skipif(not helpers.is_installed("torch"), reason="torch is not installed")
def test_seed_everything_seeds_torch():
    import torch
    assert "torch" in helpers.seed_everything(3, frameworks=["torch"])
    a = torch.rand(3)
    helpers.seed_everything(3, frameworks=["torch"])
    assert torch.equal(a, torch.rand(3))


@pytest.mark.skipif(not helpers.is_installed("torch"), reason="torch is not installed")
def test_torch_device_and_sync_match_the_machine():
    import torch
    dev = helpers.device("torch")
    assert dev.type == ("cuda" if torch.cuda.is_available() else "cpu")
    sync = helpers.synchronizer("torch")
    assert sync() is None
    assert (sync is torch.cuda.synchronize) == torch.cuda.is_available()


def test_hardware_summary_names_cpu_cores_and_gpu(monkeypatch):
    monkeypatch.setattr(frameworks, "gpu_names", lambda: [])
    line = helpers.hardware_summary()
    assert line.startswith("Hardware: ")
    assert f", {helpers.usable_cores()} cores, no GPU" in line
    monkeypatch.setattr(frameworks, "gpu_names", lambda: ["NVIDIA H100 80GB HBM3"])
    assert helpers.hardware_summary().endswith("cores, NVIDIA H100 80GB HBM3")


def test_scratch_dir_and_list_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HYBRID_SCRATCH", str(tmp_path))
    folder = helpers.scratch_dir("models")
    assert folder == tmp_path / "models" and folder.is_dir()
    (folder / "b.params").write_bytes(b"\0" * 2048)
    (folder / "a.json").write_text("{}")
    assert helpers.list_files(folder) == [("a.json", 2), ("b.params", 2048)]
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["a.json", "2", "B"] and out[1].split() == ["b.params", "2.0", "KiB"]
    with pytest.raises(ValueError, match="parts"):
        helpers.scratch_dir("../outside")
    with pytest.raises(ValueError, match="folder"):
        helpers.list_files(tmp_path / "missing")


@pytest.mark.parametrize("n, text", [(0, "0 B"), (1023, "1023 B"), (3277, "3.2 KiB"),
                                     (658_000, "642.6 KiB"), (5 * 2**20, "5.0 MiB")])
def test_format_size(n, text):
    assert helpers.format_size(n) == text


def test_required_frameworks_read_from_first_code_cell(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# Title"], "metadata": {}},
        {"cell_type": "code", "source": ["import helpers\n", "helpers.require('torch', \"mxnet\")"],
         "metadata": {}, "outputs": [], "execution_count": None},
        {"cell_type": "code", "source": ["helpers.require('jax')"], "metadata": {}, "outputs": [],
         "execution_count": None},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    assert required_frameworks(path) == ["torch", "mxnet"]


def test_run_python_returns_stdout_of_a_fresh_process():
    assert helpers.run_python("import sys; print('helpers' in sys.modules)") == "False\n"


def test_run_python_reports_failure_and_bad_code():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        helpers.run_python("1 / 0")
    with pytest.raises(ValueError, match="code"):
        helpers.run_python("  ")


def test_import_tensorflow_loads_triton_first_where_it_is_installed(monkeypatch):
    # TensorFlow >= 2.20 makes a later Triton crash (tensorflow/tensorflow#124205): Triton goes first.
    loaded = []
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    monkeypatch.setattr(frameworks.importlib.util, "find_spec", lambda name: object() if name == "triton" else None)
    monkeypatch.setattr(frameworks.importlib, "import_module", lambda name: loaded.append(name) or name)
    assert frameworks.import_tensorflow() == "tensorflow"
    assert loaded == ["triton", "tensorflow"]
    loaded.clear()
    monkeypatch.setattr(frameworks.importlib.util, "find_spec", lambda name: None)
    frameworks.import_tensorflow()
    assert loaded == ["tensorflow"]  # no Triton (the CPU build of PyTorch): TensorFlow alone
