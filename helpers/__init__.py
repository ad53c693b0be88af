"""Small helpers shared by the notebooks: timing, plotting and frameworks.

No deep-learning framework is imported here; each function imports what it
needs, so ``import helpers`` stays fast.
"""

from .frameworks import (FRAMEWORKS, cpu_model, device, gpu_names, hardware_summary,
                         installed, is_installed, missing_reason, require, seed_everything,
                         synchronizer, usable_cores, version, versions)
from .comparison import (Comparison, Ratio, compare, first_call, machine_load, median_interval,
                         set_threads)
from .data import Split, batches, load_digits, load_fashion_mnist, read_idx, to_tensors
from .files import format_size, list_files, run_python, scratch_dir
from .graphs import draw_dataflow, layered_layout
from .hardware import SIMD_FLAGS, Cache, cpu_caches, cpu_flags, simd_floats
from .native import Captured, capture_fd
from .setup_check import check_setup, compile_path_note
from .plotting import bar_modes, describe_figure, new_figure, plot, set_alt_text
from .timing import (Benchmark, Measurement, Timer, format_time, measure, print_table,
                     quick_mode, scale)

__all__ = [
    "FRAMEWORKS", "Benchmark", "Measurement", "Timer", "bar_modes", "cpu_model", "describe_figure", "device",
    "format_size", "format_time", "gpu_names", "hardware_summary", "installed", "is_installed", "list_files", "measure",
    "missing_reason", "new_figure", "plot", "print_table", "quick_mode", "require", "run_python", "scale",
    "set_alt_text",
    "scratch_dir", "seed_everything", "synchronizer", "usable_cores", "version", "versions",
    "Split", "batches", "load_digits", "load_fashion_mnist", "read_idx", "to_tensors",
    "draw_dataflow", "layered_layout",
    "SIMD_FLAGS", "Cache", "cpu_caches", "cpu_flags", "simd_floats",
    "Captured", "capture_fd",
    "Comparison", "Ratio", "compare", "first_call", "machine_load", "median_interval", "set_threads",
    "check_setup", "compile_path_note",
]
