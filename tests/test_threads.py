"""One thread means one thread: each framework, after helpers.set_threads(1), computes on one thread.

Each framework runs a 1024 x 1024 float32 matrix product (large enough for every library here to
split it across threads when allowed) in a fresh subprocess, started after `set_threads(1)`, until
the process has spent half a second of CPU time (at most 30 s of wall time: on a busy machine a
fixed wall time leaves too few 10 ms clock ticks to count).  The child reports two figures:

- ``cpu_wall``: the process's CPU time over the wall time.  On an idle machine one thread gives
  1.0 and two threads on two cores close to 2.0; but on a busy machine a two-thread run also
  reads below 1 (each thread waits for a core), so this figure alone cannot catch a second thread.
- ``parallelism``: the process's CPU time over the CPU time of its busiest thread (Linux,
  /proc/self/task/*/stat).  One thread doing the work reads 1.0 whatever the load; two threads
  sharing it read close to 2.0.  This is the figure that fails when a framework is not pinned.

Both must stay at or below 1.3.  `test_the_check_fails_without_the_pin` runs jax.jit once more
without `set_threads` and asserts that the check then fails, so the check is not vacuous.

ONNX Runtime reads no environment variable: its threads come from each session's options
(`intra_op_num_threads`, as helpers.modes sets them), so its child uses those options instead of
relying on set_threads.  The children start at the same time, to keep the whole test near 30 s.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 1.3
CPU_SECONDS, WALL_LIMIT = 0.5, 30.0

CHILD = r'''
import json, os, sys, time
sys.path.insert(0, sys.argv[3])
case, pin = sys.argv[1], sys.argv[2] == "1"
import helpers
if pin:
    helpers.set_threads(1)

def thread_ticks():
    """CPU ticks (user + system) of each thread of this process, or None off Linux."""
    if not os.path.isdir("/proc/self/task"):
        return None
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[tid] = int(fields[11]) + int(fields[12])
    return out

def probe(fn):
    for _ in range(3):
        fn()
    before, c0, w0 = thread_ticks(), time.process_time(), time.perf_counter()
    calls = 0
    while time.process_time() - c0 < CPU_SECONDS and time.perf_counter() - w0 < WALL_LIMIT:
        fn()
        calls += 1
    wall, cpu, after = time.perf_counter() - w0, time.process_time() - c0, thread_ticks()
    result = {"cpu_wall": cpu / wall, "calls": calls, "parallelism": None, "ticks": None}
    if before is not None:
        spent = sorted((after[t] - before.get(t, 0) for t in after), reverse=True)
        result["ticks"] = spent[:4]
        result["parallelism"] = sum(spent) / max(spent[0], 1)
    return result

N = 1024
import numpy as np
a = np.random.default_rng(0).standard_normal((N, N), dtype=np.float32)
results = {}
if case == "numpy":
    results["numpy"] = probe(lambda: a @ a)
elif case == "torch":
    import torch
    if pin:
        helpers.set_threads(1)       # PyTorch's own setter, now that it is imported
    t = torch.from_numpy(a)
    results["torch"] = probe(lambda: t @ t)
elif case == "tensorflow":
    import tensorflow as tf
    t = tf.constant(a)
    eager = tf.function(lambda x: x @ x)
    xla = tf.function(lambda x: x @ x, jit_compile=True)
    results["tensorflow"] = probe(lambda: eager(t).numpy())
    results["tensorflow XLA"] = probe(lambda: xla(t).numpy())
elif case == "jax":
    import jax
    t = jax.numpy.asarray(a)
    f = jax.jit(lambda x: x @ x)
    results["jax"] = probe(lambda: f(t).block_until_ready())
elif case == "mxnet":
    mx = helpers.import_mxnet()
    t = mx.nd.array(a)
    results["mxnet"] = probe(lambda: mx.nd.dot(t, t).wait_to_read())
elif case == "onnxruntime":
    import onnxruntime as ort
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [N, N])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [N, N])
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "x"], ["y"])], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    if pin:   # what helpers.modes does for its ONNX Runtime mode
        options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    results["onnxruntime"] = probe(lambda: session.run(None, {"x": a}))
print("RESULT " + json.dumps(results))
'''.replace("CPU_SECONDS", repr(CPU_SECONDS)).replace("WALL_LIMIT", repr(WALL_LIMIT))

# The variables that pin threads: removed from the child's environment, so that only
# set_threads (or nothing, for the unpinned run) decides.
PIN_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TF_NUM_INTRAOP_THREADS",
                 "TF_NUM_INTEROP_THREADS", "PJRT_NPROC", "NPROC", "MXNET_CPU_WORKER_NTHREADS")


def _installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _cases() -> list[tuple[str, bool]]:
    cases = [("numpy", True)]
    for name in ("torch", "tensorflow", "jax", "mxnet", "onnxruntime"):
        if _installed(name) and (name != "onnxruntime" or _installed("onnx")):
            cases.append((name, True))
    if _installed("jax"):
        cases.append(("jax", False))
    return cases


@pytest.fixture(scope="module")
def runs() -> dict[tuple[str, bool], dict]:
    """Start every child at once, wait for all; {(case, pinned): {label: figures} or error text}."""
    env = {k: v for k, v in os.environ.items() if k not in PIN_VARIABLES}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    procs = {case: subprocess.Popen([sys.executable, "-c", CHILD, case[0], "1" if case[1] else "0", str(ROOT)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for case in _cases()}
    out = {}
    for case, proc in procs.items():
        try:
            stdout, stderr = proc.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
        lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
        out[case] = json.loads(lines[-1][7:]) if lines else (stderr or stdout)[-3000:]
    return out


def one_thread(figures: dict) -> bool:
    """The check: CPU time against wall time, and against the busiest thread's CPU time."""
    return figures["cpu_wall"] <= LIMIT and (figures["parallelism"] is None or figures["parallelism"] <= LIMIT)


@pytest.mark.parametrize("case", [c for c, pinned in _cases() if pinned])
def test_one_thread_after_set_threads(runs, case):
    result = runs[case, True]
    assert isinstance(result, dict), f"{case} failed in its subprocess:\n{result}"
    for label, figures in result.items():
        print(label, figures)
        assert figures["calls"] >= 1
        assert one_thread(figures), (
            f"{label} uses more than one thread after set_threads(1): CPU/wall {figures['cpu_wall']:.2f}, "
            f"CPU/busiest thread {figures['parallelism']} (limit {LIMIT}), ticks per thread {figures['ticks']}")


@pytest.mark.skipif(not _installed("jax"), reason="jax is not installed")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: XLA starts one thread anyway")
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="per-thread CPU time is read from /proc")
def test_the_check_fails_without_the_pin(runs):
    result = runs["jax", False]
    assert isinstance(result, dict), f"jax failed in its subprocess:\n{result}"
    print("jax without set_threads", result["jax"])
    assert not one_thread(result["jax"]), "without set_threads, jax.jit should use every core"


def test_set_threads_sizes_xla_cpu_pool_and_says_when_jax_started_first(monkeypatch):
    import types

    from helpers import set_threads
    for name in PIN_VARIABLES + ("XLA_FLAGS",):
        monkeypatch.delenv(name, raising=False)
    for name in ("torch", "tensorflow", "mxnet"):   # leave this process's frameworks alone
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "jax._src.xla_bridge", types.SimpleNamespace(_backends={}))
    assert set_threads(2) == "Threads: 2 per framework"
    assert os.environ["PJRT_NPROC"] == "2" and "XLA_FLAGS" not in os.environ
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=2")
    set_threads(1)
    assert os.environ["PJRT_NPROC"] == "1"
    assert os.environ["XLA_FLAGS"] == "--xla_force_host_platform_device_count=2"   # left as it was
    # JAX's CPU client already started: its pool is fixed, and the line says so.
    monkeypatch.setitem(sys.modules, "jax._src.xla_bridge", types.SimpleNamespace(_backends={"cpu": object()}))
    assert "too late for jax" in set_threads(1)
