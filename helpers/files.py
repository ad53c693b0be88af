"""Files: the ignored scratch folder that notebooks write to, and file listings."""

from __future__ import annotations

import os
from pathlib import Path

SCRATCH_ENV = "HYBRID_SCRATCH"


def scratch_dir(*parts: str) -> Path:
    """Return (and create) a folder under ./scratch, which git ignores."""
    for part in parts:
        if not isinstance(part, str) or not part or Path(part).is_absolute() or ".." in Path(part).parts:
            raise ValueError(f"parts must be relative folder names, got {part!r}")
    root = Path(os.environ.get(SCRATCH_ENV) or Path.cwd() / "scratch")
    folder = root.joinpath(*parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def format_size(n_bytes: int) -> str:
    """Format a size in bytes as B, KiB, MiB or GiB."""
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, int):
        raise TypeError(f"n_bytes must be an int, got {type(n_bytes).__name__}")
    if n_bytes < 0:
        raise ValueError(f"n_bytes must be zero or more, got {n_bytes}")
    size = float(n_bytes)
    for unit in ("B", "KiB", "MiB"):
        if size < 1024:
            return f"{n_bytes} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"


def list_files(folder: str | os.PathLike, pattern: str = "*") -> list[tuple[str, int]]:
    """Print and return (relative path, size) of the files under `folder` matching `pattern`."""
    root = Path(folder)
    if not root.is_dir():
        raise ValueError(f"folder must be an existing folder, got {str(folder)!r}")
    found = sorted((p.relative_to(root).as_posix(), p.stat().st_size)
                   for p in root.rglob(pattern) if p.is_file())
    width = max((len(name) for name, _ in found), default=0)
    for name, size in found:
        print(f"{name:<{width}}  {format_size(size):>10}")
    return found


def run_python(code: str, timeout: float = 300, cwd: str | os.PathLike | None = None) -> str:
    """Run `code` in a fresh Python process (same environment) and return its stdout.

    Used to load a saved model where the model's class was never defined.
    Raises RuntimeError with the process's stderr when it fails.
    """
    import subprocess
    import sys
    if not isinstance(code, str) or not code.strip():
        raise ValueError("code must be a non-empty string of Python source")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the new Python process failed (exit {done.returncode}):\n"
                           + done.stderr.strip()[-2000:])
    return done.stdout
