"""Import MXNet 1.9.1 on NumPy 2: the one place that puts back the names NumPy removed (1.20 to 2.4).

MXNet was archived in November 2023; its last release, 1.9.1 (2022), predates NumPy 2 and
declares ``numpy<2`` (it already fails from NumPy 1.24 on, which removed ``np.bool``, back
in 2.0; apache/mxnet#21165).  At import it copies a few module attributes that NumPy
removed between 1.20 and 2.4: the financial functions (NEP 32, moved to the
``numpy-financial`` package in 1.20), aliases such as ``np.alltrue`` and constants such as
``np.NINF`` (NEP 52, NumPy 2.0), ``np.in1d`` and ``np.trapz`` (2.4).  `numpy_compat` adds
those names to ``numpy`` for the duration of an import and takes them away again, so nothing
else in NumPy changes and no other library imported later sees them.  The financial functions
are stubs that raise.

Two ways to use it:

- `install_import_hook()` puts `MXNetImportHook` on ``sys.meta_path``: from then on a plain
  ``import mxnet`` (or ``from mxnet import np, npx``, or ``from d2l import mxnet``) runs with
  the names put back, for ``mxnet`` and each ``mxnet.*`` submodule imported later.  Every other
  import passes by after one string comparison; numpy is imported only when mxnet is.  The
  set-up (tools/setup_env.py) copies this file into the environment's site-packages as
  ``hybridize_mxnet_compat.py``, with a ``.pth`` file that installs the hook in every Python
  started from that environment.  Where MXNet is not installed the hook finds nothing and
  Python raises its usual ``ModuleNotFoundError``.
- `import_mxnet()` imports ``mxnet`` inside `numpy_compat`, for a Python without the hook.

This file imports nothing at module level beyond what Python's start-up has already loaded.
"""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds at start-up, where the .pth file imports this module
    from typing import Any, Callable, Iterator, Optional, Sequence

# Names MXNet 1.9.1 reads from numpy at import time -> what NumPy 1.x defined them as.
CONSTANTS = {"PZERO": 0.0, "NZERO": -0.0, "PINF": float("inf"), "NINF": float("-inf"),
             "NAN": float("nan"), "Inf": float("inf"), "NaN": float("nan")}
ALIASES = {"alltrue": "all", "sometrue": "any", "product": "prod", "cumproduct": "cumprod",
           "round_": "round", "in1d": "isin", "msort": "sort", "trapz": "trapezoid"}
FINANCIAL = ("mirr", "npv", "pmt", "ppmt", "pv", "rate")
PACKAGE = "mxnet"
# The module name and .pth file the set-up writes into site-packages (tools/setup_env.py).
HOOK_MODULE = "hybridize_mxnet_compat"
PTH_LINE = f"import {HOOK_MODULE}; {HOOK_MODULE}.install_import_hook()\n"


def _removed(name: str) -> Callable[..., Any]:
    """Return a stub for a financial function NumPy 1.20 removed (use numpy-financial instead)."""
    def stub(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"numpy.{name} was removed in NumPy 1.20; "
                                  "use the numpy-financial package")
    stub.__name__ = name
    return stub


def compat_names(np: Any) -> dict[str, Any]:
    """Return {name: value} for the names MXNet 1.9.1 needs that this `numpy` module lacks."""
    names: dict[str, Any] = dict(CONSTANTS)
    for old, new in ALIASES.items():
        names[old] = getattr(np, new)
    names.update({name: _removed(name) for name in FINANCIAL})
    return {name: value for name, value in names.items() if not hasattr(np, name)}


@contextmanager
def numpy_compat() -> Iterator[list[str]]:
    """Add the missing names to numpy inside the block, then remove them; yield their names."""
    import numpy as np
    added = compat_names(np)
    for name, value in added.items():
        setattr(np, name, value)
    try:
        yield sorted(added)
    finally:
        for name in added:
            delattr(np, name)


def import_mxnet() -> Any:
    """Import and return the `mxnet` module, on NumPy 1 or 2 (see the module docstring)."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    with numpy_compat():
        return importlib.import_module(PACKAGE)


def is_mxnet(fullname: str) -> bool:
    """Return True for 'mxnet' and its submodules ('mxnet.numpy', ...), False for any other name."""
    if not isinstance(fullname, str):
        raise TypeError(f"fullname must be a module name (str), got {type(fullname).__name__}")
    return fullname == PACKAGE or fullname.startswith(PACKAGE + ".")


class CompatLoader:
    """Wraps the loader of an mxnet module: executes the module inside `numpy_compat`."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        """Let the wrapped loader create the module (None: Python's default)."""
        create = getattr(self.loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: Any) -> None:
        """Run the module's code with NumPy's removed names put back."""
        with numpy_compat():
            self.loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        # get_source, get_data, is_package, get_resource_reader...: the wrapped loader's.
        return getattr(self.loader, name)


class MXNetImportHook:
    """A meta-path finder for `mxnet` and its submodules; returns None for every other module."""

    hybridize_mxnet_hook = True  # marks a hook, whichever copy of this file defined it

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None, target: Any = None) -> Any:
        """Find mxnet's module with the other finders and wrap its loader; None for other names."""
        if not is_mxnet(fullname):
            return None
        for finder in sys.meta_path:
            if getattr(finder, "hybridize_mxnet_hook", False):
                continue
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = CompatLoader(spec.loader)
                return spec
        return None  # not installed: Python goes on to raise ModuleNotFoundError


def install_import_hook() -> bool:
    """Put the hook first on sys.meta_path unless one is there; return True when it was added."""
    if any(getattr(finder, "hybridize_mxnet_hook", False) for finder in sys.meta_path):
        return False
    sys.meta_path.insert(0, MXNetImportHook())
    return True


def remove_import_hook() -> int:
    """Take every such hook off sys.meta_path; return how many were removed."""
    hooks = [f for f in sys.meta_path if getattr(f, "hybridize_mxnet_hook", False)]
    for finder in hooks:
        sys.meta_path.remove(finder)
    return len(hooks)


__all__ = ["CompatLoader", "HOOK_MODULE", "MXNetImportHook", "PTH_LINE", "compat_names", "import_mxnet",
           "install_import_hook", "is_mxnet", "numpy_compat", "remove_import_hook"]
