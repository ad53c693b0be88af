"""Argument checks shared by the helpers: each returns the value or raises a clear error.

The messages name the argument and what it got (``n must be 1 or more, got 0``), so a
student who passes a wrong value reads what to change.  Nothing here is imported by
notebooks; the modules of `helpers` call these before doing any work.
"""

from __future__ import annotations

import math
from numbers import Integral
from typing import Any


def check_positive(name: str, value: Any) -> float:
    """Return `value` as a float if it is a positive, finite number, else raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not value > 0 or math.isinf(value):
        raise ValueError(f"{name} must be positive and finite, got {value}")
    return float(value)


def check_int(name: str, value: Any, minimum: int = 1) -> int:
    """Return `value` as an int if it is an integer (NumPy's too, not bool) >= `minimum`, else raise."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be {minimum} or more, got {value}")
    return int(value)


def check_count(name: str, value: Any, allow_zero: bool = False) -> int:
    """Return `value` if it is an int of one or more (zero or more with `allow_zero`), else raise."""
    return check_int(name, value, 0 if allow_zero else 1)


def check_callable(name: str, value: Any, optional: bool = False) -> None:
    """Raise a TypeError unless `value` is callable (or None when `optional`)."""
    if value is None and optional:
        return
    if not callable(value):
        raise TypeError(f"{name} must be callable, got {type(value).__name__}")


__all__ = ["check_callable", "check_count", "check_int", "check_positive"]
