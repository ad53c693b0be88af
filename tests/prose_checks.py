"""What the two prose tests share: the notebooks they read, and their command line."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def notebooks(where: Path | str | None = None) -> list[Path]:
    """The numbered notebooks in `where` (a folder or one notebook); default notebooks/ or $HYBRID_NOTEBOOKS."""
    where = Path(where or os.environ.get("HYBRID_NOTEBOOKS") or ROOT / "notebooks")
    return [where] if where.suffix == ".ipynb" else sorted(where.glob("[0-9]*.ipynb"))


def main(problems: Callable[[Path], list[str]], args: list[str]) -> int:
    """Print each notebook's problems (args: folders or notebooks, default notebooks/); 1 if any, else 0."""
    bad = 0
    for arg in args or [None]:
        for path in notebooks(arg):
            for line in problems(path):
                print(f"{path.name}: {line}")
                bad += 1
    return 1 if bad else 0
