"""A start-up check for students: which frameworks are here and what that means for the notebooks.

Each notebook names the frameworks it needs in its first code cell, ``helpers.require(...)``;
frameworks named elsewhere in that cell (e.g. 06's optional ones) are optional. The check reads
the notebook files, so it stays right when a notebook changes. Nothing is imported.
"""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import sysconfig
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Optional

from .frameworks import FRAMEWORKS, is_installed, version

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
REQUIRE_CALL = re.compile(r"helpers\.require\(([^)]*)\)")
QUOTED = re.compile(r"""["']([A-Za-z_]\w*)["']""")


@dataclass
class NotebookNeeds:
    """What one notebook needs: frameworks it requires and frameworks it uses when present."""

    name: str
    required: list[str] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)


def notebook_needs(folder: Optional[Path] = None) -> list[NotebookNeeds]:
    """Read the first code cell of each numbered notebook in `folder` (default: notebooks/)."""
    folder = NOTEBOOKS if folder is None else Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"folder must be a folder of notebooks, got {str(folder)!r}")
    needs = []
    for path in sorted(folder.glob("[0-9]*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        source = next(("".join(c["source"]) for c in cells if c["cell_type"] == "code"), "")
        required = [n for call in REQUIRE_CALL.findall(source) for n in QUOTED.findall(call)]
        named = [n for n in QUOTED.findall(source) if n in FRAMEWORKS]
        optional = [n for n in dict.fromkeys(named) if n not in required]
        needs.append(NotebookNeeds(path.stem, required, optional))
    return needs


def platform_name() -> str:
    """Return this platform in the words of the README's table."""
    machine = platform.machine().lower()
    if sys.platform == "darwin":
        return "macOS on Apple silicon" if machine == "arm64" else "macOS on Intel"
    if sys.platform == "win32":
        return "Windows"
    return f"Linux {machine}" if sys.platform.startswith("linux") else f"{sys.platform} {machine}"


PIN_FILES = ("requirements.txt", "requirements-nodeps.txt")


def pinned_here(framework: str, requirements: Optional[Path] = None) -> bool:
    """Return False when a pin file's marker leaves `framework` out on this platform.

    By default both pin files are read: requirements.txt and requirements-nodeps.txt (MXNet).
    """
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name
    paths = [ROOT / name for name in PIN_FILES] if requirements is None else [Path(requirements)]
    lines = [line for path in paths if path.is_file()
             for line in path.read_text(encoding="utf-8").splitlines()]
    dist = canonicalize_name(FRAMEWORKS[framework][1])
    for line in lines:
        if line.strip().startswith(("#", "-")) or not line.strip():
            continue
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) == dist and req.marker is not None:
            return bool(req.marker.evaluate())
    return True


def _public(version_string: Optional[str]) -> str:
    """Return a version without its local label ("2.13.0+cpu" -> "2.13.0"), the same on every platform."""
    return (version_string or "unknown").split("+", 1)[0]


def setup_report(folder: Optional[Path] = None,
                 installed: Optional[Callable[[str], bool]] = None) -> str:
    """Return, in a few lines, which frameworks are here, which notebooks run fully, and what to do."""
    installed = is_installed if installed is None else installed
    present = [fw for fw in FRAMEWORKS if installed(fw)]
    missing = [fw for fw in FRAMEWORKS if fw not in present]
    needs = notebook_needs(folder)
    short = {n.name: n.name.split("_", 1)[0] for n in needs}
    full = [n for n in needs if all(fw in present for fw in n.required + n.optional)]
    partial = [n for n in needs if n not in full and all(fw in present for fw in n.required)]
    skipped = [n for n in needs if not all(fw in present for fw in n.required)]
    lines = ["Installed: " + (", ".join(f"{fw} {_public(version(fw))}" for fw in present)
                              or "no framework")
             + (f"; not installed: {', '.join(missing)}." if missing else ".")]
    lines.append("Run fully here: " + (" ".join(short[n.name] for n in full) or "none") + ".")
    for n in partial:
        left_out = [fw for fw in n.optional if fw not in present]
        lines.append(f"Run without {', '.join(left_out)}: {short[n.name]} (leaves its rows out).")
    for n in skipped:
        lacking = [fw for fw in n.required if fw not in present]
        lines.append(f"Skipped here: {short[n.name]} (needs {', '.join(lacking)}).")
    for fw in missing:
        if not any(fw in n.required + n.optional for n in needs):
            continue
        if pinned_here(fw):
            lines.append(f"To add {fw}: run `make lab` in the project folder; it installs the "
                         "pinned environment.")
        else:
            lines.append(f"{fw} has no wheel for {platform_name()}: read those notebooks' stored "
                         "outputs, or run them on Linux, JupyterHub or Binder (README, Platforms).")
    return "\n".join(lines)


def check_setup() -> None:
    """Print which frameworks are installed, which notebooks will run fully, and what to do."""
    print(setup_report())


def _torch_lib_dir() -> Optional[str]:
    """Return torch's lib folder without importing torch, or None when torch is missing."""
    spec = find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(list(spec.submodule_search_locations)[0], "lib")


def compile_path_problem() -> Optional[str]:
    """Return a note when torch.compile cannot link here because of a space in a path, else None.

    PyTorch 2.13's Inductor passes its -L folders (torch/lib, Python's library folder) to the
    C++ compiler unquoted on Linux and macOS (fixed upstream by pytorch/pytorch#191010).
    """
    if sys.platform == "win32":
        return None  # Windows quotes them (/LIBPATH:"...")
    torch_lib = _torch_lib_dir()
    if torch_lib is None:
        return None
    python_lib = sysconfig.get_config_var("LIBDIR") or ""
    if re.search(r"\s", python_lib):
        fix = ("install Python (3.11, 3.12 or 3.13) under a folder without spaces (pyenv, Homebrew, "
               "or uv with UV_PYTHON_INSTALL_DIR) and run `make lab PYTHON=/path/to/python3.13`.")
        where = f"Python's library folder ({python_lib})"
    elif re.search(r"\s", torch_lib):
        fix = ("run `make lab` from the project folder: where the folder's path has a space it "
               "keeps the environment in ~/.cache/hybridize/ (see README), or move the project "
               "to a folder without spaces.")
        where = f"this environment's torch library folder ({torch_lib})"
    else:
        return None
    return (f"Note: torch.compile will fail here: {where} has a space in its path, and PyTorch "
            f"{version('torch')} passes it to the C++ linker unquoted (\"cannot find -ltorch\"). "
            f"The cells that compile will raise that error; the rest runs. To fix it, {fix}")


def compile_path_note() -> None:
    """Print a note, only when torch.compile would fail because of a space in a path."""
    note = compile_path_problem()
    if note:
        print(note)
