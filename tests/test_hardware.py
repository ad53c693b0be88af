"""Unit tests of helpers.hardware on fake sysfs and cpuinfo files."""

import sys

import pytest

import helpers
from helpers import hardware


def _write_cache(root, index, level, kind, size, line="64", ways="8"):
    folder = root / f"index{index}"
    folder.mkdir(parents=True)
    for name, value in (("level", level), ("type", kind), ("size", size),
                        ("coherency_line_size", line), ("ways_of_associativity", ways)):
        if value is not None:
            (folder / name).write_text(value + "\n")


def test_parse_size_reads_the_kernel_units():
    assert hardware.parse_size("32K") == 32 * 1024
    assert hardware.parse_size(" 1024K\n") == 1024**2
    assert hardware.parse_size("8M") == 8 * 1024**2
    assert hardware.parse_size("512") == 512
    assert hardware.parse_size("64KB") == 64 * 1024


def test_parse_size_rejects_what_is_not_a_size():
    with pytest.raises(ValueError, match="text must be a size"):
        hardware.parse_size("big")
    with pytest.raises(ValueError, match="text"):
        hardware.parse_size("")
    with pytest.raises(TypeError, match="text must be a str"):
        hardware.parse_size(32)


def test_cpu_caches_reads_a_sysfs_tree(tmp_path):
    _write_cache(tmp_path, 0, "1", "Data", "32K")
    _write_cache(tmp_path, 1, "1", "Instruction", "32K")
    _write_cache(tmp_path, 2, "2", "Unified", "1024K")
    _write_cache(tmp_path, 3, "3", "Unified", "32768K", ways="16")
    caches = helpers.cpu_caches(tmp_path)
    assert [(c.level, c.kind) for c in caches] == [(1, "Data"), (1, "Instruction"),
                                                  (2, "Unified"), (3, "Unified")]
    assert caches[0] == hardware.Cache(1, "Data", 32768, 64, 8)
    assert caches[0].way_size == 4096  # 32 KiB / 8 ways: rows 4096 bytes apart share a set
    assert caches[3].size == 32 * 1024**2 and caches[3].way_size == 2 * 1024**2


def test_cpu_caches_skips_incomplete_entries_and_unknown_ways(tmp_path):
    _write_cache(tmp_path, 0, "1", "Data", "48K", ways="0")
    _write_cache(tmp_path, 1, None, "Unified", "1M")
    caches = helpers.cpu_caches(tmp_path)
    assert caches == [hardware.Cache(1, "Data", 48 * 1024, 64, None)]
    assert caches[0].way_size is None


def test_cpu_caches_is_empty_where_the_os_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    assert helpers.cpu_caches(tmp_path / "missing") == []
    with pytest.raises(TypeError, match="root must be a path"):
        helpers.cpu_caches(3)


def test_cpu_flags_reads_x86_and_arm_cpuinfo(tmp_path):
    x86 = tmp_path / "x86"
    x86.write_text("processor\t: 0\nmodel name\t: Some CPU\nflags\t\t: fpu SSE2 avx avx2 fma\n")
    assert helpers.cpu_flags(x86) == {"fpu", "sse2", "avx", "avx2", "fma"}
    arm = tmp_path / "arm"
    arm.write_text("processor\t: 0\nFeatures\t: fp asimd evtstrm\n")
    assert "asimd" in helpers.cpu_flags(arm)
    empty = tmp_path / "empty"
    empty.write_text("processor\t: 0\n")
    assert helpers.cpu_flags(empty) == set()
    with pytest.raises(TypeError, match="cpuinfo must be a path"):
        helpers.cpu_flags(None)


def test_simd_floats_picks_the_widest_register():
    assert helpers.simd_floats({"sse2", "avx", "avx2", "fma", "avx512f"}) == 16
    assert helpers.simd_floats(["sse2", "avx2"]) == 8
    assert helpers.simd_floats({"asimd"}) == 4
    assert helpers.simd_floats(set()) == 1
    with pytest.raises(TypeError, match="flags"):
        helpers.simd_floats("avx2")
    assert set(helpers.SIMD_FLAGS) >= {"avx2", "avx512f", "fma"}


def test_macos_answers_come_from_sysctl(tmp_path, monkeypatch):
    answers = {"hw.cachelinesize": "128", "hw.l1dcachesize": "65536", "hw.l1icachesize": "131072",
               "hw.l2cachesize": "4194304", "hw.l3cachesize": "0",
               "machdep.cpu.features": "FPU SSE2 AVX1.0 FMA", "hw.optional.neon": None}
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(hardware, "_sysctl", answers.get)
    caches = helpers.cpu_caches(tmp_path / "missing")
    assert [(c.level, c.kind, c.size, c.line) for c in caches] == [
        (1, "Data", 65536, 128), (1, "Instruction", 131072, 128), (2, "Unified", 4194304, 128)]
    flags = helpers.cpu_flags(tmp_path / "missing")
    assert {"sse2", "avx", "fma"} <= flags and helpers.simd_floats(flags) == 8
