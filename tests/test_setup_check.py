"""helpers.check_setup and helpers.compile_path_note (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import helpers
from helpers import setup_check


def write_notebook(folder: Path, name: str, first_code: str) -> None:
    """Write a minimal notebook whose first code cell is `first_code`."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
             {"cell_type": "code", "metadata": {}, "source": [first_code], "outputs": [],
              "execution_count": None}]
    (folder / f"{name}.ipynb").write_text(json.dumps({"cells": cells, "metadata": {},
                                                      "nbformat": 4, "nbformat_minor": 5}))


@pytest.fixture
def notebooks(tmp_path: Path) -> Path:
    """Three notebooks: no framework, MXNet required, torch required with optional others."""
    write_notebook(tmp_path, "01_plain", "import helpers\n")
    write_notebook(tmp_path, "05_mx", 'import helpers\nhelpers.require("mxnet")\n')
    write_notebook(tmp_path, "06_all", 'import helpers\nhelpers.require("torch")\n'
                                       'OPTIONAL = ("tensorflow", "mxnet")\n')
    (tmp_path / "README.md").write_text("not a notebook")
    return tmp_path


def test_notebook_needs_reads_required_and_optional(notebooks: Path) -> None:
    needs = {n.name: (n.required, n.optional) for n in setup_check.notebook_needs(notebooks)}
    assert needs == {"01_plain": ([], []), "05_mx": (["mxnet"], []),
                     "06_all": (["torch"], ["tensorflow", "mxnet"])}


def test_notebook_needs_of_the_real_notebooks() -> None:
    needs = {n.name[:2]: n.required for n in setup_check.notebook_needs()}
    assert needs["05"] == ["mxnet"] and needs["01"] == []


def test_notebook_needs_names_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="folder"):
        setup_check.notebook_needs(tmp_path / "nowhere")


def test_report_with_everything_installed(notebooks: Path) -> None:
    report = setup_check.setup_report(notebooks, installed=lambda fw: True)
    assert report.splitlines()[1] == "Run fully here: 01 05 06."
    assert "Skipped" not in report and "not installed" not in report


def test_report_without_mxnet_where_it_has_no_wheel(notebooks: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(setup_check, "pinned_here", lambda fw: False)
    report = setup_check.setup_report(notebooks, installed=lambda fw: fw != "mxnet")
    lines = report.splitlines()
    assert lines[0].endswith("; not installed: mxnet.")
    assert "+" not in lines[0]  # versions without local labels such as +cpu
    assert lines[1:4] == ["Run fully here: 01.",
                          "Run without mxnet: 06 (leaves its rows out).",
                          "Skipped here: 05 (needs mxnet)."]
    assert lines[4].startswith(f"mxnet has no wheel for {setup_check.platform_name()}:")


def test_report_says_make_lab_where_the_pins_would_install_it(notebooks: Path) -> None:
    report = setup_check.setup_report(notebooks, installed=lambda fw: fw not in ("mxnet", "jax"))
    # jax is in no notebook's first cell here: nothing to say about it
    assert "To add mxnet: run `make lab`" in report and "To add jax" not in report


def test_check_setup_prints_and_returns_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert helpers.check_setup() is None
    out = capsys.readouterr().out
    assert out.startswith("Installed: ") and "Run fully here: " in out


@pytest.mark.parametrize("line, expected", [
    ('mxnet==1.9.1; sys_platform == "no-such-platform"', False),
    ('mxnet==1.9.1; sys_platform != "no-such-platform"', True),
    ("mxnet==1.9.1", True),
    ("torch==2.13.0", True),
])
def test_pinned_here_follows_the_marker(tmp_path: Path, line: str, expected: bool) -> None:
    path = tmp_path / "requirements.txt"
    path.write_text(f"# pins\n-c constraints.txt\n{line}\nnumpy==1.23.5\n")
    assert setup_check.pinned_here("mxnet", path) is expected


def test_pinned_here_without_requirements_file(tmp_path: Path) -> None:
    assert setup_check.pinned_here("mxnet", tmp_path / "missing.txt") is True


def fake_paths(monkeypatch: pytest.MonkeyPatch, torch_lib: str | None, libdir: str) -> None:
    """Pretend torch's lib folder and Python's LIBDIR are these."""
    monkeypatch.setattr(setup_check.sys, "platform", "linux")
    monkeypatch.setattr(setup_check, "_torch_lib_dir", lambda: torch_lib)
    monkeypatch.setattr(setup_check.sysconfig, "get_config_var",
                        lambda name: libdir if name == "LIBDIR" else None)


def test_compile_path_note_silent_without_a_space(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    fake_paths(monkeypatch, "/home/ada/hyb/.venv/lib/python3.11/site-packages/torch/lib", "/usr/lib")
    assert setup_check.compile_path_problem() is None
    assert helpers.compile_path_note() is None
    assert capsys.readouterr().out == ""


def test_compile_path_note_for_an_environment_under_a_space(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fake_paths(monkeypatch, "/Users/ada/My Drive/hyb/.venv/lib/python3.11/site-packages/torch/lib",
               "/usr/lib")
    helpers.compile_path_note()
    out = capsys.readouterr().out
    assert "cannot find -ltorch" in out and "My Drive" in out and "make lab" in out


def test_compile_path_note_for_a_python_under_a_space(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_paths(monkeypatch, "/home/ada/venv/lib/python3.11/site-packages/torch/lib",
               "/Users/ada/Library/Application Support/uv/python/cpython-3.11/lib")
    note = setup_check.compile_path_problem()
    assert note is not None and "Python's library folder" in note and "PYTHON=" in note


def test_compile_path_note_silent_without_torch_or_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_paths(monkeypatch, None, "/Users/ada/Application Support/lib")
    assert setup_check.compile_path_problem() is None
    fake_paths(monkeypatch, "C:/Users/Ada Lovelace/venv/Lib/site-packages/torch/lib", "")
    monkeypatch.setattr(setup_check.sys, "platform", "win32")
    assert setup_check.compile_path_problem() is None


def test_compile_path_note_here_matches_the_paths() -> None:
    # This project's environment: a note exactly when one of the two folders has a space.
    torch_lib = setup_check._torch_lib_dir()
    libdir = setup_check.sysconfig.get_config_var("LIBDIR") or ""
    spaced = torch_lib is not None and any(" " in p for p in (torch_lib, libdir))
    assert (setup_check.compile_path_problem() is not None) is spaced
