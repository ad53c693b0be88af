"""pytest configuration shared by the unit tests and the nbval notebook tests.

A notebook names the frameworks it needs in its first code cell with
``helpers.require("mxnet")``; when one of them is not installed, every cell of
that notebook is reported as skipped, with the reason, instead of failed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import frameworks

REQUIRE_CALL = re.compile(r"helpers\.require\(([^)]*)\)")
QUOTED = re.compile(r"""["']([A-Za-z_]\w*)["']""")


def required_frameworks(notebook: Path) -> list[str]:
    """Return the frameworks named by helpers.require(...) in the first code cell."""
    cells = json.loads(Path(notebook).read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            return [name for call in REQUIRE_CALL.findall(source) for name in QUOTED.findall(call)]
    return []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the cells of notebooks whose frameworks are missing, saying which."""
    reasons: dict[Path, str | None] = {}
    for item in items:
        path = Path(str(item.path))
        if path.suffix != ".ipynb":
            continue
        if path not in reasons:
            missing = [n for n in required_frameworks(path) if not frameworks.is_installed(n)]
            reasons[path] = frameworks.missing_reason(missing) if missing else None
        if reasons[path]:
            item.add_marker(pytest.mark.skip(reason=reasons[path]))


@pytest.fixture
def full_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test in full mode (HYBRID_QUICK unset)."""
    monkeypatch.delenv("HYBRID_QUICK", raising=False)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test in quick mode (HYBRID_QUICK=1)."""
    monkeypatch.setenv("HYBRID_QUICK", "1")
