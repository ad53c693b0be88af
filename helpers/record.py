"""A notebook's Summary as a record: this run's key numbers and the machine they were measured on.

The last code cell of each notebook's Summary calls `summary(...)`. What it returns shows the
numbers as text, and also carries them as JSON under a MIME type of our own,
`application/vnd.hybridize.record+json`. JupyterLab and nbconvert do not know that type, so a
student sees only the text; `tools/class_results.py` reads the JSON back out of the executed
notebooks that a class hands in. Nothing is sent anywhere: the record lives in the notebook.

Each key quantity is either a *claim* (a factor with the threshold of the sentence that claims
it; it should hold on every machine) or a *finding* (what this machine measured; it may differ
on another CPU). `record_from_json` checks a record read back from a file and says which field
is wrong.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import math
import os
import platform
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping, Optional, Union

from .timing import format_factor, format_factor_sig, format_factors

RECORD_MIME = "application/vnd.hybridize.record+json"
SCHEMA = 1
KINDS = ("claim", "finding")
# Settings that change what the frameworks run, recorded where they are set.
SETTINGS = ("OMP_NUM_THREADS", "ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "XLA_FLAGS",
            "HYBRID_QUICK", "MXNET_ENGINE_TYPE")
DISTRIBUTION = "hybridize-helpers"


class RecordError(ValueError):
    """A record read back from a notebook that is not of the expected form; the message names the field."""


@dataclass(frozen=True)
class Quantity:
    """One key number of a run: a factor with its interval and verdict, or a value with a unit."""

    name: str
    kind: str                      # "claim" or "finding"
    value: float                   # the factor (unit "x") or the measured value
    unit: str = "x"
    low: Optional[float] = None    # the 95 % interval (or the range when too few rounds)
    high: Optional[float] = None
    threshold: Optional[float] = None
    verdict: Optional[str] = None

    def text(self) -> str:
        """One line: 'name: verdict, 4.95x (4.82x to 5.02x)' or 'name: 12.3 s'."""
        if self.unit == "x":
            if self.low is not None and self.high is not None:
                number = "{} ({} to {})".format(*format_factors(self.value, self.low, self.high, self.threshold))
            else:
                number = format_factor(self.value)
        else:
            number = f"{_round(self.value)} {self.unit}".rstrip()
        head = f"{self.verdict}, " if self.verdict else ""
        return f"{self.name}: {head}{number}"

    def to_json(self) -> dict[str, Any]:
        """The quantity as a plain dict (JSON types only)."""
        return {"name": self.name, "kind": self.kind, "value": self.value, "unit": self.unit,
                "low": self.low, "high": self.high, "threshold": self.threshold, "verdict": self.verdict}


def _round(value: float) -> str:
    """Three significant digits, as the notebooks print measured values."""
    return f"{value:.3g}"


def claim(ratio: Any, threshold: float) -> Quantity:
    """A factor that should hold on every machine, with the threshold its sentence names."""
    return _from_ratio(ratio, threshold, "claim")


class _SigQuantity(Quantity):
    """A Quantity whose factor and interval print with three significant digits (see claim_sig)."""

    def text(self) -> str:
        """One line: 'name: verdict, 1290x (1270x to 1330x)'."""
        number = format_factor_sig(self.value)
        if self.low is not None and self.high is not None:
            number += f" ({format_factor_sig(self.low)} to {format_factor_sig(self.high)})"
        head = f"{self.verdict}, " if self.verdict else ""
        return f"{self.name}: {head}{number}"


def claim_sig(ratio: Any, threshold: float) -> Quantity:
    """claim(...) for a large factor: the Summary prints it and its interval with three significant
    digits ('1290x (1270x to 1330x)', not '1294.67x'). The stored JSON is the same as claim's."""
    q = claim(ratio, threshold)
    return _SigQuantity(**{f.name: getattr(q, f.name) for f in fields(Quantity)})


def finding(measured: Any, threshold: Optional[float] = None, unit: str = "x",
            low: Optional[float] = None, high: Optional[float] = None) -> Quantity:
    """What this machine measured: a Ratio (with an optional threshold) or a number with its unit."""
    if hasattr(measured, "verdict") and hasattr(measured, "median"):
        return _from_ratio(measured, threshold, "finding")
    value = _check_number("measured", measured)
    if not isinstance(unit, str):
        raise TypeError(f"unit must be a str, got {type(unit).__name__}")
    if threshold is not None:
        raise ValueError("threshold is only for a Ratio; a plain number has no verdict")
    return Quantity("", "finding", value, unit,
                    None if low is None else _check_number("low", low),
                    None if high is None else _check_number("high", high))


def _from_ratio(ratio: Any, threshold: Optional[float], kind: str) -> Quantity:
    """A Quantity from a helpers.Ratio (median, interval and verdict at `threshold`)."""
    if not (hasattr(ratio, "verdict") and hasattr(ratio, "median")):
        raise TypeError(f"ratio must be a helpers Ratio (cmp.ratio(...)), got {type(ratio).__name__}")
    if threshold is None:
        if kind == "claim":
            raise ValueError("threshold is required for a claim")
        verdict = None
    else:
        verdict = ratio.verdict(threshold)  # checks the threshold and names it
        threshold = float(threshold)
    return Quantity("", kind, float(ratio.median), "x", float(ratio.low), float(ratio.high), threshold, verdict)


def _check_number(name: str, value: Any) -> float:
    """Return a finite number as a float, or raise an error that names the argument."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value}")
    return number


def machine() -> dict[str, Any]:
    """The CPU, core count, OS, Python, NumPy's and the installed frameworks' versions, and the settings that matter."""
    from .frameworks import cpu_model, usable_cores, versions
    try:
        numpy_version: Optional[str] = importlib.metadata.version("numpy")
    except importlib.metadata.PackageNotFoundError:
        numpy_version = None
    return {
        "cpu": cpu_model(),
        "cores": usable_cores(),
        "os": f"{platform.system()} {platform.release()}".strip(),
        "python": platform.python_version(),
        "versions": {name: v for name, v in {"numpy": numpy_version, **versions()}.items() if v is not None},
        "settings": {name: os.environ[name] for name in SETTINGS if os.environ.get(name)},
    }


def collection_version() -> str:
    """The version of this collection (the helpers package), or 'unknown' outside an install."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass
class Record:
    """The key numbers of one notebook's run, shown as text and embedded as JSON."""

    notebook: str
    quantities: list[Quantity]
    machine: dict[str, Any] = field(default_factory=machine)
    collection: str = field(default_factory=collection_version)
    created: str = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))

    def text(self) -> str:
        """What the Summary prints: the machine in one line, then one line per claim and finding."""
        m = self.machine
        versions = ", ".join(f"{k} {v}" for k, v in m.get("versions", {}).items())
        settings = ", ".join(f"{k}={v}" for k, v in m.get("settings", {}).items())
        lines = [f"This run: {m.get('cpu')}, {m.get('cores')} cores, {m.get('os')}, Python {m.get('python')}"
                 + (f"; installed: {versions}" if versions else "") + (f" ({settings})" if settings else "")]
        for kind, title in (("claim", "Should hold on any machine:"), ("finding", "Depends on the machine:")):
            rows = [q for q in self.quantities if q.kind == kind]
            if rows:
                lines.append(title)
                lines += [f"  {q.text()}" for q in rows]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON types, the form stored in the notebook."""
        return {"schema": SCHEMA, "collection": self.collection, "notebook": self.notebook,
                "created": self.created, "machine": self.machine,
                "quantities": [q.to_json() for q in self.quantities]}

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Text for the student, JSON under the record's own MIME type for the class report."""
        return {"text/plain": self.text(), RECORD_MIME: self.to_json()}

    def __repr__(self) -> str:
        return self.text()


Item = Union[Quantity, Any]


def summary(notebook: str, quantities: Mapping[str, Item]) -> Record:
    """Return the Record of this run: `quantities` maps each name to claim(...) or finding(...).

    A helpers Ratio given as it is counts as a finding without a threshold; a plain number
    as a finding without a unit.
    """
    if not isinstance(notebook, str) or not notebook.strip():
        raise ValueError(f"notebook must be a non-empty str, got {notebook!r}")
    if not isinstance(quantities, Mapping) or not quantities:
        raise ValueError("quantities must be a non-empty mapping of name to claim(...) or finding(...)")
    items = []
    for name, item in quantities.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"quantities: each name must be a non-empty str, got {name!r}")
        if not isinstance(item, Quantity):
            item = finding(item, unit="x" if hasattr(item, "median") else "")
        items.append(replace(item, name=name))
    return Record(notebook, items)


def _field(data: Mapping[str, Any], key: str, types: Union[type, tuple], where: str, optional: bool = False) -> Any:
    """data[key], checked against `types`; a RecordError names the field otherwise."""
    if key not in data:
        raise RecordError(f"{where}{key}: missing")
    value = data[key]
    if value is None and optional:
        return None
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise RecordError(f"{where}{key}: expected {_names(types)}, got bool")
    if not isinstance(value, types):
        raise RecordError(f"{where}{key}: expected {_names(types)}, got {type(value).__name__}")
    return value


def _names(types: Union[type, tuple]) -> str:
    return " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))


def record_from_json(data: Any) -> Record:
    """Check a record read back from a notebook and return it; a RecordError names the first bad field."""
    if not isinstance(data, Mapping):
        raise RecordError(f"record: expected an object, got {type(data).__name__}")
    schema = _field(data, "schema", int, "")
    if schema != SCHEMA:
        raise RecordError(f"schema: expected {SCHEMA}, got {schema}")
    notebook = _field(data, "notebook", str, "")
    collection = _field(data, "collection", str, "")
    created = _field(data, "created", str, "")
    try:
        _dt.datetime.fromisoformat(created)
    except ValueError:
        raise RecordError(f"created: not an ISO date and time: {created!r}") from None
    m = _field(data, "machine", Mapping, "")
    for key, types in (("cpu", str), ("cores", int), ("os", str), ("python", str), ("versions", Mapping)):
        _field(m, key, types, "machine.")
    if "settings" in m:
        _field(m, "settings", Mapping, "machine.")
    quantities = []
    for i, q in enumerate(_field(data, "quantities", list, "")):
        where = f"quantities[{i}]."
        if not isinstance(q, Mapping):
            raise RecordError(f"quantities[{i}]: expected an object, got {type(q).__name__}")
        kind = _field(q, "kind", str, where)
        if kind not in KINDS:
            raise RecordError(f"{where}kind: expected claim or finding, got {kind!r}")
        number = (int, float)
        quantity = Quantity(_field(q, "name", str, where), kind, float(_field(q, "value", number, where)),
                            _field(q, "unit", str, where),
                            _optional_float(q, "low", where), _optional_float(q, "high", where),
                            _optional_float(q, "threshold", where), _field(q, "verdict", str, where, optional=True))
        if kind == "claim" and (quantity.threshold is None or quantity.verdict is None):
            raise RecordError(f"{where}threshold: a claim needs its threshold and verdict")
        quantities.append(quantity)
    return Record(notebook, quantities, dict(m), collection, created)


def _optional_float(q: Mapping[str, Any], key: str, where: str) -> Optional[float]:
    value = _field(q, key, (int, float), where, optional=True)
    return None if value is None else float(value)


__all__ = ["KINDS", "Quantity", "RECORD_MIME", "Record", "RecordError", "claim", "claim_sig", "finding", "machine",
           "record_from_json", "summary"]
