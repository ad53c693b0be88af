"""Import MXNet 1.9.1 on NumPy 2: the one place that puts back the names NumPy removed (1.20 to 2.4).

MXNet was archived in November 2023; its last release, 1.9.1 (2022), predates NumPy 2 and
declares ``numpy<2`` (it already fails from NumPy 1.24 on, which removed ``np.bool``, back
in 2.0; apache/mxnet#21165).  At import it copies a few module attributes that NumPy
removed between 1.20 and 2.4: the financial functions (NEP 32, moved to the
``numpy-financial`` package in 1.20), aliases such as ``np.alltrue`` and constants such as
``np.NINF`` (NEP 52, NumPy 2.0), ``np.in1d`` and ``np.trapz`` (2.4).  `import_mxnet` adds
those names to ``numpy`` for the duration of the import and takes them away again, so nothing
else in NumPy changes and no other library imported later sees them.  The financial functions
are stubs that raise.
"""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

# Names MXNet 1.9.1 reads from numpy at import time -> what NumPy 1.x defined them as.
CONSTANTS = {"PZERO": 0.0, "NZERO": -0.0, "PINF": float("inf"), "NINF": float("-inf"),
             "NAN": float("nan"), "Inf": float("inf"), "NaN": float("nan")}
ALIASES = {"alltrue": "all", "sometrue": "any", "product": "prod", "cumproduct": "cumprod",
           "round_": "round", "in1d": "isin", "msort": "sort", "trapz": "trapezoid"}
FINANCIAL = ("mirr", "npv", "pmt", "ppmt", "pv", "rate")


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
    if "mxnet" in sys.modules:
        return sys.modules["mxnet"]
    with numpy_compat():
        return importlib.import_module("mxnet")


__all__ = ["compat_names", "import_mxnet", "numpy_compat"]
