"""pytest configuration shared by the unit tests and the nbval notebook tests.

A notebook names the frameworks it needs in its first code cell with
``helpers.require("mxnet")``; when one of them is not installed, every cell of
that notebook is reported as skipped, with the reason, instead of failed.

With ``HYBRID_REQUIRE_ALL=1`` (CI), a missing framework is a failure, not a skip, where the
requirement files install it on this platform (their environment markers, evaluated with
`packaging`): a framework that is found but does not import (a broken install) fails too. A
framework that has no wheel for this platform (MXNet on Apple silicon) is still skipped, and so
is one named in ``HYBRID_WITHOUT`` (e.g. ``HYBRID_WITHOUT=mxnet``: an environment built without
it on purpose, as `make test-notebooks WITHOUT=mxnet` builds one).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, Optional

import pytest

from helpers import frameworks

REQUIRE_ALL = "HYBRID_REQUIRE_ALL"
WITHOUT = "HYBRID_WITHOUT"   # frameworks left out of this environment on purpose: "mxnet", "mxnet jax"
# The requirement files, found from the helpers package (also when pytester copies this file).
PROJECT = Path(frameworks.__file__).resolve().parent.parent
REQUIREMENT_FILES = ("requirements.txt", "requirements-nodeps.txt")
# How a framework is imported to check that its install works (MXNet only through the helper).
IMPORT_CHECK = {name: f"import {module}" for name, (module, _) in frameworks.FRAMEWORKS.items()}
IMPORT_CHECK["mxnet"] = "import helpers; helpers.import_mxnet()"

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


def platform_frameworks(environment: Optional[dict] = None, root: Path = PROJECT) -> set[str]:
    """The frameworks that the requirement files install on this platform (or on `environment`).

    Each requirement line naming a framework's distribution counts when it has no marker or
    its marker holds (`packaging.markers.Marker.evaluate`, with `environment` overriding
    this interpreter's values, e.g. {"sys_platform": "darwin", "platform_machine": "arm64"}).
    """
    from packaging.requirements import InvalidRequirement, Requirement

    dists = {dist.lower(): name for name, (_, dist) in frameworks.FRAMEWORKS.items()}
    found = set()
    for file in REQUIREMENT_FILES:
        path = root / file
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split(" #")[0].strip()
            if not line or line.startswith(("#", "-")):
                continue
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            name = dists.get(req.name.lower())
            if name and (req.marker is None or req.marker.evaluate(environment)):
                found.add(name)
    return found


def importable(framework: str, env: Optional[dict] = None) -> tuple[bool, str]:
    """(True, "") when the framework imports in a fresh interpreter, else (False, the error's last line)."""
    run = subprocess.run([sys.executable, "-c", IMPORT_CHECK[framework]], capture_output=True, text=True,
                         cwd=PROJECT, env=env, timeout=600)
    lines = run.stderr.strip().splitlines()
    return run.returncode == 0, (lines[-1] if lines else f"exit status {run.returncode}")


def decide(required: Iterable[str], require_all: bool, installable: set[str],
           is_installed: Callable[[str], bool],
           imports: Callable[[str], tuple[bool, str]]) -> tuple[Optional[str], Optional[str]]:
    """("skip" or "fail" or None, the reason) for a notebook that requires these frameworks.

    Without `require_all`: skip when one is not installed.  With it: fail when one that the
    platform's requirements install is missing or does not import; skip only for the others.
    """
    required = list(required)
    missing = [n for n in required if not is_installed(n)]
    if require_all:
        absent = [n for n in missing if n in installable]
        if absent:
            return "fail", (f"{REQUIRE_ALL}=1: {', '.join(absent)} not installed, although the requirement "
                            f"files install it on this platform")
        broken = [(n, why) for n in required if n not in missing for ok, why in [imports(n)] if not ok]
        if broken:
            return "fail", (f"{REQUIRE_ALL}=1: {', '.join(n for n, _ in broken)} installed but does not import: "
                            + "; ".join(why for _, why in broken))
    if missing:
        return "skip", frameworks.missing_reason(missing)
    return None, None


FAILURE = pytest.StashKey[str]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the cells of notebooks whose frameworks are missing, saying which (or fail: see above)."""
    require_all = os.environ.get(REQUIRE_ALL) == "1"
    notebooks = {Path(str(item.path)) for item in items if Path(str(item.path)).suffix == ".ipynb"}
    required = {path: required_frameworks(path) for path in notebooks}
    left_out = set(re.split(r"[\s,]+", os.environ.get(WITHOUT, "").strip())) - {""}
    installable = platform_frameworks() - left_out if require_all else set()
    imports: dict[str, tuple[bool, str]] = {}
    if require_all:   # import each needed framework once, in parallel fresh interpreters
        names = sorted({n for names in required.values() for n in names if frameworks.is_installed(n)})
        with ThreadPoolExecutor(max_workers=max(1, len(names))) as pool:
            imports = dict(zip(names, pool.map(importable, names)))
    decisions = {path: decide(required[path], require_all, installable, frameworks.is_installed,
                              lambda n: imports.get(n, (True, "")))
                 for path in notebooks}
    for item in items:
        path = Path(str(item.path))
        action, reason = decisions.get(path, (None, None))
        if action == "skip":
            item.add_marker(pytest.mark.skip(reason=reason))
        elif action == "fail":
            item.stash[FAILURE] = reason


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail the cells of a notebook whose framework should be there (HYBRID_REQUIRE_ALL=1)."""
    reason = item.stash.get(FAILURE, None)
    if reason:
        pytest.fail(reason, pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Without comparing outputs (--nbval-lax), still fail a cell that writes to stderr where its stored
    outputs did not: a warning or a C++ log line a student would meet (the other Pythons, no MXNet)."""
    result = yield
    options = getattr(item, "options", None)
    outputs = getattr(item, "test_outputs", None)
    if options is not None and outputs is not None and not options.get("check", True):
        def stderr(outs: list) -> str:
            return "".join(o.get("text", "") for o in outs
                           if o.get("output_type") == "stream" and o.get("name") == "stderr")
        new = stderr(outputs)
        if new and not stderr(item.cell.outputs):
            pytest.fail(f"the cell wrote to stderr, which its stored outputs do not:\n{new[:2000]}",
                        pytrace=False)
    return result


@pytest.fixture
def full_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test in full mode (HYBRID_QUICK unset)."""
    monkeypatch.delenv("HYBRID_QUICK", raising=False)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test in quick mode (HYBRID_QUICK=1)."""
    monkeypatch.setenv("HYBRID_QUICK", "1")


@pytest.fixture(autouse=True)
def restore_thread_settings():
    """Give the process its environment and PyTorch's pool size back after every test.

    `helpers.set_threads` writes thread counts into the environment and into an imported
    PyTorch. `monkeypatch.delenv(name, raising=False)` records nothing for a variable that was
    not set, so it cannot undo them: a later test would then import PyTorch on two threads.
    """
    environment = dict(os.environ)
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None
    yield
    if dict(os.environ) != environment:
        os.environ.clear()
        os.environ.update(environment)
    if torch is not None and torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
