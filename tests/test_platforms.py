"""Issue 13: the pins install on every platform of the README's table, and a path with a space.

The markers in requirements.txt and constraints.txt must leave out exactly what has no wheel
(tools/platform_wheels.py checks PyPI; the facts are copied below), the freezer must keep them,
and a clone at a path with a space must get an environment where torch.compile links.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import freeze_constraints  # noqa: E402
import platform_wheels  # noqa: E402

# Marker environments of the README's platforms (each with Python 3.11, 3.12 and 3.13).
PLATFORMS = {
    "Linux x86-64": {"sys_platform": "linux", "platform_machine": "x86_64", "platform_system": "Linux"},
    "Linux aarch64": {"sys_platform": "linux", "platform_machine": "aarch64", "platform_system": "Linux"},
    "macOS Apple silicon": {"sys_platform": "darwin", "platform_machine": "arm64", "platform_system": "Darwin"},
    "macOS Intel": {"sys_platform": "darwin", "platform_machine": "x86_64", "platform_system": "Darwin"},
    "Windows x86-64": {"sys_platform": "win32", "platform_machine": "AMD64", "platform_system": "Windows"},
}
PYTHONS = ("3.11", "3.12", "3.13")
# What PyPI has no wheel of for these Pythons (python tools/platform_wheels.py, checked 2026-11-23).
NO_WHEEL = {
    "macOS Apple silicon": {"mxnet==1.9.1"},
    "macOS Intel": {"torch==2.13.0", "tensorflow==2.21.0", "jaxlib==0.10.2", "onnxruntime==1.32.0",
                    "argon2-cffi-bindings==26.2.0", "cryptography==50.0.2"},
    "Windows x86-64": {"mxnet==1.9.1"},
}
# Left out where their wheels are missing (jax goes with jaxlib).
LEFT_OUT = {
    "macOS Apple silicon": {"mxnet"},
    "macOS Intel": {"torch", "tensorflow", "jax", "jaxlib", "onnxruntime"},
    "Windows x86-64": {"mxnet"},
}
PIN_FILES = ("requirements.txt", "requirements-nodeps.txt")


def requirements(path: Path) -> list[Requirement]:
    """Parse the pin lines of a requirements or constraints file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Requirement(line) for line in lines if line.strip() and not line.startswith(("#", "-"))]


def installed_on(platform: str, reqs: list[Requirement], python: str = "3.11") -> dict[str, str]:
    """Return {name: 'name==version'} of the pins whose markers hold on `platform` with `python`."""
    env = {**PLATFORMS[platform], "python_version": python, "python_full_version": f"{python}.5",
           "implementation_name": "cpython", "os_name": "nt" if platform.startswith("Win") else "posix"}
    chosen: dict[str, str] = {}
    for req in reqs:
        if req.marker is None or req.marker.evaluate(env):
            assert req.name not in chosen, f"two pins of {req.name} hold on {platform}"
            chosen[req.name] = f"{req.name}{req.specifier}"
    return chosen


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("platform", PLATFORMS)
def test_markers_leave_out_exactly_what_has_no_wheel(platform: str, python: str) -> None:
    direct = [req for name in PIN_FILES for req in requirements(ROOT / name)]
    constraints = requirements(ROOT / "constraints.txt")
    pins = {**installed_on(platform, constraints, python), **installed_on(platform, direct, python)}
    assert not set(pins.values()) & NO_WHEEL.get(platform, set())
    names = {r.name for r in direct}
    assert names - LEFT_OUT.get(platform, set()) <= set(pins), f"a marker leaves out more than needed on {platform}"
    assert not LEFT_OUT.get(platform, set()) & set(pins), f"a package without a wheel is installed on {platform}"


def test_readme_platform_table_has_a_row_per_direct_pin() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, ver in [pin for f in PIN_FILES for pin in platform_wheels.pins(ROOT / f)]:
        assert re.search(rf"^\| {re.escape(name)} {re.escape(ver)} \|", readme, re.M), \
            f"README's platform table has no row for {name} {ver}"


@pytest.mark.parametrize("filenames, platform, expected", [
    (["mxnet-1.9.1-py3-none-manylinux2014_x86_64.whl", "mxnet-1.9.1-py3-none-macosx_10_13_x86_64.whl"],
     "macOS Apple silicon", "no"),
    (["mxnet-1.9.1-py3-none-manylinux2014_aarch64.whl"], "Linux aarch64", "yes"),
    (["torch-2.13.0-cp311-cp311-macosx_14_0_arm64.whl"], "macOS Apple silicon", "yes (macOS 14+)"),
    (["torch-2.13.0-cp312-cp312-win_amd64.whl"], "Windows x86-64", "no"),
    (["tqdm-4.67.1-py3-none-any.whl"], "Windows x86-64", "yes"),
    (["argon2_cffi_bindings-26.2.0.tar.gz"], "macOS Intel", "sdist"),
    (["numpy-1.23.4-cp311-cp311-win_amd64.whl"], "Windows x86-64", "no"),
])
def test_platform_wheels_reads_tags(filenames: list[str], platform: str, expected: str) -> None:
    version = re.search(r"-(\d[\w.]*?)(?:-|\.tar)", filenames[0]).group(1)
    version = "1.23.5" if filenames[0].startswith("numpy") else version
    assert platform_wheels.availability(filenames, version, platform_wheels.PLATFORMS[platform]) == expected


def test_freeze_keeps_markers() -> None:
    reqs = '-c constraints.txt\nmxnet==1.9.1; platform_machine == "x86_64"\nnumpy==1.23.5\n'
    old = ("# header\nsix==1.16.0\n"
           'gcs==0.37.0; sys_platform != "win32"\ngcs==0.31.0; sys_platform == "win32"\n'
           'other==1.0; sys_platform == "no-such-platform"\n')
    frozen = ["gcs==0.37.1", "mxnet==1.9.1", "numpy==1.23.5", "six==1.17.0", "-e /src"]
    lines = freeze_constraints.freeze(reqs, old, frozen)
    assert lines[:2] == freeze_constraints.HEADER
    assert lines[2:] == ['gcs==0.31.0; sys_platform == "win32"', 'gcs==0.37.1; sys_platform != "win32"',
                         'other==1.0; sys_platform == "no-such-platform"', "six==1.17.0"]


def test_freeze_of_this_environment_keeps_constraints_txt() -> None:
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    current = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    direct = "\n".join((ROOT / name).read_text() for name in PIN_FILES)
    lines = freeze_constraints.freeze(direct, "\n".join(current), frozen)
    marked = [line for line in current if ";" in line]
    assert marked and set(marked) <= set(lines)


# --- a clone at a path with a space --------------------------------------------------------

needs_make = pytest.mark.skipif(shutil.which("make") is None or sys.platform == "win32",
                                reason="needs make and a POSIX shell")


@needs_make
def test_make_keeps_the_environment_out_of_a_path_with_a_space(tmp_path: Path) -> None:
    clone = tmp_path / "OneDrive - University" / "hybridize"
    (clone / "tools").mkdir(parents=True)
    shutil.copy(ROOT / "Makefile", clone)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    env.pop("VENV", None)
    venv = subprocess.run(["make", "-s", "venv-path"], cwd=clone, env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    assert venv.startswith(f"{home}/.cache/hybridize/venv-") and " " not in venv
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(ROOT / "Makefile", plain)
    assert subprocess.run(["make", "-s", "venv-path"], cwd=plain, env=env, capture_output=True,
                          text=True, check=True).stdout.strip() == ".venv"


COMPILE = """
import helpers, torch
helpers.compile_path_note()
f = torch.compile(lambda x: (x * 2 + 1).relu())
print("compiled:", f(torch.ones(3)).tolist())
"""


def run_compile(python: str, clone: Path, cache: Path) -> subprocess.CompletedProcess:
    """Run a small torch.compile in `clone` with `python` and a fresh Inductor cache."""
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(cache), "TORCHINDUCTOR_COMPILE_THREADS": "1",
           "PYTHONPATH": str(clone)}
    return subprocess.run([python, "compile_check.py"], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture
def spaced_clone(tmp_path: Path) -> Path:
    """The minimum of a clone (helpers and a script) under a folder whose path has a space."""
    pytest.importorskip("torch")
    if sys.platform == "win32" or sys.prefix == sys.base_prefix:
        pytest.skip("needs a virtual environment on Linux or macOS")
    clone = tmp_path / "My Drive" / "hybridize"
    clone.mkdir(parents=True)
    shutil.copytree(ROOT / "helpers", clone / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    (clone / "compile_check.py").write_text(COMPILE)
    return clone


def test_torch_compile_from_a_clone_at_a_path_with_a_space(spaced_clone: Path, tmp_path: Path) -> None:
    # What `make` sets up there: the environment outside the clone, at a path without a space.
    assert " " not in sys.prefix
    result = run_compile(sys.executable, spaced_clone, tmp_path / "cache")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == ["compiled: [3.0, 3.0, 3.0]"]  # and no note


def test_environment_under_a_space_fails_and_the_note_says_so(spaced_clone: Path, tmp_path: Path) -> None:
    # The bug itself (PyTorch 2.13): the same environment reached through a path with a space.
    venv = spaced_clone.parent / "venv"
    venv.symlink_to(sys.prefix, target_is_directory=True)
    result = run_compile(str(venv / "bin" / "python"), spaced_clone, tmp_path / "cache")
    assert result.stdout.startswith("Note: torch.compile will fail here")
    assert result.returncode != 0 and "cannot find -ltorch" in result.stderr
