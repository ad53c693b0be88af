"""Frameworks: which are installed, devices, seeds and the hardware line.

Nothing here imports a framework at module import time; each function imports
the one it needs, so ``import helpers`` stays fast.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import logging
import os
import platform
import random
import shutil
import subprocess
import sys
import warnings
from typing import Any, Callable, Iterable, Optional

from .mxnet_compat import import_mxnet

# PyPI's PyTorch for Linux with Python 3.12 and 3.13 is the CUDA build. On a machine with a CUDA
# toolkit but no GPU it logs "No CUDA runtime is found" when torch.compile loads its C++ tools;
# everything runs on the CPU then, as intended, so that line is noise for a student. (No import.)
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)
# On CPython 3.13.0 (not 3.13.1+), PyTorch 2.13 warns at every compile that its guards run slower
# (torch/_dynamo/guards.py; python/cpython#125608). It changes no result; `make lab` says it once.
warnings.filterwarnings("ignore", message="Guards may run slower on Python 3.13.0", category=RuntimeWarning)

# framework name -> (module to import, distribution name for its version)
FRAMEWORKS = {
    "torch": ("torch", "torch"),
    "tensorflow": ("tensorflow", "tensorflow"),
    "mxnet": ("mxnet", "mxnet"),
    "jax": ("jax", "jax"),
    "onnxruntime": ("onnxruntime", "onnxruntime"),
}

MISSING_HINTS = {
    "mxnet": "MXNet 1.9.1 has wheels for Linux and Intel macOS only "
             "(none for Apple silicon or Windows).",
}


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """Return `value` if it is one of `choices`, else raise an error naming `name`."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def _check_name(framework: Any) -> str:
    """Return `framework` if it is a known name, else raise a clear error."""
    return check_choice("framework", framework, FRAMEWORKS)


def is_installed(framework: str) -> bool:
    """Return True when the framework's module can be found (without importing it)."""
    module = FRAMEWORKS[_check_name(framework)][0]
    return importlib.util.find_spec(module) is not None


def installed() -> list[str]:
    """Return the names of the installed frameworks."""
    return [name for name in FRAMEWORKS if is_installed(name)]


def version(framework: str) -> Optional[str]:
    """Return the installed version of the framework, or None when it is missing."""
    dist = FRAMEWORKS[_check_name(framework)][1]
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def versions() -> dict[str, Optional[str]]:
    """Return {framework: version or None} for every known framework."""
    return {name: version(name) for name in FRAMEWORKS}


def import_tensorflow() -> Any:
    """Import and return TensorFlow, after loading Triton where it is installed (see below)."""
    if "tensorflow" not in sys.modules and importlib.util.find_spec("triton") is not None:
        # TensorFlow 2.20 and later load their library with RTLD_GLOBAL, so a Triton loaded after
        # them (torch.compile loads it with PyPI's CUDA build of PyTorch) binds to TensorFlow's
        # LLVM and crashes the process (tensorflow/tensorflow#124205). Loaded first, it does not.
        importlib.import_module("triton")
    return importlib.import_module("tensorflow")


def require(*frameworks: str) -> None:
    """Say which versions a notebook uses, or raise a clear error if one is missing.

    The test suite reads the names passed here in a notebook's first code cell
    and skips the notebook, with the same reason, when one is missing.
    """
    if not frameworks:
        raise ValueError("frameworks must name at least one framework")
    missing = [name for name in frameworks if not is_installed(name)]
    if missing:
        raise ModuleNotFoundError(missing_reason(missing))
    print("Using " + ", ".join(f"{name} {version(name)}" for name in frameworks)
          + f" on Python {platform.python_version()}")


def missing_reason(missing: Iterable[str]) -> str:
    """Explain, in one line, that these frameworks are not installed and why."""
    names = [_check_name(name) for name in missing]
    hints = " ".join(MISSING_HINTS[n] for n in names if n in MISSING_HINTS)
    return (f"{', '.join(names)} not installed in this environment; this notebook needs it. "
            f"Run `make lab` to use the project's environment. {hints}").strip()


def seed_everything(seed: int = 0, frameworks: Optional[Iterable[str]] = None) -> list[str]:
    """Seed Python, NumPy and the frameworks; return the names seeded.

    By default every installed framework that is already imported is seeded,
    so a PyTorch notebook does not pay for importing TensorFlow.  Pass
    `frameworks` to import and seed those explicitly.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2**32:
        raise ValueError(f"seed must be between 0 and 2**32 - 1, got {seed}")
    if frameworks is None:
        names = [n for n in FRAMEWORKS if sys.modules.get(FRAMEWORKS[n][0]) is not None]
    else:
        names = [_check_name(n) for n in frameworks]
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)
    import numpy as np
    np.random.seed(seed)
    seeded = ["python", "numpy"]
    for name in names:
        if _SEEDERS[name](seed):
            seeded.append(name)
    return seeded


def _seed_torch(seed: int) -> bool:
    import torch
    torch.manual_seed(seed)  # seeds every CUDA device as well
    return True


def _seed_tensorflow(seed: int) -> bool:
    tf = import_tensorflow()
    tf.random.set_seed(seed)
    return True


def _seed_mxnet(seed: int) -> bool:
    mx = import_mxnet()
    mx.random.seed(seed)
    return True


def _no_global_seed(seed: int) -> bool:
    return False  # JAX and ONNX Runtime have no global random state


_SEEDERS: dict[str, Callable[[int], bool]] = {
    "torch": _seed_torch, "tensorflow": _seed_tensorflow, "mxnet": _seed_mxnet,
    "jax": _no_global_seed, "onnxruntime": _no_global_seed,
}


def device(framework: str) -> Any:
    """Return the framework's first GPU when one is present, else its CPU device."""
    name = _check_name(framework)
    if name == "torch":
        import torch
        return torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    if name == "tensorflow":
        tf = import_tensorflow()
        return "/GPU:0" if tf.config.list_physical_devices("GPU") else "/CPU:0"
    if name == "mxnet":
        mx = import_mxnet()
        return mx.gpu(0) if mx.context.num_gpus() > 0 else mx.cpu()
    if name == "jax":
        import jax
        return jax.devices()[0]
    import onnxruntime as ort
    return "CUDAExecutionProvider" if "CUDAExecutionProvider" in ort.get_available_providers() \
        else "CPUExecutionProvider"


def synchronizer(framework: str) -> Callable[[], None]:
    """Return a callable that waits until the framework's queued work is done.

    For JAX there is no global wait: time ``lambda: f(x).block_until_ready()``.
    """
    name = _check_name(framework)
    if name == "torch":
        import torch
        if torch.cuda.is_available():
            return torch.cuda.synchronize
    elif name == "tensorflow":
        tf = import_tensorflow()
        if tf.config.list_physical_devices("GPU"):
            return tf.test.experimental.sync_devices
    elif name == "mxnet":
        mx = import_mxnet()
        return mx.nd.waitall  # MXNet is asynchronous on the CPU too
    return _no_wait


def _no_wait() -> None:
    """Do nothing: the framework's calls return when their work is done."""


def cpu_model() -> str:
    """Return the CPU's model name from the operating system, with its family and model on Linux.

    Cloud machines often report a bare "AMD EPYC": the family and model numbers tell a Zen 3
    (family 25, model 1) from a Zen 4 (family 25, model 17) or a Zen 5 (family 26).
    """
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            fields: dict[str, str] = {}
            for line in f:
                if not line.strip():
                    break  # the first processor is enough
                key, _, value = line.partition(":")
                fields[key.strip().lower()] = " ".join(value.split())
        if "model name" in fields:
            name = fields["model name"]
            if fields.get("cpu family") and fields.get("model"):
                name += f" (family {fields['cpu family']}, model {fields['model']})"
            return name
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"],
                                 capture_output=True, text=True, timeout=5)
            if out.stdout.strip():
                return out.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "unknown CPU"


def gpu_names() -> list[str]:
    """Return the names of the NVIDIA GPUs that nvidia-smi reports (none without it)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        out = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def usable_cpus() -> list[int]:
    """Return the numbers of the CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def usable_cores() -> int:
    """Return the number of CPU cores this process may run on."""
    return len(usable_cpus())


def hardware_summary() -> str:
    """Return one line naming the CPU, its core count and the GPUs."""
    cores = usable_cores()
    gpus = gpu_names()
    gpu = ", ".join(gpus) if gpus else "no GPU"
    return f"Hardware: {cpu_model()}, {cores} cores, {gpu}"
