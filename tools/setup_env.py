"""Set up the project's environment and open JupyterLab: the one set-up, for make and for Windows.

    python tools/setup_env.py            # create .venv and install the pins (first time only)
    python tools/setup_env.py lab        # the same, then open JupyterLab on the notebooks
    python tools/setup_env.py --without mxnet --venv .venv-nomxnet

Run it with the Python you want the environment to use: 3.11, 3.12 or 3.13 (on Windows,
`py -3.13 tools\\setup_env.py lab`; `make` picks the newest of the three on the PATH). The
steps: a virtual environment; `requirements.txt` (exact pins, `constraints.txt`); then MXNet and
d2l from `requirements-nodeps.txt` *without their own requirements* (MXNet 1.9.1 declares
numpy<2 and d2l 1.0.3 pins numpy 1.23.5; both run on NumPy 2, see helpers/mxnet_compat.py);
this package in editable mode; JupyterLab's settings; the import hook that lets a plain
`import mxnet` run on NumPy 2 (`install_mxnet_hook`); and `pip check`, which may report those
two packages' pins and nothing else. A stamp in the environment records what was installed, so
a second run with unchanged pins installs nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path, PurePath
from typing import Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
SUPPORTED = ((3, 11), (3, 12), (3, 13))
# Installed with --no-deps; `pip check` reports their pins, and only theirs is accepted.
KNOWN_EXCEPTIONS = ("mxnet", "d2l")
INPUTS = ("requirements.txt", "constraints.txt", "requirements-nodeps.txt", "pyproject.toml",
          "jupyter/overrides.json")
STAMP = ".installed"
# The module (a copy of helpers/mxnet_compat.py) and .pth file that make a plain `import mxnet` work.
MXNET_HOOK_MODULE = "hybridize_mxnet_compat"


def is_windows(platform: Optional[str] = None) -> bool:
    """Return True on Windows (or when `platform`, a sys.platform value, is Windows)."""
    return (sys.platform if platform is None else platform) == "win32"


def venv_executable(venv: PurePath, name: str = "python", platform: Optional[str] = None) -> PurePath:
    """Return the path of a program in a virtual environment: Scripts\\NAME.exe or bin/NAME."""
    if not name or any(sep in name for sep in "/\\"):
        raise ValueError(f"name must be a program name without a folder, got {name!r}")
    base = venv if isinstance(venv, PurePath) else Path(venv)
    if is_windows(platform):
        return base / "Scripts" / f"{name}.exe"
    return base / "bin" / name


def supported_names() -> str:
    """Return 'Python 3.11, 3.12 or 3.13'."""
    versions = [f"{major}.{minor}" for major, minor in SUPPORTED]
    return f"Python {', '.join(versions[:-1])} or {versions[-1]}"


def interpreter_problems(version: tuple[int, int], libdir: str, venv: Path) -> list[str]:
    """Return what stops this interpreter or environment path from working (empty when fine)."""
    problems = []
    if tuple(version[:2]) not in SUPPORTED:
        problems.append(f"this is Python {version[0]}.{version[1]}; the project needs {supported_names()}. "
                        "Run this script with one of them (make PYTHON=python3.13, py -3.13 ...).")
    # PyTorch 2.13's torch.compile passes these folders to the C++ linker unquoted (fixed upstream by
    # pytorch/pytorch#191010): a space in either breaks every compiled cell with "cannot find -ltorch".
    if libdir and any(c.isspace() for c in libdir):
        problems.append(f"this Python is installed under a path with a space ({libdir}); torch.compile "
                        "(PyTorch 2.13) cannot link there. Install Python under a path without spaces "
                        "(pyenv, Homebrew, or `UV_PYTHON_INSTALL_DIR=~/.uv-python uv python install 3.13`).")
    if any(c.isspace() for c in str(Path(venv).absolute())):
        problems.append(f"the environment would be created at '{Path(venv).absolute()}', a path with a space, "
                        "where torch.compile (PyTorch 2.13) cannot link. Choose a folder without spaces: "
                        "make VENV=/path/without/spaces/venv (or --venv).")
    return problems


def interpreter_notes(version: Sequence[int]) -> list[str]:
    """Return advice about this interpreter that does not stop the set-up (empty when none)."""
    if tuple(version[:3]) == (3, 13, 0):
        # torch/_dynamo/guards.py (2.13): CPython 3.13.0 breaks dict versions (python/cpython#125608,
        # fixed in 3.13.1), so PyTorch's guards check more and warn on every compile; helpers hides it.
        return ["Python 3.13.0: torch.compile's guards run slower on it than on 3.13.1 or later "
                "(PyTorch says so in a warning that the notebooks hide); a newer 3.13 is better."]
    return []


def pip_check_problems(output: str, known: Sequence[str] = KNOWN_EXCEPTIONS) -> list[str]:
    """Return the lines of `pip check` output that are not about the known --no-deps packages."""
    problems = []
    for line in output.splitlines():
        line = line.strip()
        if not line or line.startswith("No broken requirements"):
            continue
        package = line.split()[0].lower()
        if package not in known:
            problems.append(line)
    return problems


def fingerprint(root: Path, without: Sequence[str], python: str) -> str:
    """Return a hash of everything the installation depends on (the clone's place too: -e)."""
    digest = hashlib.sha256(f"{python}|{','.join(sorted(without))}|{Path(root).resolve()}".encode())
    for name in INPUTS:
        path = root / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b""))
    return digest.hexdigest()


def nodeps_lines(text: str, without: Sequence[str]) -> list[str]:
    """Return the pin lines of requirements-nodeps.txt, less the packages in `without`."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        name = stripped.split("==")[0].split(";")[0].strip().lower()
        if name not in without:
            lines.append(stripped)
    return lines


def run(*args: object) -> None:
    """Run a command, echoing it; stop the set-up if it fails."""
    command = [str(a) for a in args]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def pip(python: Path, *args: object) -> None:
    """Run pip of the environment, quietly."""
    run(python, "-m", "pip", "install", "--disable-pip-version-check", "-q", *args)


def site_packages(python: Path) -> Path:
    """Return the site-packages folder of the environment whose Python is `python`."""
    done = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def install_mxnet_hook(site_dir: Path) -> list[Path]:
    """Write into `site_dir` a copy of helpers/mxnet_compat.py and a .pth file that installs its hook.

    Every Python started from that environment then imports `mxnet` (only `mxnet`) with the
    names NumPy 2 removed put back for the import, so the book's `from mxnet import np, npx`
    works; where MXNet is absent the hook does nothing. Return the files written (none when
    they were already up to date).
    """
    site_dir = Path(site_dir)
    if not site_dir.is_dir():
        raise ValueError(f"site_dir must be an existing folder, got {str(site_dir)!r}")
    source = (ROOT / "helpers" / "mxnet_compat.py").read_text(encoding="utf-8")
    name = MXNET_HOOK_MODULE
    files = {site_dir / f"{name}.py": f"# Written by tools/setup_env.py from helpers/mxnet_compat.py: edit that file.\n{source}",
             site_dir / f"{name}.pth": f"import {name}; {name}.install_import_hook()\n"}
    written = []
    for path, text in files.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def setup(venv: Path, without: Sequence[str] = ()) -> Path:
    """Create or update the environment at `venv`; return its Python."""
    version = sys.version_info[:2]
    problems = interpreter_problems(version, "" if is_windows() else sysconfig.get_config_var("LIBDIR") or "",
                                    venv)
    if problems:
        raise SystemExit("error: " + "\nerror: ".join(problems))
    for note in interpreter_notes(sys.version_info):
        print("note:", note)
    python = venv_executable(venv)
    stamp = Path(venv) / STAMP
    want = fingerprint(ROOT, without, f"{version[0]}.{version[1]}")
    if python.exists():
        have = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True).stdout.strip()
        if have != f"{version[0]}.{version[1]}":
            print(f"{venv} holds Python {have or 'unknown'}: recreating it with Python {version[0]}.{version[1]}")
            shutil.rmtree(venv)
        elif stamp.is_file() and stamp.read_text().strip() == want:
            install_mxnet_hook(site_packages(python))  # cheap, and follows helpers/mxnet_compat.py
            return python
    if not python.exists():
        run(sys.executable, "-m", "venv", venv)
    print(f"Installing the pinned environment into {venv} (a few minutes the first time)...", flush=True)
    pip(python, "-r", ROOT / "requirements.txt")
    nodeps = nodeps_lines((ROOT / "requirements-nodeps.txt").read_text(encoding="utf-8"), without)
    if nodeps:
        # MXNet and d2l without their pins (numpy<2, numpy==1.23.5, ...): see requirements-nodeps.txt.
        pip(python, "--no-deps", *nodeps)
    pip(python, "--no-deps", "-e", ROOT)
    settings = Path(venv) / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "jupyter" / "overrides.json", settings / "overrides.json")
    install_mxnet_hook(site_packages(python))
    check = subprocess.run([str(python), "-m", "pip", "check"], capture_output=True, text=True)
    problems = pip_check_problems(check.stdout + check.stderr)
    if problems:
        raise SystemExit("error: pip check found broken requirements:\n" + "\n".join(problems))
    print(f"pip check: only the known pins of {' and '.join(KNOWN_EXCEPTIONS)} (installed without them)")
    stamp.write_text(want + "\n")
    return python


def lab_environment(instructor: bool = False, environ: Optional[dict] = None) -> dict:
    """The environment JupyterLab runs in: a student's view (jupyter/student/: none of nbgrader's
    instructor tools) unless `instructor`, which keeps the formgrader and Create Assignment."""
    env = dict(os.environ if environ is None else environ)
    if not instructor:
        paths = [str(ROOT / "jupyter" / "student")] + [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p]
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(paths)
    return env


def lab(venv: Path, port: int, instructor: bool = False) -> None:
    """Open JupyterLab on the notebooks, listening on 127.0.0.1 with a fresh token."""
    token = secrets.token_urlsafe(24)
    view = "an instructor's view, with nbgrader's tools" if instructor else "a student's view (INSTRUCTOR=1 for nbgrader's tools)"
    print(f"JupyterLab will listen on 127.0.0.1 only, {view}. Open: http://127.0.0.1:{port}/lab?token={token}", flush=True)
    command = [str(venv_executable(venv, "jupyter")), "lab", "--ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={ROOT / 'notebooks'}"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    sys.exit(subprocess.call(command, env=lab_environment(instructor)))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Parse the command line and run the set-up (and JupyterLab)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("setup", "lab"), default="setup")
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv", help="where the environment lives")
    parser.add_argument("--without", action="append", default=[], choices=("mxnet",),
                        help="leave a package out (the configuration without MXNet)")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--instructor", action="store_true", help="lab: keep nbgrader's instructor tools")
    args = parser.parse_args(argv)
    setup(args.venv, args.without)
    if args.command == "lab":
        lab(args.venv, args.port, args.instructor)


if __name__ == "__main__":
    main()
