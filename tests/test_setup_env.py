"""The one set-up (tools/setup_env.py): paths on Windows and POSIX, Python versions, pip check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import setup_env  # noqa: E402


@pytest.mark.parametrize("platform, name, expected", [
    ("win32", "python", ("Scripts", "python.exe")),
    ("win32", "jupyter", ("Scripts", "jupyter.exe")),
    ("linux", "python", ("bin", "python")),
    ("darwin", "jupyter", ("bin", "jupyter")),
])
def test_venv_executable_uses_scripts_on_windows_and_bin_elsewhere(platform: str, name: str,
                                                                   expected: tuple[str, str]) -> None:
    path = setup_env.venv_executable(Path("env"), name, platform)
    assert path.parts[-2:] == expected
    assert path.parent.parent == Path("env")


def test_venv_executable_on_a_windows_path() -> None:
    path = setup_env.venv_executable(PureWindowsPath(r"C:\Users\ada\hyb\.venv"), "python", "win32")
    assert str(path).endswith(r"\.venv\Scripts\python.exe")


@pytest.mark.parametrize("name", ["", "bin/python", r"Scripts\python"])
def test_venv_executable_rejects_a_path_as_name(name: str) -> None:
    with pytest.raises(ValueError, match="name"):
        setup_env.venv_executable(Path("env"), name, "linux")


@pytest.mark.parametrize("version", [(3, 11), (3, 12), (3, 13)])
def test_supported_pythons_pass(version: tuple[int, int], tmp_path: Path) -> None:
    assert setup_env.interpreter_problems(version, "/usr/lib", tmp_path / "venv") == []


@pytest.mark.parametrize("version", [(3, 10), (3, 14), (2, 7)])
def test_other_pythons_are_refused_naming_all_three(version: tuple[int, int], tmp_path: Path) -> None:
    problems = setup_env.interpreter_problems(version, "/usr/lib", tmp_path / "venv")
    assert len(problems) == 1
    assert f"Python {version[0]}.{version[1]}" in problems[0]
    assert "3.11, 3.12 or 3.13" in problems[0]


def test_spaces_in_the_python_or_the_environment_are_refused(tmp_path: Path) -> None:
    spaced_lib = setup_env.interpreter_problems((3, 13), "/Users/ada/Application Support/python/lib",
                                                tmp_path / "venv")
    assert len(spaced_lib) == 1 and "path with a space" in spaced_lib[0]
    spaced_venv = setup_env.interpreter_problems((3, 13), "/usr/lib", tmp_path / "My Drive" / "venv")
    assert len(spaced_venv) == 1 and "make VENV=" in spaced_venv[0]


PIP_CHECK = """\
mxnet 1.9.1 has requirement numpy<2.0.0,>1.16.0, but you have numpy 2.4.6.
d2l 1.0.3 has requirement numpy==1.23.5, but you have numpy 2.4.6.
d2l 1.0.3 requires jupyter, which is not installed.
"""


def test_pip_check_accepts_exactly_the_two_known_exceptions() -> None:
    assert setup_env.pip_check_problems(PIP_CHECK) == []
    assert setup_env.pip_check_problems("No broken requirements found.\n") == []
    other = "tensorflow 2.21.0 has requirement protobuf>=5, but you have protobuf 4.0.\n"
    assert setup_env.pip_check_problems(PIP_CHECK + other) == [other.strip()]


def test_pip_check_of_this_environment_has_only_the_known_exceptions() -> None:
    if sys.prefix == sys.base_prefix:
        pytest.skip("runs in the project's virtual environment only")
    result = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True)
    assert setup_env.pip_check_problems(result.stdout + result.stderr) == []
    reported = {line.split()[0] for line in result.stdout.splitlines() if line.strip()}
    assert reported <= set(setup_env.KNOWN_EXCEPTIONS)


def test_nodeps_lines_leave_out_what_is_asked() -> None:
    text = "# comment\nmxnet==1.9.1; platform_machine == 'x86_64'\n\nd2l==1.0.3\n"
    assert setup_env.nodeps_lines(text, ()) == ["mxnet==1.9.1; platform_machine == 'x86_64'", "d2l==1.0.3"]
    assert setup_env.nodeps_lines(text, ("mxnet",)) == ["d2l==1.0.3"]


def test_the_fingerprint_follows_the_pins_and_the_configuration(tmp_path: Path) -> None:
    for name in setup_env.INPUTS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("a==1\n")
    base = setup_env.fingerprint(tmp_path, (), "3.13")
    assert setup_env.fingerprint(tmp_path, (), "3.13") == base
    assert setup_env.fingerprint(tmp_path, ("mxnet",), "3.13") != base
    assert setup_env.fingerprint(tmp_path, (), "3.12") != base
    (tmp_path / "requirements-nodeps.txt").write_text("a==2\n")
    assert setup_env.fingerprint(tmp_path, (), "3.13") != base


def test_the_script_refuses_an_unsupported_python_before_installing(tmp_path: Path) -> None:
    # This interpreter is supported; pretend it is not by asking for a space in the environment path.
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "setup_env.py"), "--venv",
                             str(tmp_path / "My Drive" / "venv")], capture_output=True, text=True)
    assert result.returncode != 0
    assert "path with a space" in result.stderr
    assert not (tmp_path / "My Drive").exists()


def test_python_3_13_0_gets_a_note_and_other_versions_none():
    assert "3.13.1" in setup_env.interpreter_notes((3, 13, 0))[0]
    assert setup_env.interpreter_notes((3, 13, 1)) == []
    assert setup_env.interpreter_notes((3, 11, 7)) == []


def test_the_mxnet_hook_is_written_once_and_matches_helpers(tmp_path: Path) -> None:
    from helpers import mxnet_compat
    written = setup_env.install_mxnet_hook(tmp_path)
    module, pth = tmp_path / "hybridize_mxnet_compat.py", tmp_path / "hybridize_mxnet_compat.pth"
    assert sorted(written) == sorted([module, pth])
    assert setup_env.MXNET_HOOK_MODULE == mxnet_compat.HOOK_MODULE
    assert pth.read_text(encoding="utf-8") == mxnet_compat.PTH_LINE
    assert module.read_text(encoding="utf-8").endswith(Path(mxnet_compat.__file__).read_text(encoding="utf-8"))
    assert setup_env.install_mxnet_hook(tmp_path) == [], "a second run with nothing changed writes nothing"
    with pytest.raises(ValueError, match="site_dir"):
        setup_env.install_mxnet_hook(tmp_path / "missing")


def test_the_pth_file_installs_the_hook_at_start_up_without_importing_numpy(tmp_path: Path) -> None:
    setup_env.install_mxnet_hook(tmp_path)
    # -S, then site.addsitedir: what Python's start-up does with a site-packages folder and its .pth files.
    code = (f"import site, sys; site.addsitedir({str(tmp_path)!r})\n"
            "hook = sys.meta_path[0]\n"
            "print(type(hook).__name__, sys.modules[type(hook).__module__].__file__.startswith(sys.argv[1]),\n"
            "      'numpy' in sys.modules, 'typing' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-S", "-c", code, str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["MXNetImportHook", "True", "False", "False"]


def test_this_environment_runs_the_books_mxnet_import_line() -> None:
    if sys.prefix == sys.base_prefix:
        pytest.skip("runs in the project's virtual environment only")
    from helpers import frameworks
    if not frameworks.is_installed("mxnet"):
        pytest.skip("MXNet is not installed here (the hook then does nothing)")
    code = ("import sys\n"
            "assert 'numpy' not in sys.modules\n"
            "from mxnet import np, npx\n"
            "from mxnet.gluon import nn\n"
            "npx.set_np()\n"
            "print(float(np.ones((2, 3)).sum()))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, ("run `python tools/setup_env.py` to install the MXNet import hook\n"
                                    + result.stderr[-2000:])
    assert result.stdout.split() == ["6.0"]


def test_lab_shows_a_student_view_unless_instructor():
    student = setup_env.lab_environment(environ={"JUPYTER_CONFIG_PATH": "/elsewhere"})
    first, *rest = student["JUPYTER_CONFIG_PATH"].split(os.pathsep)
    assert Path(first) == ROOT / "jupyter" / "student" and rest == ["/elsewhere"]
    assert (ROOT / "jupyter" / "student" / "labconfig" / "page_config.json").exists()
    instructor = setup_env.lab_environment(instructor=True, environ={})
    assert "JUPYTER_CONFIG_PATH" not in instructor
