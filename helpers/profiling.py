"""Read PyTorch profiles of training steps: own CPU time per group, and the calls compiling removes.

Works on the rows of `prof.key_averages()` (anything with `.key`, `.count` and
`.self_cpu_time_total` in microseconds), so no framework is imported here. Notebooks 3 and 7 profile
eager and compiled steps several times each (`alternate_profiles`, which imports PyTorch when called)
and compares them with `compare_profiles`.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .timing import format_time

MATMUL = ("aten::mm", "aten::addmm")
WRAPPERS = ("TorchDynamo Cache Lookup", "Torch-Compiled Region", "CompiledFunction", "AOTDispatcher",
            "Pregraph bytecode")
# ATen operators that only make views or wrap a matrix product (no arithmetic of their own)
VIEWS = ("aten::linear", "aten::t", "aten::transpose", "aten::as_strided", "aten::view", "aten::reshape",
         "aten::_unsafe_view", "aten::expand", "aten::permute", "aten::squeeze", "aten::unsqueeze",
         "aten::relu")   # on a CPU, aten::relu only calls aten::clamp_min, which computes
GROUPS = ("matrix products (aten::mm, aten::addmm)", "other ATen operators",
          "autograd engine (backward nodes, gradient accumulation)",
          "Inductor's generated call(): fused kernels, its Python",
          "compiled-model wrappers (guards, compiled region)", "optimizer and the rest")


def profile_group(name: str) -> str:
    """The group (one of GROUPS) of one profiler event, by its name."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name in MATMUL:
        return GROUPS[0]
    if name.startswith("aten::"):
        return GROUPS[1]
    if name.startswith("## Call CompiledFxGraph"):
        return GROUPS[3]
    if name.startswith(WRAPPERS):
        return GROUPS[4]
    if name.startswith("autograd::") or name.endswith(("Backward0", "Backward1")) or "AccumulateGrad" in name:
        return GROUPS[2]
    return GROUPS[5]


@dataclass
class StepProfile:
    """One profile, per training step: own CPU seconds per group, and calls and own seconds per ATen operator."""

    own: dict = field(default_factory=dict)
    calls: dict = field(default_factory=dict)
    op_time: dict = field(default_factory=dict)

    @property
    def aten_calls(self) -> float:
        return sum(self.calls.values())

    @property
    def matmul_calls(self) -> float:
        return sum(n for op, n in self.calls.items() if op in MATMUL)


def step_profile(rows: Iterable[Any], steps: int) -> StepProfile:
    """A StepProfile from `prof.key_averages()` of a profile that recorded `steps` training steps."""
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise ValueError(f"steps must be a positive int, got {steps!r}")
    result = StepProfile(own=dict.fromkeys(GROUPS, 0.0))
    for row in rows:
        seconds = row.self_cpu_time_total / 1e6 / steps
        result.own[profile_group(row.key)] += seconds
        if row.key.startswith("aten::"):
            result.calls[row.key] = result.calls.get(row.key, 0) + row.count / steps
            result.op_time[row.key] = result.op_time.get(row.key, 0.0) + seconds
    return result


@dataclass
class ProfileComparison:
    """Eager and compiled profiles of the same step, several of each: medians and differences."""

    eager: list
    compiled: list

    def own(self, name: str) -> dict:
        """Median own seconds per step of each group, for 'eager' or 'compiled'."""
        runs = self._runs(name)
        return {g: statistics.median(run.own[g] for run in runs) for g in GROUPS}

    def _runs(self, name: str) -> list:
        if name not in ("eager", "compiled"):
            raise ValueError(f"name must be 'eager' or 'compiled', got {name!r}")
        return self.eager if name == "eager" else self.compiled

    def removed(self) -> list:
        """(operator, kind, eager calls, compiled calls, eager own seconds of the removed calls) per step,
        for every ATen operator the compiled step calls less often, the costliest first; kind is
        'view or wrapper' or 'computes'. The time is the operator's eager own time scaled to the calls
        removed: eager time x (eager calls - compiled calls) / eager calls."""
        e, c = self.eager[0].calls, self.compiled[0].calls
        rows = []
        for op, n in e.items():
            if c.get(op, 0) < n:
                seconds = statistics.median(run.op_time.get(op, 0.0) for run in self.eager)
                gone = (n - c.get(op, 0)) / n
                rows.append((op, "view or wrapper" if op in VIEWS else "computes", n, c.get(op, 0), seconds * gone))
        return sorted(rows, key=lambda row: -row[4])

    def added_and_saved(self) -> tuple:
        """(added, saved) own seconds per step: the compiled wrappers and generated code, against the
        eager ATen operators (outside the matrix products) and autograd work that the compiled step replaces."""
        e, c = self.own("eager"), self.own("compiled")
        added = sum(c[g] - e[g] for g in GROUPS[3:5])
        saved = sum(e[g] - c[g] for g in GROUPS[1:3])
        return added, saved

    def summary(self) -> list:
        """Four lines: ATen calls, matrix products, and replaced_rows' own time added against removed."""
        e, c = self.eager[0], self.compiled[0]
        kept = ("every one kept" if c.matmul_calls == e.matmul_calls
                else f"changed ({e.matmul_calls:.0f} -> {c.matmul_calls:.0f})")
        return [f"ATen operator calls per step: {e.aten_calls:.0f} eager -> {c.aten_calls:.0f} compiled",
                f"matrix products among them: {e.matmul_calls:.0f} -> {c.matmul_calls:.0f}, {kept}",
                *replaced_rows(self)]

    def details(self) -> list:
        """The calls the compiled step no longer makes, one line per operator, and their sums by kind."""
        out = ["calls the compiled step no longer makes, per step (eager own time of the removed calls):"]
        kinds = {}
        for op, kind, n, m, seconds in self.removed():
            out.append(f"    {op:<26} {kind:<16} {n:>4.0f} -> {m:<4.0f} {format_time(seconds):>9}")
            calls, time = kinds.get(kind, (0.0, 0.0))
            kinds[kind] = (calls + n - m, time + seconds)
        out.append("so: " + "; ".join(f"{kind}: {calls:.0f} calls removed, {format_time(time)}"
                                      for kind, (calls, time) in kinds.items()))
        return out

    def lines(self) -> list:
        """summary() and details() together."""
        return self.summary() + self.details()


def compare_profiles(eager: Sequence[StepProfile], compiled: Sequence[StepProfile]) -> ProfileComparison:
    """Compare several eager and several compiled StepProfiles of the same training step."""
    for name, runs in (("eager", eager), ("compiled", compiled)):
        if not runs or not all(isinstance(r, StepProfile) for r in runs):
            raise TypeError(f"{name} must be a non-empty sequence of StepProfile")
    return ProfileComparison(list(eager), list(compiled))


def replaced_rows(comparison: ProfileComparison) -> list:
    """Two lines naming the rows they compare: the own time per step of the rows compiling adds
    (Inductor's generated call(), the compiled-model wrappers) against the own time it removes from the
    rows whose work it replaces (other ATen operators, autograd engine); the matrix products and the
    optimizer are in neither, so this is not a step's total."""
    if not isinstance(comparison, ProfileComparison):
        raise TypeError(f"comparison must be a ProfileComparison (from compare_profiles), "
                        f"got {type(comparison).__name__}")
    added, saved = comparison.added_and_saved()
    return [f"own CPU time per step (median of {len(comparison.eager)}): the rows compiling adds (generated "
            f"call(), wrappers) {format_time(added)}; removed from the rows it replaces (other ATen operators, "
            f"autograd engine) {format_time(saved)}",
            "so: in these rows (not the products, not the optimizer), compiling adds "
            + ("more own time than it removes" if added > saved else "no more own time than it removes")]


def profile_steps(step: Callable[[], Any], steps: int = 5) -> StepProfile:
    """Profile `steps` calls of `step` (one training step each) with PyTorch's CPU profiler: a StepProfile."""
    if not callable(step):
        raise TypeError(f"step must be a callable (one training step), got {type(step).__name__}")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        raise ValueError(f"steps must be a positive int, got {steps!r}")
    from torch.profiler import ProfilerActivity, profile   # imported here: the module needs no framework
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    return step_profile(prof.key_averages(), steps)


def alternate_profiles(steppers: Mapping[Any, Callable[[], Any]], rounds: int, steps: int = 5,
                       warmup: int = 1) -> dict:
    """Profile each named step in turn, `rounds` times; drop each one's first `warmup` profiles: name -> profiles."""
    if not isinstance(steppers, Mapping) or not steppers or not all(callable(s) for s in steppers.values()):
        raise TypeError("steppers must be a non-empty mapping of name to a callable (one training step)")
    if not isinstance(warmup, int) or isinstance(warmup, bool) or warmup < 0:
        raise ValueError(f"warmup must be an int of at least 0, got {warmup!r}")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds <= warmup:
        raise ValueError(f"rounds must be an int larger than warmup ({warmup}), got {rounds!r}")
    runs = {name: [] for name in steppers}
    for i in range(rounds):
        for name, step in steppers.items():
            profiled = profile_steps(step, steps)
            if i >= warmup:
                runs[name].append(profiled)
    return runs
