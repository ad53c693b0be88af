"""Hardware: the CPU's caches and SIMD instruction sets, as the operating system reports them.

Linux exposes the caches under /sys/devices/system/cpu/cpu0/cache/index*/ and the
instruction-set flags in /proc/cpuinfo; macOS answers `sysctl` (hw.l1dcachesize,
hw.cachelinesize, machdep.cpu.features, hw.optional.*).  Elsewhere (Windows) the
functions return nothing and the caller says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

LINUX_CACHE_DIR = "/sys/devices/system/cpu/cpu0/cache"
LINUX_CPUINFO = "/proc/cpuinfo"

# The SIMD flags worth knowing for float32 arithmetic, widest last, with what they give.
SIMD_FLAGS = {
    "sse2": "128-bit registers: 4 float32 per instruction",
    "avx": "256-bit registers: 8 float32 per instruction",
    "avx2": "256-bit integer instructions as well",
    "fma": "fused multiply-add: a*b + c in one instruction",
    "avx512f": "512-bit registers: 16 float32 per instruction",
    "avx512_bf16": "bfloat16 dot products in 512-bit registers",
    "amx_tile": "matrix tiles (Intel AMX)",
    "neon": "128-bit registers (Arm, macOS name): 4 float32 per instruction",
    "asimd": "128-bit registers (Arm, Linux name): 4 float32 per instruction",
}

_SUFFIXES = {"K": 1024, "M": 1024**2, "G": 1024**3}


@dataclass(frozen=True)
class Cache:
    """One CPU cache: level, kind (Data, Instruction, Unified), size and line in bytes."""

    level: int
    kind: str
    size: int
    line: int
    ways: Optional[int] = None

    @property
    def way_size(self) -> Optional[int]:
        """Bytes per way (size / associativity): addresses this far apart share a set.

        In an L1 whose set index lies within the page offset (virtually indexed), that holds for
        the program's virtual addresses; the L2 and L3 are indexed by physical address, so there
        it holds for physical addresses, which depend on the pages the operating system gives.
        """
        return self.size // self.ways if self.ways else None


def parse_size(text: str) -> int:
    """Turn a size as the OS writes it ('32K', '1024K', '8M', '512') into bytes."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    value = text.strip().upper().removesuffix("B")
    factor = _SUFFIXES.get(value[-1:], 1)
    digits = value[:-1] if value[-1:] in _SUFFIXES else value
    if not digits.isdigit():
        raise ValueError(f"text must be a size such as '32K' or '512', got {text!r}")
    return int(digits) * factor


def _read(path: Path) -> Optional[str]:
    """Return the stripped text of a file, or None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def _linux_caches(root: Path) -> list[Cache]:
    """Read the caches from a sysfs folder of index* subfolders."""
    caches = []
    for folder in sorted(root.glob("index*")):
        level, kind, size = (_read(folder / name) for name in ("level", "type", "size"))
        if not (level and kind and size) or not level.isdigit():
            continue
        line = _read(folder / "coherency_line_size") or "0"
        ways = _read(folder / "ways_of_associativity") or ""
        caches.append(Cache(int(level), kind, parse_size(size),
                            int(line) if line.isdigit() else 0,
                            int(ways) if ways.isdigit() and int(ways) > 0 else None))
    return caches


def _sysctl(name: str) -> Optional[str]:
    """Return `sysctl -n name` on macOS, or None."""
    try:
        out = subprocess.run(["sysctl", "-n", name], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _darwin_caches() -> list[Cache]:
    """Read the caches from sysctl (macOS)."""
    line = int(_sysctl("hw.cachelinesize") or 0)
    caches = []
    for level, kind, key in ((1, "Data", "hw.l1dcachesize"), (1, "Instruction", "hw.l1icachesize"),
                             (2, "Unified", "hw.l2cachesize"), (3, "Unified", "hw.l3cachesize")):
        value = _sysctl(key)
        if value and value.isdigit() and int(value) > 0:
            caches.append(Cache(level, kind, int(value), line))
    return caches


def cpu_caches(root: str | os.PathLike = LINUX_CACHE_DIR) -> list[Cache]:
    """Return the caches of the first CPU core; empty when the OS does not say (Windows)."""
    if not isinstance(root, (str, os.PathLike)):
        raise TypeError(f"root must be a path, got {type(root).__name__}")
    folder = Path(root)
    if folder.is_dir():
        return _linux_caches(folder)
    if sys.platform == "darwin":
        return _darwin_caches()
    return []


def cpu_flags(cpuinfo: str | os.PathLike = LINUX_CPUINFO) -> set[str]:
    """Return the CPU's instruction-set flags in lower case (empty when the OS does not say)."""
    if not isinstance(cpuinfo, (str, os.PathLike)):
        raise TypeError(f"cpuinfo must be a path, got {type(cpuinfo).__name__}")
    text = _read(Path(cpuinfo))
    if text is not None:
        for line in text.splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("flags", "Features"):  # x86 and Arm Linux
                return set(value.lower().split())
        return set()
    if sys.platform == "darwin":
        words = " ".join(filter(None, (_sysctl("machdep.cpu.features"),
                                       _sysctl("machdep.cpu.leaf7_features"))))
        flags = {w.lower().replace(".", "_") for w in words.split()}
        if "avx1_0" in flags:  # macOS spells AVX as AVX1.0
            flags.add("avx")
        if _sysctl("hw.optional.neon") == "1":
            flags.add("neon")
        return flags
    return set()


def simd_floats(flags: Iterable[str]) -> int:
    """Return how many float32 values the widest SIMD register among `flags` holds."""
    if isinstance(flags, str):
        raise TypeError("flags must be a collection of flag names, not one str")
    found = {str(f).lower() for f in flags}
    if "avx512f" in found:
        return 16
    if found & {"avx", "avx2"}:
        return 8
    if found & {"sse", "sse2", "neon", "asimd"}:
        return 4
    return 1
